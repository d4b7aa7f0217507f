#include "routers/hpam/hpam_geometry.hpp"

#include <algorithm>
#include <stdexcept>

namespace icn::hpam {

namespace {
bool power_of_two(unsigned x) { return x != 0 && (x & (x - 1)) == 0; }
}  // namespace

std::string HpamGeometry::problem(const std::vector<LevelShape>& levels) {
  if (levels.size() < 2 || levels.size() > 8) return "needs 2..8 levels [[r1,c1],[r2,c2],...]";
  std::uint64_t total = 0;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const std::string which = "level " + std::to_string(l + 1);
    const LevelShape& s = levels[l];
    if (!power_of_two(s.rows) || !power_of_two(s.cols) || s.rows > kMaxSide || s.cols > kMaxSide)
      return which + " is " + std::to_string(s.rows) + "x" + std::to_string(s.cols) +
             ": rows and columns must be powers of two, 1.." + std::to_string(kMaxSide);
    if (l > 0 && levels[l - 1].cols > s.cols)
      return which + " has " + std::to_string(s.cols) + " columns, fewer than level " + std::to_string(l) + "'s " +
             std::to_string(levels[l - 1].cols) + " (eq. 1 needs c_{l-1} <= c_l)";
    total += std::uint64_t{s.rows} * s.cols;
  }
  if (total > kMaxNodes) return "at most " + std::to_string(kMaxNodes) + " processors in all levels";
  return "";
}

HpamGeometry::HpamGeometry(std::vector<LevelShape> levels) : levels_(std::move(levels)) {
  const std::string why = problem(levels_);
  if (!why.empty()) throw std::invalid_argument("hpam: " + why);
  for (const LevelShape& s : levels_) {
    first_.push_back(total_);
    total_ += s.rows * s.cols;
  }
}

Position HpamGeometry::position(NodeId n) const {
  unsigned l = 0;
  while (l + 1 < levels() && n >= first_[l + 1]) ++l;
  const unsigned i = n - first_[l];
  return {l, i / levels_[l].cols, i % levels_[l].cols};
}

Position HpamGeometry::above(const Position& p) const {
  return {p.level - 1, levels_[p.level - 1].rows - 1, p.col / fanout(p.level)};
}

Position HpamGeometry::below(const Position& p, unsigned branch) const {
  return {p.level + 1, 0, p.col * fanout(p.level + 1) + branch};
}

Step HpamGeometry::route(const Position& at, const Position& dst) const {
  unsigned target_col = dst.col;
  if (dst.level > at.level) {
    // Down: the column of this level whose descendants include dst's column.
    target_col = dst.col / (levels_[dst.level].cols / levels_[at.level].cols);
  } else if (dst.level < at.level) {
    // Up, eq. (2): the columns here that lead up to dst's column form one
    // block; chi is the one nearest the current column.
    const unsigned span = levels_[at.level].cols / levels_[dst.level].cols;
    target_col = std::clamp(at.col, dst.col * span, dst.col * span + span - 1);
  }
  if (at.col < target_col) return {Step::kEast};
  if (at.col > target_col) return {Step::kWest};
  if (dst.level > at.level) {
    if (at.row + 1 < levels_[at.level].rows) return {Step::kSouth};
    const unsigned next_col = dst.col / (levels_[dst.level].cols / levels_[at.level + 1].cols);
    return {Step::kDown, next_col - at.col * fanout(at.level + 1)};
  }
  if (dst.level < at.level) {
    if (at.row > 0) return {Step::kNorth};
    return {Step::kUp};
  }
  if (at.row < dst.row) return {Step::kSouth};
  if (at.row > dst.row) return {Step::kNorth};
  return {Step::kEject};
}

Position HpamGeometry::next(const Position& at, const Step& s) const {
  switch (s.dir) {
    case Step::kEast: return {at.level, at.row, at.col + 1};
    case Step::kWest: return {at.level, at.row, at.col - 1};
    case Step::kSouth: return {at.level, at.row + 1, at.col};
    case Step::kNorth: return {at.level, at.row - 1, at.col};
    case Step::kUp: return above(at);
    case Step::kDown: return below(at, s.branch);
    case Step::kEject: break;
  }
  return at;
}

unsigned HpamGeometry::hops(NodeId src, NodeId dst) const {
  Position at = position(src);
  const Position to = position(dst);
  unsigned h = 0;
  for (Step s = route(at, to); s.dir != Step::kEject; s = route(at, to)) {
    at = next(at, s);
    ++h;
  }
  return h;
}

std::string HpamGeometry::name(const Position& p) {
  return "(" + std::to_string(p.row) + "," + std::to_string(p.col) + ")_" + std::to_string(p.level + 1);
}

}  // namespace icn::hpam
