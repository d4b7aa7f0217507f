// The torus and iBT family as a user meets it: every broadcast verified on
// assorted networks, the JSON it writes, determinism, the stall watchdog,
// waveforms, and one clear line with exit code 2 for every kind of bad input.
#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "routers/ibt/ibt_topology.hpp"
#include "tests/support/ibt_reference.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

// Bad input: `icnsim run /dev/null <args>` (see expect_rejected).
void expect_run_rejected(const std::string& args, const std::string& needle) {
  expect_rejected("run /dev/null " + args, needle);
}

}  // namespace

// Every node of the group receives all k packets exactly once, intact; the
// books balance and no packet is left in the network - on tori and iBTs of
// one to four dimensions, every collective, several sources, packet counts
// that span one, two and three words of the routers' packet sets, and every
// forwarding order.
TEST(IbtRun, EveryBroadcastIsVerifiedCompleteOnAssortedNetworks) {
  const std::vector<std::vector<std::string>> scenarios{
      {"network.type=torus", "network.d=1", "network.n=7", "traffic.packets=1"},
      {"network.type=torus", "network.d=1", "network.n=9", "traffic.collective=global_broadcast", "traffic.packets=5"},
      {"network.type=ibt", "network.d=1", "network.n=30", "network.bypass=[4,10]", "traffic.packets=65", "traffic.source=7"},
      {"network.type=ibt", "network.d=1", "network.n=24", "network.bypass=[6]", "traffic.collective=global_broadcast",
       "traffic.packets=130", "network.forward_order=arrival"},
      {"network.type=torus", "network.n=6", "traffic.collective=rect_broadcast", "traffic.packets=3"},
      {"network.type=ibt", "network.n=16", "network.bypass=[4,12]", "traffic.collective=rect_broadcast",
       "traffic.source=[3,9]", "traffic.dimensions=[2,1]", "traffic.packets=64", "traffic.split=[40,24]"},
      {"network.type=ibt", "network.n=12", "network.bypass=[2]", "traffic.collective=global_broadcast",
       "traffic.pattern=[0,9]", "network.forward_order=pattern", "traffic.packets=7"},
      {"network.type=ibt", "network.n=20", "network.bypass=[6]", "traffic.dimension=2", "traffic.source=[5,5]",
       "network.forward_order=arrival", "traffic.pattern=best"},
      {"network.type=torus", "network.d=3", "network.n=5", "traffic.collective=rect_broadcast",
       "traffic.dimensions=[3,2]", "traffic.source=[1,2,3]", "traffic.packets=17"},
      {"network.type=ibt", "network.d=3", "network.n=18", "network.bypass=[6,12]", "traffic.collective=global_broadcast",
       "traffic.source=[17,0,5]", "traffic.packets=33"},
      {"network.type=ibt", "network.d=3", "network.n=9", "network.bypass=[3]", "traffic.collective=rect_broadcast",
       "traffic.dimensions=[1,3]", "traffic.packets=16", "traffic.split_tolerance=2"},
      {"network.type=torus", "network.d=4", "network.n=4", "traffic.collective=global_broadcast", "traffic.packets=9",
       "traffic.source=[1,2,3,0]"},
      {"network.type=ibt", "network.d=4", "network.n=12", "network.bypass=[8]", "traffic.collective=line_broadcast",
       "traffic.dimension=4", "traffic.packets=32", "traffic.source=[1,2,3,4]"},
  };
  const auto runs = run_scenarios(scenarios);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    SCOPED_TRACE(r.results["scenario"].dump());
    EXPECT_EQ(r.problem, "");
    EXPECT_TRUE(r.results["result"]["verified"].get<bool>());
    EXPECT_EQ(r.results["result"]["conservation"], "ok");
    const auto& m = r.results["result"]["messages"];
    EXPECT_EQ(m["delivered"], m["deliveries_expected"]);
    EXPECT_EQ(m["verified_receipts"], m["deliveries_expected"]);
    EXPECT_EQ(m["injected"], r.results["broadcast"]["packets"]);
    EXPECT_GT(r.results["result"]["cycles"].get<std::uint64_t>(), 0u);
    // Utilisation over time covers every step, and its transfers add up.
    EXPECT_EQ(r.results["links"]["utilisation_by_cycle"].size(), r.results["result"]["cycles"].get<std::size_t>());
    std::uint64_t ports_total = 0;
    for (const auto& p : r.results["ports"]) ports_total += p["transfers"].get<std::uint64_t>();
    EXPECT_EQ(ports_total, r.results["links"]["transfers"]);
    // Metrics against a BFS written in the test (up to 6000 nodes: all-sources BFS is quadratic).
    const auto& net = r.results["scenario"]["network"];
    const auto n = net["n"].get<unsigned>(), d = net["d"].get<unsigned>();
    const std::vector<unsigned> b = net.contains("bypass") ? net["bypass"].get<std::vector<unsigned>>() : std::vector<unsigned>{};
    const double nodes = std::pow(n, d);
    EXPECT_EQ(r.results["topology"]["nodes"].get<double>(), nodes);
    if (nodes <= 6000) {
      const IbtMetrics bfs = ibt_metrics_by_bfs(n, d, b);
      EXPECT_EQ(r.results["topology"]["diameter"], bfs.diameter);
      EXPECT_DOUBLE_EQ(r.results["topology"]["average_distance"].get<double>(), bfs.distance_sum / (nodes * nodes));
    }
    // No broadcast beats physics: a group node at distance h from the source
    // gets no packet before step h and at most one per link per step after.
    const auto& sc = r.results["scenario"]["network"];
    std::vector<unsigned> bypass;
    if (sc.contains("bypass")) bypass = sc["bypass"].get<std::vector<unsigned>>();
    const IbtTopology topo(sc["n"].get<unsigned>(), sc["d"].get<unsigned>(), bypass);
    const auto& bc = r.results["broadcast"];
    const auto source = bc["source_id"].get<NodeId>();
    const auto dims = bc["dimensions"].get<std::vector<unsigned>>();
    const std::uint64_t k = bc["packets"].get<std::uint64_t>();
    const auto dist = bfs_distances(topo, source);
    std::uint64_t bound = 0;
    for (NodeId y = 0; y < topo.nodes(); ++y) {
      bool member = true;
      for (unsigned i = 0; i < topo.d(); ++i) {
        const bool listed = std::find(dims.begin(), dims.end(), i + 1) != dims.end();
        member = member && (listed || topo.coord(y, i) == topo.coord(source, i));
      }
      if (member && y != source) bound = std::max<std::uint64_t>(bound, dist[y] + (k + topo.ports() - 1) / topo.ports() - 1);
    }
    EXPECT_GE(r.results["result"]["cycles"].get<std::uint64_t>(), bound);
  }
}

// With fewer packets than colours some colours carry nothing; the broadcast
// still completes, in the depth of the trees that do carry packets.
TEST(IbtRun, ColoursWithoutPacketsAreFine) {
  const auto runs = run_scenarios({{"network.type=torus", "network.d=3", "network.n=4",
                                    "traffic.collective=global_broadcast", "traffic.packets=2"}});
  EXPECT_EQ(runs[0].problem, "");
  EXPECT_EQ(runs[0].results["result"]["cycles"], 9);  // depth 3(n-1) + ceil(2/6) - 1
}

TEST(IbtCli, JsonHasTheDocumentedFieldsAndIsDeterministic) {
  const std::string dir = scratch_dir();
  const std::string args = "run /dev/null --set network.type=ibt --set network.n=24 --set network.bypass=[4,8] "
                           "--set traffic.collective=rect_broadcast --set seed=9 --quiet --json ";
  ASSERT_EQ(run_icnsim(args + dir + "/a.json").exit_code, 0);
  ASSERT_EQ(run_icnsim(args + dir + "/b.json").exit_code, 0);
  auto a = nlohmann::ordered_json::parse(read_file(dir + "/a.json"));
  auto b = nlohmann::ordered_json::parse(read_file(dir + "/b.json"));
  for (const char* key : {"diameter", "average_distance", "nodes", "classes"}) EXPECT_TRUE(a["topology"].contains(key));
  for (const char* key : {"cycles", "verified", "conservation", "messages", "expected"})
    EXPECT_TRUE(a["result"].contains(key)) << key;
  for (const char* key : {"utilisation", "utilisation_by_cycle", "duplicates_discarded"})
    EXPECT_TRUE(a["links"].contains(key)) << key;
  EXPECT_EQ(a["ports"].size(), 6u);
  EXPECT_TRUE(a["ports"][0].contains("max_queue"));
  // Values, not just keys: iBT(24^2; <4,8>) has 576 nodes in d*k = 4
  // classes, 6 ports each (2d + 2); diameter and distance sum from a BFS
  // written in the test; every other node receives each of the k = 32
  // packets once, and every link transfer is a first receipt or a discarded
  // duplicate.
  const IbtMetrics bfs = ibt_metrics_by_bfs(24, 2, {4, 8});
  EXPECT_EQ(a["topology"]["nodes"], 576);
  EXPECT_EQ(a["topology"]["classes"], 4);
  EXPECT_EQ(a["topology"]["diameter"], bfs.diameter);
  EXPECT_EQ(a["topology"]["distance_sum"], bfs.distance_sum);
  EXPECT_DOUBLE_EQ(a["topology"]["average_distance"].get<double>(), bfs.distance_sum / (576.0 * 576.0));
  const auto& r = a["result"];
  EXPECT_EQ(r["status"], "completed");
  EXPECT_EQ(r["verified"], true);
  EXPECT_EQ(r["conservation"], "ok");
  EXPECT_EQ(r["messages"]["injected"], 32);
  EXPECT_EQ(r["messages"]["deliveries_expected"], 575 * 32);
  EXPECT_EQ(r["messages"]["delivered"], 575 * 32);
  EXPECT_EQ(r["messages"]["lost"], 0);
  EXPECT_GE(r["cycles"].get<unsigned>(), bfs.diameter);  // the farthest node is diameter hops away
  EXPECT_EQ(a["links"]["directed_links"], 576 * 6);
  EXPECT_EQ(a["links"]["directed_bypass_links"], 576 * 2);
  EXPECT_EQ(a["links"]["transfers"].get<int>(),
            r["messages"]["delivered"].get<int>() + a["links"]["duplicates_discarded"].get<int>());
  EXPECT_GT(a["links"]["utilisation"].get<double>(), 0);
  EXPECT_LE(a["links"]["utilisation"].get<double>(), 1);
  EXPECT_EQ(a["scenario"]["network"]["bypass"], nlohmann::ordered_json::parse("[4,8]"));
  EXPECT_EQ(a["scenario"]["seed"], 9);
  EXPECT_EQ(deterministic_part(a).dump(), deterministic_part(b).dump());
}

TEST(IbtCli, ScenarioFilesRunAndVerify) {
  for (const char* file : {"ibt_table1_line.yaml", "torus_global_3d.yaml"}) {
    const CommandResult r = run_icnsim(std::string("run ") + ICNSIM_SOURCE_DIR + "/testbench/scenarios/" + file);
    EXPECT_EQ(r.exit_code, 0) << file << ": " << r.err;
    EXPECT_NE(r.out.find(" yes"), std::string::npos) << file;
  }
}

// Hops counted by the routers: on a ring of 8 every packet of a global
// broadcast travels round the ring without retracing, so a node at distance d
// from the source receives it after d hops (going +) or 8 - d (going -); over
// the 7 receivers each hop count 1..7 occurs once per packet either way.
TEST(IbtCli, BroadcastHopsOnARingAreTheRingDistances) {
  for (const unsigned k : {8u, 32u}) {
    const std::string json = scratch_dir() + "/ring.json";
    const auto r = run_icnsim("run " + std::string(ICNSIM_SOURCE_DIR) +
                              "/testbench/scenarios/torus_global_3d.yaml --set network.n=8 --set network.d=1"
                              " --set traffic.source=[0] --set traffic.packets=" + std::to_string(k) + " --json " + json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(json);
    const auto hops = nlohmann::json::parse(in)["result"]["latency"]["hops"];
    EXPECT_EQ(hops["count"].get<unsigned>(), 7 * k);
    EXPECT_EQ(hops["min"].get<unsigned>(), 1u);
    EXPECT_EQ(hops["max"].get<unsigned>(), 7u);
    EXPECT_DOUBLE_EQ(hops["mean"].get<double>(), 4.0);
    ASSERT_EQ(hops["bins"].size(), 7u);
    for (unsigned h = 1; h <= 7; ++h) EXPECT_EQ(hops["bins"][h - 1], nlohmann::json::array({h, h, k})) << "k " << k;
  }
}

TEST(IbtCli, ListNamesTheFamilyAndItsKeys) {
  const CommandResult r = run_icnsim("list");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* s : {"network.type=torus", "network.type=ibt", "network.bypass", "network.forward_order",
                        "traffic.pattern", "traffic.split_tolerance", "global_broadcast", "rect_broadcast"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(IbtCli, BadNetworkParametersAreRejectedNamingTheRule) {
  const std::string ibt = "--set network.type=ibt ";
  expect_run_rejected(ibt + "--set network.n=66 --set network.bypass=[4,16]", "network.n = 66: d*k = 4 must divide n");
  expect_run_rejected(ibt + "--set network.n=64 --set network.bypass=[5]", "b_1 = 5 is not a multiple of d*k = 2");
  expect_run_rejected(ibt + "--set network.n=64 --set network.bypass=[8,32]", "b_2 = 32: 2*b_j = 0 mod n");
  expect_run_rejected(ibt + "--set network.n=64 --set network.bypass=[70]", "bypass lengths must be 1..n-1");
  expect_run_rejected(ibt + "--set network.bypass=[]", "needs at least one bypass length");
  expect_run_rejected(ibt + "--set network.bypass=six", "expected a list of integers");
  expect_run_rejected(ibt + "--set network.d=5", "network.d = 5: out of range (1..4)");
  expect_run_rejected("--set network.type=torus --set network.n=2", "n must be at least 3");
  expect_run_rejected("--set network.type=torus --set network.n=2048 --set network.d=3", "at most 4194304 nodes");
  expect_run_rejected("--set network.type=torus --set network.bypass=[4]", "a torus has no bypass links");
  expect_run_rejected(ibt + "--set network.forward_order=random", "expected one of directional|pattern|arrival");
  expect_run_rejected(ibt + "--set network.failed_links=[5.q+]", "'5.q+' is not a link of this network");
  expect_run_rejected(ibt + "--set network.failed_links=[256.x+]", "'256.x+' is not a link");
}

TEST(IbtCli, BadTrafficParametersAreRejected) {
  const std::string t = "--set network.type=torus ";
  expect_run_rejected(t + "--set traffic.collective=allgather", "expected one of line_broadcast|rect_broadcast|global_broadcast|none");
  expect_run_rejected(t + "--set traffic.packets=0", "traffic.packets = 0: out of range (1..4096)");
  expect_run_rejected(t + "--set traffic.source=64", "traffic.source = 64: out of range");
  expect_run_rejected(t + "--set traffic.source=[1,2,3]", "needs exactly d = 2 coordinates");
  expect_run_rejected(t + "--set traffic.source=[1,8]", "element 8 out of range");
  expect_run_rejected(t + "--set traffic.dimension=3", "traffic.dimension = 3: out of range (1..d)");
  expect_run_rejected(t + "--set traffic.collective=rect_broadcast --set traffic.dimensions=[1,1]", "two distinct dimensions");
  expect_run_rejected(t + "--set network.d=1 --set traffic.collective=rect_broadcast", "rect_broadcast needs d >= 2");
  expect_run_rejected(t + "--set traffic.collective=global_broadcast --set traffic.dimension=2",
                  "applies only to traffic.collective=line_broadcast");
  expect_run_rejected(t + "--set traffic.collective=none --set traffic.packets=4", "only computes the topology metrics");
  expect_run_rejected(t + "--set traffic.pattern=16", "traffic.pattern = 16: out of range");
  expect_run_rejected(t + "--set traffic.pattern=[1,2]", "needs one pattern per colour (1 colours here)");
  expect_run_rejected(t + "--set traffic.collective=rect_broadcast --set traffic.split=[10,10,10,1]",
                  "needs 4 numbers (one per colour) summing to k = 32");
  expect_run_rejected(t + "--set traffic.split=[32] --set traffic.split_tolerance=2", "only applies with traffic.split=even");
  expect_run_rejected("--set network.type=ibt --set network.d=3 --set network.n=12 --set network.bypass=[3] "
                  "--set traffic.collective=global_broadcast --set traffic.split_tolerance=20",
                  "pattern/split combinations to try; at most 256");
}

// A failed link on one colour's chain: its subtree stalls, the watchdog stops
// the run and names the router port that owes the packets.
TEST(IbtCli, AFailedLinkStallsAndTheWatchdogNamesThePort) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_icnsim("run /dev/null --set network.type=torus --set network.n=6 "
                                     "--set traffic.collective=rect_broadcast --set network.failed_links=[1.x+] "
                                     "--set run.watchdog_cycles=50 --json " + dir + "/stall.json");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("stall"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("r1_0 port x+"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("link failed"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(read_file(dir + "/stall.json"));
  EXPECT_EQ(j["result"]["status"], "stalled");
  EXPECT_FALSE(j["result"]["verified"].get<bool>());
}

// Waveforms: GTKWave's vcd2fst reads the file, which holds every port's
// packet bus and queue (their values: tests/integration/waveform_ibt_test.cpp).
TEST(IbtCli, WaveformsOfASmallBroadcast) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_icnsim("run /dev/null --set network.type=ibt --set network.n=8 --set network.bypass=[2] "
                                     "--set traffic.collective=rect_broadcast --set traffic.packets=8 --vcd " + dir + "/w.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string vcd = read_file(dir + "/w.vcd");
  for (const char* s : {"$scope module r0_0", "$scope module xp", "$scope module bm", "$scope module pkt", " valid ", " queue "})
    EXPECT_NE(vcd.find(s), std::string::npos) << s;
  EXPECT_EQ(std::system(("vcd2fst " + dir + "/w.vcd " + dir + "/w.fst >/dev/null 2>&1").c_str()), 0);
  // A larger network traces 4096 routers, the broadcast group's first.
  const CommandResult big = run_icnsim("run /dev/null --set network.type=ibt --set network.n=128 --set network.bypass=[4] "
                                       "--set traffic.packets=4 --quiet --vcd " + dir + "/big.vcd --json " + dir + "/big.json");
  ASSERT_EQ(big.exit_code, 0) << big.err;
  const auto j = nlohmann::json::parse(read_file(dir + "/big.json"));
  EXPECT_EQ(j["waveforms"]["traced_routers"], 4096);
  EXPECT_FALSE(j["waveforms"]["all_routers"].get<bool>());
  const std::string big_vcd = read_file(dir + "/big.vcd");
  EXPECT_NE(big_vcd.find("$scope module r127_0 $end"), std::string::npos) << "the line along x is the group";
}

}  // namespace icn::test
