// FST waveforms (`--vcd FILE.fst`): GTKWave's own converter reads the file back
// (fst2vcd), and every signal carries exactly what the VCD of the same run
// carries, cycle by cycle; the save file written beside it points at the FST.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>

#include "tests/support/sim_helpers.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {

namespace {

// Full signal name -> sum over cycles of its value.
std::map<std::string, std::uint64_t> by_name(const Vcd& vcd) {
  std::map<std::string, std::uint64_t> out;
  for (const auto& [id, name] : vcd.names) out[name] = vcd.integral.count(id) ? vcd.integral.at(id) : 0;
  return out;
}

long file_size(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  return static_cast<long>(f.tellg());
}

void expect_fst_equals_vcd(const std::string& scenario, const std::string& tag) {
  const std::string dir = scratch_dir();
  const std::string run = "run " + std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/" + scenario + " --quiet";
  ASSERT_EQ(run_icnsim(run + " --vcd " + dir + "/" + tag + ".vcd").exit_code, 0);
  const CommandResult r = run_icnsim(run + " --vcd " + dir + "/" + tag + ".fst");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string back = "fst2vcd " + dir + "/" + tag + ".fst -o " + dir + "/back.vcd >" + dir + "/log 2>&1";
  ASSERT_EQ(std::system(back.c_str()), 0) << "fst2vcd failed or is missing: " << read_file(dir + "/log");
  const Vcd vcd = parse_vcd(read_file(dir + "/" + tag + ".vcd"));
  const Vcd fst = parse_vcd(read_file(dir + "/back.vcd"));
  ASSERT_GT(vcd.names.size(), 10u);
  EXPECT_EQ(fst.last_cycle, vcd.last_cycle);
  EXPECT_EQ(by_name(fst), by_name(vcd)) << scenario << ": the FST and the VCD differ";
  EXPECT_LT(file_size(dir + "/" + tag + ".fst"), file_size(dir + "/" + tag + ".vcd")) << "FST is the compact format";
}

}  // namespace

TEST(WaveformFst, PacketFatTreeFstCarriesWhatTheVcdCarries) {
  expect_fst_equals_vcd("fattree_cbft32_flooding.yaml", "flooding");
}

TEST(WaveformFst, BitSerialFstCarriesWhatTheVcdCarriesAndTheSaveFileNamesIt) {
  expect_fst_equals_vcd("fattree_bitserial_8_waveform.yaml", "bitserial");
  const std::string dir = scratch_dir();
  ASSERT_EQ(run_icnsim("run " + std::string(ICNSIM_SOURCE_DIR) +
                       "/testbench/scenarios/fattree_bitserial_8_waveform.yaml --quiet --vcd " + dir + "/w.fst")
                .exit_code,
            0);
  EXPECT_NE(read_file(dir + "/w.gtkw").find("[dumpfile] \"w.fst\""), std::string::npos);
}

TEST(WaveformFst, UnwritableFstPathIsOneLineAndExitCodeTwo) {
  const CommandResult r = run_icnsim("run /dev/null --quiet --vcd /proc/no/such/dir/w.fst");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("w.fst"), std::string::npos) << r.err;
}

}  // namespace icn::test
