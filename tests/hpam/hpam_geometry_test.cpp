// HPAM addressing and extended X-Y routing (Ben Miled et al., section 2.3):
// every source/destination pair of small machines is routed hop by hop by
// HpamGeometry and compared with the paper's path, written here independently
// as its waypoints ((i,j)_l ~> (i, n/f)_l ~> (r_l - 1, n/f)_l -> (0,n)_{l+1}
// ~> (m,n)_{l+1}, and the upward path through chi of eq. (2)), each straight
// segment expanded into unit hops.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "routers/hpam/hpam_geometry.hpp"

namespace icn::hpam {
namespace {

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

Path model_walk(const HpamGeometry& g, NodeId src, NodeId dst) {
  Position at = g.position(src);
  const Position to = g.position(dst);
  Path p{at};
  for (unsigned guard = 0; guard < 10000; ++guard) {
    const Step s = g.route(at, to);
    if (s.dir == Step::kEject) return p;
    at = g.next(at, s);
    p.push_back(at);
  }
  ADD_FAILURE() << "route does not terminate";
  return p;
}

std::string show(const Path& p) {
  std::string s;
  for (const auto& x : p) s += HpamGeometry::name(x) + " ";
  return s;
}

void check_every_pair(const std::vector<LevelShape>& levels) {
  const HpamGeometry g(levels);
  const PaperMachine paper{levels};
  unsigned pairs = 0;
  for (NodeId s = 0; s < g.nodes(); ++s) {
    for (NodeId d = 0; d < g.nodes(); ++d) {
      const Path want = paper.walk(g.position(s), g.position(d));
      const Path got = model_walk(g, s, d);
      ASSERT_EQ(show(got), show(want)) << "from " << HpamGeometry::name(g.position(s)) << " to "
                                       << HpamGeometry::name(g.position(d));
      ASSERT_EQ(g.hops(s, d), want.size() - 1);
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, g.nodes() * g.nodes());
}

TEST(HpamGeometry, NumbersNodesLevelByLevelRowMajor) {
  const HpamGeometry g({{2, 2}, {4, 8}});
  EXPECT_EQ(g.nodes(), 4u + 32u);
  EXPECT_EQ(g.first_node(1), 4u);
  for (NodeId n = 0; n < g.nodes(); ++n) EXPECT_EQ(g.node(g.position(n)), n);
  const Position p = g.position(4 + 8 + 3);
  EXPECT_EQ(p.level, 1u);
  EXPECT_EQ(p.row, 1u);
  EXPECT_EQ(p.col, 3u);
}

TEST(HpamGeometry, InterLevelLinksFollowEquationOne) {
  const HpamGeometry g({{2, 2}, {4, 8}});
  EXPECT_EQ(g.fanout(1), 4u);
  for (unsigned a = 0; a < 8; ++a) {
    const Position up = g.above({1, 0, a});
    EXPECT_EQ(up.level, 0u);
    EXPECT_EQ(up.row, 1u);
    EXPECT_EQ(up.col, a / 4);
    EXPECT_TRUE(g.below(up, a % 4) == (Position{1, 0, a}));
  }
  EXPECT_TRUE(g.has_down({0, 1, 0}));
  EXPECT_FALSE(g.has_down({0, 0, 0}));
  EXPECT_TRUE(g.has_up({1, 0, 5}));
  EXPECT_FALSE(g.has_up({0, 0, 1}));
}

TEST(HpamGeometry, EveryPairFollowsThePapersPathOneProcessorOnTop) { check_every_pair({{1, 1}, {4, 4}}); }
TEST(HpamGeometry, EveryPairFollowsThePapersPath1x2Over2x4) { check_every_pair({{1, 2}, {2, 4}}); }
TEST(HpamGeometry, EveryPairFollowsThePapersPath2x2Over4x4) { check_every_pair({{2, 2}, {4, 4}}); }
TEST(HpamGeometry, EveryPairFollowsThePapersPath2x2Over4x8) { check_every_pair({{2, 2}, {4, 8}}); }
TEST(HpamGeometry, EveryPairFollowsThePapersPathThreeLevels) { check_every_pair({{1, 1}, {2, 2}, {2, 8}}); }
TEST(HpamGeometry, EveryPairFollowsThePapersPathOneRowLevels) { check_every_pair({{1, 2}, {1, 4}, {2, 8}}); }

TEST(HpamGeometry, ChiPicksTheNearestColumnLeadingUp) {
  // 2x2 over 4x8: f = 4; from column 6 of level 2 to column 0 of level 1 the
  // message turns up at chi = 3 (eq. 2, n > (j+1)f - 1); to column 1 at n = 6 itself.
  const HpamGeometry g({{2, 2}, {4, 8}});
  const Path to0 = model_walk(g, g.node({1, 2, 6}), g.node({0, 0, 0}));
  EXPECT_EQ(show(to0), "(2,6)_2 (2,5)_2 (2,4)_2 (2,3)_2 (1,3)_2 (0,3)_2 (1,0)_1 (0,0)_1 ");
  const Path to1 = model_walk(g, g.node({1, 2, 6}), g.node({0, 0, 1}));
  EXPECT_EQ(show(to1), "(2,6)_2 (1,6)_2 (0,6)_2 (1,1)_1 (0,1)_1 ");
}

TEST(HpamGeometry, RefusesMachinesTheEquationsDoNotDescribe) {
  EXPECT_NE(HpamGeometry::problem({{2, 4}, {4, 2}}).find("c_{l-1} <= c_l"), std::string::npos);
  EXPECT_NE(HpamGeometry::problem({{2, 2}, {4, 6}}).find("powers of two"), std::string::npos);
  EXPECT_NE(HpamGeometry::problem({{3, 2}, {4, 4}}).find("powers of two"), std::string::npos);
  EXPECT_NE(HpamGeometry::problem({{4, 4}}).find("levels"), std::string::npos);
  EXPECT_NE(HpamGeometry::problem({{1, 1}, {4096, 4096}}).find("at most"), std::string::npos);
  EXPECT_EQ(HpamGeometry::problem({{1, 1}, {256, 256}}), "");
  EXPECT_THROW(HpamGeometry({{2, 4}, {4, 2}}), std::invalid_argument);
}

}  // namespace
}  // namespace icn::hpam
