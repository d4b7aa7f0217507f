// HpamTopology: an HPAM machine as a VcTopology, so that the shared VcRouter,
// VcNic and VcNetwork build it. Every level is a mesh of VcRouters; a
// bottom-row router of level l-1 has f_l extra ports down to level l, a
// top-row router of level l one extra port up (eq. 1, hpam_geometry.hpp).
//
// Ports of a router: 0 local (the NIC), 1 east (column + 1), 2 west, 3 south
// (row + 1), 4 north; then, if it is a top-row router below level 1, 5 up;
// then its f down ports, branch b leading to column col * f + b below.
// Route computation is the extended X-Y decision of HpamGeometry::route.
//
// With the replication hardware (network.replication=true) a bottom-row
// router with links down also has a `replicate` port, whose link leads into
// its InterLevelReplicator, and a top-row router below level 1 a
// `from_replicator` input port fed by the replicator above. Both are wired by
// the HPAM network, not by VcNetwork (neighbor() says nullopt). A packet whose
// destination carries kReplicateBit is routed as to the destination without
// the bit, except that at the router where it would go down it takes the
// `replicate` port instead: the replicator sends one copy down every branch.
// The combining variant (gather): a bottom-row router also has a `combine`
// port into its InterLevelCombiner, whose combined messages enter on the
// input side of the `replicate` port. A packet whose destination carries
// kCombineBit goes north up its own column and up to the router above, which
// routes it into `combine`.
#pragma once

#include <optional>
#include <string>

#include "routers/hpam/hpam_geometry.hpp"
#include "routers/vc/vc_link_address.hpp"
#include "routers/vc/vc_topology.hpp"

namespace icn::hpam {

class HpamTopology : public vc::VcTopology {
 public:
  enum MeshPort : unsigned { kLocal = 0, kEast = 1, kWest = 2, kSouth = 3, kNorth = 4, kFirstLevelPort = 5 };

  static constexpr NodeId kReplicateBit = NodeId{1} << 30;
  // A message for the combining router (gather): it goes straight up its
  // column to the router above, which hands it to its InterLevelCombiner.
  static constexpr NodeId kCombineBit = NodeId{1} << 29;
  static constexpr NodeId kGroupBits = kReplicateBit | kCombineBit;

  HpamTopology(const HpamGeometry& geometry, unsigned vcs, bool replication = false);

  const HpamGeometry& geometry() const { return geo_; }

  unsigned routers() const override { return geo_.nodes(); }
  unsigned nodes() const override { return geo_.nodes(); }
  unsigned ports(unsigned router) const override;
  unsigned vcs() const override { return vcs_; }
  vc::PortRef node_port(NodeId n) const override { return {n, kLocal}; }
  std::optional<vc::PortRef> neighbor(unsigned r, unsigned p) const override;
  std::string router_name(unsigned r) const override { return name_of(geo_.position(r)); }
  // l<L>_r<row>_<col>, L from 1: the name router_name() gives the router at p.
  static std::string name_of(const Position& p);
  std::string port_name(unsigned r, unsigned p) const override;
  std::string describe() const override;
  vc::RouteChoice route(unsigned at, unsigned in_port, NodeId src, NodeId dst, Rng& rng) const override;

  // The port of router r that goes up (nullopt if none) / down on branch b.
  std::optional<unsigned> up_port(unsigned r) const;
  unsigned down_port(unsigned r, unsigned branch) const;
  // Number of down ports of router r (0 if not a bottom-row router above another level).
  unsigned down_ports(unsigned r) const;
  // The replication ports (nullopt without the hardware or where there is none).
  std::optional<unsigned> replicate_port(unsigned r) const;
  std::optional<unsigned> from_replicator_port(unsigned r) const;
  // Output into the InterLevelCombiner (its combined messages come back on
  // the replicate port's input side).
  std::optional<unsigned> combine_port(unsigned r) const;
  bool replication() const { return replication_; }

  // Fault injection (network.failed_links): a link named as the shared VC
  // parser names it (routers/vc/vc_link_address.hpp), parsed once:
  //   nic<k>.up                       processor k's injection link (k: NodeId,
  //                                   level 1 first, row by row)
  //   l<L>_r<row>_<col>.<port>        the output link of that router's port:
  //                                   local (the ejection link), east, west,
  //                                   south, north (mesh links of level L),
  //                                   up, down<b> (inter-level links)
  // The replication hardware's ports (replicate, combine, from_replicator)
  // are not links of the mesh and are refused, as is a mesh edge.
  std::optional<vc::VcLinkAddress> parse_link(std::string_view text) const;

 private:
  const HpamGeometry& geo_;
  unsigned vcs_;
  bool replication_;
  std::uint64_t all_vcs_;
};

}  // namespace icn::hpam
