// The interlaced bypass torus iBT(k^n; b) as a network of the VC family
// (network.type=vc, network.topology=ibt): unicast packets on the links of
// Zhang & Deng's iBT, with the VC router, NIC and links of the mesh and torus.
//
// The links are IbtTopology's (routers/ibt/ibt_topology.hpp, the construction
// of shared/papers/READING-NOTES.md), not re-derived here: IbtTopology(side k,
// dimensions n, bypass b). Router r = node r, coordinates as the torus's.
// Ports: 0 is the node; 1 + 2d toward +d, 2 + 2d toward -d (as
// MeshTorusTopology), then 1 + 2n the bypass + and 2 + 2n the bypass -
// (IbtTopology's port p is port p + 1 here; a link leaving on p arrives on
// p's partner, as there).
//
// Routing (Zhang & Deng give none for unicast; this is the torus's, with the
// bypass taken when it helps): dimension order, lowest dimension first; in a
// dimension the packet goes the shorter way round (ties +), always the same
// way, and takes its router's bypass link in that direction when the router's
// bypass runs along this dimension and its length b does not overshoot the
// distance left, else a ring hop. With datelines the VCs split into two
// classes as on the torus: the lower half until the packet's path in this
// dimension has wrapped past coordinate 0 (a ring wrap link, or a bypass link
// that jumps over 0), the upper half from that hop on. docs/vc_router.md
// proves it deadlock free.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "routers/ibt/ibt_topology.hpp"
#include "routers/vc/vc_topology.hpp"

namespace icn::vc {

class IbtVcTopology : public VcTopology {
 public:
  // Throws std::invalid_argument if IbtTopology::check refuses (k, n, bypass),
  // or if datelines are asked for with fewer than 2 VCs.
  IbtVcTopology(unsigned k, unsigned n, std::vector<unsigned> bypass, unsigned vcs, bool dateline);

  unsigned routers() const override { return ibt_.nodes(); }
  unsigned nodes() const override { return ibt_.nodes(); }
  unsigned ports(unsigned) const override { return ibt_.ports() + 1; }
  unsigned vcs() const override { return vcs_; }
  PortRef node_port(NodeId n) const override { return PortRef{static_cast<unsigned>(n), 0}; }
  std::optional<PortRef> neighbor(unsigned router, unsigned port) const override;
  std::string router_name(unsigned router) const override;
  std::string port_name(unsigned, unsigned port) const override;
  std::string describe() const override;
  RouteChoice route(unsigned at, unsigned in_port, NodeId src, NodeId dst, Rng& rng) const override;

  // The routing without a router's context (it uses neither).
  RouteChoice route(unsigned at, NodeId src, NodeId dst) const;
  const IbtTopology& ibt() const { return ibt_; }
  bool dateline() const { return dateline_; }
  unsigned bypass_plus_port() const { return ibt_.bypass_port() + 1; }

 private:
  IbtTopology ibt_;
  unsigned vcs_;
  bool dateline_;
};

}  // namespace icn::vc
