// Torus and iBT construction (READING-NOTES' definition) and their exact
// distance metrics.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "routers/ibt/ibt_topology.hpp"
#include "tests/support/ibt_reference.hpp"

namespace icn {
namespace {

struct Shape {
  unsigned n, d;
  std::vector<unsigned> bypass;
};

// Small enough for all-sources BFS.
std::vector<Shape> small_shapes() {
  return {{5, 1, {}},         {6, 2, {}},       {4, 3, {}},         {3, 4, {}},      {8, 1, {2}},
          {12, 1, {2, 4}},    {8, 2, {2}},      {12, 2, {4, 8}},    {16, 2, {4, 12}}, {12, 3, {3}},
          {18, 3, {6, 12}},   {10, 2, {4}},     {9, 3, {3}},        {24, 2, {8, 16, 8, 16}}};
}

// The READING-NOTES rules, computed here from scratch: class, bypass dimension and length.
unsigned class_of(const std::vector<unsigned>& x, unsigned dk) {
  unsigned sum = 0;
  for (unsigned v : x) sum += v;
  return sum % dk;
}

TEST(IbtTopology, EveryNodeHasTwoDPlusTwoSymmetricLinksAsTheNotesDefine) {
  auto shapes = small_shapes();
  shapes.push_back({12, 4, {8}});
  for (const Shape& s : shapes) {
    const IbtTopology t(s.n, s.d, s.bypass);
    SCOPED_TRACE(t.label());
    const unsigned k = static_cast<unsigned>(s.bypass.size());
    EXPECT_EQ(t.ports(), 2 * s.d + (k > 0 ? 2 : 0));
    const unsigned dk = k > 0 ? s.d * k : 1;
    std::map<unsigned, unsigned> class_sizes;
    for (NodeId x = 0; x < t.nodes(); ++x) {
      const auto c = t.coords(x);
      ASSERT_EQ(t.node(c), x);
      class_sizes[class_of(c, dk)]++;
      std::set<NodeId> distinct;
      for (unsigned p = 0; p < t.ports(); ++p) {
        const NodeId y = t.neighbour(x, p);
        ASSERT_NE(y, x);
        distinct.insert(y);
        // Symmetric: the link leaving on p comes back on p^1.
        EXPECT_EQ(t.neighbour(y, p ^ 1u), x) << "node " << x << " port " << p;
        auto expect = c;
        if (p < 2 * s.d) {
          const unsigned i = p / 2;
          expect[i] = (c[i] + (p % 2 == 0 ? 1 : s.n - 1)) % s.n;
        } else {
          const unsigned cls = class_of(c, dk);
          const unsigned i = cls % s.d, b = s.bypass[cls / s.d];
          expect[i] = (c[i] + (p % 2 == 0 ? b : s.n - b)) % s.n;
          EXPECT_EQ(class_of(t.coords(y), dk), cls) << "bypass links join nodes of one class";
        }
        EXPECT_EQ(t.coords(y), expect);
      }
      // Degree 2d + 2 (2d for a torus); the neighbours are distinct here.
      EXPECT_EQ(distinct.size(), t.ports());
    }
    EXPECT_EQ(class_sizes.size(), dk);
    for (const auto& [c, size] : class_sizes) EXPECT_EQ(size, t.nodes() / dk) << "class " << c;
  }
}

TEST(IbtTopology, InvalidParametersNameTheRuleTheyBreak) {
  auto why = [](std::int64_t n, std::int64_t d, std::vector<std::int64_t> b) { return IbtTopology::check(n, d, b); };
  EXPECT_EQ(why(64, 2, {6}).why, "");
  EXPECT_EQ(why(64, 0, {}).key, "network.d");
  EXPECT_EQ(why(64, 5, {}).key, "network.d");
  EXPECT_EQ(why(2, 2, {}).key, "network.n");
  EXPECT_NE(why(66, 2, {4, 16}).why.find("d*k = 4 must divide n"), std::string::npos);
  EXPECT_EQ(why(66, 2, {4, 16}).key, "network.n");
  EXPECT_NE(why(64, 2, {5}).why.find("not a multiple of d*k = 2"), std::string::npos);
  EXPECT_EQ(why(64, 2, {5}).key, "network.bypass");
  EXPECT_NE(why(64, 2, {32}).why.find("2*b_j = 0 mod n"), std::string::npos);
  EXPECT_NE(why(64, 2, {8, 32}).why.find("b_2 = 32"), std::string::npos);
  EXPECT_NE(why(64, 2, {64}).why.find("1..n-1"), std::string::npos);
  EXPECT_NE(why(64, 2, {0}).why.find("1..n-1"), std::string::npos);
  EXPECT_NE(why(4096, 2, {}).why.find("at most"), std::string::npos);
  EXPECT_THROW(IbtTopology(66, 2, {4, 16}), std::invalid_argument);
}

// One BFS per class gives exactly what plain all-sources BFS gives.
TEST(IbtTopology, ClassRepresentativeMetricsEqualAllSourcesBfs) {
  for (const Shape& s : small_shapes()) {
    const IbtTopology t(s.n, s.d, s.bypass);
    SCOPED_TRACE(t.label());
    const DistanceMetrics fast = distance_metrics(t);
    const test::IbtMetrics oracle = test::ibt_metrics_by_bfs(s.n, s.d, s.bypass);
    EXPECT_TRUE(oracle.connected);
    EXPECT_EQ(fast.diameter, oracle.diameter);
    EXPECT_EQ(fast.distance_sum, oracle.distance_sum);
    EXPECT_DOUBLE_EQ(fast.average, static_cast<double>(oracle.distance_sum) / (static_cast<double>(t.nodes()) * t.nodes()));
    EXPECT_EQ(fast.bfs_sources, t.classes());
  }
}

// Torus: distances add over dimensions; on a ring of n the mean is
// n/4 (n even) or (n^2 - 1)/(4n) (n odd), the diameter floor(n/2).
TEST(IbtTopology, TorusMetricsMatchTheRingSums) {
  for (unsigned d = 1; d <= 3; ++d) {
    for (unsigned n : {3u, 4u, 7u, 10u, 16u}) {
      const IbtTopology t(n, d, {});
      const DistanceMetrics m = distance_metrics(t);
      const double ring = n % 2 == 0 ? n / 4.0 : (static_cast<double>(n) * n - 1) / (4.0 * n);
      EXPECT_EQ(m.diameter, d * (n / 2)) << t.label();
      EXPECT_NEAR(m.average, d * ring, 1e-12) << t.label();
    }
  }
}

// READING-NOTES: iBT(64^2) lambda and mu (the paper's Table 1), Torus(64^2) 64 and 32.0.
TEST(IbtTopology, ReadingNotesValuesForTable1) {
  struct Row {
    std::vector<unsigned> b;
    unsigned diameter;
    double mu;
  };
  for (const Row& r : std::vector<Row>{{{6}, 14, 8.0962}, {{14}, 12, 7.4819}, {{4, 16}, 10, 6.5679}, {{8, 24}, 10, 6.6338}}) {
    const IbtTopology t(64, 2, r.b);
    const DistanceMetrics m = distance_metrics(t);
    EXPECT_EQ(m.diameter, r.diameter) << t.label();
    EXPECT_NEAR(m.average, r.mu, 0.5e-4) << t.label();
  }
  const DistanceMetrics torus = distance_metrics(IbtTopology(64, 2, {}));
  EXPECT_EQ(torus.diameter, 64u);
  EXPECT_DOUBLE_EQ(torus.average, 32.0);
}

// A million nodes: four BFS runs for iBT(1000^2; <8,32>), one for Torus(100^3).
TEST(IbtTopology, MetricsAreFastForAMillionNodes) {
  const auto start = std::chrono::steady_clock::now();
  const IbtTopology ibt(1000, 2, {8, 32});
  const DistanceMetrics a = distance_metrics(ibt);
  const DistanceMetrics b = distance_metrics(IbtTopology(100, 3, {}));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(a.bfs_sources, 4u);
  EXPECT_EQ(b.diameter, 150u);
  EXPECT_DOUBLE_EQ(b.average, 75.0);
  EXPECT_LT(a.diameter, b.diameter);
  EXPECT_LT(seconds, 20.0);  // about 0.3 s in a release build
}

}  // namespace
}  // namespace icn
