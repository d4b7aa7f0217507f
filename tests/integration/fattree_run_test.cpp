// Whole fat-tree runs through routers, links, NICs and processing elements.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {
std::vector<std::string> fattree(const std::string& leaves, const std::string& caps, const std::string& collective) {
  return {"network.type=fattree_packet", "network.leaves=" + leaves, "network.capacities=" + caps,
          "traffic.collective=" + collective};
}
// A lower bound on the cycles of a collective, from counting alone (not the
// model's own bound): a packet crosses 2h links to the farthest leaf; a leaf
// link carries c_1 packets per cycle, and the root's (or every leaf's) n - 1
// packets use one; in a total exchange the 2^(l-1) leaves below a level-l
// channel send 2^(l-1) (n - 2^(l-1)) messages out through it, c_l per cycle.
std::uint64_t cycles_at_least(const std::vector<std::string>& c) {
  auto value = [&](const std::string& key) {
    for (const auto& kv : c)
      if (kv.rfind(key + "=", 0) == 0) return kv.substr(key.size() + 1);
    return std::string();
  };
  const std::uint64_t n = std::stoull(value("network.leaves"));
  unsigned h = 0;
  while ((std::uint64_t{1} << h) < n) ++h;
  std::vector<std::uint64_t> cap;  // c_1..c_h
  const std::string caps = value("network.capacities");
  for (unsigned l = 1; l <= h; ++l) {
    if (caps == "cbft") cap.push_back(1);
    else if (caps == "ebft") cap.push_back(std::uint64_t{1} << (l - 1));
  }
  if (cap.empty()) {
    std::string list = caps.substr(1, caps.size() - 2);
    for (std::size_t at = 0; at < list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      cap.push_back(std::stoull(list.substr(at, comma - at)));
      at = comma + 1;
    }
  }
  auto ceil_div = [](std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; };
  const std::string coll = value("traffic.collective");
  std::uint64_t bound = 2 * h;
  if (coll != "broadcast") bound = std::max(bound, ceil_div(n - 1, cap[0]));
  if (coll == "total_exchange")
    for (unsigned l = 1; l <= h; ++l) {
      const std::uint64_t below = std::uint64_t{1} << (l - 1);
      bound = std::max(bound, ceil_div(below * (n - below), cap[l - 1]));
    }
  return bound;
}

}  // namespace

// Every collective, several sizes, roots and capacity patterns: each PE gets
// exactly its messages, intact, and the books balance.
TEST(FatTreeRuns, EveryCollectiveVerifiesOnAssortedTrees) {
  std::vector<std::vector<std::string>> cases;
  for (const char* caps : {"cbft", "ebft", "[1,2,2,4,4]", "[2,2,3,3,8]"}) {
    for (const char* coll : {"broadcast", "scatter", "gather", "multinode_broadcast", "total_exchange"}) {
      auto c = fattree("32", caps, coll);
      if (std::string(coll) == "broadcast" || std::string(coll) == "scatter" || std::string(coll) == "gather")
        c.push_back("traffic.root=13");
      cases.push_back(c);
    }
  }
  cases.push_back(fattree("2", "cbft", "total_exchange"));
  cases.push_back(fattree("2", "ebft", "multinode_broadcast"));
  const auto runs = run_scenarios(cases);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i].results["result"];
    SCOPED_TRACE(::testing::PrintToString(cases[i]));
    EXPECT_EQ(runs[i].problem, "");
    EXPECT_EQ(r["status"], "completed");
    EXPECT_TRUE(r["verified"].get<bool>());
    EXPECT_EQ(r["conservation"], "ok");
    EXPECT_EQ(r["messages"]["delivered"], r["messages"]["deliveries_expected"]);
    EXPECT_GE(r["cycles"].get<std::uint64_t>(), cycles_at_least(cases[i]));
  }
}

// A link that never transmits: the traffic behind it stalls, and the watchdog
// ends the run naming the router, port and queue instead of hanging.
TEST(FatTreeRuns, FailedLinkIsReportedByTheWatchdog) {
  auto c = fattree("16", "cbft", "scatter");
  c.push_back("network.failed_links=[r2_0.up]");
  c.push_back("run.watchdog_cycles=200");
  const auto run = run_scenario(c);
  const auto& r = run.results["result"];
  EXPECT_EQ(r["status"], "stalled");
  EXPECT_FALSE(r["verified"].get<bool>());
  EXPECT_NE(run.problem.find("r2_0 port up output queue (link failed)"), std::string::npos) << run.problem;
  EXPECT_NE(run.problem.find("200 cycles"), std::string::npos) << run.problem;
  ASSERT_TRUE(r.contains("held"));
  // Scatter from leaf 0 sends its 12 messages for leaves 4..15 through r2_0.up first (furthest first).
  EXPECT_EQ(r["held"][0]["packets"], 12);
}

// Without buffers in the routers the flooding algorithm must queue: the audit
// of queue sizes is observed in the hardware, and a tree with more capacity
// changes where the queues form.
TEST(FatTreeRuns, QueuesAreObservedPerLevel) {
  const auto runs = run_scenarios({fattree("64", "cbft", "multinode_broadcast"),
                                   fattree("64", "ebft", "multinode_broadcast")});
  const auto& cbft = runs[0].results["levels"];
  const auto& ebft = runs[1].results["levels"];
  ASSERT_EQ(cbft.size(), 6u);
  for (unsigned i = 1; i <= 5; ++i) EXPECT_EQ(cbft[i - 1]["max_queue_up"], 1u << (i - 1));
  // On the EBFT every up branch has room for the whole subtree: no up queues.
  for (unsigned i = 1; i <= 5; ++i) EXPECT_EQ(ebft[i - 1]["max_queue_up"], 0u);
  for (unsigned i = 0; i < 6; ++i) {
    // Counted independently: each of the n broadcasts climbs every branch level
    // once (n up transfers per level) and enters every level-(l-1) subtree that
    // does not hold its source once (n * (n / 2^(l-1) - 1) down transfers).
    const std::uint64_t l = i + 1, n = 64;
    EXPECT_EQ(cbft[i]["transfers_down"].get<std::uint64_t>(), n * (n / (1ull << (l - 1)) - 1));
    EXPECT_EQ(cbft[i]["transfers_up"].get<std::uint64_t>(), n);
  }
}

TEST(FatTreeRuns, LongerLinksDelayEveryHop) {
  const auto runs = run_scenarios({{"network.leaves=16", "traffic.collective=broadcast", "network.link_latency=3"}});
  // 2 log n = 8 hops of 3 cycles each: the last hop ends at the end of cycle 1 + 8*3 - 1.
  EXPECT_EQ(runs[0].results["result"]["cycles"], 24);
  EXPECT_TRUE(runs[0].results["result"]["verified"].get<bool>());
}

// Hops counted by the hardware (result.latency.hops: links traversed): a
// scatter's message from the root to leaf d climbs to their nearest common
// ancestor, at the level of the highest bit in which root and d differ, and
// back down: 2L links. The histogram is built here from that alone.
TEST(FatTreeRuns, ScatterHopsAreTwiceTheCommonAncestorsLevel) {
  const unsigned n = 16;
  const std::vector<unsigned> roots{0, 5, 15};
  std::vector<std::vector<std::string>> runs;
  for (unsigned root : roots) {
    auto o = fattree(std::to_string(n), "ebft", "scatter");
    o.push_back("traffic.root=" + std::to_string(root));
    runs.push_back(o);
  }
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < roots.size(); ++i) {
    std::map<unsigned, unsigned> want;  // hops -> messages
    for (unsigned d = 0; d < n; ++d) {
      if (d == roots[i]) continue;
      unsigned level = 0;
      for (unsigned x = d ^ roots[i]; x != 0; x >>= 1) ++level;
      ++want[2 * level];
    }
    nlohmann::ordered_json bins = nlohmann::ordered_json::array();
    for (const auto& [h, count] : want) bins.push_back({h, h, count});
    const auto& hops = results[i].results["result"]["latency"]["hops"];
    EXPECT_EQ(hops["count"].get<unsigned>(), n - 1) << "root " << roots[i];
    EXPECT_EQ(hops["bins"], bins) << "root " << roots[i];
  }
}

// Two experiments with the same scenario in one kernel give identical results.
TEST(FatTreeRuns, SameScenarioSameResults) {
  const auto c = fattree("64", "[1,2,2,4,4,8]", "total_exchange");
  const auto runs = run_scenarios({c, c});
  EXPECT_EQ(runs[0].results.dump(), runs[1].results.dump());
}

}  // namespace icn::test

namespace icn::test {

// The simple scheduling scheme (one SC_METHOD per block, every cycle) and the
// engine give the same results: evaluation order and skipping never matter.
TEST(FatTreeRuns, PerBlockMethodsGiveTheSameResultsAsTheEngine) {
  std::vector<std::vector<std::string>> cases;
  for (const char* coll : {"gather", "multinode_broadcast", "total_exchange"}) {
    for (const char* sched : {"engine", "per_block_methods"}) {
      cases.push_back({"network.leaves=32", "network.capacities=[1,2,2,4,4]", std::string("traffic.collective=") + coll,
                       std::string("run.scheduler=") + sched});
    }
  }
  auto runs = run_scenarios(cases);
  for (std::size_t i = 0; i < runs.size(); i += 2) {
    EXPECT_EQ(runs[i].problem, "");
    runs[i].results["scenario"]["run"].erase("scheduler");
    runs[i + 1].results["scenario"]["run"].erase("scheduler");
    EXPECT_EQ(runs[i].results.dump(), runs[i + 1].results.dump()) << ::testing::PrintToString(cases[i]);
  }
}

}  // namespace icn::test
