// Geometry of a binary fat tree (Leiserson 1985; Dimakopoulos & Dimopoulos;
// Ishii 1985): n = 2^h processing nodes at the leaves (level 0), routing nodes at
// levels 1..h, and a branch of capacity c_l (physical links) between levels
// l-1 and l, non-decreasing toward the root.
//
// Leaves are numbered 0..n-1 from left to right; the router at level l with
// index j roots the subtree of leaves j*2^l .. (j+1)*2^l - 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn {

class FatTreeShape {
 public:
  // capacities[l-1] = c_l for l = 1..h.
  FatTreeShape(unsigned height, std::vector<unsigned> capacities);

  unsigned height() const { return height_; }
  NodeId leaves() const { return NodeId{1} << height_; }
  unsigned routers_at(unsigned level) const { return 1u << (height_ - level); }
  // Capacity of the branch between levels l-1 and l (1 <= l <= h).
  unsigned capacity(unsigned level) const { return capacities_[level - 1]; }
  const std::vector<unsigned>& capacities() const { return capacities_; }

  // Level of the lowest common routing node of two leaves (0 if equal).
  static unsigned lca_level(NodeId a, NodeId b) {
    unsigned level = 0;
    for (NodeId x = a ^ b; x != 0; x >>= 1) ++level;
    return level;
  }
  // Links on the unique path between two leaves (the processor-switch hops count).
  static unsigned hops(NodeId a, NodeId b) { return 2 * lca_level(a, b); }

  // A locality key (Clocked::set_locality) for node `index` of `level` (0: a
  // leaf's NIC): worker threads (run.threads) take runs of blocks in this
  // order, so a subtree's blocks are neighbours. Key: the subtree's first
  // leaf, then the level.
  static std::uint64_t subtree_order(unsigned level, std::uint64_t index) {
    return ((index << level) << 6) | level;
  }

 private:
  unsigned height_;
  std::vector<unsigned> capacities_;
};

// Capacity presets: "cbft" (c_l = 1), "ebft" (c_l = 2^(l-1)).
std::vector<unsigned> capacity_preset(const std::string& preset, unsigned height);

// Why a capacity list is not valid for a tree of this height, or "" if it is.
std::string capacity_list_problem(const std::vector<std::int64_t>& caps, unsigned height);

}  // namespace icn
