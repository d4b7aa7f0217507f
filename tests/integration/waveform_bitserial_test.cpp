// outputs.trace_packet on the bit-serial fat tree, read back from the files:
// each followed message's save file against the tree's shape (the route from
// its source leaf up to the lowest common ancestor and down, computed here
// from the leaf numbers) and against the VCD (the stream's bits on every row
// it names, at the cycles it names); a lost attempt against the switch's
// state row. Expected values never come from the code that follows streams.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/save_file.hpp"
#include "tests/support/sim_helpers.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {

namespace {

constexpr unsigned kMessageBits = 16 + 64;  // after the H source-address bits: seq and payload (bit_serial_nic.hpp)

std::string sw(unsigned level, unsigned index) {
  return "level" + std::to_string(level) + ".s" + std::to_string(level) + "_" + std::to_string(index);
}

// The turning level of s -> d: the level of the highest bit in which they differ.
unsigned turn_level(unsigned s, unsigned d) {
  unsigned lca = 0;
  for (unsigned x = s ^ d; x != 0; x >>= 1) ++lca;
  return lca;
}

// The channels of the route s -> d, named as the waveform names them
// (level<l>.<block>.<port>): up from NIC s to the turning switch, then down to NIC d.
std::vector<std::string> route_channels(unsigned s, unsigned d) {
  const unsigned lca = turn_level(s, d);
  std::vector<std::string> out;
  for (unsigned l = 1; l <= lca; ++l)
    out.push_back("level" + std::to_string(l) + "." +
                  (l == 1 ? "nic" + std::to_string(s) : "s" + std::to_string(l - 1) + "_" + std::to_string(s >> (l - 1))) +
                  ".up");  // the branch's level, named after the block below it
  for (unsigned l = lca; l >= 1; --l) out.push_back(sw(l, d >> l) + ".down" + std::to_string((d >> (l - 1)) & 1));
  return out;
}

// The switches it crosses, each with the port it enters by and leaves by.
std::vector<std::string> route_switches(unsigned s, unsigned d) {
  const unsigned lca = turn_level(s, d);
  std::vector<std::string> out;
  auto branch = [](unsigned leaf, unsigned l) { return "branch" + std::to_string((leaf >> (l - 1)) & 1); };
  for (unsigned l = 1; l < lca; ++l) out.push_back(sw(l, s >> l) + " " + branch(s, l) + " -> trunk");
  out.push_back(sw(lca, s >> lca) + " " + branch(s, lca) + " -> " + branch(d, lca));
  for (unsigned l = lca - 1; l >= 1; --l) out.push_back(sw(l, d >> l) + " trunk -> " + branch(d, l));
  return out;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// "SystemC.icnsim.level2.s1_0.up.p1.valid" -> ("level2.s1_0.up", 1).
std::pair<std::string, unsigned> channel_and_path(const std::string& signal) {
  const std::string base = signal.substr(kWaveformTop.size(), signal.rfind('.') - kWaveformTop.size());
  const std::size_t p = base.rfind(".p");
  return {base.substr(0, p), static_cast<unsigned>(std::stoul(base.substr(p + 2)))};
}

// The cycles named by "[*] hop N: ... in clock C" comments, in order.
std::vector<std::uint64_t> hop_cycles(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("[*] hop ", 0) == 0) out.push_back(std::stoull(line.substr(line.rfind(" in clock ") + 10)));
  return out;
}

struct Checked {
  std::uint64_t a = 0, b = 0;  // markers, as read back from the VCD
};

// Checks one followed message s -> d of a tree of height h against the VCD:
// its rows are its route in order, every row exists, the stream's M rises on
// each path at the cycle its hop comment names, each path carries the stream
// one clock after the previous one (the last bit moves one link a clock),
// the message bits are the same on every path and start with the source
// address, and markers A and B are the M on the NIC's up path and the last
// bit on the path into the destination.
Checked check_followed(const Vcd& vcd, const std::string& text, unsigned s, unsigned d, unsigned h) {
  Checked out;
  const SaveFile f = parse_save_file(text);
  std::vector<std::string> channels, switches, valid_rows;
  std::vector<unsigned> paths;
  std::vector<std::pair<std::string, std::string>> switch_rows;  // (from_port row, from_path row) per hop
  std::string in_port;
  for (const SaveFileRow& r : f.rows) {
    EXPECT_EQ(vcd.ids.count(r.signal), 1u) << r.signal << " is not in the VCD";
    if (ends_with(r.signal, ".valid")) {
      const auto [channel, path] = channel_and_path(r.signal);
      channels.push_back(channel);
      paths.push_back(path);
      valid_rows.push_back(r.signal);
    } else if (ends_with(r.signal, ".state")) {
      const std::string rest = r.signal.substr(kWaveformTop.size());  // level1.s1_0.in_branch0.p0.state
      const std::size_t in = rest.find(".in_");
      in_port = rest.substr(in + 4, rest.find(".p", in) - in - 4);
      switches.push_back(rest.substr(0, in) + " " + in_port);
    } else if (ends_with(r.signal, ".from_port")) {
      const std::size_t out = r.signal.find(".out_");
      switches.back() += " -> " + r.signal.substr(out + 5, r.signal.find(".p", out) - out - 5);
      switch_rows.push_back({r.signal, r.signal.substr(0, r.signal.size() - 4) + "path"});
    }
  }
  EXPECT_EQ(channels, route_channels(s, d)) << s << " -> " << d;
  EXPECT_EQ(switches, route_switches(s, d)) << s << " -> " << d;
  const std::vector<std::uint64_t> hops = hop_cycles(text);
  if (channels != route_channels(s, d) || hops.size() + 1 != valid_rows.size() || switch_rows.size() != hops.size()) {
    ADD_FAILURE() << "rows and hop comments disagree: " << valid_rows.size() << " paths, " << hops.size() << " hops";
    return out;
  }
  std::vector<std::uint64_t> starts{static_cast<std::uint64_t>(f.marker_a)};
  starts.insert(starts.end(), hops.begin(), hops.end());
  std::vector<std::uint64_t> first_bits;
  std::uint64_t end0 = 0;
  for (std::size_t i = 0; i < valid_rows.size(); ++i) {
    SCOPED_TRACE(valid_rows[i]);
    const std::string bit_row = valid_rows[i].substr(0, valid_rows[i].size() - 5) + "bit";
    const auto valid = vcd.series(valid_rows[i]), bit = vcd.series(bit_row);
    const std::uint64_t c = starts[i];
    if (i > 0) {
      EXPECT_GT(c, starts[i - 1]) << "hops in increasing order";
    }
    EXPECT_TRUE(c < valid.size() && c > 0 && valid[c] == 1 && valid[c - 1] == 0 && bit[c] == 1)
        << "M (valid rising with bit 1) in cycle " << c;
    if (c >= valid.size()) return out;
    std::uint64_t e = c;
    while (e + 1 < valid.size() && valid[e + 1] == 1) ++e;
    std::vector<std::uint64_t> bits(bit.begin() + static_cast<std::ptrdiff_t>(e + 1 - (h + kMessageBits)),
                                    bit.begin() + static_cast<std::ptrdiff_t>(e + 1));
    if (i == 0) {
      end0 = e;
      first_bits = bits;
      out.a = c;
    } else {
      EXPECT_EQ(e, end0 + i) << "the last bit moves one link a clock";
      EXPECT_EQ(bits, first_bits) << "the message bits are the NIC's";
      // The switch that drove this path had connected the previous row's path to it.
      const auto [from_port, from_path] = switch_rows[i - 1];
      EXPECT_NE(vcd.at(from_port, c), 0u) << from_port;
      EXPECT_EQ(vcd.at(from_path, c), paths[i - 1]) << from_path;
    }
    if (i + 1 == valid_rows.size()) {
      out.b = e;
      unsigned src = 0;  // the first message bits after M: the source address, most significant first
      for (unsigned k = 1; k <= h; ++k) src = 2 * src + static_cast<unsigned>(bit[c + k]);
      EXPECT_EQ(src, s) << "the stream on the path into nic" << d << " is not from nic" << s;
    }
  }
  EXPECT_EQ(f.marker_a, static_cast<long long>(out.a));
  EXPECT_EQ(f.marker_b, static_cast<long long>(out.b));
  return out;
}

}  // namespace

// 16 leaves, doubling capacities (1, 2, 4, 8 paths): streams share wide
// channels, so a hop recorded on the wrong path shows another stream's bits.
TEST(WaveformBitSerial, TracePacketSaveFileIsTheStreamsRouteUpAndDown) {
  const std::string dir = scratch_dir();
  const std::vector<std::pair<unsigned, unsigned>> pairs{{0, 15}, {1, 14}, {2, 13}, {3, 12}, {4, 8},  {5, 9},
                                                         {6, 10}, {7, 11}, {8, 3},  {9, 2},  {12, 0}, {13, 1},
                                                         {14, 5}, {15, 6}, {10, 11}, {11, 10}};
  std::string list;
  for (const auto& [s, d] : pairs) list += (list.empty() ? "" : ",") + ("[" + std::to_string(s) + "," + std::to_string(d) + "]");
  const CommandResult r = run_icnsim("run /dev/null --quiet --set network.type=fattree_bitserial --set network.processors=16 "
                                     "--set network.capacities=doubling --set traffic.pattern=pairs --set 'traffic.pairs=[" +
                                     list + "]' --set 'outputs.trace_packet=[0,1,5,8,10,14,16]' --vcd " + dir + "/t.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Vcd vcd = parse_vcd(read_file(dir + "/t.vcd"));
  for (unsigned id : {0u, 1u, 5u, 8u, 10u, 14u}) {
    SCOPED_TRACE("message " + std::to_string(id));
    const std::string text = read_file(dir + "/t.packet" + std::to_string(id) + ".gtkw");
    ASSERT_FALSE(text.empty());
    check_followed(vcd, text, pairs[id].first, pairs[id].second, 4);
  }
  const std::string none = read_file(dir + "/t.packet16.gtkw");
  EXPECT_NE(none.find("not injected in this run"), std::string::npos) << none;
  EXPECT_TRUE(parse_save_file(none).rows.empty());
}

// The shipped 8-leaf scenario, one path per channel: 6 -> 1 and 7 -> 2
// (messages 3 and 4) both need the trunk of s1_3, so one is lost there in the
// first delivery cycle and delivered in the second. Its save file lists both
// attempts, the loss where the VCD shows it, and the delivered one's path.
TEST(WaveformBitSerial, TracePacketReportsTheLostAttemptAndShowsTheDeliveredOne) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_icnsim(std::string("run ") + ICNSIM_SOURCE_DIR +
                                     "/testbench/scenarios/fattree_bitserial_8_waveform.yaml --quiet "
                                     "--set 'outputs.trace_packet=[3,4]' --vcd " + dir + "/w.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Vcd vcd = parse_vcd(read_file(dir + "/w.vcd"));
  const std::map<unsigned, std::pair<unsigned, unsigned>> pairs{{3, {6, 1}}, {4, {7, 2}}};
  unsigned retried = 0;
  for (const auto& [id, pair] : pairs) {
    SCOPED_TRACE("message " + std::to_string(id));
    const std::string text = read_file(dir + "/w.packet" + std::to_string(id) + ".gtkw");
    const Checked c = check_followed(vcd, text, pair.first, pair.second, 3);
    // Rises of M on its NIC's up path before marker A: earlier attempts.
    const auto valid = vcd.series(kWaveformTop + "level1.nic" + std::to_string(pair.first) + ".up.p0.valid");
    unsigned earlier = 0;
    for (std::uint64_t t = 1; t < c.a && t < valid.size(); ++t) earlier += valid[t] == 1 && valid[t - 1] == 0;
    const std::size_t second = text.find("[*] attempt 2:");
    EXPECT_EQ(earlier, second == std::string::npos ? 0u : 1u) << text;
    if (second == std::string::npos) continue;
    ++retried;
    const std::string first = text.substr(text.find("[*] attempt 1:"), second - text.find("[*] attempt 1:"));
    const std::size_t at = first.find("lost at s1_3 (branch");
    ASSERT_NE(at, std::string::npos) << first;
    const std::string side = first.substr(at + 20, 1);
    EXPECT_EQ(side, std::to_string(pair.first & 1));
    const std::uint64_t lost = std::stoull(first.substr(first.find(" in clock ", at) + 10));
    EXPECT_LT(lost, c.a) << "lost before the delivered attempt started";
    // The switch's state row: that input path lost (5) from that clock on.
    const std::string state = kWaveformTop + "level1.s1_3.in_branch" + side + ".p0.state";
    EXPECT_EQ(vcd.at(state, lost), 5u);
    EXPECT_NE(vcd.at(state, lost - 1), 5u);
  }
  EXPECT_EQ(retried, 1u) << "exactly one of the two contending messages is lost once";
}

// Bad ids are one line and exit 2, as for every family; so is following without a waveform.
TEST(WaveformBitSerial, TracePacketBadInputIsOneLine) {
  const std::string run = std::string("run ") + ICNSIM_SOURCE_DIR + "/testbench/scenarios/fattree_bitserial_8_waveform.yaml";
  expect_rejected(run + " --set outputs.trace_packet=[1,x] --vcd " + scratch_dir() + "/x.vcd", "outputs.trace_packet");
  expect_rejected(run + " --set outputs.trace_packet=-1 --vcd " + scratch_dir() + "/x.vcd", "outputs.trace_packet");
  expect_rejected(run + " --set outputs.trace_packet=3", "outputs.trace_packet = 3: needs a waveform to follow the packet in");
}

}  // namespace icn::test
