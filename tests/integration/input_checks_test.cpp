// What a scenario may say, checked where a user meets it (issue 19): a key
// that does not apply is refused with the reason, values are type-checked
// even where a preset would fill them, typos get a suggestion, keys can be
// removed from the command line, and no output overwrites an input or
// another output. Each case: exit 2, one line, the named problem.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {
const std::string kMesh = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/mesh8x8_uniform.yaml";
const std::string kShort = " --set measure.cycles=50 --quiet";
}  // namespace

// The keys the hostile-input run found accepted on a VC mesh with Bernoulli
// uniform traffic: each changes nothing there, so each is refused, with why.
TEST(InputChecks, VcKeysThatDoNotApplyAreRefusedWithTheReason) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"network.leaves=abc", "network.topology=fattree"},
      {"network.capacities=[1,2,4]", "network.topology=fattree"},
      {"'router.dateline=[[1]]'", "network.topology=torus"},
      {"traffic.burst_alpha=-1", "traffic.injection=onoff"},
      {"traffic.burst_beta=0.5", "traffic.injection=onoff"},
      {"traffic.hotspot_fraction=0.5", "traffic.pattern=hotspot"},
      {"traffic.hotspot_nodes=[3]", "traffic.pattern=hotspot"},
      {"traffic.packet_size_weights=[1]", "traffic.packet_size given as a list"},
      {"traffic.trace_file=[a,b]", "traffic.pattern=trace"},
  };
  for (const auto& [set, reason] : cases) {
    const std::string key = set.substr(set[0] == '\'' ? 1 : 0, set.find('=') - (set[0] == '\'' ? 1 : 0));
    expect_rejected("run " + kMesh + " --set " + set + kShort, "key '" + key + "' is not used here: applies only to " + reason);
  }
  // The issue's own example: three such keys at once, the first one named.
  expect_rejected("run " + kMesh + " --set network.leaves=abc --set 'router.dateline=[[1]]' --set traffic.burst_alpha=-1",
                  "is not used here");
}

// Where the key applies, the same values are read and accepted or refused on their merits.
TEST(InputChecks, TheSameKeysWhereTheyApplyAreRead) {
  const CommandResult torus = run_icnsim("run " + kMesh + " --set network.topology=torus --set router.dateline=true" + kShort);
  EXPECT_EQ(torus.exit_code, 0) << torus.err;
  const CommandResult onoff = run_icnsim("run " + kMesh + " --set traffic.injection=onoff --set traffic.burst_alpha=0.5" + kShort);
  EXPECT_EQ(onoff.exit_code, 0) << onoff.err;
  expect_rejected("run " + kMesh + " --set traffic.injection=onoff --set traffic.burst_alpha=-1" + kShort,
                  "traffic.burst_alpha = -1");
}

TEST(InputChecks, PacketSizeWeightsAreNumbersOnePerSize) {
  const std::string sizes = " --set 'traffic.packet_size=[4,8]'";
  for (const char* bad : {"abc", ".nan", "-1", "1e308", "'[1,abc]'", "'[1,-1]'", "'[1,.nan]'", "'[1,1e308]'", "'[1]'",
                          "'[1,2,3]'", "'{a: 1}'"})
    expect_rejected("run " + kMesh + sizes + " --set traffic.packet_size_weights=" + bad + kShort,
                    "traffic.packet_size_weights");
  const CommandResult ok = run_icnsim("run " + kMesh + sizes + " --set 'traffic.packet_size_weights=[3,1]'" + kShort);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// A preset fills only keys the scenario does not give; a key given a mapping
// is given, so it is checked (and refused), never silently replaced.
TEST(InputChecks, APresetNeverHidesAMistypedValue) {
  for (const char* key : {"router.vcs", "router.buffer_depth", "measure.sample_period", "traffic.packet_size"})
    expect_rejected("run " + kMesh + " --set preset=booksim --set '" + key + "={a: 1}'" + kShort,
                    std::string(key) + " = {a: 1}: expected a single value or a list, not a mapping");
  // The preset's own values for keys this configuration does not read are no error.
  const CommandResult r = run_icnsim("run " + kMesh + " --set preset=booksim --set network.topology=torus" + kShort);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// The bit-serial tree's synchronisation scheme is one of Ishii 2.1's four;
// the RTL generator makes mid-stream-buffered streams only.
TEST(InputChecks, BitSerialSyncSchemeIsOneOfTheFour) {
  const std::string run = "run /dev/null --set network.type=fattree_bitserial --set network.sync_scheme=";
  expect_rejected(run + "wave", "network.sync_scheme = wave: expected one of midstream|prefix|flush|store");
  expect_rejected(run + "'[prefix]'", "network.sync_scheme");
  expect_rejected(run + "store --set nic.generator=rtl",
                  "nic.generator = rtl: the RTL generator makes mid-stream-buffered streams: it needs "
                  "network.sync_scheme=midstream");
  expect_rejected("run " + kMesh + " --set network.sync_scheme=flush", "unknown key 'network.sync_scheme'");
  expect_rejected(run + "flush --set network.buffer_fill=turn_bit",
                  "key 'network.buffer_fill' is not used here: applies only to network.sync_scheme=midstream");
}

TEST(InputChecks, AnUnknownKeySuggestsTheNearestKnownOne) {
  expect_rejected("run " + kMesh + " --set runn.max_cycles=5", "unknown key 'runn.max_cycles' (did you mean 'run.max_cycles'?)");
  expect_rejected("run " + kMesh + " --set traffic.patern=uniform", "(did you mean 'traffic.pattern'?)");
  expect_rejected("run " + kMesh + " --set network.vcs=2", "(did you mean 'router.vcs'?)");
  // Nothing near: no suggestion.
  const CommandResult r = run_icnsim("run " + kMesh + " --set traffic.zzzzzzzzzzzz=1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
}

TEST(InputChecks, UnsetRemovesAKeyTheScenarioGives) {
  const std::string te = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/fattree_cbft16_total_exchange.yaml";
  expect_rejected("run " + te + " --set traffic.collective=multinode_broadcast", "is not used here");
  const CommandResult r = run_icnsim("run " + te +
                                     " --unset traffic.pipelined --unset traffic.schedule --set traffic.collective=multinode_broadcast");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("multinode_broadcast"), std::string::npos) << r.out;
  expect_rejected("run " + te + " --unset traffic.nothing_here", "--unset traffic.nothing_here: the scenario does not give this key");
  for (const char* bad : {"''", "a..b", ".traffic", "'traffic pipelined'"})
    expect_rejected("run " + te + " --unset " + bad, "a key is dotted words");
}

// The arbiters' keys take the factory's names; a matrix arbiter keeps a bit
// per pair of requesters, so it is refused where an arbiter would see more
// than 64 (a fat tree router's VC allocator).
TEST(InputChecks, ArbiterKindsAndTheMatrixArbitersLimit) {
  for (const char* key : {"router.vc_arbiter", "router.sw_arbiter"})
    expect_rejected("run " + kMesh + " --set " + key + "=lottery",
                    std::string(key) + " = lottery: expected one of round_robin|matrix");
  expect_rejected("run " + kMesh + " --set router.vc_arbiter=matrix --set router.vcs=16",
                  "router.vc_arbiter = matrix: matrix arbitrates among at most 64 requesters; the VC allocator of the "
                  "largest router here has 80 (ports x vcs); allowed here: round_robin");
  // A fat tree whose upper routers have 40 links down and 40 up on each side: 120 ports.
  expect_rejected("run " + std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/fattree16_uniform.yaml "
                  "--set router.sw_arbiter=matrix --set 'network.capacities=[1,40,40,40]'",
                  "router.sw_arbiter = matrix: matrix arbitrates among at most 64 requesters; the switch allocator "
                  "of the largest router here has 120 ports and 2 VCs");
  const CommandResult r = run_icnsim("run " + kMesh + " --quiet --set router.sw_arbiter=matrix --set router.vcs=16 "
                                     "--set measure.cycles=200 --json " + scratch_dir() + "/m.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// A problem with a value from a scenario file names the file, line and column.
TEST(InputChecks, ErrorsInAScenarioFileNameItsLine) {
  const std::string f = scratch_dir() + "/s.yaml";
  std::ofstream(f) << "network:\n  type: vc\n  k: 4\nrouter:\n  vcs: abc\n";
  expect_rejected("run " + f, f + ":5:8: router.vcs = abc: expected an integer");
  std::ofstream(f) << "network:\n  type: vc\n  k: 4\n  leaves: 8\n";
  expect_rejected("run " + f, f + ":4:11: key 'network.leaves' is not used here");
  std::ofstream(f) << "network:\n  type: vc\ntraffic:\n  patern: uniform\n";
  expect_rejected("run " + f, f + ":4:11: unknown key 'traffic.patern' (did you mean 'traffic.pattern'?)");
  // The same value from --set is named by its key only.
  std::ofstream(f) << "network:\n  type: vc\n";
  expect_rejected("run " + f + " --set router.vcs=abc", "error: router.vcs = abc: expected an integer");
}

// Valid but huge runs are refused before elaboration, with the estimate and
// the key to raise; the estimate is calibrated against the evaluations runs
// actually make (sim.block_evaluations).
TEST(InputChecks, HugeRunsAreRefusedUpFrontWithTheirWorkEstimate) {
  expect_rejected("run " + kMesh + " --set network.k=256", "block evaluations (65536 routers and 65536 nodes");
  expect_rejected("run " + kMesh + " --set network.k=256", "over run.max_work = 1e+09");
  expect_rejected("run " + kMesh + " --set run.max_cycles=1125899906842624 --set measure.cycles=1099511627776",
                  "raise run.max_work");
  expect_rejected("run " + kMesh + " --set run.max_work=1e3", "over run.max_work = 1e+03");
  const std::string te = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/fattree_cbft16_total_exchange.yaml";
  for (const std::string& run : {"run " + kMesh, "run " + kMesh + " --set network.topology=torus", "run " + te}) {
    SCOPED_TRACE(run);
    const std::string json = scratch_dir() + "/w.json";
    const CommandResult r = run_icnsim(run + " --quiet --json " + json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto sim = nlohmann::ordered_json::parse(read_file(json))["sim"];
    const double estimate = sim["work_estimate"].get<double>(), measured = sim["block_evaluations"].get<double>();
    // An upper estimate for open-loop traffic (every period it may run), and
    // within a small factor of what the runs measured.
    EXPECT_GE(estimate, measured);
    EXPECT_LE(estimate, 4 * measured);
  }
}

TEST(InputChecks, VersionPrintsTheProjectVersion) {
  const CommandResult r = run_icnsim("--version");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_match(r.out, std::regex("icnsim [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << r.out;
  // The JSON names the same version.
  const std::string json = scratch_dir() + "/r.json";
  ASSERT_EQ(run_icnsim("run " + kMesh + kShort + " --json " + json).exit_code, 0);
  const auto results = nlohmann::ordered_json::parse(read_file(json));
  EXPECT_EQ("icnsim " + results["icnsim"]["version"].get<std::string>() + "\n", r.out);
}

// No output may overwrite the scenario, an input file, or another output,
// however the two paths are spelt; the scenario is left byte for byte.
TEST(InputChecks, NoOutputOverwritesAnInputOrAnotherOutput) {
  const std::string dir = scratch_dir();
  const std::string scenario = dir + "/s.yaml";
  std::ofstream(scenario) << read_file(kMesh) << "measure:\n  cycles: 50\n";
  const std::string before = read_file(scenario);
  expect_rejected("run " + scenario + " --json " + scenario, "--json = '" + scenario + "' is the scenario file");
  expect_rejected("run " + scenario + " --json " + dir + "/../" + dir.substr(dir.rfind('/') + 1) + "/s.yaml",
                  "is the scenario file");
  EXPECT_EQ(read_file(scenario), before);
  expect_rejected("run " + scenario + " --vcd " + dir + "/w.vcd --json " + dir + "/./w.vcd", "name the same file");
  // A trace file is an input too.
  const std::string trace = dir + "/t.trace";
  std::ofstream(trace) << "1 0 1 4\n";
  expect_rejected("run " + scenario + " --unset traffic.injection_rate --set traffic.pattern=trace --set traffic.trace_file=" + trace + " --json " + trace,
                  "is the traffic.trace_file");
  EXPECT_EQ(read_file(trace), "1 0 1 4\n");
  // Refused for another reason before the trace is known: the failure report
  // still does not replace it.
  expect_rejected("run " + scenario + " --set traffic.pattern=trace --set traffic.trace_file=" + trace + " --json " + trace,
                  "traffic.injection_rate");
  EXPECT_EQ(read_file(trace), "1 0 1 4\n");
  // Discarding several outputs at once is fine.
  const CommandResult r = run_icnsim("run " + scenario + " --quiet --json /dev/null --vcd /dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace icn::test
