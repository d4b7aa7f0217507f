// Reproduction of Dimakopoulos & Dimopoulos, "Communications in Binary Fat
// Trees", in the simulated routers. Expected values are the paper's theorems
// and equations (computed here, independently of the model) and the reference
// values of shared/papers/READING-NOTES.md.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

struct Case {
  unsigned n;
  std::string caps;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.caps << " n=" << c.n; }
};

std::vector<Case> sizes() {
  std::vector<Case> cases;
  for (const char* caps : {"cbft", "ebft"})
    for (unsigned n = 4; n <= 256; n *= 2) cases.push_back({n, caps});
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return info.param.caps + std::to_string(info.param.n);
}

unsigned log2u(unsigned n) { return static_cast<unsigned>(std::lround(std::log2(n))); }

std::vector<std::string> scenario(const Case& c, const std::string& collective) {
  return {"network.type=fattree_packet", "network.leaves=" + std::to_string(c.n), "network.capacities=" + c.caps,
          "traffic.collective=" + collective};
}

// Eq. (1) (unpipelined) or (2) (pipelined): sum_i ceil(4^(i-1)/c_i) + (log n)^2 or 2 log n - 1.
std::uint64_t equation(const Case& c, bool pipelined) {
  const unsigned h = log2u(c.n);
  std::uint64_t sum = 0;
  for (unsigned i = 1; i <= h; ++i) {
    const std::uint64_t cap = c.caps == "cbft" ? 1 : (1ull << (i - 1));
    sum += ((1ull << (2 * (i - 1))) + cap - 1) / cap;
  }
  return pipelined ? sum + 2 * h - 1 : sum + h * h;
}

class Dimakopoulos : public ::testing::TestWithParam<Case> {};

}  // namespace

// Theorem 1 and its dual, and Theorem 2: n + 1 steps, the lower bound.
TEST_P(Dimakopoulos, ScatterGatherAndFloodingTakeNPlusOneSteps) {
  const Case c = GetParam();
  const auto runs = run_scenarios({scenario(c, "scatter"), scenario(c, "gather"), scenario(c, "multinode_broadcast")});
  for (const auto& run : runs) {
    SCOPED_TRACE(run.results["scenario"]["traffic"]["collective"].get<std::string>());
    expect_clean(run);
    EXPECT_EQ(cycles(run), c.n + 1);
  }
}

// Section 2.1: broadcast in broadcast mode takes the diameter, 2 log n.
TEST_P(Dimakopoulos, BroadcastTakesTwiceLogN) {
  const Case c = GetParam();
  const auto run = run_scenario(scenario(c, "broadcast"));
  expect_clean(run);
  EXPECT_EQ(cycles(run), 2 * log2u(c.n));
}

// Section 5: eq. (1) unpipelined, eq. (2) pipelined, and no queueing anywhere.
TEST_P(Dimakopoulos, TotalExchangeMeetsEquationsOneAndTwoWithoutQueues) {
  const Case c = GetParam();
  auto unpiped = scenario(c, "total_exchange");
  unpiped.push_back("traffic.pipelined=false");
  auto piped = scenario(c, "total_exchange");
  piped.push_back("traffic.pipelined=true");
  const auto runs = run_scenarios({unpiped, piped});
  EXPECT_EQ(cycles(runs[0]), equation(c, false));
  EXPECT_EQ(cycles(runs[1]), equation(c, true));
  for (const auto& run : runs) {
    expect_clean(run);
    for (const auto& level : run.results["levels"]) {
      EXPECT_EQ(level["max_queue_up"], 0) << "level " << level["level"];
      EXPECT_EQ(level["max_queue_down"], 0) << "level " << level["level"];
    }
    EXPECT_EQ(run.results["nic"]["max_injection_queue"], 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, Dimakopoulos, ::testing::ValuesIn(sizes()), case_name);

// Section 4.1: with flooding on a CBFT the up-link queue of a level-i node
// reaches 2^(i-1) (READING-NOTES: measured after the step's transmission);
// down links reach 2^(i-1) - 2.
TEST(DimakopoulosQueues, FloodingQueuesOnCbftUpLinksReachTwoToTheIMinusOne) {
  std::vector<std::vector<std::string>> runs_spec;
  for (unsigned n = 4; n <= 256; n *= 2) runs_spec.push_back(scenario({n, "cbft"}, "multinode_broadcast"));
  const auto runs = run_scenarios(runs_spec);
  for (const auto& run : runs) {
    const auto& levels = run.results["levels"];
    const unsigned h = static_cast<unsigned>(levels.size());
    SCOPED_TRACE("n=" + std::to_string(1u << h));
    expect_clean(run);
    for (unsigned i = 1; i < h; ++i) {  // the root has no up link
      EXPECT_EQ(levels[i - 1]["max_queue_up"].get<std::int64_t>(), std::int64_t{1} << (i - 1)) << "level " << i;
      EXPECT_EQ(levels[i - 1]["max_queue_down"].get<std::int64_t>(), std::max<std::int64_t>(0, (1 << (i - 1)) - 2))
          << "level " << i;
    }
  }
}

// READING-NOTES reference values for pipelined total exchange (steps).
TEST(DimakopoulosReference, PipelinedTotalExchangeReferenceValues) {
  struct Ref {
    unsigned n;
    const char* caps;
    std::uint64_t steps;
  };
  const std::vector<Ref> refs{{8, "cbft", 26}, {64, "cbft", 1376}, {8, "ebft", 12}, {64, "ebft", 74}, {256, "ebft", 270}};
  std::vector<std::vector<std::string>> specs;
  for (const auto& r : refs) specs.push_back(scenario({r.n, r.caps}, "total_exchange"));
  const auto runs = run_scenarios(specs);
  for (std::size_t i = 0; i < refs.size(); ++i) {
    expect_clean(runs[i]);
    EXPECT_EQ(cycles(runs[i]), refs[i].steps) << refs[i].caps << " n=" << refs[i].n;
  }
}

// EBFT total exchange sits within 2 log log n of the Lemma 3 lower bound.
TEST(DimakopoulosReference, EbftTotalExchangeIsWithinTwoLogLogNOfLemmaThree) {
  std::vector<std::vector<std::string>> specs;
  const std::vector<unsigned> ns{4, 16, 256};
  for (unsigned n : ns) specs.push_back(scenario({n, "ebft"}, "total_exchange"));
  const auto runs = run_scenarios(specs);
  for (std::size_t i = 0; i < ns.size(); ++i) {
    const unsigned n = ns[i], h = log2u(n), loglog = log2u(h);
    const std::uint64_t lemma3 = n + 2 * h - 2 * loglog - 2;
    EXPECT_GE(cycles(runs[i]), lemma3);
    EXPECT_EQ(cycles(runs[i]) - lemma3, 2 * loglog) << "n=" << n;  // eq. (3): n + 2 log n - 2
  }
}

// A slower pipeline (gap 2, the printed text's reading) makes phases collide:
// the hardware then queues and the run is slower than eq. (2) would be with gap 2.
TEST(DimakopoulosReference, PrintedPipelineOverlapCausesQueueing) {
  auto spec = scenario({64, "ebft"}, "total_exchange");
  spec.push_back("traffic.pipeline_gap=2");
  const auto run = run_scenario(spec);
  expect_clean(run);
  std::uint64_t worst = 0;
  for (const auto& level : run.results["levels"])
    worst = std::max({worst, level["max_queue_up"].get<std::uint64_t>(), level["max_queue_down"].get<std::uint64_t>()});
  EXPECT_GT(worst, 0u);
}

}  // namespace icn::test
