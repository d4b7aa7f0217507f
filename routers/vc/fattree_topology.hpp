// The binary fat tree (Dimakopoulos & Dimopoulos; Leiserson) as a shape for
// the virtual-channel router: the same VcRouter, VcNic and VcNetwork as the
// mesh, so the fat tree runs the same synthetic traffic.
//
// n = 2^h leaves (one node each), routers r<l>_<j> at levels 1..h, j < 2^(h-l),
// router (l, j) rooting the leaves j 2^l .. (j+1) 2^l - 1 (models/fat_tree.hpp).
// The branch between levels l-1 and l has capacity c_l, and capacities are
// physical links: router (l, j) has c_l ports down to each of its two
// children and c_{l+1} ports up to its parent (none at the root). Its ports:
//   0 .. c_l - 1             down to child 0 (leaf 2j at level 1)
//   c_l .. 2 c_l - 1         down to child 1
//   2 c_l .. 2 c_l + c_{l+1} - 1   up
// A leaf's NIC has one injection and one ejection port, so c_1 must be 1
// (CBFT and EBFT both have c_1 = 1).
//
// Routing: up*/down* through the nearest common ancestor. A head climbs while
// its destination lies outside the router's subtree, on one of the c_{l+1} up
// links chosen at random (the router's own generator), then descends toward
// the destination's leaf, again on a random one of the c_l parallel links to
// that child. Every VC is allowed everywhere: no channel dependency ever goes
// from a down link back to an up link, so the dependency graph is acyclic
// (docs/vc_router.md gives the argument).
#pragma once

#include <vector>

#include "routers/vc/vc_topology.hpp"

namespace icn::vc {

class FatTreeTopology : public VcTopology {
 public:
  // capacities[l-1] = c_l for l = 1..height; c_1 must be 1.
  FatTreeTopology(unsigned height, std::vector<unsigned> capacities, unsigned vcs);

  unsigned routers() const override { return routers_; }
  unsigned nodes() const override { return 1u << height_; }
  unsigned ports(unsigned router) const override;
  unsigned vcs() const override { return vcs_; }
  PortRef node_port(NodeId n) const override;
  std::optional<PortRef> neighbor(unsigned r, unsigned p) const override;
  std::string router_name(unsigned r) const override;
  std::string port_name(unsigned r, unsigned p) const override;
  std::string describe() const override;
  RouteChoice route(unsigned at, unsigned in_port, NodeId src, NodeId dst, Rng& rng) const override;

  unsigned height() const { return height_; }
  unsigned capacity(unsigned level) const { return capacities_[level - 1]; }
  unsigned level(unsigned r) const;
  unsigned index(unsigned r) const { return r - first_[level(r)]; }
  unsigned router_at(unsigned level, unsigned index) const { return first_[level] + index; }

 private:
  unsigned up_links(unsigned level) const { return level < height_ ? capacities_[level] : 0; }

  unsigned height_;
  std::vector<unsigned> capacities_;
  unsigned vcs_;
  unsigned routers_ = 0;
  std::vector<unsigned> first_;  // first_[l]: id of router (l, 0); first_[h + 1] = routers_
};

}  // namespace icn::vc
