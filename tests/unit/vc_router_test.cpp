// Parts of the virtual-channel family tested alone: the routing function
// (dimension order, torus datelines), traffic patterns and trace parsing.
// Expected values are computed here from the definitions.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "models/config.hpp"
#include "routers/vc/vc_topology.hpp"
#include "testbench/synthetic_traffic.hpp"

namespace icn {

using vc::TopologyKind;
using VcTopology = vc::MeshTorusTopology;

// Walks the routing function from src to dst; returns the routers visited.
std::vector<unsigned> walk(const VcTopology& t, unsigned src, unsigned dst, std::vector<std::uint64_t>* masks = nullptr) {
  std::vector<unsigned> path{src};
  unsigned at = src;
  for (int guard = 0; guard < 1000; ++guard) {
    const vc::RouteChoice c = t.route(at, src, dst);
    if (masks) masks->push_back(c.vc_mask);
    if (c.port == 0) return path;
    const auto nb = t.neighbor(at, c.port);
    EXPECT_TRUE(nb.has_value()) << "routed off the edge";
    if (!nb) break;
    at = nb->router;
    path.push_back(at);
  }
  ADD_FAILURE() << "no arrival";
  return path;
}

TEST(VcRouting, MeshDimensionOrderIsMinimalAndXFirst) {
  VcTopology t(TopologyKind::kMesh, 5, 2, 2, false);
  for (unsigned s = 0; s < 25; ++s)
    for (unsigned d = 0; d < 25; ++d) {
      const auto path = walk(t, s, d);
      const int dx = std::abs(int(s % 5) - int(d % 5)), dy = std::abs(int(s / 5) - int(d / 5));
      ASSERT_EQ(path.size(), std::size_t(dx + dy + 1));
      // x first: the y coordinate stays the source's until x matches.
      for (unsigned r : path) {
        if (r % 5 != d % 5) {
          EXPECT_EQ(r / 5, s / 5);
        }
      }
    }
}

TEST(VcRouting, TorusTakesTheShorterWayRound) {
  for (unsigned k : {4u, 5u, 8u}) {
    VcTopology t(TopologyKind::kTorus, k, 2, 2, true);
    for (unsigned s = 0; s < k * k; ++s)
      for (unsigned d = 0; d < k * k; ++d) {
        auto ring = [k](unsigned a, unsigned b) { unsigned f = (b + k - a) % k; return std::min(f, k - f); };
        const unsigned expect = ring(s % k, d % k) + ring(s / k, d / k);
        ASSERT_EQ(walk(t, s, d).size(), expect + 1) << k << " " << s << " " << d;
      }
  }
  // Half way round an even ring both ways are as short: docs/vc_router.md
  // says ties go +, so the first hop from 0 to 4 of an 8-ring is to 1.
  VcTopology ring(TopologyKind::kTorus, 8, 1, 2, true);
  for (unsigned s = 0; s < 8; ++s) {
    const auto path = walk(ring, s, (s + 4) % 8);
    ASSERT_EQ(path.size(), 5u);
    EXPECT_EQ(path[1], (s + 1) % 8) << "from " << s;
  }
}

TEST(VcRouting, DatelineSwitchesToTheUpperClassExactlyAfterTheWrapLink) {
  const unsigned k = 8;
  VcTopology t(TopologyKind::kTorus, k, 1, 4, true);
  for (unsigned s = 0; s < k; ++s)
    for (unsigned d = 0; d < k; ++d) {
      std::vector<std::uint64_t> masks;
      const auto path = walk(t, s, d, &masks);
      bool crossed = false;
      for (std::size_t h = 0; h + 1 < path.size(); ++h) {
        const unsigned a = path[h], b = path[h + 1];
        if ((a == k - 1 && b == 0) || (a == 0 && b == k - 1)) crossed = true;  // the wrap link
        EXPECT_EQ(masks[h], crossed ? 0b1100u : 0b0011u) << s << "->" << d << " hop " << h;
      }
      EXPECT_EQ(masks.back(), 0b1111u);  // ejection: any VC
    }
  VcTopology none(TopologyKind::kTorus, k, 1, 4, false);
  EXPECT_EQ(none.route(0, 0, 3).vc_mask, 0b1111u);
}

// BookSim 2's classes (router.dateline_classes=whole_dimension): on a 2-D
// 8x8 torus with 4 VCs, every hop of dimension d carries the upper half iff
// the destination's coordinate in d is below the source's, whatever the
// direction; the class is fixed for the whole dimension; ejection takes any.
// The walk (routed with a router's generator, ties random) still takes the
// shorter way round in each dimension, and a tie goes both ways over many
// seeds.
TEST(VcRouting, WholeDimensionClassesFollowTheCoordinateOrderAndTiesGoBothWays) {
  const unsigned k = 8;
  VcTopology t(TopologyKind::kTorus, k, 2, 4, true);
  t.set_torus_options({vc::DatelineClasses::kWholeDimension, true});
  Rng rng(7, 3);
  unsigned plus_ties = 0, minus_ties = 0;
  for (unsigned src = 0; src < k * k; ++src)
    for (unsigned dst = 0; dst < k * k; ++dst) {
      unsigned at = src, hops = 0;
      for (;;) {
        const vc::RouteChoice c = t.route(at, 0, src, dst, rng);
        if (c.port == 0) {
          EXPECT_EQ(at, dst);
          EXPECT_EQ(c.vc_mask, 0b1111u);
          break;
        }
        const unsigned d = (c.port - 1) / 2;
        const unsigned s_d = (d == 0 ? src % k : src / k), t_d = (d == 0 ? dst % k : dst / k);
        EXPECT_EQ(c.vc_mask, t_d < s_d ? 0b1100u : 0b0011u) << src << "->" << dst << " hop " << hops;
        const unsigned x = d == 0 ? at % k : at / k;
        if (x == s_d && (t_d + k - s_d) % k == k / 2) ++(c.port % 2 == 1 ? plus_ties : minus_ties);
        at = t.neighbor(at, c.port)->router;
        ASSERT_LT(++hops, 2 * k);
      }
      // The shorter way round in each dimension: min(|dx|, k - |dx|) + the same for y.
      auto ring = [k](unsigned a, unsigned b) { const unsigned f = (b + k - a) % k; return std::min(f, k - f); };
      EXPECT_EQ(hops, ring(src % k, dst % k) + ring(src / k, dst / k)) << src << "->" << dst;
    }
  // 64 x 64 pairs, of which 2 x 64 x 8 have a tie in x or y (dx = 4: 8 per
  // source in each dimension): a fair coin lands far from either extreme.
  EXPECT_EQ(plus_ties + minus_ties, 2u * 64 * 8);
  EXPECT_GT(plus_ties, 400u);
  EXPECT_GT(minus_ties, 400u);
  // Without a router's generator (the context-free route) a tie goes +.
  EXPECT_EQ(t.route(0, 0, 4).port, 1u);
}

TEST(VcTraffic, PermutationPatternsMatchTheirDefinitions) {
  DestinationPattern p;
  p.nodes = 64;
  p.k = 8;
  p.n = 2;
  Rng rng(1, 1);
  for (NodeId s = 0; s < 64; ++s) {
    const unsigned x = s % 8, y = s / 8;
    p.kind = PatternKind::kTranspose;
    EXPECT_EQ(p.pick(s, rng), x * 8 + y);
    p.kind = PatternKind::kBitComp;
    EXPECT_EQ(p.pick(s, rng), 63 - s);
    p.kind = PatternKind::kTornado;
    EXPECT_EQ(p.pick(s, rng), ((x + 3) % 8) + 8 * ((y + 3) % 8));
    p.kind = PatternKind::kNeighbor;
    EXPECT_EQ(p.pick(s, rng), ((x + 1) % 8) + 8 * ((y + 1) % 8));
    p.kind = PatternKind::kBitRev;
    unsigned rev = 0;
    for (int b = 0; b < 6; ++b) {
      if (s & (1u << b)) rev |= 1u << (5 - b);
    }
    EXPECT_EQ(p.pick(s, rng), rev);
    p.kind = PatternKind::kShuffle;
    EXPECT_EQ(p.pick(s, rng), ((s << 1) & 63) | (s >> 5));
  }
  p.nodes = 25;
  p.kind = PatternKind::kBitComp;
  EXPECT_FALSE(p.problem().empty());
}

TEST(VcTraffic, UniformWithoutSelfTrafficNeverPicksTheSource) {
  DestinationPattern p;
  p.nodes = 4;
  p.self_traffic = false;
  Rng rng(2, 2);
  std::set<NodeId> seen;
  for (int i = 0; i < 400; ++i) {
    const NodeId d = p.pick(2, rng);
    EXPECT_NE(d, 2u);
    seen.insert(d);
  }
  EXPECT_EQ(seen, (std::set<NodeId>{0, 1, 3}));
}

TEST(VcTraffic, TraceLinesAreCheckedOneByOne) {
  const std::string path = ::testing::TempDir() + "/vc_trace.txt";
  {
    std::ofstream f(path);
    f << "# cycle src dst size\n10 0 3 4\n\n12 1 2 1\n";
  }
  const auto t = read_trace(path, 4, 16);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[1].cycle, 12u);
  EXPECT_EQ(t[1].size, 1u);
  {
    std::ofstream f(path);
    f << "10 0 9 4\n";
  }
  EXPECT_THROW(read_trace(path, 4, 16), ConfigError);
  {
    std::ofstream f(path);
    f << "10 0 1\n";
  }
  EXPECT_THROW(read_trace(path, 4, 16), ConfigError);
}

}  // namespace icn

namespace icn {

TEST(VcRouting, WestFirstGoesWestFirstAndOtherwiseOffersBothProductivePorts) {
  VcTopology t(vc::TopologyKind::kMesh, 4, 2, 2, false, true);
  for (unsigned s = 0; s < 16; ++s)
    for (unsigned d = 0; d < 16; ++d) {
      const vc::RouteChoice c = t.route(s, s, d);
      const int dx = int(d % 4) - int(s % 4), dy = int(d / 4) - int(s / 4);
      if (dx < 0) {
        EXPECT_EQ(c.port, 2u);  // x-
        EXPECT_FALSE(c.has_alt);
      } else if (dx > 0 && dy != 0) {
        EXPECT_EQ(c.port, 1u);
        ASSERT_TRUE(c.has_alt);
        EXPECT_EQ(c.alt_port, dy > 0 ? 3u : 4u);
      } else if (dx > 0) {
        EXPECT_EQ(c.port, 1u);
      } else if (dy != 0) {
        EXPECT_EQ(c.port, dy > 0 ? 3u : 4u);
      } else {
        EXPECT_EQ(c.port, 0u);
      }
    }
  EXPECT_THROW(VcTopology(vc::TopologyKind::kTorus, 4, 2, 2, true, true), std::invalid_argument);
}

}  // namespace icn
