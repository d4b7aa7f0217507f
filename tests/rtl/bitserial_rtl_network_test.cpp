// The Verilated generator inside the bit-serial network: a whole network gives
// the same results with either generator, cycle for cycle.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "routers/fattree_bitserial/rtl_route_stream_generator.hpp"
#include "tests/support/bitserial_harness.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

using bitserial::BufferFill;
using bitserial::RtlClock;
using bitserial::RtlRouteStreamGenerator;

// Every pair of a height-H tree, alone in its delivery cycle.
std::vector<std::vector<SourceDestination>> all_pairs_alone(unsigned H) {
  std::vector<std::vector<SourceDestination>> rounds;
  for (NodeId s = 0; s < (NodeId{1} << H); ++s)
    for (NodeId d = 0; d < (NodeId{1} << H); ++d)
      if (s != d) rounds.push_back({SourceDestination{s, d}});
  return rounds;
}

}  // namespace

// Each message's arrival clock and payload, and each delivery report's clock,
// are the same with the RTL as with the behavioural generator.
TEST(BitSerialRtl, EveryPairArrivesOnTheSameClockWithEitherGenerator) {
  std::vector<std::unique_ptr<BitSerialBench>> behavioural, rtl;
  std::vector<std::unique_ptr<RtlClock>> clocks;
  for (unsigned H = 1; H <= 5; ++H) {
    const FatTreeShape shape(H, capacity_preset("cbft", H));
    bitserial::BitSerialOptions o;
    o.buffer_fill = H % 2 ? BufferFill::kZero : BufferFill::kTurnBit;
    behavioural.push_back(std::make_unique<BitSerialBench>(("b" + std::to_string(H)).c_str(), shape, o,
                                                           all_pairs_alone(H)));
    clocks.push_back(std::make_unique<RtlClock>(("clk" + std::to_string(H)).c_str()));
    RtlClock& clock = *clocks.back();
    const BufferFill fill = o.buffer_fill;
    o.make_generator = [&clock, H, fill](NodeId node) {
      return std::make_unique<RtlRouteStreamGenerator>(
          sc_core::sc_gen_unique_name(("gen" + std::to_string(node)).c_str()), H, fill, clock);
    };
    rtl.push_back(std::make_unique<BitSerialBench>(("r" + std::to_string(H)).c_str(), shape, o, all_pairs_alone(H)));
    clock.follow(rtl.back()->engine);
  }
  sc_core::sc_start();
  for (std::size_t i = 0; i < rtl.size(); ++i) {
    SCOPED_TRACE("H=" + std::to_string(i + 1));
    const BitSerialBench& b = *behavioural[i];
    const BitSerialBench& r = *rtl[i];
    ASSERT_EQ(r.engine.outcome().status, RunOutcome::Status::kCompleted) << r.engine.outcome().diagnostic;
    ASSERT_EQ(r.received.size(), b.received.size());
    ASSERT_EQ(r.received.size(), all_pairs_alone(static_cast<unsigned>(i + 1)).size());
    for (std::size_t k = 0; k < b.received.size(); ++k) {
      EXPECT_EQ(r.received[k].src, b.received[k].src);
      EXPECT_EQ(r.received[k].dst, b.received[k].dst);
      EXPECT_EQ(r.received[k].payload, b.received[k].payload);
      EXPECT_EQ(r.received[k].arrived, b.received[k].arrived);
    }
    ASSERT_EQ(r.reports.size(), b.reports.size());
    for (std::size_t k = 0; k < b.reports.size(); ++k) {
      EXPECT_TRUE(r.reports[k].delivered);
      EXPECT_EQ(r.reports[k].cycle, b.reports[k].cycle);
    }
  }
}

// Random permutations on a 64-processor tree, through the icnsim experiment:
// the JSON results (delivery cycles, losses, per-level statistics, clocks) are
// identical with nic.generator=behavioral and nic.generator=rtl.
TEST(BitSerialRtl, PermutationsOnSixtyFourProcessorsGiveIdenticalResults) {
  std::vector<std::vector<std::string>> cases;
  for (const char* caps : {"constant", "doubling", "[1,1,2,2,3,3]"}) {
    for (int seed = 1; seed <= 2; ++seed) {
      for (const char* gen : {"behavioral", "rtl"}) {
        cases.push_back({"network.type=fattree_bitserial", "network.processors=64",
                         std::string("network.capacities=") + caps, "seed=" + std::to_string(seed),
                         std::string("nic.generator=") + gen});
      }
    }
  }
  auto runs = run_scenarios(cases);
  for (std::size_t i = 0; i < runs.size(); i += 2) {
    SCOPED_TRACE(::testing::PrintToString(cases[i]));
    EXPECT_EQ(runs[i].problem, "");
    EXPECT_EQ(runs[i + 1].problem, "");
    EXPECT_GT(runs[i].results["result"]["delivery_cycles"].get<int>(), 0);
    for (auto* r : {&runs[i], &runs[i + 1]}) r->results["scenario"]["nic"].erase("generator");
    EXPECT_EQ(runs[i].results.dump(), runs[i + 1].results.dump());
  }
}

}  // namespace icn::test

namespace icn::test {

// Verilated generators are not thread-safe: a run that asks for several
// threads is refused with one line naming the generator.
TEST(BitSerialRtl, SeveralThreadsAreRefusedWithTheRtlGenerator) {
  expect_rejected("run " + kScenarios + "fattree_bitserial_doubling64_random.yaml --set nic.generator=rtl "
                  "--set run.threads=2",
                  "nic.generator=rtl (Verilated route-stream generators) runs on one thread");
}

}  // namespace icn::test
