// network.type=fattree_bitserial as a user meets it: scenario files, JSON,
// `icnsim list`, one-line errors with exit code 2, and waveforms that GTKWave
// reads with the shipped save file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/sim_helpers.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {

namespace {

// Bad input: `icnsim run /dev/null --set network.type=fattree_bitserial <sets>` (see expect_rejected).
void expect_bitserial_rejected(const std::string& sets, const std::string& needle) {
  expect_rejected("run /dev/null --set network.type=fattree_bitserial " + sets, needle);
}

}  // namespace

TEST(BitSerialCli, BadInputIsOneLineAndExitCodeTwo) {
  expect_bitserial_rejected("--set network.processors=12", "network.processors = 12: must be a power of two, 2..65536");
  expect_bitserial_rejected("--set network.processors=1", "network.processors = 1: out of range");
  expect_bitserial_rejected("--set network.processors=131072", "network.processors = 131072: out of range");
  expect_bitserial_rejected("--set network.processors=8 --set network.capacities=[1,2]", "needs exactly log2(n) = 3 capacities");
  expect_bitserial_rejected("--set network.processors=8 --set network.capacities=[1,2,4,8]", "needs exactly log2(n) = 3");
  expect_bitserial_rejected("--set network.processors=4 --set network.capacities=[0,1]", "capacities must be >= 1");
  expect_bitserial_rejected("--set network.processors=4 --set network.capacities=[-2,1]", "capacities must be >= 1");
  expect_bitserial_rejected("--set network.processors=4 --set network.capacities=[2,1]", "non-decreasing");
  expect_bitserial_rejected("--set network.capacities=fat", "network.capacities = fat: expected constant, doubling, cbft, ebft");
  expect_bitserial_rejected("--set network.arbitration=fifo", "network.arbitration = fifo: expected one of random|trunk_priority");
  expect_bitserial_rejected("--set network.buffer_fill=ones", "expected one of zero|turn_bit");
  expect_bitserial_rejected("--set traffic.pattern=gossip", "expected one of permutation|random|all_to_one|pairs");
  // 16 processors, doubling: at most 15 messages leave a processor over its one path.
  expect_bitserial_rejected("--set traffic.pattern=random --set traffic.load_factor=16",
                  "traffic.load_factor = 16: impossible on this tree: allowed 1 (1/c_1) .. 15");
  expect_bitserial_rejected("--set traffic.pattern=random --set traffic.load_factor=0.5", "impossible on this tree");
  expect_bitserial_rejected("--set traffic.pattern=random --set traffic.load_factor=0", "traffic.load_factor = 0: out of range");
  expect_bitserial_rejected("--set traffic.pattern=random --set traffic.load_factor=lots", "expected a number");
  expect_bitserial_rejected("--set traffic.load_factor=2", "key 'traffic.load_factor' is not used here: applies only to traffic.pattern=random");
  expect_bitserial_rejected("--set traffic.root=3", "applies only to traffic.pattern=all_to_one");
  expect_bitserial_rejected("--set traffic.pattern=all_to_one --set traffic.root=16", "traffic.root = 16: out of range");
  expect_bitserial_rejected("--set traffic.pattern=pairs --set traffic.pairs=[[1,1]]", "source != destination");
  expect_bitserial_rejected("--set traffic.pattern=pairs --set traffic.pairs=[[1,16]]", "0 <= source, destination < 16");
  expect_bitserial_rejected("--set traffic.pattern=pairs --set traffic.pairs=[1,2]", "expected a list of [source, destination]");
  expect_bitserial_rejected("--set traffic.pattern=pairs", "(at least one)");
  expect_bitserial_rejected("--set network.leaves=16", "unknown key 'network.leaves'");
  expect_bitserial_rejected("--set traffic.collective=broadcast", "unknown key 'traffic.collective'");
}

TEST(BitSerialCli, ListShowsTheKeys) {
  const CommandResult r = run_icnsim("list");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* s : {"fattree_bitserial", "network.processors", "network.arbitration", "network.buffer_fill",
                        "traffic.pattern", "traffic.load_factor", "traffic.pairs", "trunk_priority"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(BitSerialCli, ScenarioFilesRunAndJsonIsDeterministic) {
  for (const char* file : {"fattree_bitserial_8_waveform.yaml", "fattree_bitserial_doubling64_random.yaml",
                           "fattree_bitserial_constant256_permutation.yaml"}) {
    const CommandResult r = run_icnsim(std::string("run ") + ICNSIM_SOURCE_DIR + "/testbench/scenarios/" + file);
    EXPECT_EQ(r.exit_code, 0) << file << ": " << r.err;
    EXPECT_NE(r.out.find("yes"), std::string::npos) << file;
  }
  const std::string dir = scratch_dir();
  const std::string args = "run /dev/null --set network.type=fattree_bitserial --set network.processors=32 "
                           "--set network.capacities=constant --set traffic.pattern=random "
                           "--set traffic.load_factor=2 --set seed=3 --json ";
  ASSERT_EQ(run_icnsim(args + dir + "/a.json").exit_code, 0);
  ASSERT_EQ(run_icnsim(args + dir + "/b.json").exit_code, 0);
  auto a = nlohmann::ordered_json::parse(read_file(dir + "/a.json"));
  auto b = nlohmann::ordered_json::parse(read_file(dir + "/b.json"));
  for (const char* key : {"delivery_cycles", "load_factor", "cycles", "verified", "conservation", "messages"})
    EXPECT_TRUE(a["result"].contains(key)) << key;
  for (const char* key : {"sent", "delivered", "lost", "retried"}) EXPECT_TRUE(a["result"]["messages"].contains(key));
  EXPECT_EQ(a["result"]["verified"], true);
  EXPECT_EQ(a["result"]["load_factor"], 2.0);
  EXPECT_EQ(a["scenario"]["network"]["processors"], 32);
  // Values, not just keys. Conservation: every attempt is delivered or lost,
  // every loss is retried and is one switch's denial, and the whole message
  // set arrives. Ishii: no schedule has fewer delivery cycles than lambda.
  const auto& r = a["result"];
  const auto& m = r["messages"];
  EXPECT_EQ(m["sent"].get<int>(), m["delivered"].get<int>() + m["lost"].get<int>());
  EXPECT_EQ(m["delivered"], m["message_set"]);
  EXPECT_EQ(m["retried"], m["lost"]);
  EXPECT_EQ(r["switch_denials"]["up"].get<int>() + r["switch_denials"]["down"].get<int>(), m["lost"].get<int>());
  EXPECT_GE(r["delivery_cycles"].get<int>(), 2);
  EXPECT_EQ(r["load_factor_exact"]["load"].get<double>() / r["load_factor_exact"]["capacity"].get<double>(), 2.0);
  EXPECT_EQ(r["conservation"], "ok");
  // A message set at load factor 2 on 32 processors with capacity 1 holds at
  // most 2 messages per leaf channel in each direction: at most 64.
  EXPECT_LE(m["message_set"].get<int>(), 64);
  EXPECT_GT(m["message_set"].get<int>(), 0);
  EXPECT_GT(a["sim"]["wall_seconds"].get<double>(), 0);
  EXPECT_GT(a["sim"]["peak_rss_mb"].get<double>(), 1);
  EXPECT_EQ(deterministic_part(a).dump(), deterministic_part(b).dump());
}

// --vcd: per path valid, bit and acknowledge, and per switch its settings,
// grouped by level; vcd2fst reads it; the valid signals add up to the stream
// bits the JSON reports; the .gtkw written beside it names only signals that
// exist, labels every row with its level, block and port, in route order, and
// for the README example it is the save file shipped in docs/.
TEST(BitSerialCli, WaveformShowsEveryPathAndTheShippedSaveFileMatches) {
  const std::string dir = scratch_dir();
  const std::string scenario = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/fattree_bitserial_8_waveform.yaml";
  const CommandResult r = run_icnsim("run " + scenario + " --json " + dir + "/r.json --vcd " + dir +
                                     "/fattree_bitserial_8.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string convert = "vcd2fst " + dir + "/fattree_bitserial_8.vcd " + dir + "/w.fst >" + dir + "/log 2>&1";
  ASSERT_EQ(std::system(convert.c_str()), 0) << read_file(dir + "/log");

  const Vcd vcd = parse_vcd(read_file(dir + "/fattree_bitserial_8.vcd"));
  const auto json = nlohmann::ordered_json::parse(read_file(dir + "/r.json"));
  std::uint64_t stream_bits = 0;
  for (const auto& l : json["levels"]) stream_bits += l["bits_up"].get<std::uint64_t>() + l["bits_down"].get<std::uint64_t>();
  std::uint64_t valid_cycles = 0, acks = 0;
  int valid = 0, bit = 0, ack = 0, settings = 0;
  std::set<std::string> names;
  for (const auto& entry : vcd.names) {
    // Not a structured binding: C++17 lets no lambda capture one (clang refuses it).
    const auto& id = entry.first;
    const std::string& name = entry.second;
    names.insert(name);
    auto ends = [&](const std::string& s) { return name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0; };
    if (ends(".valid")) ++valid, valid_cycles += vcd.integral.at(id);
    if (ends(".bit")) ++bit;
    if (ends(".ack")) ++ack, acks += vcd.integral.at(id);
    if (ends(".from_port")) ++settings;
  }
  // 8 processors, one path per channel: 14 branches, 2 directions.
  EXPECT_EQ(valid, 28);
  EXPECT_EQ(bit, 28);
  EXPECT_EQ(ack, 28);
  EXPECT_EQ(settings, 4 * 3 + 2 * 3 + 2);  // level-1 and level-2 switches have 3 outputs, the root 2
  EXPECT_EQ(valid_cycles, stream_bits);
  EXPECT_GT(acks, 0u);
  EXPECT_TRUE(names.count("SystemC.icnsim.level2.s2_1.out_trunk.p0.from_port"));
  EXPECT_TRUE(names.count("SystemC.icnsim.level1.nic0.up.p0.valid"));

  const std::string gtkw = read_file(dir + "/fattree_bitserial_8.gtkw");
  ASSERT_FALSE(gtkw.empty());
  std::istringstream in(gtkw);
  std::string line;
  int groups = 0, traces = 0;
  std::vector<std::string> group_titles;
  std::set<std::string> labels;
  while (std::getline(in, line)) {
    if (line.rfind("-", 0) == 0) ++groups, group_titles.push_back(line.substr(1));
    if (line.rfind("+{", 0) != 0) continue;
    // Every row: +{label} signal, the label naming level, block, port and wire.
    const std::string label = line.substr(2, line.find('}') - 2);
    const std::string signal = line.substr(line.find("} ") + 2);
    const std::string bare = signal.substr(0, signal.find('['));
    EXPECT_TRUE(names.count(bare)) << line;
    EXPECT_TRUE(labels.insert(label).second) << "two rows labelled " << label;
    if (bare == "SystemC.cycle") continue;
    ++traces;
    EXPECT_EQ(label.substr(0, 1), "L") << line;
    std::string dotted = label.substr(1);
    for (char& c : dotted)
      if (c == '/') c = '.';
    EXPECT_EQ("SystemC.icnsim.level" + dotted, bare) << "the label is the signal's level, block and port";
    EXPECT_EQ(label.find('.'), std::string::npos) << "GTKWave would cut the label at its dots";
  }
  EXPECT_EQ(traces + 1, static_cast<int>(names.size()));
  // Route order: up from level 1 to the root, down from the root, then the switch settings.
  const std::vector<std::string> route = {"up, level 1",   "up, level 2",   "up, level 3",
                                          "down, level 3", "down, level 2", "down, level 1"};
  ASSERT_GE(group_titles.size(), 2 * route.size());
  for (std::size_t i = 0; i < route.size(); ++i) EXPECT_EQ(group_titles[2 * i], route[i]);
  EXPECT_EQ(groups, 2 * 9);  // begin and end of 3 up, 3 down and 3 settings groups
  EXPECT_EQ(gtkw, read_file(std::string(ICNSIM_SOURCE_DIR) + "/docs/waveforms/fattree_bitserial_8.gtkw"))
      << "regenerate docs/waveforms/fattree_bitserial_8.gtkw with the README command";
}

}  // namespace icn::test
