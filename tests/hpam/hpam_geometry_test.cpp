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
#include "tests/hpam/paper_path.hpp"

namespace icn::hpam {
namespace {

using test::Path;
using test::PaperMachine;

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
