// Load factor (Ishii 1985, definitions 7-9) and the message sets built on it,
// against independent counts: every channel a path crosses, enumerated by
// climbing from both ends of the pair.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "routers/fattree_bitserial/load_factor.hpp"
#include "testbench/message_sets.hpp"

namespace icn {

namespace {

// Channels as (level, subtree, up?): climb from src and dst until they meet.
std::vector<std::tuple<unsigned, NodeId, bool>> channels(NodeId s, NodeId d) {
  std::vector<std::tuple<unsigned, NodeId, bool>> out;
  unsigned level = 1;
  while (s != d) {
    out.emplace_back(level, s, true);
    out.emplace_back(level, d, false);
    s >>= 1;
    d >>= 1;
    ++level;
  }
  return out;
}

double brute_lambda(const FatTreeShape& shape, const std::vector<SourceDestination>& m) {
  std::map<std::tuple<unsigned, NodeId, bool>, unsigned> load;
  for (const auto& x : m)
    for (const auto& c : channels(x.src, x.dst)) ++load[c];
  double best = 0;
  for (const auto& [c, l] : load) best = std::max(best, double(l) / shape.capacity(std::get<0>(c)));
  return best;
}

}  // namespace

TEST(LoadFactor, HandExample) {
  // 8 processors, capacities [1,2,2]: 0->4 and 1->5 share the level-2 and level-3
  // up channels of subtree 0 (loads 2 on cap 2) and the level-1 up channels are
  // separate; 2->3 is local. lambda = 1 (every channel at most full).
  const FatTreeShape shape(3, {1, 2, 2});
  EXPECT_DOUBLE_EQ(load_factor(shape, {{0, 4}, {1, 5}, {2, 3}}).value(), 1.0);
  // Adding 0->6 loads processor 0's own link twice: lambda = 2 on a cap-1 channel
  // (and 3 messages on the cap-2 channels above subtree 0: 1.5).
  const LoadFactor lf = load_factor(shape, {{0, 4}, {1, 5}, {2, 3}, {0, 6}});
  EXPECT_EQ(lf.load, 2u);
  EXPECT_EQ(lf.capacity, 1u);
  EXPECT_EQ(lf.level, 1u);
  EXPECT_TRUE(lf.up);
  EXPECT_EQ(lf.subtree, 0u);
  EXPECT_EQ(lf.max_load_per_level, (std::vector<std::uint64_t>{2, 3, 3}));  // 0->4, 1->5, 0->6 share levels 2 and 3
  EXPECT_DOUBLE_EQ(load_factor(shape, {}).value(), 0.0);
}

TEST(LoadFactor, MatchesAnIndependentCountOnRandomSets) {
  Rng rng(3, "lf");
  for (unsigned H = 1; H <= 6; ++H) {
    for (const char* preset : {"cbft", "ebft"}) {
      const FatTreeShape shape(H, capacity_preset(preset, H));
      const NodeId n = shape.leaves();
      std::vector<SourceDestination> m;
      for (int i = 0; i < 50; ++i) {
        const NodeId s = static_cast<NodeId>(rng.below(n));
        NodeId d = static_cast<NodeId>(rng.below(n - 1));
        if (d >= s) ++d;
        m.push_back({s, d});
        EXPECT_DOUBLE_EQ(load_factor(shape, m).value(), brute_lambda(shape, m));
      }
    }
  }
}

TEST(LoadFactor, MaximumIsTheLoadFactorOfAllPairs) {
  for (unsigned H = 1; H <= 5; ++H) {
    for (const char* preset : {"cbft", "ebft"}) {
      const FatTreeShape shape(H, capacity_preset(preset, H));
      std::vector<SourceDestination> all;
      for (NodeId s = 0; s < shape.leaves(); ++s)
        for (NodeId d = 0; d < shape.leaves(); ++d)
          if (s != d) all.push_back({s, d});
      EXPECT_DOUBLE_EQ(max_load_factor(shape), brute_lambda(shape, all));
    }
  }
}

TEST(MessageSets, PermutationAllToOneAndListedPairs) {
  Rng rng(11, "p");
  const auto perm = permutation_messages(64, rng);
  std::set<NodeId> srcs, dsts;
  for (const auto& m : perm) {
    EXPECT_NE(m.src, m.dst);
    srcs.insert(m.src);
    dsts.insert(m.dst);
  }
  EXPECT_EQ(srcs.size(), perm.size());
  EXPECT_EQ(dsts.size(), perm.size());
  EXPECT_GT(perm.size(), 50u);  // few fixed points
  const auto a2o = all_to_one_messages(8, 3);
  EXPECT_EQ(a2o.size(), 7u);
  for (const auto& m : a2o) EXPECT_EQ(m.dst, 3u);
  const auto listed = listed_messages({{1, 2}, {3, 4}, {1, 2}, {1, 2}});
  EXPECT_EQ(listed[2].seq, 1u);
  EXPECT_EQ(listed[3].seq, 2u);
  EXPECT_EQ(listed[1].seq, 0u);
  MessageSetReceiptPlan plan(8, listed);
  EXPECT_EQ(plan.slots(2), 3u);
  EXPECT_EQ(plan.slots(4), 1u);
  EXPECT_EQ(plan.slots(0), 0u);
  EXPECT_NE(plan.slot(2, 1, 2, false), ReceiptPlan::kUnexpected);
  EXPECT_EQ(plan.slot(2, 1, 3, false), ReceiptPlan::kUnexpected);
  EXPECT_EQ(plan.slot(2, 3, 0, false), ReceiptPlan::kUnexpected);
}

// Random sets at a target X: no channel exceeds floor(X cap), no absent pair
// would still fit (maximal), lambda = X for integral X, and distinct pairs.
TEST(MessageSets, RandomAtTargetLoadFactorIsMaximalAndReachesIt) {
  for (unsigned H : {2u, 4u, 5u}) {
    for (const char* preset : {"cbft", "ebft"}) {
      const FatTreeShape shape(H, capacity_preset(preset, H));
      for (double x : {1.0, 2.0, 3.0, 1.5}) {
        if (x > max_load_factor(shape)) continue;
        Rng rng(5, "r");
        const auto m = random_messages_at_load(shape, x, rng);
        std::set<std::pair<NodeId, NodeId>> pairs;
        for (const auto& y : m) EXPECT_TRUE(pairs.insert({y.src, y.dst}).second);
        const auto sd = pairs_of(m);
        const double lambda = brute_lambda(shape, sd);
        EXPECT_LE(lambda, x + 1e-12);
        if (x == std::floor(x)) {
          EXPECT_DOUBLE_EQ(lambda, x) << H << preset << x;
        }
        // Maximal, by the count written here: adding any absent pair would
        // push some channel past floor(X cap), i.e. lambda past X.
        for (NodeId s = 0; s < shape.leaves(); ++s)
          for (NodeId d = 0; d < shape.leaves(); ++d) {
            if (s == d || pairs.count({s, d})) continue;
            auto more = sd;
            more.push_back({s, d});
            EXPECT_GT(brute_lambda(shape, more), x + 1e-12)
                << s << "->" << d << " would still fit";
          }
      }
    }
  }
}

}  // namespace icn
