// The Verilated blocks' waveforms (FILE.rtl.vcd beside --vcd FILE, and the
// replicator's trace) are outputs like the JSON and the SystemC VCD: their path
// is checked before elaboration, their writes and close are checked, a failure
// is one line and exit 2 (never Verilator's abort), and a finished file is
// complete and in place, with no temporary file left beside it.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "routers/hpam/rtl_replicator.hpp"
#include "tests/support/save_file.hpp"
#include "tests/support/sim_helpers.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {
namespace {

const std::string kScenario =
    std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/fattree_bitserial_8_waveform.yaml --set nic.generator=rtl";

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.push_back(e->d_name);  // hidden ones too
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A folder of its own (the scratch folder also holds the command's output).
std::string output_dir() {
  const std::string dir = scratch_dir() + "/outputs";
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

// The "#<time>" lines of a VCD, in order.
std::vector<std::uint64_t> times(const std::string& vcd) {
  std::vector<std::uint64_t> t;
  for (std::size_t pos = vcd.find("\n#"); pos != std::string::npos; pos = vcd.find("\n#", pos + 1))
    t.push_back(std::stoull(vcd.substr(pos + 2, vcd.find('\n', pos + 1) - pos - 2)));
  return t;
}

// The "$timescale" of a VCD without blanks ("1 ns" and "1ns" are one unit).
std::string timescale(const std::string& vcd) {
  const std::size_t at = vcd.find("$timescale");
  if (at == std::string::npos) return "";
  std::string t = vcd.substr(at + 10, vcd.find("$end", at) - at - 10);
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  t.erase(std::remove(t.begin(), t.end(), '\n'), t.end());
  return t;
}

// Every signal a GTKWave save file names is a variable of the VCD (its
// declarations, read as the test VCD reader reads icnsim's own); the rows' count.
std::size_t expect_rows_in(const std::string& save, const std::string& vcd) {
  const Vcd v = parse_vcd(vcd.substr(0, vcd.find("$enddefinitions")) + "$enddefinitions $end\n");
  const SaveFile f = parse_save_file(save);
  for (const SaveFileRow& row : f.rows) EXPECT_EQ(v.ids.count(row.signal), 1u) << row.signal;
  return f.rows.size();
}

// The last "#<time>" line of a VCD.
std::uint64_t last_time(const std::string& vcd) {
  std::uint64_t t = 0;
  std::size_t pos = 0;
  while ((pos = vcd.find("\n#", pos)) != std::string::npos) {
    ++pos;
    t = std::stoull(vcd.substr(pos + 1, vcd.find('\n', pos) - pos - 1));
  }
  return t;
}

// With a 2 ns clock the main file has 2 time units a cycle: the RTL file
// must share that time base (its samples on even times only, one a cycle)
// and hold the whole run.
TEST(RtlWaveform, IsWrittenBesideTheVcdWholeAndInPlaceOnTheSameTimeBase) {
  const std::string dir = output_dir();
  const CommandResult r = run_icnsim("run " + kScenario + " --quiet --set run.clock_period_ns=2 --vcd " + dir +
                                     "/b.vcd --json " + dir + "/b.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(files_in(dir), (std::vector<std::string>{"b.gtkw", "b.json", "b.rtl.gtkw", "b.rtl.vcd", "b.vcd"}));  // no temporary left
  std::ifstream json_in(dir + "/b.json");
  const auto j = nlohmann::json::parse(json_in);
  const std::uint64_t cycles = j["sim"]["simulated_cycles"].get<std::uint64_t>();
  const std::string rtl = read_file(dir + "/b.rtl.vcd");
  const std::string main = read_file(dir + "/b.vcd");
  EXPECT_NE(rtl.find("route_stream_generator"), std::string::npos);
  EXPECT_EQ(timescale(rtl), "1ns");
  EXPECT_EQ(timescale(rtl), timescale(main));
  const std::vector<std::uint64_t> t = times(rtl);
  ASSERT_FALSE(t.empty());
  for (std::size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(t[i] % 2, 0u) << t[i];  // whole cycles only
    if (i > 0) {
      EXPECT_GT(t[i], t[i - 1]);
    }
  }
  // The whole run is in the file (it was once cut off at Verilator's last
  // buffer): up to the last cycle the engine evaluated.
  EXPECT_GE(t.back(), 2 * (cycles - 1));
  EXPECT_LE(t.back(), 2 * (cycles + 1));
  // Its save file: one group per NIC generator (8 NICs, one generator each
  // here), every row a signal of the RTL file, the time window the main one's.
  const std::string save = read_file(dir + "/b.rtl.gtkw");
  EXPECT_NE(save.find("[dumpfile] \"b.rtl.vcd\""), std::string::npos);
  EXPECT_EQ(expect_rows_in(save, rtl) % 8, 0u);
  EXPECT_GE(expect_rows_in(save, rtl), 8u * 5);  // reset, load, src, dst, valid, bit... per generator
  std::size_t groups = 0;
  for (std::size_t at = save.find("\n@800200\n"); at != std::string::npos; at = save.find("\n@800200\n", at + 1)) ++groups;
  EXPECT_EQ(groups, 8u);
  EXPECT_NE(save.find("nic0_route_stream_generator_0/rtl/load_i}"), std::string::npos) << save.substr(0, 2000);
}

TEST(RtlWaveform, PathIsCheckedBeforeElaboration) {
  const std::string dir = output_dir();
  ASSERT_EQ(::mkdir((dir + "/b.rtl.vcd").c_str(), 0755), 0);
  expect_rejected("run " + kScenario + " --vcd " + dir + "/b.vcd", "the RTL waveform beside it");
  EXPECT_EQ(files_in(dir), (std::vector<std::string>{"b.rtl.vcd"}));  // nothing was written
  // Without the RTL generator no such file is written, so nothing is in the way.
  const CommandResult behavioural = run_icnsim("run " + std::string(ICNSIM_SOURCE_DIR) +
                                               "/testbench/scenarios/fattree_bitserial_8_waveform.yaml --quiet --vcd " +
                                               dir + "/b.vcd");
  EXPECT_EQ(behavioural.exit_code, 0) << behavioural.err;
}

TEST(RtlWaveform, AFullDeviceIsOneLineAndExitTwoNotAnAbort) {
  const CommandResult r = run_icnsim("run " + kScenario + " --quiet --vcd /dev/full");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("waveform"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

// An HPAM run with the Verilated replicators and --vcd FILE writes, beside
// FILE, one FILE.repl_<router>.rtl.vcd per replicator (here two: a 2x2 level
// 1 over 4x8), on the engine's clock; their paths are checked before
// elaboration like every output.
TEST(ReplicatorWaveform, HpamRunWritesOneRtlVcdPerReplicatorBesideTheVcd) {
  const std::string dir = output_dir();
  const std::string run = "run " + std::string(ICNSIM_SOURCE_DIR) +
                          "/testbench/scenarios/hpam_broadcast_multicast.yaml --quiet --set network.levels=[[2,2],[4,8]] "
                          "--set traffic.submesh=[2,1] --set network.replicator_model=rtl --vcd " + dir + "/h.vcd";
  const CommandResult r = run_icnsim(run + " --json " + dir + "/h.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(files_in(dir), (std::vector<std::string>{"h.gtkw", "h.json", "h.repl_l1_r1_0.rtl.gtkw", "h.repl_l1_r1_0.rtl.vcd",
                                                    "h.repl_l1_r1_1.rtl.gtkw", "h.repl_l1_r1_1.rtl.vcd",
                                                    "h.vc_state.filter", "h.vcd"}));  // no temporary left
  std::ifstream json_in(dir + "/h.json");
  const auto j = nlohmann::json::parse(json_in);
  for (const char* name : {"/h.repl_l1_r1_0.rtl.vcd", "/h.repl_l1_r1_1.rtl.vcd"}) {
    const std::string rtl = read_file(dir + name);
    EXPECT_NE(rtl.find("in_valid_i"), std::string::npos) << name;
    EXPECT_EQ(timescale(rtl), timescale(read_file(dir + "/h.vcd"))) << name;
    // Under the block that hosts it, as the main file names it.
    const std::string host = std::string(name).substr(3, std::string(name).find(".rtl") - 3);  // repl_l1_r1_0
    EXPECT_NE(rtl.find("$scope module icnsim." + host + ".rtl $end"), std::string::npos) << name;
    // The replicator is clocked only while it holds flits, so its last sample
    // is within the run: one time unit (1 ns) per engine cycle.
    EXPECT_GT(last_time(rtl), 0u) << name;
    EXPECT_LE(last_time(rtl), j["sim"]["simulated_cycles"].get<std::uint64_t>()) << name;
    const std::string save_name = std::string(name).substr(0, std::string(name).size() - 4) + ".gtkw";
    const std::string save = read_file(dir + save_name);
    EXPECT_GE(expect_rows_in(save, rtl), 8u) << save_name;  // its ports and registers
    EXPECT_NE(save.find("{" + host + "/rtl/in_valid_i}"), std::string::npos) << save;
  }
  // A folder in the way of one of them: refused before anything is written.
  const std::string other = output_dir() + "/again";
  ::mkdir(other.c_str(), 0755);
  ASSERT_EQ(::mkdir((other + "/h.repl_l1_r1_1.rtl.vcd").c_str(), 0755), 0);
  expect_rejected("run " + std::string(ICNSIM_SOURCE_DIR) +
                      "/testbench/scenarios/hpam_broadcast_multicast.yaml --set network.levels=[[2,2],[4,8]] "
                      "--set network.replicator_model=rtl --vcd " + other + "/h.vcd",
                  "the RTL waveform beside it");
  EXPECT_EQ(files_in(other), (std::vector<std::string>{"h.repl_l1_r1_1.rtl.vcd"}));
}

// The RTL twin of the VC router has one pipeline, one allocator and
// round-robin arbiters: a key that would change them is refused with one
// line naming the value it must keep.
TEST(VcRouterRtlKeys, TheRouterDecidesItsPipelineAllocatorAndArbiters) {
  const std::string mesh = "run " + std::string(ICNSIM_SOURCE_DIR) +
                           "/testbench/scenarios/mesh8x8_uniform.yaml --set network.k=4 --set router.model=rtl ";
  for (const auto& [set, keep] : {std::pair{"router.vc_arbiter=matrix", "round_robin"},
                                  std::pair{"router.sw_arbiter=matrix", "round_robin"},
                                  std::pair{"router.vc_allocator=round_robin", "islip"},
                                  std::pair{"router.sw_alloc_delay=2", "1"}}) {
    SCOPED_TRACE(set);
    expect_rejected(mesh + "--set " + set, std::string("with router.model=rtl the RTL router decides this; leave it at ") + keep);
  }
}

TEST(ReplicatorWaveform, AFailedWriteIsReportedNotAborted) {
  hpam::RtlReplicator rtl(4, hpam::ReplicatorMode::kBuffered, 4);
  rtl.trace("/dev/full");
  hpam::ReplicatorInputs in;
  in.in_valid = true;
  in.in_mask = 0xf;
  in.out_ready = 0x5;
  for (int t = 0; t < 20000; ++t) {  // far more than Verilator buffers before writing
    in.in.data = static_cast<std::uint64_t>(t) * 0x9e3779b97f4a7c15ull;
    rtl.cycle(in);
  }
  const std::string why = rtl.finish_trace();
  EXPECT_NE(why.find("/dev/full"), std::string::npos) << why;
  EXPECT_NE(why.find("write failed"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
}

TEST(ReplicatorWaveform, AFinishedFileIsInPlaceAndAnUncreatableOneThrows) {
  const std::string dir = output_dir();
  {
    hpam::RtlReplicator rtl(2, hpam::ReplicatorMode::kLockstep, 0);
    rtl.trace(dir + "/r.vcd");
    hpam::ReplicatorInputs in;
    in.out_ready = 3;
    for (int t = 0; t < 10; ++t) rtl.cycle(in);
    EXPECT_EQ(files_in(dir).size(), 1u);  // only the temporary file while it is written
    EXPECT_EQ(rtl.finish_trace(), "");
  }
  EXPECT_EQ(files_in(dir), (std::vector<std::string>{"r.vcd"}));
  EXPECT_NE(read_file(dir + "/r.vcd").find("in_ready_o"), std::string::npos);
  hpam::RtlReplicator rtl(2, hpam::ReplicatorMode::kLockstep, 0);
  EXPECT_THROW(rtl.trace(dir + "/missing/r.vcd"), std::runtime_error);
}

}  // namespace
}  // namespace icn::test
