// HpamGeometry: the addressing, inter-level links and extended X-Y routing of
// a Hierarchy of Processor-And-Memory machine (Ben Miled et al., section 2).
//
// Level l (0-based here; the paper counts from 1) is an r_l x c_l processor
// mesh; row 0 is the top row, column 0 the leftmost. Levels go down: the
// bottom row of level l-1 sits above the top row of level l. Eq. (1): router
// (0, a)_l is linked to (r_{l-1} - 1, floor(a / f_l))_{l-1}, f_l = c_l / c_{l-1},
// so a bottom-row router of level l-1 has f_l links down (branch a mod f_l)
// and a top-row router of level l one link up.
//
// Nodes are numbered level by level, row-major within a level.
//
// Routing (section 2.3), as a per-router decision:
// - same level: X (column) first, then Y (row);
// - downward: X to the column above the destination's, Y down to the bottom
//   row, across the link to the destination's column (or its ancestor's in an
//   intermediate level), and on; in the destination level only Y remains;
// - upward: X to chi, the column of eq. (2) nearest the current one among
//   those whose up-links lead to the destination's column, Y up to row 0,
//   across, and on; in the destination level only Y remains.
// Dimension order within each level and levels crossed in one direction only
// keep the channel dependency graph acyclic: deadlock free (the paper's [5]).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn::hpam {

struct LevelShape {
  unsigned rows = 1, cols = 1;
};

struct Position {
  unsigned level = 0, row = 0, col = 0;
  bool operator==(const Position& o) const { return level == o.level && row == o.row && col == o.col; }
};

// One routing decision: the direction of the next hop (kEject at the destination).
struct Step {
  enum Dir : std::uint8_t { kEject, kEast, kWest, kSouth, kNorth, kUp, kDown };
  Dir dir = kEject;
  unsigned branch = 0;  // kDown: which of the f_{l+1} links down
};

class HpamGeometry {
 public:
  // Limits that keep a machine buildable in memory.
  static constexpr unsigned kMaxSide = 4096;
  static constexpr std::uint64_t kMaxNodes = std::uint64_t{1} << 20;

  // "" if `levels` describes a valid machine, else why (one line, naming the rule).
  static std::string problem(const std::vector<LevelShape>& levels);
  // Throws std::invalid_argument with problem() if invalid.
  explicit HpamGeometry(std::vector<LevelShape> levels);

  unsigned levels() const { return static_cast<unsigned>(levels_.size()); }
  const LevelShape& level(unsigned l) const { return levels_[l]; }
  // f_l = c_l / c_{l-1}: links down from each bottom-row router of level l-1 (l >= 1).
  unsigned fanout(unsigned l) const { return levels_[l].cols / levels_[l - 1].cols; }
  NodeId nodes() const { return total_; }
  NodeId first_node(unsigned l) const { return first_[l]; }

  NodeId node(const Position& p) const { return first_[p.level] + p.row * levels_[p.level].cols + p.col; }
  Position position(NodeId n) const;

  // Eq. (1): the router of level l-1 that top-row router (0, a)_l links up to.
  Position above(const Position& p) const;
  // Eq. (1) the other way: bottom-row router (r_l - 1, b)_l's down link `branch`.
  Position below(const Position& p, unsigned branch) const;
  bool has_up(const Position& p) const { return p.level > 0 && p.row == 0; }
  bool has_down(const Position& p) const { return p.level + 1 < levels() && p.row + 1 == levels_[p.level].rows; }

  // The extended X-Y decision at `at` for a packet to `dst`.
  Step route(const Position& at, const Position& dst) const;
  // Where a hop in direction `s` from `at` leads (s must be a valid hop).
  Position next(const Position& at, const Step& s) const;
  // Links traversed from src to dst by the routes above.
  unsigned hops(NodeId src, NodeId dst) const;

  // "(row,col)_level" with the paper's 1-based level.
  static std::string name(const Position& p);

 private:
  std::vector<LevelShape> levels_;
  std::vector<NodeId> first_;
  NodeId total_ = 0;
};

}  // namespace icn::hpam
