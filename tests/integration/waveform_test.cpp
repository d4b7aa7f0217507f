// `--vcd FILE` writes a waveform GTKWave reads: checked with GTKWave's own
// vcd2fst, and by integrating the packet buses' valid signals, which must add
// up to the transfers the JSON reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/save_file.hpp"
#include "tests/support/sim_helpers.hpp"
#include "routers/vc/input_unit.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {


namespace {

// A run of the shipped mesh scenario, with `sets`, writing its waveform to dir/m.vcd.
CommandResult run_mesh_with_waveform(const std::string& dir, const std::string& sets) {
  return run_icnsim("run " + std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/mesh8x8_uniform.yaml --quiet " +
                    sets + " --vcd " + dir + "/m.vcd");
}

}  // namespace

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
  int valid_signals = 0, queue_signals = 0;
  auto ends_with = [](const std::string& s, const std::string& tail) {
    return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  };
  for (const auto& [id, name] : vcd.names) {
    if (ends_with(name, ".pkt.valid")) {
      traced += vcd.integral.at(id);
      ++valid_signals;
    }
    if (ends_with(name, "queue")) ++queue_signals;
  }
  // 8 leaves: 14 branches, two directions each, one physical link each.
  EXPECT_EQ(valid_signals, 28);
  EXPECT_EQ(queue_signals, 28);
  EXPECT_EQ(traced, transfers);
  EXPECT_GT(transfers, 0u);
  // The last cycle is in the file: the NICs read the final deliveries in cycle T + 1.
  EXPECT_EQ(vcd.last_cycle, json["result"]["cycles"].get<std::uint64_t>() + 1);
  // Signals are grouped by level: SystemC.icnsim.level<l>.<block>.<port>.pkt.valid
  bool grouped = false;
  for (const auto& [id, name] : vcd.names) grouped = grouped || name == "SystemC.icnsim.level2.r2_0.up.pkt.valid";
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
// input's flit bus, the stall bit, and one flit bus per branch. Integrated
// over the run the valid bits must equal the counts the replicators report
// in the JSON, and every branch must carry every flit that came in (each copy
// is whole). Which message is copied: every head that enters carries a
// message id, and each branch later sends a head of that same message, the
// copies going to distinct destinations.
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
    std::map<std::string, std::uint64_t> in;            // replicator -> flits in (from its in.flit.valid bit)
    std::map<std::string, std::vector<std::uint64_t>> branch;  // replicator -> flits per branch
    std::uint64_t stalled = 0, out = 0;
    for (const auto& [id, name] : vcd.names) {
      const auto at = name.find(".repl_");
      if (at == std::string::npos) continue;
      const auto dot = name.find('.', at + 1);
      const std::string block = name.substr(0, dot), signal = name.substr(dot + 1);
      if (signal == "in.flit.valid") in[block] += vcd.integral.at(id);
      if (signal == "stalled") stalled += vcd.integral.at(id);
      if (signal.rfind("branch", 0) == 0 && signal.size() > 11 &&
          signal.compare(signal.size() - 11, 11, ".flit.valid") == 0) {
        branch[block].push_back(vcd.integral.at(id));
        out += vcd.integral.at(id);
      }
    }
    ASSERT_EQ(in.size(), rep["replicators"].get<std::size_t>());
    std::uint64_t total_in = 0, heads_in = 0;
    for (const auto& [block, flits] : in) {
      total_in += flits;
      ASSERT_EQ(branch[block].size(), 4u) << block;  // c2 / c1 = 4 branches
      for (const auto b : branch[block]) EXPECT_EQ(b, flits) << block;
      // Heads in, by message, and per branch the heads out, by message.
      auto heads = [&](const std::string& bus) {
        std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> by_message;  // message -> (cycle, dst)
        const auto valid = vcd.series(bus + ".flit.valid"), head = vcd.series(bus + ".flit.head");
        const auto message = vcd.series(bus + ".flit.packet"), dst = vcd.series(bus + ".flit.dst");
        for (std::size_t t = 0; t < valid.size(); ++t)
          if (valid[t] != 0 && head[t] != 0) {
            EXPECT_EQ(by_message.count(message[t]), 0u) << bus << " message " << message[t] << " twice";
            by_message[message[t]] = {t, dst[t]};
          }
        return by_message;
      };
      const auto entered = heads(block + ".in");
      heads_in += entered.size();
      std::vector<std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>>> left;
      for (int i = 0; i < 4; ++i) left.push_back(heads(block + ".branch" + std::to_string(i)));
      for (const auto& [message, when] : entered) {
        std::set<std::uint64_t> destinations;
        for (int i = 0; i < 4; ++i) {
          const auto it = left[i].find(message);
          ASSERT_NE(it, left[i].end()) << block << " branch " << i << " never sent message " << message;
          EXPECT_GT(it->second.first, when.first) << block << " branch " << i;
          destinations.insert(it->second.second);
        }
        EXPECT_EQ(destinations.size(), 4u) << block << " message " << message;
      }
      for (int i = 0; i < 4; ++i) EXPECT_EQ(left[i].size(), entered.size()) << block << " branch " << i;
    }
    EXPECT_GT(total_in, 0u);
    EXPECT_GT(heads_in, 0u);
    EXPECT_EQ(total_in, rep["flits_in"].get<std::uint64_t>());
    EXPECT_EQ(out, rep["flits_out"].get<std::uint64_t>());
    EXPECT_EQ(stalled, rep["stalled_cycles"].get<std::uint64_t>());
  }
}

// The VC network's flit bus, read back from the VCD, follows every packet
// from its source to its destination: each head injected by NIC n carries
// source n, each head ejected to NIC n carries destination n, every packet
// injected is ejected once with the same source and destination, and its
// head crosses |dx| + |dy| router-to-router links (X-Y routing on the 4 x 4
// mesh, node n at (n mod 4, n div 4): computed here from the coordinates), at
// strictly increasing cycles between its injection and its ejection.
TEST(Waveform, VcFlitBusFollowsEveryPacketFromSourceToDestination) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_mesh_with_waveform(
      dir, "--set network.k=4 --set traffic.injection_rate=0.1 --set measure.cycles=200 --json " + dir + "/r.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Vcd vcd = parse_vcd(read_file(dir + "/m.vcd"));
  struct Seen {
    long src = -1, dst = -1, injected = -1, ejected = -1, ejections = 0;
    std::vector<std::uint64_t> hops;  // cycles its head left a router on a router-to-router link
  };
  std::map<std::uint64_t, Seen> packets;
  auto heads = [&](const std::string& bus, auto&& fn) {
    const auto valid = vcd.series(bus + ".valid"), head = vcd.series(bus + ".head"), id = vcd.series(bus + ".packet"),
               src = vcd.series(bus + ".src"), dst = vcd.series(bus + ".dst");
    for (std::uint64_t t = 0; t < valid.size(); ++t)
      if (valid[t] != 0 && head[t] != 0) fn(t, id[t], static_cast<long>(src[t]), static_cast<long>(dst[t]));
  };
  for (int n = 0; n < 16; ++n) {
    const std::string nic = "SystemC.icnsim.nic" + std::to_string(n);
    heads(nic + ".inject.flit", [&](std::uint64_t t, std::uint64_t id, long src, long dst) {
      EXPECT_EQ(src, n) << "packet " << id;
      Seen& p = packets[id];
      EXPECT_EQ(p.injected, -1) << "packet " << id << " injected twice";
      p.injected = static_cast<long>(t);
      p.src = src;
      p.dst = dst;
    });
  }
  for (int n = 0; n < 16; ++n) {
    const std::string nic = "SystemC.icnsim.nic" + std::to_string(n);
    heads(nic + ".eject.flit", [&](std::uint64_t t, std::uint64_t id, long src, long dst) {
      EXPECT_EQ(dst, n) << "packet " << id;
      Seen& p = packets[id];
      EXPECT_EQ(p.src, src) << "packet " << id;
      ++p.ejections;
      p.ejected = static_cast<long>(t);
    });
  }
  for (const auto& [id, name] : vcd.names) {
    const std::string tail = ".out.flit.head";
    if (name.size() < tail.size() || name.compare(name.size() - tail.size(), tail.size(), tail) != 0) continue;
    const std::string bus = name.substr(0, name.size() - 5);
    if (name.find(".local.") != std::string::npos) continue;  // the ejection port: the NIC's eject bus
    heads(bus, [&](std::uint64_t t, std::uint64_t pid, long, long) { packets[pid].hops.push_back(t); });
  }
  // Each switch grant sends one flit: per router output, as many granted
  // cycles as flits on its link.
  int outputs = 0;
  for (const auto& [id, name] : vcd.names) {
    const std::string tail = ".out.sw_grant";
    if (name.size() < tail.size() || name.compare(name.size() - tail.size(), tail.size(), tail) != 0) continue;
    const std::string out = name.substr(0, name.size() - 9);
    const auto grant = vcd.series(name), valid = vcd.series(out + ".flit.valid");
    EXPECT_EQ(std::count_if(grant.begin(), grant.end(), [](auto g) { return g != 0; }),
              std::count(valid.begin(), valid.end(), 1u)) << out;
    ++outputs;
  }
  EXPECT_EQ(outputs, 2 * 24);  // 24 links between the 16 routers of a 4 x 4 mesh, both ways
  ASSERT_GT(packets.size(), 50u);
  for (auto& [id, p] : packets) {
    SCOPED_TRACE("packet " + std::to_string(id) + ": " + std::to_string(p.src) + " -> " + std::to_string(p.dst));
    ASSERT_GE(p.injected, 0);
    EXPECT_EQ(p.ejections, 1);
    const long dx = std::labs(p.src % 4 - p.dst % 4), dy = std::labs(p.src / 4 - p.dst / 4);
    EXPECT_EQ(static_cast<long>(p.hops.size()), dx + dy);
    std::sort(p.hops.begin(), p.hops.end());
    long last = p.injected;
    for (auto t : p.hops) {
      EXPECT_GT(static_cast<long>(t), last);
      last = static_cast<long>(t);
    }
    EXPECT_GT(p.ejected, last);
  }
}

// The vc_state filter names the input VC stages the router uses: its values
// are the enum's (read from the file, compared with the enumerators here).
TEST(Waveform, VcStateFilterMatchesTheRouterStages) {
  const std::string dir = scratch_dir();
  ASSERT_EQ(run_mesh_with_waveform(dir, "--set network.k=2 --set measure.cycles=20").exit_code, 0);
  std::map<std::string, int> value;
  std::istringstream in(read_file(dir + "/m.vc_state.filter"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    int v = -1;
    std::string name;
    fields >> v >> name;
    value[name] = v;
  }
  using Stage = vc::InputUnits::Stage;
  EXPECT_EQ(value, (std::map<std::string, int>{{"idle", static_cast<int>(Stage::kIdle)},
                                               {"routing", static_cast<int>(Stage::kRouting)},
                                               {"waiting_for_vc", static_cast<int>(Stage::kVcAlloc)},
                                               {"active", static_cast<int>(Stage::kActive)}}));
  // The save file attaches it, by a path GTKWave opens from any folder.
  EXPECT_NE(read_file(dir + "/m.gtkw").find(" " + dir + "/m.vc_state.filter\n@2024\n"), std::string::npos)
      << "the state rows are translated (GTKWave's flag 0x2000) from decimal values";
}

// Every run that writes a waveform writes a save file beside it, and every
// signal the save file names exists in the waveform: one family per network
// type (the VCD's variables against the save file's rows, both parsed here).
TEST(Waveform, EverySaveFileRowIsAWaveformSignal) {
  const std::string dir = scratch_dir();
  const std::string scenarios = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/";
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"vc", scenarios + "mesh8x8_uniform.yaml --set network.k=3 --set measure.cycles=50"},
      {"packet", "/dev/null --set network.leaves=8 --set traffic.collective=multinode_broadcast"},
      {"bitserial", scenarios + "fattree_bitserial_8_waveform.yaml"},
      {"ibt", "/dev/null --set network.type=ibt --set network.n=16 --set network.d=2 --set network.bypass=[4]"},
      {"hpam", scenarios + "hpam_scatter_multicast.yaml"},
      {"crossbar", "/dev/null --set network.type=crossbar --set network.processors=8"}};
  for (const auto& [name, args] : runs) {
    SCOPED_TRACE(name);
    const CommandResult r = run_icnsim("run " + args + " --quiet --vcd " + dir + "/" + name + ".vcd");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Vcd vcd = parse_vcd(read_file(dir + "/" + name + ".vcd"));
    int rows = 0;
    for (const SaveFileRow& row : parse_save_file(read_file(dir + "/" + name + ".gtkw")).rows) {
      EXPECT_EQ(vcd.ids.count(row.signal), 1u) << row.signal;
      ++rows;
    }
    EXPECT_GT(rows, 1) << "a save file with the cycle counter only";
  }
}

// outputs.trace_packet: a save file per packet whose rows are the links and
// buffers it crossed, in path order, and whose comments give the hops the
// routers recorded. Each recorded hop is checked against the waveform: the
// head of that packet is on that output's flit bus (the destination NIC's
// ejection bus for the last) in the cycle the router says it sent it, and on
// the source NIC's injection bus in the cycle the NIC says it injected it.
TEST(Waveform, TracePacketSaveFileFollowsThePacketsRecordedHops) {
  const std::string dir = scratch_dir();
  const std::vector<int> ids = {3, 17, 40, 77};
  std::string list;
  for (int id : ids) list += (list.empty() ? "" : ",") + std::to_string(id);
  const CommandResult r = run_mesh_with_waveform(
      dir, "--set network.k=4 --set traffic.injection_rate=0.2 --set measure.cycles=200 --set outputs.trace_packet=[" +
               list + "]");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Vcd vcd = parse_vcd(read_file(dir + "/m.vcd"));
  auto head_of = [&](const std::string& bus, std::uint64_t t) -> long {
    const std::string b = "SystemC.icnsim." + bus + ".flit.";
    if (vcd.at(b + "valid", t) == 0 || vcd.at(b + "head", t) == 0) return -1;
    return static_cast<long>(vcd.at(b + "packet", t));
  };
  for (int id : ids) {
    SCOPED_TRACE("packet " + std::to_string(id));
    std::istringstream in(read_file(dir + "/m.packet" + std::to_string(id) + ".gtkw"));
    int hops = 0, rows = 0;
    long src = -1, dst = -1;
    for (std::string line; std::getline(in, line);) {
      long a = 0, b = 0, injected = 0;
      unsigned vc = 0;
      if (std::sscanf(line.c_str(), "[*] %ld -> %ld: injected (head) in cycle %ld on VC %u", &a, &b, &injected, &vc) == 4) {
        src = a;
        dst = b;
        EXPECT_EQ(head_of("nic" + std::to_string(src) + ".inject", static_cast<std::uint64_t>(injected)), id);
        EXPECT_EQ(vcd.at("SystemC.icnsim.nic" + std::to_string(src) + ".inject.flit.vc", static_cast<std::uint64_t>(injected)), vc);
      }
      char router[32], in_port[16], out_port[16];
      unsigned in_vc = 0, out_vc = 0;
      long sent = 0;
      const auto at = line.find(", sent ");
      if (line.rfind("[*] hop ", 0) == 0 && at != std::string::npos &&
          std::sscanf(line.c_str(), "[*] hop %*d: %31s in %15s vc%u -> out %15s vc%u", router, in_port, &in_vc, out_port,
                      &out_vc) == 5) {
        sent = std::stol(line.substr(at + 7));
        const std::string bus = std::string(out_port) == "local" ? "nic" + std::to_string(dst) + ".eject"
                                                                 : std::string(router) + "." + out_port + ".out";
        EXPECT_EQ(head_of(bus, static_cast<std::uint64_t>(sent)), id) << line;
        EXPECT_EQ(vcd.at("SystemC.icnsim." + bus + ".flit.vc", static_cast<std::uint64_t>(sent)), out_vc) << line;
        ++hops;
      }
      if (line.rfind("+{", 0) == 0) {
        std::string signal = line.substr(line.find("} ") + 2);
        EXPECT_EQ(vcd.ids.count(signal.substr(0, signal.find('['))), 1u) << signal;
        ++rows;
      }
    }
    ASSERT_GE(src, 0) << "no injection line";
    // X-Y on the 4 x 4 mesh: a router per hop, |dx| + |dy| + 1 of them.
    EXPECT_EQ(hops, std::labs(src % 4 - dst % 4) + std::labs(src / 4 - dst / 4) + 1);
    EXPECT_GT(rows, 7 * 2);  // at least the two NIC buses
  }
}

// outputs.trace_packet needs a waveform and a family that follows packets.
TEST(Waveform, TracePacketBadInputIsOneLine) {
  const std::string mesh = "run " + std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/mesh8x8_uniform.yaml ";
  expect_rejected(mesh + "--set outputs.trace_packet=3", "outputs.trace_packet = 3: needs a waveform to follow the packet in");
  expect_rejected(mesh + "--set outputs.trace_packet=-1 --vcd " + scratch_dir() + "/y.vcd",
                  "outputs.trace_packet = -1: out of range");
  std::string many;
  for (int i = 0; i < 65; ++i) many += (many.empty() ? "" : ",") + std::to_string(i);
  expect_rejected(mesh + "--set outputs.trace_packet=[" + many + "] --vcd " + scratch_dir() + "/z.vcd",
                  "65 packets; at most 64");
}

// outputs.trace_window and outputs.trace_routers: only the cycles and blocks
// asked for are in the waveform (read back from the VCD).
TEST(Waveform, TraceWindowAndRoutersKeepOnlyWhatWasAsked) {
  const std::string dir = scratch_dir();
  const std::string mesh = "run " + std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/mesh8x8_uniform.yaml ";
  const CommandResult r = run_mesh_with_waveform(
      dir, "--set network.k=4 --set measure.cycles=100 --set outputs.trace_routers=[r1_1,[2,3],nic5] "
           "--set outputs.trace_window=[40,60]");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Vcd vcd = parse_vcd(read_file(dir + "/m.vcd"));
  std::map<std::string, int> per_block;
  for (const auto& [id, name] : vcd.names) {
    if (name == "SystemC.cycle") continue;
    std::string block;
    for (const std::string b : {".r1_1.", ".r2_3.", ".nic5."})
      if (name.find(b) != std::string::npos) block = b;
    EXPECT_FALSE(block.empty()) << name << " is not a block that was asked for";
    ++per_block[block];
  }
  EXPECT_EQ(per_block.size(), 3u);
  // Cycles 40..60 only: the cycle counter's changes, after the values at time 0.
  const auto& cycle = vcd.changes.at(vcd.ids.at("SystemC.cycle"));
  ASSERT_GE(cycle.size(), 2u);
  EXPECT_EQ(cycle[1].first, 40u);
  EXPECT_EQ(cycle.back().first, 60u);
  for (std::size_t i = 1; i < cycle.size(); ++i) EXPECT_EQ(cycle[i].second, cycle[i].first);
  expect_rejected(mesh + "--set outputs.trace_window=[60,40] --vcd " + dir + "/x.vcd",
                  "outputs.trace_window = [60, 40]: expected [FROM, TO] with FROM <= TO");
  expect_rejected(mesh + "--set outputs.trace_window=[1,2]", "outputs.trace_window = [1, 2]: applies only with a waveform");
  expect_rejected(mesh + "--set outputs.trace_routers=[r1_1]", "outputs.trace_routers = [r1_1]: applies only with a waveform");
  expect_rejected(mesh + "--set 'outputs.trace_routers=[\"r1 1\"]' --vcd " + dir + "/y.vcd",
                  "'r1 1' is neither a block name");
  // A name the 8 x 8 mesh does not have (r9_9) would leave only the cycle counter: refused, no file left.
  expect_rejected(mesh + "--set outputs.trace_routers=[r1_1,r9_9] --vcd " + dir + "/z.vcd",
                  "outputs.trace_routers: 'r9_9' names no traced block of this network");
  EXPECT_FALSE(std::ifstream(dir + "/z.vcd").good());
}

// outputs.max_trace_bytes: the estimate made before the run (the JSON's
// sim.trace_bytes_estimate) is within 2x of the VCD actually written, on three
// families, with shapes and loads other than those its per-family constants
// were measured on (docs/waveforms/README.md lists those).
TEST(Waveform, SizeEstimateIsWithinTwiceTheWrittenFile) {
  const std::string dir = scratch_dir();
  const std::string scenarios = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/";
  const std::vector<std::pair<std::string, std::string>> runs{
      {"vc torus", "mesh8x8_uniform.yaml --set network.topology=torus --set network.k=6 --set traffic.injection_rate=0.12 "
                   "--set measure.cycles=800"},
      {"vc mesh", "mesh8x8_uniform.yaml --set network.k=3 --set traffic.injection_rate=0.25 --set measure.cycles=600"},
      {"crossbar", "fractional_crossbar_binary_reduction.yaml --set network.processors=48"},
      {"packet fat tree", "fattree_ebft64_total_exchange.yaml --set network.leaves=32"},
      {"packet fat tree gather", "fattree_cbft16_total_exchange.yaml --unset traffic.pipelined --unset traffic.schedule "
                                 "--set traffic.collective=gather --set network.leaves=32"},
      {"bit-serial fat tree", "fattree_bitserial_doubling64_random.yaml"},
      {"bit-serial all_to_one", "fattree_bitserial_8_waveform.yaml --set network.processors=32 --set traffic.pattern=all_to_one "
                                "--unset traffic.pairs"},
      {"torus broadcast", "torus_global_3d.yaml --set network.n=8 --set traffic.packets=128"},
      {"hpam scatter", "hpam_scatter_hybrid.yaml"},
  };
  for (const auto& [what, args] : runs) {
    SCOPED_TRACE(what);
    const CommandResult r =
        run_icnsim("run " + scenarios + args + " --quiet --json " + dir + "/s.json --vcd " + dir + "/s.vcd");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::ordered_json::parse(read_file(dir + "/s.json"));
    ASSERT_TRUE(j["sim"].contains("trace_bytes_estimate")) << j["sim"].dump();
    const double estimate = j["sim"]["trace_bytes_estimate"].get<double>();
    const double written = static_cast<double>(read_file(dir + "/s.vcd").size());
    EXPECT_GE(estimate, written / 2) << "estimate " << estimate << ", written " << written;
    EXPECT_LE(estimate, written * 2) << "estimate " << estimate << ", written " << written;
  }
}

// Over the limit before the run: one line naming the estimate and the key,
// exit 2, no file. Under it by the estimate but past it while running (an
// HPAM gather, whose waiting messages write more than its estimate counts):
// the run stops, one line, exit 2, no file. A device takes no disk and is not
// limited; a malformed limit names the allowed values.
TEST(Waveform, MaxTraceBytesRefusesBeforeTheRunAndStopsAGrowingOne) {
  const std::string dir = scratch_dir();
  const std::string scenarios = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/";
  expect_rejected("run " + scenarios + "mesh8x8_uniform.yaml --set outputs.max_trace_bytes=1MiB --vcd " + dir + "/big.vcd",
                  "outputs.max_trace_bytes = 1 MiB: the waveform is estimated at ");
  EXPECT_FALSE(std::ifstream(dir + "/big.vcd").good());
  const std::string hpam = "run " + scenarios + "hpam_gather_multicast.yaml --quiet --json " + dir + "/h.json";
  const CommandResult free_run = run_icnsim(hpam + " --vcd " + dir + "/h.vcd");
  ASSERT_EQ(free_run.exit_code, 0) << free_run.err;
  const std::size_t written = read_file(dir + "/h.vcd").size();
  const double estimate = nlohmann::ordered_json::parse(read_file(dir + "/h.json"))["sim"]["trace_bytes_estimate"].get<double>();
  ASSERT_LT(estimate + 8192, static_cast<double>(written));  // room for a limit between the two
  const std::string limit = std::to_string((static_cast<std::size_t>(estimate) + 4096) / 1024) + "KiB";
  const CommandResult stopped = run_icnsim(hpam + " --set outputs.max_trace_bytes=" + limit + " --vcd " + dir + "/h2.vcd");
  EXPECT_EQ(stopped.exit_code, 2) << stopped.err;
  EXPECT_EQ(std::count(stopped.err.begin(), stopped.err.end(), '\n'), 1) << stopped.err;
  EXPECT_NE(stopped.err.find("reached outputs.max_trace_bytes"), std::string::npos) << stopped.err;
  EXPECT_FALSE(std::ifstream(dir + "/h2.vcd").good());
  const CommandResult device = run_icnsim(hpam + " --set outputs.max_trace_bytes=1KiB --vcd /dev/null");
  EXPECT_EQ(device.exit_code, 0) << device.err;
  expect_rejected("run " + scenarios + "mesh8x8_uniform.yaml --set outputs.max_trace_bytes=12 --vcd " + dir + "/x.vcd",
                  "outputs.max_trace_bytes = 12: expected a size like 64MiB, 4GiB or a count of bytes (1KiB..1024TiB)");
  expect_rejected("run " + scenarios + "mesh8x8_uniform.yaml --set outputs.max_trace_bytes=1.5GiB --vcd " + dir + "/x.vcd",
                  "outputs.max_trace_bytes = 1.5GiB: expected a size like");
  // A count of bytes is a size too: 2000000 is under this run's estimate.
  expect_rejected("run " + scenarios + "mesh8x8_uniform.yaml --set outputs.max_trace_bytes=2000000 --vcd " + dir + "/x.vcd",
                  "outputs.max_trace_bytes = 2 MiB: the waveform is estimated at ");
}

}  // namespace icn::test
