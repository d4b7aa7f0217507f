// Total-exchange schedules, checked without the simulator: every ordered pair
// is sent exactly once, and an independent link-by-link count shows whether
// two messages ever want more physical links of a branch than it has in the
// same step (contention).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "models/fat_tree.hpp"
#include "testbench/fattree_collectives.hpp"

namespace icn::fattree {

namespace {

struct Audit {
  std::uint64_t messages = 0;
  bool every_pair_once = true;
  std::uint64_t overloaded = 0;  // (branch, direction, step) triples over capacity
  Cycle last_arrival = 0;
};

Audit audit(const FatTreeShape& shape, const CollectiveOptions& o) {
  const NodeId n = shape.leaves();
  CollectivePlan plan = plan_collective(shape, o);
  std::set<std::pair<NodeId, NodeId>> pairs;
  // (level m of the lower node, its index, direction 0 up / 1 down, step) -> packets
  std::map<std::tuple<unsigned, NodeId, int, Cycle>, unsigned> use;
  Audit a;
  for (NodeId s = 0; s < n; ++s) {
    auto program = plan.program(s);
    while (auto send = program->next()) {
      ++a.messages;
      if (!pairs.insert({s, send->dst}).second || send->dst == s) a.every_pair_once = false;
      const unsigned top = FatTreeShape::lca_level(s, send->dst);
      Cycle t = send->step;
      for (unsigned m = 0; m < top; ++m) ++use[{m, s >> m, 0, t++}];
      for (unsigned m = top; m-- > 0;) ++use[{m, send->dst >> m, 1, t++}];
      a.last_arrival = std::max(a.last_arrival, t - 1);
    }
  }
  if (pairs.size() != static_cast<std::size_t>(n) * (n - 1)) a.every_pair_once = false;
  for (const auto& [key, count] : use)
    if (count > shape.capacity(std::get<0>(key) + 1)) ++a.overloaded;
  return a;
}

CollectiveOptions exchange(ExchangeSchedule s, bool pipelined, unsigned gap = 3) {
  CollectiveOptions o;
  o.collective = Collective::kTotalExchange;
  o.schedule = s;
  o.pipelined = pipelined;
  o.pipeline_gap = gap;
  return o;
}

}  // namespace

TEST(ExchangeSchedule, PaperSchedulesAreCompleteAndContentionFreeOnTheirTrees) {
  for (unsigned h = 1; h <= 7; ++h) {
    for (bool pipelined : {false, true}) {
      FatTreeShape cbft(h, capacity_preset("cbft", h)), ebft(h, capacity_preset("ebft", h));
      for (auto [shape, schedule] : {std::pair{cbft, ExchangeSchedule::kCbft},
                                     std::pair{ebft, ExchangeSchedule::kEbft},
                                     std::pair{cbft, ExchangeSchedule::kGeneral},
                                     std::pair{ebft, ExchangeSchedule::kGeneral}}) {
        const Audit a = audit(shape, exchange(schedule, pipelined));
        SCOPED_TRACE("h=" + std::to_string(h) + " " + to_string(schedule) + (pipelined ? " pipelined" : ""));
        EXPECT_TRUE(a.every_pair_once);
        EXPECT_EQ(a.overloaded, 0u);
      }
    }
  }
}

// With contention-free lockstep dispatch, the last arrival of the schedule on
// paper equals eq. (1) / (2) for the two presets.
TEST(ExchangeSchedule, ScheduleTimingMatchesEquationsOneAndTwo) {
  for (unsigned h = 2; h <= 7; ++h) {
    for (bool pipelined : {false, true}) {
      for (const char* preset : {"cbft", "ebft"}) {
        FatTreeShape shape(h, capacity_preset(preset, h));
        const auto schedule = std::string(preset) == "cbft" ? ExchangeSchedule::kCbft : ExchangeSchedule::kEbft;
        std::uint64_t eq = 0;
        for (unsigned i = 1; i <= h; ++i) eq += ((1ull << (2 * (i - 1))) + shape.capacity(i) - 1) / shape.capacity(i);
        eq += pipelined ? 2 * h - 1 : h * h;
        EXPECT_EQ(audit(shape, exchange(schedule, pipelined)).last_arrival, eq) << preset << " h=" << h;
      }
    }
  }
}

// READING-NOTES: starting the next phase only 2 steps after the last dispatch
// (the printed "h_i - 2 steps before") makes phases collide.
TEST(ExchangeSchedule, GapOfTwoStepsCausesContention) {
  FatTreeShape ebft(3, capacity_preset("ebft", 3));
  EXPECT_GT(audit(ebft, exchange(ExchangeSchedule::kEbft, true, 2)).overloaded, 0u);
  EXPECT_EQ(audit(ebft, exchange(ExchangeSchedule::kEbft, true, 3)).overloaded, 0u);
}

TEST(ExchangeSchedule, GeneralScheduleIsContentionFreeForAssortedCapacities) {
  const std::vector<std::vector<unsigned>> lists{
      {1, 2, 2, 4}, {1, 1, 4, 4}, {2, 2, 2, 2}, {1, 3, 3, 5}, {1, 2, 4, 16}, {1, 1, 1, 8}, {3, 6, 12, 24}};
  for (const auto& caps : lists) {
    FatTreeShape shape(static_cast<unsigned>(caps.size()), caps);
    for (bool pipelined : {false, true}) {
      const Audit a = audit(shape, exchange(ExchangeSchedule::kGeneral, pipelined));
      EXPECT_TRUE(a.every_pair_once);
      EXPECT_EQ(a.overloaded, 0u) << "caps " << ::testing::PrintToString(caps);
    }
  }
}

// The EBFT schedule on a constant-capacity tree overloads the upper branches:
// the audit must be able to see contention.
TEST(ExchangeSchedule, EbftScheduleOnACbftTreeContends) {
  FatTreeShape cbft(4, capacity_preset("cbft", 4));
  EXPECT_GT(audit(cbft, exchange(ExchangeSchedule::kEbft, true)).overloaded, 0u);
}

TEST(ExchangeSchedule, ContentionFreeRate) {
  FatTreeShape ebft(5, capacity_preset("ebft", 5));
  for (unsigned l = 1; l <= 5; ++l) EXPECT_EQ(contention_free_rate(ebft, l), 1u << (l - 1));
  FatTreeShape cbft(5, capacity_preset("cbft", 5));
  for (unsigned l = 1; l <= 5; ++l) EXPECT_EQ(contention_free_rate(cbft, l), 1u);
  // c = [1,1,1,8]: the level-4 phase is limited by c_3 = 1 two levels below:
  // a level-2 subtree holds 4 of the 8 senders of a side, so C <= 1 * 2 = 2.
  FatTreeShape thin({4}, {1, 1, 1, 8});
  EXPECT_EQ(contention_free_rate(thin, 4), 2u);
  // c = [1,3,3,5]: 5 rounds down to 4; c_2 = 3 allows 3*4=12, c_3 allows 3*2=6.
  FatTreeShape odd({4}, {1, 3, 3, 5});
  EXPECT_EQ(contention_free_rate(odd, 4), 4u);
}

}  // namespace icn::fattree
