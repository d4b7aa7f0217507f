// outputs.trace_packet on the crossbars (network.type=crossbar and
// hier_crossbar): the save file that follows one packet number of a
// pipelined broadcast or reduction hop by hop. Every expectation comes from
// the VCD the same run writes (the processors' tx and rx rows) or from the
// algorithm's definition (a chain passes the packet on in rank order), never
// from the follower itself.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>

#include "tests/support/save_file.hpp"
#include "tests/support/sim_helpers.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {

namespace {

struct XbarRun {
  Vcd vcd;
  std::string stem;
};

XbarRun run_xbar(const std::string& args, const std::string& name) {
  XbarRun r;
  r.stem = scratch_dir() + "/" + name;
  const CommandResult out = run_icnsim("run /dev/null --quiet " + args + " --vcd " + r.stem + ".vcd");
  EXPECT_EQ(out.exit_code, 0) << out.err;
  r.vcd = parse_vcd(read_file(r.stem + ".vcd"));
  return r;
}

struct XbarHop {
  unsigned from = 0, to = 0;
  std::uint64_t sent = 0, received = 0;
};

struct CrossbarPacketFile {
  std::string text;
  std::vector<XbarHop> hops;
  std::vector<std::string> groups, rows;
  long long marker_a = -2, marker_b = -2;
};

CrossbarPacketFile read_crossbar_packet_file(const std::string& path) {
  CrossbarPacketFile f;
  f.text = read_file(path);
  std::istringstream in(f.text);
  for (std::string line; std::getline(in, line);) {
    XbarHop h;
    unsigned long long sent = 0, received = 0;
    if (std::sscanf(line.c_str(), "[*] hop %*u: nic%u -> nic%u: sent %llu, received %llu", &h.from, &h.to, &sent,
                    &received) == 4) {
      h.sent = sent;
      h.received = received;
      f.hops.push_back(h);
    }
  }
  const SaveFile save = parse_save_file(f.text);
  f.groups = save.groups;
  for (const SaveFileRow& r : save.rows) f.rows.push_back(r.signal);
  f.marker_a = save.marker_a;
  f.marker_b = save.marker_b;
  return f;
}

std::string row(unsigned x, const std::string& leaf) { return kWaveformTop + "nic" + std::to_string(x) + "." + leaf; }

// Whether processor x's port shows packet `id` going to / coming from `peer` in cycle t.
bool tx_shows(const Vcd& v, unsigned x, unsigned id, unsigned peer, std::uint64_t t) {
  return v.at(row(x, "tx.busy"), t) == 1 && v.at(row(x, "tx.packet"), t) == id && v.at(row(x, "tx.dst"), t) == peer;
}
bool rx_shows(const Vcd& v, unsigned x, unsigned id, unsigned peer, std::uint64_t t) {
  return v.at(row(x, "rx.busy"), t) == 1 && v.at(row(x, "rx.packet"), t) == id && v.at(row(x, "rx.src"), t) == peer;
}

// Checks the file's hops against the VCD: a chain from `first` to `last`,
// each hop on the sender's tx from the cycle it was sent (tx rising with this
// packet and receiver) and on the receiver's rx until the cycle before it was
// received (rx shows a packet until its tail is in), at increasing cycles;
// markers at the first send and last receipt; rows in path order, every one
// a signal of the VCD.
void expect_hops_match_vcd(const CrossbarPacketFile& f, const Vcd& v, unsigned id, unsigned first, unsigned last) {
  ASSERT_FALSE(f.hops.empty()) << f.text;
  EXPECT_EQ(f.hops.front().from, first);
  EXPECT_EQ(f.hops.back().to, last);
  std::vector<std::string> groups{"nic" + std::to_string(first) + "/tx"};
  std::uint64_t previous = 0;
  for (std::size_t i = 0; i < f.hops.size(); ++i) {
    const XbarHop& h = f.hops[i];
    SCOPED_TRACE("hop " + std::to_string(i + 1));
    if (i > 0) {
      EXPECT_EQ(h.from, f.hops[i - 1].to);
    }
    EXPECT_GE(h.sent, previous);
    EXPECT_LT(h.sent, h.received);
    ASSERT_GT(h.sent, 0u);
    EXPECT_TRUE(tx_shows(v, h.from, id, h.to, h.sent));
    EXPECT_FALSE(tx_shows(v, h.from, id, h.to, h.sent - 1));
    EXPECT_TRUE(rx_shows(v, h.to, id, h.from, h.received - 1));
    EXPECT_FALSE(rx_shows(v, h.to, id, h.from, h.received));
    previous = h.received;
    groups.push_back("nic" + std::to_string(h.to) + "/rx");
    if (i + 1 < f.hops.size()) groups.push_back("nic" + std::to_string(h.to) + "/tx");
  }
  EXPECT_EQ(f.marker_a, static_cast<long long>(f.hops.front().sent));
  EXPECT_EQ(f.marker_b, static_cast<long long>(f.hops.back().received));
  EXPECT_EQ(f.groups, groups);
  EXPECT_EQ(f.rows.size(), 3 * groups.size());
  for (const std::string& r : f.rows) EXPECT_EQ(v.ids.count(r), 1u) << r;
}

// The processor whose rx shows packet `id` last (ties: the lowest id), from the VCD alone.
unsigned reached_last(const Vcd& v, unsigned processors, unsigned id) {
  unsigned best = processors;
  std::uint64_t latest = 0;
  for (unsigned x = 0; x < processors; ++x) {
    const auto busy = v.series(row(x, "rx.busy")), packet = v.series(row(x, "rx.packet"));
    for (std::uint64_t t = 0; t < busy.size(); ++t)
      if (busy[t] == 1 && packet[t] == id && (best == processors || t > latest)) {
        best = x;
        latest = t;
      }
  }
  return best;
}

}  // namespace

// A broadcast: the path from the root to the processor the VCD shows
// receiving the packet last, on a full crossbar (fractional tree, root 3) and
// a hierarchical one (binary tree). A packet number beyond s gets a file
// saying it was not sent.
TEST(WaveformCrossbar, TracePacketFollowsABroadcastToTheProcessorItReachedLast) {
  struct Case {
    std::string args;
    unsigned processors, root;
  };
  const std::vector<Case> cases = {
      {"--set network.type=crossbar --set network.processors=16 --set traffic.algorithm=fractional "
       "--set traffic.group=2 --set traffic.packets=8 --set traffic.message_units=64 --set nic.startup=4 "
       "--set traffic.root=3",
       16, 3},
      {"--set network.type=hier_crossbar --set network.modules=4 --set network.module_size=4 "
       "--set traffic.algorithm=binary --set traffic.packets=8 --set traffic.message_units=32 --set nic.startup=4",
       16, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const XbarRun run = run_xbar(c.args + " --set outputs.trace_packet=[0,5,7,9]", "b");
    for (unsigned id : {0u, 5u, 7u}) {
      SCOPED_TRACE("packet " + std::to_string(id));
      const CrossbarPacketFile f = read_crossbar_packet_file(run.stem + ".packet" + std::to_string(id) + ".gtkw");
      const unsigned last = reached_last(run.vcd, c.processors, id);
      ASSERT_LT(last, c.processors);
      expect_hops_match_vcd(f, run.vcd, id, c.root, last);
    }
    const std::string unsent = read_file(run.stem + ".packet9.gtkw");
    EXPECT_NE(unsent.find("Packet 9 was not sent in this run"), std::string::npos) << unsent;
  }
}

// A chain broadcast passes every packet down the ranks: rank x runs on
// processor (root + x) mod P, so the path is every processor in that order,
// P - 1 hops.
TEST(WaveformCrossbar, TracePacketFollowsAChainThroughEveryProcessorInRankOrder) {
  const unsigned P = 8, root = 2;
  const XbarRun run = run_xbar("--set network.type=crossbar --set network.processors=8 --set traffic.algorithm=chain "
                               "--set traffic.packets=4 --set traffic.message_units=16 --set nic.startup=3 "
                               "--set traffic.root=2 --set outputs.trace_packet=[0,3]",
                               "c");
  for (unsigned id : {0u, 3u}) {
    SCOPED_TRACE("packet " + std::to_string(id));
    const CrossbarPacketFile f = read_crossbar_packet_file(run.stem + ".packet" + std::to_string(id) + ".gtkw");
    ASSERT_EQ(f.hops.size(), P - 1) << f.text;
    for (unsigned i = 0; i < P - 1; ++i) {
      EXPECT_EQ(f.hops[i].from, (root + i) % P);
      EXPECT_EQ(f.hops[i].to, (root + i + 1) % P);
    }
    expect_hops_match_vcd(f, run.vcd, id, root, (root + P - 1) % P);
  }
}

// A reduction: the longest chain of sends of the packet that ends at the
// root. The test builds the send graph from the VCD (each processor's tx
// destination while it sends that packet) and finds the longest chain to the
// root itself (ties: the lowest first sender).
TEST(WaveformCrossbar, TracePacketFollowsAReductionsLongestChainToTheRoot) {
  const unsigned P = 12, root = 5, id = 2;
  const XbarRun run = run_xbar("--set network.type=crossbar --set network.processors=12 --set traffic.collective=reduction "
                               "--set traffic.algorithm=binary --set traffic.packets=4 --set traffic.message_units=32 "
                               "--set nic.startup=4 --set traffic.root=5 --set outputs.trace_packet=2",
                               "r");
  std::map<unsigned, unsigned> parent;
  for (unsigned x = 0; x < P; ++x) {
    const auto busy = run.vcd.series(row(x, "tx.busy")), packet = run.vcd.series(row(x, "tx.packet")),
               dst = run.vcd.series(row(x, "tx.dst"));
    for (std::uint64_t t = 0; t < busy.size(); ++t)
      if (busy[t] == 1 && packet[t] == id) {
        parent[x] = static_cast<unsigned>(dst[t]);
        break;
      }
  }
  EXPECT_EQ(parent.count(root), 0u);
  EXPECT_EQ(parent.size(), P - 1);
  unsigned start = root;
  std::size_t longest = 0;
  for (unsigned x = 0; x < P; ++x) {
    std::size_t n = 0;
    for (unsigned y = x; y != root && parent.count(y) && n <= P; y = parent[y]) ++n;
    if (n > longest) {
      longest = n;
      start = x;
    }
  }
  const CrossbarPacketFile f = read_crossbar_packet_file(run.stem + ".packet2.gtkw");
  ASSERT_EQ(f.hops.size(), longest) << f.text;
  expect_hops_match_vcd(f, run.vcd, id, start, root);
}

// Bad input is one line and exit 2: a waveform is needed.
TEST(WaveformCrossbar, TracePacketBadInputIsOneLine) {
  expect_rejected("run /dev/null --set network.type=crossbar --set network.processors=8 --set outputs.trace_packet=3",
                  "outputs.trace_packet = 3: needs a waveform to follow the packet in");
  expect_rejected("run /dev/null --set network.type=hier_crossbar --set outputs.trace_packet=[1,x] --vcd " +
                      scratch_dir() + "/x.vcd",
                  "outputs.trace_packet");
}

}  // namespace icn::test
