// Load and load factor of a message set on a fat tree (Ishii 1985, section 4.2,
// definitions 7-9): load(c, M) is the number of messages of M whose paths pass
// through channel c, lambda(c, M) = load(c, M) / cap(c), and lambda(FT, M) is the
// largest lambda(c, M) over all channels - a lower bound on the delivery cycles
// any scheme needs.
//
// A channel here is one direction of a branch (up toward the root, or down),
// because the bit-serial fat tree has cap(c) paths in each direction: messages
// going up and coming down a branch never compete for the same path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/fat_tree.hpp"
#include "models/types.hpp"

namespace icn {

struct SourceDestination {
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
};

// Per-channel loads, updated message by message.
class ChannelLoads {
 public:
  explicit ChannelLoads(const FatTreeShape& shape);

  // Adds (or with -1 removes) a message's path.
  void add(NodeId src, NodeId dst, int sign = 1);
  // True if adding the message keeps every channel c on its path at load <= bound(c).
  template <class Bound>
  bool fits(NodeId src, NodeId dst, Bound&& bound) const {
    const unsigned top = FatTreeShape::lca_level(src, dst);
    for (unsigned l = 1; l <= top; ++l) {
      if (up_[l][src >> (l - 1)] + 1 > bound(l) || down_[l][dst >> (l - 1)] + 1 > bound(l)) return false;
    }
    return true;
  }

  // Load of the level-l branch above subtree k (the channel between level l-1 and l).
  std::uint64_t up(unsigned level, NodeId subtree) const { return up_[level][subtree]; }
  std::uint64_t down(unsigned level, NodeId subtree) const { return down_[level][subtree]; }

 private:
  const FatTreeShape& shape_;
  std::vector<std::vector<std::uint64_t>> up_, down_;  // [level][child subtree index]
};

struct LoadFactor {
  // lambda(FT, M) as the exact fraction load / capacity of a channel attaining it.
  std::uint64_t load = 0;
  unsigned capacity = 1;
  unsigned level = 0;       // branch level of that channel (0 if M is empty)
  bool up = true;           // direction
  NodeId subtree = 0;       // index of the level-(l-1) subtree below it
  double value() const { return static_cast<double>(load) / capacity; }
  // Per level l = 1..H: the largest load on any channel of that level (either direction).
  std::vector<std::uint64_t> max_load_per_level;
  std::string where() const;  // e.g. "up from subtree 3 of level 2 (cap 2)"
};

LoadFactor load_factor(const FatTreeShape& shape, const std::vector<SourceDestination>& messages);

// The largest lambda(FT, M) any message set (distinct ordered pairs) can have on
// this tree: every pair's message, max over channels of 2^(l-1)(n - 2^(l-1)) / c_l.
double max_load_factor(const FatTreeShape& shape);

}  // namespace icn
