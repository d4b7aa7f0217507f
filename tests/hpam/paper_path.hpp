// The paper's extended X-Y path (Ben Miled et al., section 2.3), written
// independently of HpamGeometry: the waypoints of the printed paths, each
// straight segment expanded into unit hops, inter-level hops checked against
// eq. (1). Shared by the route and network tests.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "routers/hpam/hpam_geometry.hpp"

namespace icn::hpam::test {

using Path = std::vector<Position>;

// The machine as the paper states it, without HpamGeometry's code.
struct PaperMachine {
  std::vector<LevelShape> lv;
  unsigned f(unsigned l) const { return lv[l].cols / lv[l - 1].cols; }  // eq. (1), l >= 1

  // Appends the unit hops of a straight segment from the last position to `to`
  // (same level, same row or same column).
  static void straight(Path& p, const Position& to) {
    Position at = p.back();
    EXPECT_EQ(at.level, to.level);
    EXPECT_TRUE(at.row == to.row || at.col == to.col) << "not a straight segment";
    while (!(at == to)) {
      if (at.col < to.col) ++at.col;
      else if (at.col > to.col) --at.col;
      else if (at.row < to.row) ++at.row;
      else --at.row;
      p.push_back(at);
    }
  }
  // One inter-level hop, checked against eq. (1): (0,a)_{l+1} <-> (r_l - 1, a / f)_l.
  void cross(Path& p, const Position& to) const {
    const Position at = p.back();
    const Position& lower = at.level > to.level ? at : to;
    const Position& upper = at.level > to.level ? to : at;
    EXPECT_EQ(lower.level, upper.level + 1);
    EXPECT_EQ(lower.row, 0u);
    EXPECT_EQ(upper.row, lv[upper.level].rows - 1);
    EXPECT_EQ(upper.col, lower.col / f(lower.level));
    p.push_back(to);
  }
  // Eq. (2): chi for a message from column n of level l+1 to column j of level l.
  unsigned chi(unsigned n, unsigned j, unsigned f_l) const {
    if (n < j * f_l) return j * f_l;
    if (n > (j + 1) * f_l - 1) return (j + 1) * f_l - 1;
    return n;
  }
  // The ancestor column in level `l` of column n of level k > l.
  unsigned ancestor(unsigned n, unsigned k, unsigned l) const { return n / (lv[k].cols / lv[l].cols); }

  Path walk(const Position& s, const Position& d) const {
    Path p{s};
    extend(p, d);
    return p;
  }
  void extend(Path& p, const Position& d) const {
    const Position s = p.back();
    if (s.level == d.level) {  // X-Y: column first, then row
      straight(p, {s.level, s.row, d.col});
      straight(p, d);
    } else if (d.level > s.level) {
      // (i,j)_l ~> (i, n/f)_l ~> (r_l - 1, n/f)_l -> (0, n)_{l+1}, n the
      // destination's column or, below l+1, its ancestor in level l+1.
      const unsigned l = s.level;
      const unsigned n = ancestor(d.col, d.level, l + 1);
      straight(p, {l, s.row, n / f(l + 1)});
      straight(p, {l, lv[l].rows - 1, n / f(l + 1)});
      cross(p, {l + 1, 0, n});
      if (d.level == l + 1) straight(p, d);  // ~> (m, n)_{l+1}
      else extend(p, d);
    } else {
      // (m,n)_{l+1} ~> (m, chi)_{l+1} ~> (0, chi)_{l+1} -> (r_l - 1, j)_l ~> (i,j)_l,
      // j the destination's column or, above l, the column of level l nearest
      // n / f among those leading up to it.
      const unsigned l = s.level - 1;
      unsigned j = d.col;
      if (d.level < l) {
        const unsigned span = lv[l].cols / lv[d.level].cols;
        const unsigned want = s.col / f(l + 1);
        j = want < d.col * span ? d.col * span : (want > d.col * span + span - 1 ? d.col * span + span - 1 : want);
      }
      const unsigned c = chi(s.col, j, f(l + 1));
      straight(p, {l + 1, s.row, c});
      straight(p, {l + 1, 0, c});
      cross(p, {l, lv[l].rows - 1, j});
      if (d.level == l) straight(p, d);
      else extend(p, d);
    }
  }
};


}  // namespace icn::hpam::test
