// The virtual-channel router family on the binary fat tree (network.topology
// = fattree): zero-load latency and hops for every destination against an
// independent computation, deadlock freedom at full load, the scenario.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/sim_helpers.hpp"
#include "tests/support/vc_pipeline.hpp"

namespace icn {

using test::run_icnsim;
using test::run_scenarios;
using test::Pipeline;
using test::zero_load_latency;

namespace {

std::vector<std::string> fattree_trace_keys(const Pipeline& p, const std::string& trace) {
  return {"network.type=vc", "router.buffer_depth=" + std::to_string(p.depth), "traffic.pattern=trace",
          "traffic.trace_file=" + trace, "measure.cycles=20"};
}

}  // namespace

// Routers an up*/down* path between leaves a and b of a binary fat tree
// crosses: climb both leaves' ancestors (leaf >> 1 per level) until they meet
// at level L; up L levels and down L: 2L - 1 routers (one for a leaf to itself).
unsigned fat_tree_routers(unsigned a, unsigned b) {
  unsigned level = 0;
  for (; a != b; a >>= 1, b >>= 1) ++level;
  return level == 0 ? 1 : 2 * level - 1;
}

TEST(VcRun, FatTreeZeroLoadLatencyAndHopsForEveryDestination) {
  // 16 leaves, EBFT capacities (1, 2, 4, 8 links): node 5 sends one packet to
  // every leaf, each in its own idle network. Hops from the climb above; the
  // latency from the same pipeline formula as the mesh (nothing waits).
  const Pipeline p{1, 1, 1, 1, 1, 4, 4};
  std::vector<std::vector<std::string>> runs;
  const std::string dir = test::scratch_dir();
  for (unsigned d = 0; d < 16; ++d) {
    const std::string trace = dir + "/ft" + std::to_string(d);
    std::ofstream(trace) << "5 5 " << d << " 4\n";
    auto o = fattree_trace_keys(p, trace);
    o.push_back("network.topology=fattree");
    o.push_back("network.leaves=16");
    o.push_back("network.capacities=ebft");
    runs.push_back(o);
  }
  const auto results = run_scenarios(runs);
  for (unsigned d = 0; d < 16; ++d) {
    const auto& r = results[d].results["result"];
    ASSERT_EQ(results[d].problem, "") << d;
    EXPECT_EQ(r["hops"]["max"].get<unsigned>(), fat_tree_routers(5, d)) << d;
    EXPECT_EQ(r["latency"]["packet"]["max"].get<unsigned>(), zero_load_latency(p, fat_tree_routers(5, d))) << d;
  }
}

TEST(VcRun, FatTreeIsDeadlockFreeAtFullLoadUnderUniformAndTranspose) {
  // Far beyond saturation on the CBFT (one link per branch: the root is the
  // bottleneck) and the EBFT, with one VC (up*/down* needs no VC classes) and
  // with two: every packet created arrives, the books balance.
  std::vector<std::vector<std::string>> runs;
  for (const char* caps : {"cbft", "ebft"})
    for (const char* pattern : {"uniform", "transpose"})
      for (const char* vcs : {"1", "2"})
        runs.push_back({"network.type=vc", "network.topology=fattree", "network.leaves=16",
                        std::string("network.capacities=") + caps, std::string("traffic.pattern=") + pattern,
                        std::string("router.vcs=") + vcs, "traffic.injection_rate=1", "measure.cycles=1500",
                        "traffic.packet_size=[1,4,9]"});
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& r = results[i].results["result"];
    EXPECT_EQ(results[i].problem, "");
    EXPECT_TRUE(r["verified"].get<bool>());
    EXPECT_EQ(r["packets"]["created"], r["packets"]["delivered"]);
    EXPECT_EQ(r["packets"]["held_at_end"].get<unsigned>(), 0u);
    EXPECT_LT(r["throughput"]["accepted"].get<double>(), 0.9) << "saturated";
  }
}

TEST(VcRun, WideFatTreeRoutersRunBeyondSixtyFourInputVcs) {
  // A 256-leaf EBFT: its top routers have 2 x 128 down links, 512 input VCs
  // with 2 VCs (the allocators arbitrate over any number of requesters), and
  // at full load every packet created still arrives. A 4096-leaf EBFT's top
  // router would need 4096 ports x 2 VCs, beyond vc::kMaxRouterInputVcs.
  std::vector<std::vector<std::string>> runs = {
      {"network.type=vc", "network.topology=fattree", "network.leaves=256", "network.capacities=ebft", "router.vcs=2",
       "traffic.pattern=uniform", "traffic.injection_rate=1", "measure.cycles=300"}};
  const auto results = run_scenarios(runs);
  const auto& r = results[0].results["result"];
  EXPECT_EQ(results[0].problem, "");
  EXPECT_TRUE(r["verified"].get<bool>());
  EXPECT_GT(r["packets"]["created"].get<unsigned>(), 0u);
  EXPECT_EQ(r["packets"]["created"], r["packets"]["delivered"]);
  EXPECT_EQ(r["packets"]["held_at_end"].get<unsigned>(), 0u);
  const auto refused = run_icnsim("run /dev/null --quiet --set network.type=vc --set network.topology=fattree "
                                  "--set network.leaves=4096 --set network.capacities=ebft");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("ports x vcs must be <= 4096 (largest router: 4096 ports, 2 VCs)"), std::string::npos)
      << refused.err;
}

TEST(VcRun, FatTreeScenarioRunsAndTheEbftOutperformsTheCbft) {
  const std::string scenario = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/fattree16_uniform.yaml";
  const std::string dir = test::scratch_dir();
  ASSERT_EQ(run_icnsim("run " + scenario + " --quiet --json " + dir + "/e.json").exit_code, 0);
  // The CBFT's root has one link each way, and half of uniform traffic crosses
  // it: 8 nodes x 0.3 x 8/16 = 1.2 flits per cycle > 1, so it is unstable.
  ASSERT_EQ(run_icnsim("run " + scenario + " --quiet --set network.capacities=cbft --json " + dir + "/c.json").exit_code,
            0);
  const auto e = nlohmann::json::parse(test::read_file(dir + "/e.json"))["result"];
  const auto c = nlohmann::json::parse(test::read_file(dir + "/c.json"))["result"];
  EXPECT_TRUE(e["stable"].get<bool>());
  EXPECT_TRUE(e["verified"].get<bool>());
  EXPECT_FALSE(c["stable"].get<bool>());
}

TEST(VcRun, FatTreeFailedLinksEndInAClearVerdictAndBadNamesAreRefused) {
  const std::string scenario = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/fattree16_uniform.yaml";
  const std::string json = test::scratch_dir() + "/ft_fault.json";
  // Leaf 3's injection link; the link down from r1_1 to leaf 3 (its
  // ejection); one of the two parallel links from r2_0 down to r1_1.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nic3.up", "behind the failed link nic3.up"},
      {"r1_1.down1", "waits on the failed link r1_1.down1"},
      {"r2_0.down1_0", "r2_0.down1_0"},
  };
  for (const auto& [link, needle] : cases) {
    SCOPED_TRACE(link);
    const auto r = run_icnsim("run " + scenario + " --quiet --json " + json + " --set 'network.failed_links=[" + link + "]'",
                              120);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto j = nlohmann::json::parse(test::read_file(json))["result"];
    EXPECT_FALSE(j["verified"].get<bool>());
    EXPECT_NE(j["problem"].get<std::string>().find(needle), std::string::npos) << j["problem"];
  }
  // EBFT of 16 leaves: c = 1, 2, 4, 8, so a level-1 router has up0/up1, a
  // level-2 router down0_0..down1_1 and up0..up3, the root no up link.
  for (const char* bad : {"nic16.up", "nic03.up", "r5_0.up", "r4_0.up0", "r1_8.down0", "r2_0.down2_0", "r2_0.down0",
                          "r1_0.up", "r1_0.up2", "r01_0.up0", "r1_00.down0", "r1_0.x+", "r1.up0"})
    test::expect_rejected("run " + scenario + " --set 'network.failed_links=[" + bad + "]'",
                          std::string("'") + bad + "' is not a link");
}

TEST(VcRun, FatTreeResourceEstimateIsWithinAFactorOfTwoOfMeasuredMemory) {
  const std::string scenario = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/fattree16_uniform.yaml";
  const std::string args = "run " + scenario + " --set network.leaves=2048 --set network.capacities=cbft --set preset=none "
                           "--set traffic.injection_rate=0.01 --set measure.cycles=50 --set measure.drain_all=false";
  const auto refused = run_icnsim(args + " --set run.max_memory=1MiB");
  ASSERT_EQ(refused.exit_code, 2) << refused.err;
  const auto at = refused.err.find("needs about ");
  ASSERT_NE(at, std::string::npos) << refused.err;
  const double estimate = std::stod(refused.err.substr(at + 12));  // MiB at this size
  if (std::getenv("ASAN_OPTIONS") != nullptr) return;
  const std::string json = test::scratch_dir() + "/ft_mem.json";
  ASSERT_EQ(run_icnsim(args + " --quiet --json " + json, 120).exit_code, 0);
  const double measured =
      nlohmann::json::parse(test::read_file(json))["sim"]["peak_rss_mb"].get<double>() * 1e6 / (1 << 20);
  EXPECT_GT(estimate, measured / 2);
  EXPECT_LT(estimate, measured * 2);
}

TEST(VcRun, FatTreeRandomUpChoicesAreDeterministicPerSeed) {
  // The up links are drawn by each router's own generator, seeded from the
  // scenario seed: same seed, same results (both schedulers); another seed differs.
  const std::string dir = test::scratch_dir();
  const std::string args =
      "run " + std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/fattree16_uniform.yaml --quiet --json ";
  ASSERT_EQ(run_icnsim(args + dir + "/a.json").exit_code, 0);
  ASSERT_EQ(run_icnsim(args + dir + "/b.json --set run.scheduler=per_block_methods").exit_code, 0);
  ASSERT_EQ(run_icnsim(args + dir + "/c.json --set seed=2").exit_code, 0);
  auto load = [&](const char* f) {
    return test::deterministic_part(nlohmann::ordered_json::parse(test::read_file(dir + "/" + f)));
  };
  const auto a = load("a.json"), b = load("b.json"), c = load("c.json");
  EXPECT_EQ(a["result"], b["result"]);
  EXPECT_NE(a["result"]["latency"], c["result"]["latency"]);
}

}  // namespace icn
