// The concentrator switch of an output port (Ishii 1985, section 4.4, "Switch
// Arbitration"): k requests for c free paths grant exactly min(k, c), on
// distinct paths, and when k > c every c-subset is equally likely.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "routers/fattree_bitserial/concentrator_switch.hpp"

namespace icn::bitserial {

namespace {
struct Outcome {
  std::vector<PathRef> granted;
  std::vector<unsigned> paths;
  std::vector<PathRef> denied;
};
Outcome run(ConcentratorSwitch& c, unsigned trunk, unsigned others) {
  for (unsigned i = 0; i < trunk; ++i) c.request(PathRef{kTrunk, i}, true);
  for (unsigned i = 0; i < others; ++i) c.request(PathRef{kBranch1, i}, false);
  Outcome o;
  c.arbitrate([&](PathRef r, unsigned p) { o.granted.push_back(r), o.paths.push_back(p); },
              [&](PathRef r) { o.denied.push_back(r); });
  return o;
}
}  // namespace

TEST(ConcentratorSwitch, GrantsExactlyTheFreePathsOnDistinctPaths) {
  for (unsigned cap = 1; cap <= 6; ++cap) {
    for (unsigned k = 0; k <= 9; ++k) {
      ConcentratorSwitch c(cap, Arbitration::kRandom, Rng(7, "t"));
      const Outcome o = run(c, k / 2, k - k / 2);
      EXPECT_EQ(o.granted.size(), std::min(k, cap));
      EXPECT_EQ(o.denied.size(), k > cap ? k - cap : 0);
      EXPECT_EQ(std::set<unsigned>(o.paths.begin(), o.paths.end()).size(), o.paths.size());
      for (unsigned p : o.paths) EXPECT_LT(p, cap);
      EXPECT_EQ(c.free_paths(), cap - o.granted.size());
      for (unsigned i = 0; i < o.paths.size(); ++i) {
        EXPECT_EQ(c.source(o.paths[i]).port, o.granted[i].port);
        EXPECT_EQ(c.source(o.paths[i]).path, o.granted[i].path);
      }
    }
  }
}

TEST(ConcentratorSwitch, LaterRequestsGetOnlyWhatIsLeftUntilCleared) {
  ConcentratorSwitch c(3, Arbitration::kRandom, Rng(1, "t"));
  EXPECT_EQ(run(c, 0, 2).granted.size(), 2u);
  const Outcome late = run(c, 0, 2);
  EXPECT_EQ(late.granted.size(), 1u);
  EXPECT_EQ(late.paths, std::vector<unsigned>{2});
  c.clear();
  EXPECT_EQ(run(c, 0, 3).granted.size(), 3u);
}

TEST(ConcentratorSwitch, TrunkPriorityServesTrunkStreamsFirst) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    ConcentratorSwitch c(2, Arbitration::kTrunkPriority, Rng(seed, "t"));
    const Outcome o = run(c, 2, 3);
    ASSERT_EQ(o.granted.size(), 2u);
    for (const auto& g : o.granted) EXPECT_EQ(g.port, kTrunk);
    ConcentratorSwitch d(4, Arbitration::kTrunkPriority, Rng(seed, "t"));
    const Outcome p = run(d, 2, 3);  // both trunk streams and 2 of 3 turning ones
    unsigned trunk = 0;
    for (const auto& g : p.granted) trunk += g.port == kTrunk;
    EXPECT_EQ(trunk, 2u);
    EXPECT_EQ(p.granted.size(), 4u);
  }
}

// Every one of k streams wins with probability c/k, and every c-subset of the k
// is equally likely. N = 60000 decisions for k = 5, c = 2 (10 subsets): each
// stream's win count is Binomial(N, 0.4), sd = sqrt(N p (1-p)) = 120; we allow
// 5 sd (a fair arbiter fails this with probability < 1e-6). Subsets: Pearson's
// chi-square with 9 degrees of freedom; its 1 - 1e-6 quantile is 42.0.
TEST(ConcentratorSwitch, RandomArbitrationIsUniform) {
  const unsigned k = 5, cap = 2, N = 60000;
  ConcentratorSwitch c(cap, Arbitration::kRandom, Rng(2024, "uniformity"));
  std::vector<unsigned> wins(k, 0);
  std::map<unsigned, unsigned> subsets;
  for (unsigned trial = 0; trial < N; ++trial) {
    c.clear();
    const Outcome o = run(c, 0, k);
    unsigned mask = 0;
    for (const auto& g : o.granted) {
      ++wins[g.path];
      mask |= 1u << g.path;
    }
    ++subsets[mask];
  }
  const double p = double(cap) / k, sd = std::sqrt(N * p * (1 - p));
  for (unsigned i = 0; i < k; ++i) EXPECT_NEAR(wins[i], N * p, 5 * sd) << "stream " << i;
  ASSERT_EQ(subsets.size(), 10u);
  const double expected = N / 10.0;
  double chi2 = 0;
  for (const auto& [mask, count] : subsets) chi2 += (count - expected) * (count - expected) / expected;
  EXPECT_LT(chi2, 42.0);
}

}  // namespace icn::bitserial
