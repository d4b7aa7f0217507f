// `--vcd FILE` writes a waveform GTKWave reads: checked with GTKWave's own
// vcd2fst, and by integrating the link-activity signals, which must add up to
// the transfers the JSON reports.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/sim_helpers.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {


TEST(Waveform, VcdOpensInGtkwaveToolsAndMatchesTheTransfers) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_icnsim("run /dev/null --set network.leaves=8 --set traffic.collective=multinode_broadcast "
                                     "--json " + dir + "/r.json --vcd " + dir + "/w.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string vcd_text = read_file(dir + "/w.vcd");
  ASSERT_FALSE(vcd_text.empty());

  // GTKWave's converter must accept the file (installed with gtkwave by scripts/setup).
  const std::string convert = "vcd2fst " + dir + "/w.vcd " + dir + "/w.fst >" + dir + "/vcd2fst.log 2>&1";
  ASSERT_EQ(std::system(convert.c_str()), 0) << "vcd2fst failed or is missing: " << read_file(dir + "/vcd2fst.log");
  std::ifstream fst(dir + "/w.fst", std::ios::binary | std::ios::ate);
  EXPECT_GT(static_cast<long>(fst.tellg()), 0);

  const Vcd vcd = parse_vcd(vcd_text);
  const auto json = nlohmann::ordered_json::parse(read_file(dir + "/r.json"));
  std::uint64_t transfers = 0;
  for (const auto& level : json["levels"]) transfers += level["transfers_up"].get<std::uint64_t>() + level["transfers_down"].get<std::uint64_t>();
  std::uint64_t traced = 0;
  int tx_signals = 0, queue_signals = 0;
  for (const auto& [id, name] : vcd.names) {
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".tx") == 0) {
      traced += vcd.integral.at(id);
      ++tx_signals;
    }
    if (name.find(".queue") != std::string::npos) ++queue_signals;
  }
  // 8 leaves: 14 branches, two directions each.
  EXPECT_EQ(tx_signals, 28);
  EXPECT_EQ(queue_signals, 28);
  EXPECT_EQ(traced, transfers);
  EXPECT_GT(transfers, 0u);
  // The last cycle is in the file: the NICs read the final deliveries in cycle T + 1.
  EXPECT_EQ(vcd.last_cycle, json["result"]["cycles"].get<std::uint64_t>() + 1);
  // Signals are grouped by level: SystemC.icnsim.level<l>.<block>.<port>.tx
  bool grouped = false;
  for (const auto& [id, name] : vcd.names) grouped = grouped || name.rfind("SystemC.icnsim.level2.r2_0.up.tx", 0) == 0;
  EXPECT_TRUE(grouped);
}

// Determinism reaches the waveform: two runs of one scenario write the same
// bytes (the VCD carries no date), in VCD and in FST.
TEST(Waveform, TwoRunsWriteIdenticalFiles) {
  const std::string dir = scratch_dir();
  for (const std::string ext : {".vcd", ".fst"}) {
    for (const char* name : {"a", "b"})
      ASSERT_EQ(run_icnsim("run /dev/null --quiet --set network.leaves=8 --set traffic.collective=multinode_broadcast --vcd " +
                           dir + "/" + name + ext).exit_code, 0);
    const std::string a = read_file(dir + "/a" + ext);
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, read_file(dir + "/b" + ext)) << ext;
  }
}

// HPAM's replicators are in the waveform beside the links: per replicator the
// flits in, the stall bit, and one flit bit per branch. Integrated over the
// run they must equal the counts the replicators report in the JSON, and
// every branch must carry every flit that came in (each copy is whole).
TEST(Waveform, HpamReplicatorSignalsAddUpToItsCounts) {
  const std::string dir = scratch_dir();
  for (const std::string mode : {"lockstep", "buffered"}) {
    SCOPED_TRACE(mode);
    const std::string scenario = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/hpam_scatter_multicast.yaml";
    const CommandResult r = run_icnsim("run " + scenario + " --quiet --set network.replicator_mode=" + mode +
                                       " --json " + dir + "/h.json --vcd " + dir + "/h.vcd");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Vcd vcd = parse_vcd(read_file(dir + "/h.vcd"));
    const auto rep = nlohmann::ordered_json::parse(read_file(dir + "/h.json"))["hpam"]["replication"];
    std::map<std::string, std::uint64_t> in;            // replicator -> flits in (from its in.flit bit)
    std::map<std::string, std::vector<std::uint64_t>> branch;  // replicator -> flits per branch
    std::uint64_t stalled = 0, out = 0;
    for (const auto& [id, name] : vcd.names) {
      const auto at = name.find(".repl_");
      if (at == std::string::npos) continue;
      const auto dot = name.find('.', at + 1);
      const std::string block = name.substr(0, dot), signal = name.substr(dot + 1);
      if (signal == "in.flit") in[block] += vcd.integral.at(id);
      if (signal == "stalled") stalled += vcd.integral.at(id);
      if (signal.rfind("branch", 0) == 0 && signal.size() > 5 && signal.compare(signal.size() - 5, 5, ".flit") == 0) {
        branch[block].push_back(vcd.integral.at(id));
        out += vcd.integral.at(id);
      }
    }
    ASSERT_EQ(in.size(), rep["replicators"].get<std::size_t>());
    std::uint64_t total_in = 0;
    for (const auto& [block, flits] : in) {
      total_in += flits;
      ASSERT_EQ(branch[block].size(), 4u) << block;  // c2 / c1 = 4 branches
      for (const auto b : branch[block]) EXPECT_EQ(b, flits) << block;
    }
    EXPECT_GT(total_in, 0u);
    EXPECT_EQ(total_in, rep["flits_in"].get<std::uint64_t>());
    EXPECT_EQ(out, rep["flits_out"].get<std::uint64_t>());
    EXPECT_EQ(stalled, rep["stalled_cycles"].get<std::uint64_t>());
  }
}

}  // namespace icn::test
