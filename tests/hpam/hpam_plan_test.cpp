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
        // A level-1 processor that is no destination receives only as a
        // relay: in the source's row, level-2 pieces for its part of level 2.
        const bool relay = !dest && n != src && g.position(n).row == s.source.row && !plan.receives[n].empty();
        ASSERT_EQ(plan.receives[n].size(), dest || relay ? 1u : 0u) << n;
        if (!dest && !relay) continue;
        const PlannedMessage& m = plan.receives[n][0];
        const std::uint64_t own = !dest ? 0 : (all && g.position(n).level == 0) ? 800 : 100;
        EXPECT_GE(m.bytes, own);
        EXPECT_GT(m.bytes, 0u);
        // What n forwards plus its own piece is exactly what it received.
        std::uint64_t fwd_bytes = 0, fwd_tag = 0;
        for (const auto& f : plan.sends[n]) {
          fwd_bytes += f.bytes;
          fwd_tag ^= f.tag;
        }
        EXPECT_EQ(m.bytes, fwd_bytes + own);
        EXPECT_EQ(m.tag, fwd_tag ^ (dest ? piece_tag(s.seed, src, n) : 0));
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

// Several level-1 processors (sections 3.2, 4.2): the source's row relays.
// A machine 2x4 over 4x16 (f = 4), the source at (1, 2)_1.
struct RelayMachine {
  HpamGeometry g{{{2, 4}, {4, 16}}};
  Position source{0, 1, 2};
  unsigned f = 4, c1 = 4, r2 = 4, c2 = 16;
  bool inter_level(const PlannedMessage& m) const {
    return g.position(m.src).level == 0 && g.position(m.dst).level == 1;
  }
};

TEST(HpamPlan, RelayBroadcastFeedsLevelTwoFromTheSourcesRow) {
  const RelayMachine M;
  const NodeId src = M.g.node(M.source);
  for (auto [p, q] : submesh_shapes(M.g, Algorithm::kHybrid))
    for (bool all : {false, true}) {
      auto s = spec(Collective::kBroadcast, Algorithm::kHybrid, p, q, all);
      s.source = M.source;
      const CollectivePlan plan = plan_collective(M.g, s);
      play(M.g, plan);
      // The paper's count of relays: every processor of the row when a
      // sub-mesh is at most f columns wide (case a), else c2 / q2 (case b).
      const unsigned relays = q <= M.f ? M.c1 : M.c2 / q;
      std::set<NodeId> feeding;
      for (NodeId n = 0; n < M.g.nodes(); ++n)
        for (const PlannedMessage& m : plan.sends[n]) {
          if (!M.inter_level(m)) continue;
          feeding.insert(n);
          // Into the column right below the relay, to a sub-mesh's top row.
          EXPECT_EQ(M.g.position(m.dst).col / M.f, M.g.position(n).col);
          EXPECT_EQ(M.g.position(m.dst).row % p, 0u);
        }
      EXPECT_EQ(feeding.size(), relays) << p << "x" << q;
      for (NodeId n : feeding) {
        EXPECT_EQ(M.g.position(n).row, M.source.row);
        unsigned inter = 0;
        for (const PlannedMessage& m : plan.sends[n]) inter += M.inter_level(m);
        EXPECT_EQ(inter, (M.r2 / p) * (M.c2 / q) / relays);  // each relay its share of the roots
      }
      // The source's first log2(relays) sends go along its row (the partial
      // broadcast), before any inter-level send.
      unsigned steps = 0;
      for (unsigned x = relays; x > 1; x /= 2) ++steps;
      ASSERT_GE(plan.sends[src].size(), steps);
      for (unsigned i = 0; i < steps; ++i) {
        EXPECT_EQ(M.g.position(plan.sends[src][i].dst).level, 0u);
        EXPECT_EQ(M.g.position(plan.sends[src][i].dst).row, M.source.row);
      }
      if (steps < plan.sends[src].size()) {
        EXPECT_TRUE(M.inter_level(plan.sends[src][steps]));
      }
      // Every destination gets the one content once.
      for (NodeId n = 0; n < M.g.nodes(); ++n) {
        const bool dest = n != src && (all || M.g.position(n).level == 1);
        if (dest) {
          ASSERT_EQ(plan.receives[n].size(), 1u) << n;
          EXPECT_EQ(plan.receives[n][0].tag, piece_tag(s.seed, src, src));
        } else if (n != src && !plan.receives[n].empty()) {
          EXPECT_TRUE(feeding.count(n)) << n;  // a relay that is no destination
        }
      }
    }
}

TEST(HpamPlan, RelayScatterMovesThePapersBytesThroughLevelOne) {
  // Eq. (12) (q2 <= f): the partial scatter moves r2 f (c1 - 1) pieces along
  // the source's row in log2 c1 steps of the source; each relay then sends
  // (f / q2)(r2 / p2) messages of p2 q2 pieces. Eq. (13) (q2 > f): r2 (c2 - q2)
  // pieces, log2(c2 / q2) steps, r2 / p2 messages each. Eq. (14): like (12),
  // r2 / p2 replicated messages of p2 f pieces.
  const RelayMachine M;
  const NodeId src = M.g.node(M.source);
  auto check = [&](Algorithm a, unsigned p, unsigned q) {
    auto s = spec(Collective::kScatter, a, p, q);
    s.source = M.source;
    const CollectivePlan plan = plan_collective(M.g, s);
    if (a == Algorithm::kHybrid) play(M.g, plan);  // (a replicated send is received f times)
    const bool case_a = q <= M.f;
    const unsigned relays = case_a ? M.c1 : M.c2 / q;
    std::uint64_t row_bytes = 0;
    unsigned source_row_sends = 0;
    for (NodeId n = 0; n < M.g.nodes(); ++n)
      for (const PlannedMessage& m : plan.sends[n]) {
        if (M.g.position(m.dst).level == 0 && n == src) {  // the source's partial scatter
          row_bytes += m.bytes;
          ++source_row_sends;
        }
        if (M.inter_level(m)) {
          const unsigned pieces = a == Algorithm::kMulticast ? p * M.f : p * q;
          EXPECT_EQ(m.bytes, 100u * pieces);
          EXPECT_EQ(m.replicate, a == Algorithm::kMulticast);
        }
      }
    // What the source sends along its row: c1/2 + c1/4 + ... + 1 relays' shares.
    EXPECT_EQ(row_bytes, 100u * (case_a ? M.r2 * M.f * (M.c1 - 1) : M.r2 * (M.c2 - q))) << p << "x" << q;
    unsigned steps = 0;
    for (unsigned x = relays; x > 1; x /= 2) ++steps;
    EXPECT_EQ(source_row_sends, steps);
    unsigned inter = 0;
    for (const PlannedMessage& m : plan.sends[src]) inter += M.inter_level(m);
    EXPECT_EQ(inter, a == Algorithm::kMulticast ? M.r2 / p : (case_a ? (M.f / q) * (M.r2 / p) : M.r2 / p));
  };
  for (auto [p, q] : submesh_shapes(M.g, Algorithm::kHybrid)) check(Algorithm::kHybrid, p, q);
  for (auto [p, q] : submesh_shapes(M.g, Algorithm::kMulticast)) check(Algorithm::kMulticast, p, q);
}

TEST(HpamPlan, RelayMulticastGatherCombinesIntoEveryRelay) {
  // The gather reversed: each relay of the source's row receives r2 / p2
  // merged messages through the combining router below it, then hands its
  // row parent everything it holds.
  const RelayMachine M;
  auto s = spec(Collective::kGather, Algorithm::kMulticast, 2, 1);
  s.source = M.source;
  const CollectivePlan plan = plan_collective(M.g, s);
  // (Not played: f messages up become one at the combining router.)
  for (unsigned c = 0; c < M.c1; ++c) {
    const NodeId relay = M.g.node({0, M.source.row, c});
    unsigned merged = 0;
    for (const PlannedMessage& m : plan.receives[relay]) {
      const Position from = M.g.position(m.src);
      // A combined message names its group: the senders' row, first column below c.
      if (from.level == 1 && from.col == c * M.f && from.row % 2 == 0) ++merged;
    }
    EXPECT_EQ(merged, M.r2 / 2) << c;
  }
  std::uint64_t at_sink = 0, tag = 0;
  for (const PlannedMessage& m : plan.receives[M.g.node(M.source)]) {
    at_sink += m.bytes;
    tag ^= m.tag;
  }
  EXPECT_EQ(at_sink, 100u * M.r2 * M.c2);  // every level-2 piece reaches the sink once
  std::uint64_t all = 0;
  for (NodeId n = M.g.first_node(1); n < M.g.nodes(); ++n) all ^= piece_tag(s.seed, M.g.node(M.source), n);
  EXPECT_EQ(tag, all);
}

}  // namespace
}  // namespace icn::hpam
