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

}  // namespace icn::test
