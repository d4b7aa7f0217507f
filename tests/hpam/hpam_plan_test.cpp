// The collective programs (testbench/hpam_collectives): played out without a
// network, every processor ends with exactly its data, every message carries
// only data its sender holds, and the message counts are the paper's.
#include <gtest/gtest.h>

#include <set>

#include "testbench/hpam_collectives.hpp"

namespace icn::hpam {
namespace {

// Plays the plan in causal order (a processor sends once it has received
// what it waits for): every planned message is sent exactly once and every
// processor receives exactly the number of messages it waits for.
void play(const HpamGeometry& g, const CollectivePlan& plan) {
  std::vector<unsigned> got(g.nodes(), 0);
  std::vector<NodeId> ready;
  for (NodeId n = 0; n < g.nodes(); ++n)
    if (plan.waits[n] == 0 && !plan.sends[n].empty()) ready.push_back(n);
  std::size_t sent = 0;
  while (!ready.empty()) {
    const NodeId n = ready.back();
    ready.pop_back();
    for (const PlannedMessage& m : plan.sends[n]) {
      EXPECT_EQ(m.src, n);
      ++sent;
      if (++got[m.dst] == plan.waits[m.dst] && !plan.sends[m.dst].empty()) ready.push_back(m.dst);
    }
  }
  EXPECT_EQ(sent, plan.messages);
  for (NodeId n = 0; n < g.nodes(); ++n) EXPECT_EQ(got[n], plan.waits[n]) << "node " << n;
}

CollectiveSpec spec(Collective c, Algorithm a, unsigned p2, unsigned q2, bool all = false) {
  CollectiveSpec s;
  s.collective = c;
  s.algorithm = a;
  s.p2 = p2;
  s.q2 = q2;
  s.all_levels = all;
  s.piece_bytes = 100;
  s.q = 8;
  s.seed = 7;
  return s;
}

TEST(HpamPlan, HybridBroadcastReachesEveryLevelTwoProcessorOnce) {
  const HpamGeometry g({{1, 1}, {4, 4}});
  for (auto [p, q] : submesh_shapes(g, Algorithm::kHybrid)) {
    const auto s = spec(Collective::kBroadcast, Algorithm::kHybrid, p, q);
    const CollectivePlan plan = plan_collective(g, s);
    EXPECT_EQ(plan.messages, 16u);  // one per destination
    // The source sends to the (4/p)(4/q) roots (the paper's r2/p2 * c2/q2 inter-level messages).
    EXPECT_EQ(plan.sends[0].size(), (4u / p) * (4u / q));
    // A root sends log2(p) + log2(q) messages (the binary tree's steps).
    const NodeId root = g.node({1, 0, 0});
    unsigned steps = 0;
    for (unsigned x = p * q; x > 1; x /= 2) ++steps;
    EXPECT_EQ(plan.sends[root].size(), steps);
    play(g, plan);
    for (NodeId n = 1; n < g.nodes(); ++n) {
      ASSERT_EQ(plan.receives[n].size(), 1u);
      EXPECT_EQ(plan.receives[n][0].tag, piece_tag(s.seed, 0, 0));  // the one broadcast content
      EXPECT_EQ(plan.receives[n][0].bytes, 100u);
    }
  }
}

TEST(HpamPlan, ScatterCarriesEachRegionsPiecesToItsRoot) {
  const HpamGeometry g({{2, 2}, {4, 8}});
  for (auto [p, q] : submesh_shapes(g, Algorithm::kHybrid)) {
    for (bool all : {false, true}) {
      auto s = spec(Collective::kScatter, Algorithm::kHybrid, p, q, all);
      s.source = {0, 1, 0};
      s.scaled = all;
      const CollectivePlan plan = plan_collective(g, s);
      const NodeId src = g.node(s.source);
      // Each destination's message tag and size are the XOR and sum over the
      // pieces of the region it roots; its own piece is always among them, and
      // the bytes of all messages into a node cover its region once.
      for (NodeId n = 0; n < g.nodes(); ++n) {
        const bool dest = n != src && (all || g.position(n).level == 1);
        ASSERT_EQ(plan.receives[n].size(), dest ? 1u : 0u) << n;
        if (!dest) continue;
        const PlannedMessage& m = plan.receives[n][0];
        const std::uint64_t own = (all && g.position(n).level == 0) ? 800 : 100;
        EXPECT_GE(m.bytes, own);
        // What n forwards plus its own piece is exactly what it received.
        std::uint64_t fwd_bytes = 0, fwd_tag = 0;
        for (const auto& f : plan.sends[n]) {
          fwd_bytes += f.bytes;
          fwd_tag ^= f.tag;
        }
        EXPECT_EQ(m.bytes, fwd_bytes + own);
        EXPECT_EQ(m.tag, fwd_tag ^ piece_tag(s.seed, src, n));
      }
      // The source sends every piece but its own exactly once.
      std::uint64_t total = 0;
      for (const auto& f : plan.sends[src]) total += f.bytes;
      EXPECT_EQ(total, 32u * 100 + (all ? 3u * 800 : 0u));
    }
  }
}

TEST(HpamPlan, GatherIsTheScatterReversed) {
  const HpamGeometry g({{1, 1}, {4, 4}});
  const auto sc = spec(Collective::kScatter, Algorithm::kHybrid, 4, 2);
  const auto ga = spec(Collective::kGather, Algorithm::kHybrid, 4, 2);
  const CollectivePlan ps = plan_collective(g, sc), pg = plan_collective(g, ga);
  ASSERT_EQ(ps.messages, pg.messages);
  std::multiset<std::tuple<NodeId, NodeId, std::uint64_t>> a, b;
  for (const auto& v : ps.receives)
    for (const auto& m : v) a.insert({m.src, m.dst, m.bytes});
  for (const auto& v : pg.receives)
    for (const auto& m : v) b.insert({m.dst, m.src, m.bytes});
  EXPECT_EQ(a, b);
  // Leaves of the gather send at the start; the sink sends nothing.
  EXPECT_TRUE(pg.sends[0].empty());
  EXPECT_EQ(pg.waits[g.node({1, 3, 1})], 0u);
  play(g, pg);
}

TEST(HpamPlan, MulticastGatherSendsEachColumnBlockUpForCombining) {
  // 1x1 over 4x4, p2 = 2: each of the 8 column roots sends its 2-piece block
  // with the combine bit; the sink receives 2 merged messages (4 columns each)
  // from the level-1 router, whose bytes and tags are those of the blocks.
  const HpamGeometry g({{1, 1}, {4, 4}});
  const auto s = spec(Collective::kGather, Algorithm::kMulticast, 2, 1);
  const CollectivePlan plan = plan_collective(g, s);
  ASSERT_EQ(plan.receives[0].size(), 2u);
  std::uint64_t up_bytes = 0, up_tag = 0;
  unsigned up = 0;
  for (NodeId n = 1; n < g.nodes(); ++n)
    for (const auto& m : plan.sends[n])
      if (m.combine) {
        ++up;
        up_bytes += m.bytes;
        up_tag ^= m.tag;
        EXPECT_EQ(m.bytes, 200u);
        EXPECT_EQ(g.position(n).row % 2, 0u);
      }
  EXPECT_EQ(up, 8u);
  EXPECT_EQ(plan.receives[0][0].bytes + plan.receives[0][1].bytes, up_bytes);
  EXPECT_EQ(plan.receives[0][0].tag ^ plan.receives[0][1].tag, up_tag);
  std::uint64_t all = 0;
  for (NodeId n = 1; n < g.nodes(); ++n) all ^= piece_tag(s.seed, 0, n);
  EXPECT_EQ(up_tag, all);
}

TEST(HpamPlan, BruteForceSendsEveryMessageFromTheSource) {
  const HpamGeometry g({{2, 2}, {4, 4}});
  const auto s = spec(Collective::kBroadcast, Algorithm::kBruteForce, 1, 1, true);
  const CollectivePlan plan = plan_collective(g, s);
  EXPECT_EQ(plan.sends[0].size(), 16u + 3u);
  EXPECT_EQ(plan.messages, 19u);
  play(g, plan);
}

}  // namespace
}  // namespace icn::hpam
