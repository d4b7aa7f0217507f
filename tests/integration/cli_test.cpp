// The icnsim command as a user meets it: the default table, scenario runs,
// JSON determinism, and one clear line with exit code 2 for every kind of bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

std::string write_scenario(const std::string& name, const std::string& text) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(Cli, DefaultRunPrintsTheTableWithEveryCollectiveVerified) {
  const CommandResult r = run_icnsim("", 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* coll : {"broadcast", "scatter", "gather", "multinode_broadcast", "total_exchange (unpipelined)",
                           "total_exchange (pipelined)"}) {
    EXPECT_NE(r.out.find(coll), std::string::npos) << coll;
  }
  EXPECT_NE(r.out.find("CBFT n=16"), std::string::npos);
  EXPECT_NE(r.out.find("EBFT n=16"), std::string::npos);
  EXPECT_EQ(r.out.find(" NO"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("SystemC 2.3"), std::string::npos) << "banner on stdout";
}

TEST(Cli, ListNamesTypesCollectivesAndKeys) {
  const CommandResult r = run_icnsim("list");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* s : {"fattree_packet", "network.leaves", "network.capacities", "traffic.collective",
                        "multinode_broadcast", "traffic.pipelined", "traffic.root", "run.watchdog_cycles"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(Cli, ScenarioFilesInTheRepositoryRunAndVerify) {
  for (const char* file : {"fattree_cbft16_total_exchange.yaml", "fattree_ebft64_total_exchange.yaml",
                           "fattree_cbft32_flooding.yaml", "fattree_custom_capacities.yaml"}) {
    const CommandResult r = run_icnsim(std::string("run ") + ICNSIM_SOURCE_DIR + "/testbench/scenarios/" + file);
    EXPECT_EQ(r.exit_code, 0) << file << ": " << r.err;
    EXPECT_NE(r.out.find("yes"), std::string::npos) << file;
  }
}

TEST(Cli, JsonHasTheDocumentedFieldsAndIsDeterministic) {
  const std::string dir = scratch_dir();
  const std::string args = "run /dev/null --set network.leaves=32 --set network.capacities=ebft "
                           "--set traffic.collective=total_exchange --set seed=7 --json ";
  ASSERT_EQ(run_icnsim(args + dir + "/a.json").exit_code, 0);
  ASSERT_EQ(run_icnsim(args + dir + "/b.json").exit_code, 0);
  auto a = nlohmann::ordered_json::parse(read_file(dir + "/a.json"));
  auto b = nlohmann::ordered_json::parse(read_file(dir + "/b.json"));
  for (const char* key : {"cycles", "verified", "messages", "expected"}) EXPECT_TRUE(a["result"].contains(key)) << key;
  EXPECT_EQ(a["result"]["cycles"], 40);
  EXPECT_EQ(a["scenario"]["seed"], 7);
  EXPECT_EQ(a["levels"].size(), 5u);
  // Values, not just keys: every leaf sends to every other (32 x 31), all
  // arrive, none lost; a 32-leaf binary tree has 31 routers; the rate is
  // router-cycles over wall time.
  const auto& r = a["result"];
  EXPECT_EQ(r["status"], "completed");
  EXPECT_EQ(r["verified"], true);
  EXPECT_EQ(r["conservation"], "ok");
  EXPECT_EQ(r["messages"]["injected"], 32 * 31);
  EXPECT_EQ(r["messages"]["deliveries_expected"], 32 * 31);
  EXPECT_EQ(r["messages"]["delivered"], 32 * 31);
  EXPECT_EQ(r["messages"]["lost"], 0);
  // EBFT: each level-l channel carries 2^(l-1) (32 - 2^(l-1)) messages at
  // capacity 2^(l-1): at least 31 cycles, as any leaf's 31 receipts.
  EXPECT_GE(r["cycles"].get<int>(), 31);
  const auto& sim = a["sim"];
  EXPECT_EQ(sim["routers"], 31);
  EXPECT_GT(sim["wall_seconds"].get<double>(), 0);
  EXPECT_GT(sim["peak_rss_mb"].get<double>(), 1);
  EXPECT_GE(sim["simulated_cycles"].get<int>(), r["cycles"].get<int>());
  EXPECT_NEAR(sim["router_cycles_per_second"].get<double>(),
              31.0 * sim["simulated_cycles"].get<double>() / sim["wall_seconds"].get<double>(),
              1e-6 * sim["router_cycles_per_second"].get<double>());
  // Everything but the host measurements is byte-identical.
  EXPECT_EQ(deterministic_part(a).dump(), deterministic_part(b).dump());
}

TEST(Cli, UnknownKeyIsRejected) {
  expect_rejected("run /dev/null --set network.leafs=16", "unknown key 'network.leafs' (did you mean 'network.leaves'?); allowed under 'network' here: type, leaves");
  const std::string f = write_scenario("s.yaml", "network:\n  type: fattree_packet\nrunn:\n  max_cycles: 3\n");
  expect_rejected("run " + f, "unknown key 'runn.max_cycles'");
}

TEST(Cli, LeavesMustBeAPowerOfTwoAtLeastTwo) {
  expect_rejected("run /dev/null --set network.leaves=12", "network.leaves = 12: must be a power of two, 2..1048576");
  expect_rejected("run /dev/null --set network.leaves=1", "network.leaves = 1: out of range (a power of two, 2..1048576)");
  expect_rejected("run /dev/null --set network.leaves=-4", "network.leaves = -4: out of range");
  expect_rejected("run /dev/null --set network.leaves=sixteen", "network.leaves = sixteen: expected an integer");
}

TEST(Cli, CapacitiesMustFitTheTree) {
  expect_rejected("run /dev/null --set network.leaves=8 --set network.capacities=[2,1,4]",
                  "capacities must be non-decreasing toward the root (c_2 < c_1)");
  expect_rejected("run /dev/null --set network.leaves=8 --set network.capacities=[1,2]",
                  "needs exactly log2(n) = 3 capacities");
  expect_rejected("run /dev/null --set network.leaves=4 --set network.capacities=[0,1]", "capacities must be >= 1");
  expect_rejected("run /dev/null --set network.capacities=fat", "expected cbft, ebft or a list");
}

TEST(Cli, CollectiveAndRootAreChecked) {
  expect_rejected("run /dev/null --set traffic.collective=gossip",
                  "traffic.collective = gossip: expected one of broadcast|scatter|gather|multinode_broadcast|total_exchange");
  expect_rejected("run /dev/null --set traffic.collective=scatter --set traffic.root=16",
                  "traffic.root = 16: out of range (0..n-1)");
  expect_rejected("run /dev/null --set traffic.collective=multinode_broadcast --set traffic.root=2",
                  "only broadcast, scatter and gather have a root");
  expect_rejected("run /dev/null --set traffic.collective=scatter --set traffic.pipelined=true",
                  "applies only to traffic.collective=total_exchange");
  expect_rejected("run /dev/null --set traffic.collective=total_exchange --set traffic.pipelined=perhaps",
                  "expected true or false");
}

TEST(Cli, MalformedOrMissingScenario) {
  const std::string f = write_scenario("bad.yaml", "network:\n  leaves: [16\n");
  expect_rejected("run " + f, "malformed YAML");
  expect_rejected("run /nonexistent/x.yaml", "cannot open scenario file '/nonexistent/x.yaml'");
  const std::string g = write_scenario("list.yaml", "- a\n- b\n");
  expect_rejected("run " + g, "must be a YAML mapping");
}

TEST(Cli, BadCommandLine) {
  expect_rejected("frobnicate", "frobnicate");
  expect_rejected("run", "scenario is required");
  expect_rejected("run /dev/null --set", "--set");
  expect_rejected("run /dev/null --set network.leaves", "expected key=value");
  expect_rejected("run /dev/null --set network.type=hypercube", "network.type = hypercube: expected one of");
}

TEST(Cli, FailedRunExitsWithOne) {
  const CommandResult r = run_icnsim("run /dev/null --set traffic.collective=scatter --set network.failed_links=[nic0.up] "
                                     "--set run.watchdog_cycles=100");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("stall"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nic0 injection queue"), std::string::npos) << r.err;
}

}  // namespace icn::test

namespace icn::test {

namespace {

// The cells of the one row `icnsim run` prints (two or more spaces apart).
std::vector<std::string> printed_row(const std::string& out) {
  std::istringstream lines(out);
  std::string header, rule, row;
  std::getline(lines, header), std::getline(lines, rule), std::getline(lines, row);
  std::vector<std::string> cells;
  std::size_t at = 0;
  while (at < row.size()) {
    const std::size_t gap = row.find("  ", at);
    const std::string cell = row.substr(at, gap == std::string::npos ? std::string::npos : gap - at);
    if (!cell.empty()) cells.push_back(cell.substr(cell.find_first_not_of(' ')));
    if (gap == std::string::npos) break;
    at = row.find_first_not_of(' ', gap);
    if (at == std::string::npos) break;
  }
  return cells;
}

std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

}  // namespace

// The table a run prints is read from the results it writes: every figure in
// the row is the JSON's, at the stated precision (formatted here, by printf).
TEST(Cli, ThePrintedRowIsTheJsonsFigures) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_icnsim(std::string("run ") + ICNSIM_SOURCE_DIR +
                                     "/testbench/scenarios/mesh8x8_uniform.yaml --set measure.cycles=2000 --json " +
                                     dir + "/vc.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::ordered_json::parse(read_file(dir + "/vc.json"))["result"];
  const std::vector<std::string> row = printed_row(r.out);
  ASSERT_EQ(row.size(), 11u) << r.out;
  EXPECT_EQ(row[2], fixed(j["throughput"]["offered"].get<double>(), 4));
  EXPECT_EQ(row[3], fixed(j["throughput"]["accepted"].get<double>(), 4));
  EXPECT_EQ(row[4], fixed(j["latency"]["packet"]["mean"].get<double>(), 2));
  EXPECT_EQ(row[5], fixed(j["latency"]["network"]["mean"].get<double>(), 2));
  EXPECT_EQ(row[6], std::to_string(j["latency"]["packet"]["p99"].get<std::uint64_t>()));
  EXPECT_EQ(row[7], fixed(j["hops"]["mean"].get<double>(), 2));
  EXPECT_EQ(row[8], fixed(j["energy"]["per_flit_pj"].get<double>(), 1));
  EXPECT_EQ(row[9], j["stable"].get<bool>() ? "yes" : "NO");
  EXPECT_EQ(row[10], j["verified"].get<bool>() ? "yes" : "NO");

  // The pipelined broadcast on the VC mesh beside its reference crossbar.
  const CommandResult c = run_icnsim("run /dev/null --set network.type=vc --set network.k=4 --set "
                                     "traffic.collective=broadcast --set traffic.message_units=256 --set "
                                     "traffic.packets=16 --json " + dir + "/coll.json");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto k = nlohmann::ordered_json::parse(read_file(dir + "/coll.json"));
  const std::vector<std::string> cells = printed_row(c.out);
  ASSERT_EQ(cells.size(), 16u) << c.out;
  EXPECT_EQ(cells[9], std::to_string(k["result"]["cycles"].get<std::uint64_t>()));
  EXPECT_EQ(cells[10], std::to_string(k["result"]["crossbar_cycles"].get<std::uint64_t>()));
  EXPECT_EQ(cells[11], fixed(k["result"]["lost_percent"].get<double>(), 1) + " %");
  EXPECT_EQ(cells[12], std::to_string(k["congestion"]["tree_edge_congestion"].get<std::uint64_t>()));
  EXPECT_EQ(cells[13], std::to_string(k["congestion"]["max_packets_on_link"].get<std::uint64_t>()));
  EXPECT_EQ(cells[14], fixed(k["result"]["energy"]["per_flit_pj"].get<double>(), 1));
  EXPECT_EQ(cells[15], "yes");
}

}  // namespace icn::test
