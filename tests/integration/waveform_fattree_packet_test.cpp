// The packet fat tree's waveform (`--vcd`) and outputs.trace_packet, read
// back from the files: every packet on the channels' packet buses, its
// source and destination, and the path it took, checked against the tree's
// shape and the traffic's definition computed here (never from the code
// that writes the waveform); the save files against the VCD.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/support/save_file.hpp"
#include "tests/support/sim_helpers.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {

namespace {

// A binary fat tree of n = 2^h leaves: c[l-1] physical links per direction
// between levels l-1 and l. Channels are named after the block they leave
// and its port, under the level of that block.
struct Tree {
  unsigned h = 3;
  std::vector<unsigned> c;

  unsigned leaves() const { return 1u << h; }
  // The channel from level-`level` node `index` to its parent.
  static std::string up(unsigned level, unsigned index) {
    return "level" + std::to_string(level) + "." + (level == 0 ? "nic" : "r" + std::to_string(level) + "_") +
           std::to_string(index) + ".up";
  }
  // The channel from a level-`level` router to its child `child` (numbered at level - 1).
  static std::string down(unsigned level, unsigned child) {
    return "level" + std::to_string(level) + ".r" + std::to_string(level) + "_" + std::to_string(child / 2) + ".down" +
           std::to_string(child % 2);
  }
  unsigned up_width(unsigned level) const { return c[level]; }
  unsigned down_width(unsigned level) const { return c[level - 1]; }
  // Every channel with its width.
  std::map<std::string, unsigned> channels() const {
    std::map<std::string, unsigned> all;
    for (unsigned l = 0; l < h; ++l)
      for (unsigned j = 0; j < (leaves() >> l); ++j) all[up(l, j)] = up_width(l);
    for (unsigned l = 1; l <= h; ++l)
      for (unsigned k = 0; k < (leaves() >> (l - 1)); ++k) all[down(l, k)] = down_width(l);
    return all;
  }
  // The unique path from leaf s to leaf d: up to their lowest common
  // ancestor (the level of the highest bit in which they differ), then down.
  static std::vector<std::string> path(unsigned s, unsigned d) {
    unsigned lca = 0;
    for (unsigned x = s ^ d; x != 0; x >>= 1) ++lca;
    std::vector<std::string> p;
    for (unsigned l = 0; l < lca; ++l) p.push_back(up(l, s >> l));
    for (unsigned l = lca; l >= 1; --l) p.push_back(down(l, d >> (l - 1)));
    return p;
  }
};

// The buses (row prefixes) of a channel: one per physical link, as many as
// the waveform shows one by one (the first 8).
std::vector<std::string> buses(const std::string& channel, unsigned width) {
  if (width == 1) return {kWaveformTop + channel + ".pkt"};
  std::vector<std::string> b;
  for (unsigned i = 0; i < std::min(width, 8u); ++i) b.push_back(kWaveformTop + channel + ".link" + std::to_string(i) + ".pkt");
  return b;
}

// "SystemC.icnsim.level1.r1_0.up.link1.pkt.dst" -> "level1.r1_0.up"
std::string channel_of(const std::string& signal) {
  std::string rest = signal.substr(kWaveformTop.size());
  std::size_t cut = 0;
  for (int part = 0; part < 3; ++part) cut = rest.find('.', cut) + 1;
  return rest.substr(0, cut - 1);
}

// One sighting of a packet on a bus.
struct Seen {
  std::uint64_t cycle;
  std::string channel;
  unsigned link;
  std::uint64_t src, dst;
};

// Every packet the VCD's buses show, by message id, in cycle order.
std::map<std::uint64_t, std::vector<Seen>> sightings(const Vcd& vcd, const Tree& tree) {
  std::map<std::uint64_t, std::vector<Seen>> seen;
  for (const auto& [channel, width] : tree.channels()) {
    const auto b = buses(channel, width);
    for (unsigned link = 0; link < b.size(); ++link) {
      const auto valid = vcd.series(b[link] + ".valid"), id = vcd.series(b[link] + ".packet"),
                 src = vcd.series(b[link] + ".src"), dst = vcd.series(b[link] + ".dst");
      for (std::uint64_t t = 0; t < valid.size(); ++t)
        if (valid[t] != 0) seen[id[t]].push_back({t, channel, link, src[t], dst[t]});
    }
  }
  for (auto& [id, s] : seen)
    std::stable_sort(s.begin(), s.end(), [](const Seen& a, const Seen& b) { return a.cycle < b.cycle; });
  return seen;
}

// The signals a save file's rows name, in order.
std::vector<std::string> save_file_signals(const std::string& text) {
  std::vector<std::string> out;
  for (const SaveFileRow& r : parse_save_file(text).rows) out.push_back(r.signal);
  return out;
}

// A total exchange on 8 leaves: every leaf sends one message to every other.
CommandResult run_exchange(const std::string& dir, const std::string& caps, const std::string& more = "") {
  return run_icnsim("run /dev/null --quiet --set network.leaves=8 --set network.capacities=" + caps +
                    " --set traffic.collective=total_exchange " + more + " --json " + dir + "/" + caps + ".json --vcd " +
                    dir + "/" + caps + ".vcd");
}

}  // namespace

// Each packet on the channels' buses, read back from the VCD: it enters on
// its source NIC's link up carrying that source, leaves on the level-1 down
// channel of its destination carrying that destination, the pairs are those
// of a total exchange (every ordered pair once), and it crosses exactly the
// channels of the tree path from source to destination, in order, at
// strictly increasing cycles. Constant and doubling capacities (physical
// links traced one by one).
TEST(WaveformFatTreePacket, PacketBusCarriesEveryPacketAlongItsTreePath) {
  const std::string dir = scratch_dir();
  for (const auto& [caps, tree] : std::vector<std::pair<std::string, Tree>>{{"cbft", {3, {1, 1, 1}}},
                                                                             {"ebft", {3, {1, 2, 4}}}}) {
    SCOPED_TRACE(caps);
    const CommandResult r = run_exchange(dir, caps);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Vcd vcd = parse_vcd(read_file(dir + "/" + caps + ".vcd"));
    const auto json = nlohmann::ordered_json::parse(read_file(dir + "/" + caps + ".json"));
    const auto seen = sightings(vcd, tree);
    const std::uint64_t messages = json["result"]["messages"]["injected"].get<std::uint64_t>();
    ASSERT_EQ(messages, 8u * 7u);
    ASSERT_EQ(seen.size(), messages);
    EXPECT_EQ(seen.rbegin()->first, messages - 1) << "message ids are 0 .. injected - 1";
    std::set<std::pair<std::uint64_t, std::uint64_t>> pairs;
    std::uint64_t transfers = 0, wide = 0;
    for (const auto& [id, s] : seen) {
      SCOPED_TRACE("packet " + std::to_string(id));
      const std::string first = s.front().channel, last = s.back().channel;
      ASSERT_EQ(first.rfind("level0.nic", 0), 0u) << first;
      ASSERT_EQ(last.rfind("level1.", 0), 0u) << last;
      const unsigned src = std::stoul(first.substr(10));
      // r1_j.down_b feeds leaf 2j + b.
      const unsigned dst = 2 * std::stoul(last.substr(last.find('_') + 1)) + (last.back() - '0');
      for (const Seen& x : s) {
        EXPECT_EQ(x.src, src) << x.channel << " in cycle " << x.cycle;
        EXPECT_EQ(x.dst, dst) << x.channel << " in cycle " << x.cycle;
        wide += x.link > 0;
      }
      EXPECT_TRUE(pairs.insert({src, dst}).second) << src << " -> " << dst << " twice";
      std::vector<std::string> channels;
      for (std::size_t i = 0; i < s.size(); ++i) {
        channels.push_back(s[i].channel);
        if (i > 0) {
          EXPECT_GT(s[i].cycle, s[i - 1].cycle) << s[i].channel;
        }
      }
      EXPECT_EQ(channels, Tree::path(src, dst)) << src << " -> " << dst;
      transfers += s.size();
    }
    EXPECT_EQ(pairs.size(), 8u * 7u);
    for (const auto& [src, dst] : pairs) EXPECT_NE(src, dst);
    std::uint64_t reported = 0;
    for (const auto& level : json["levels"])
      reported += level["transfers_up"].get<std::uint64_t>() + level["transfers_down"].get<std::uint64_t>();
    EXPECT_EQ(transfers, reported);
    if (caps == "ebft") {
      EXPECT_GT(wide, 0u) << "no packet took a second physical link";
    }
  }
}

// The save file beside the waveform: every row names a signal of the VCD,
// labelled with its full path ('/' for '.'; a NIC's links as its injection
// and ejection, r1_j.down_b being leaf 2j + b's); one group per channel;
// queues in decimal.
TEST(WaveformFatTreePacket, SaveFileLabelsAndGroupsEveryChannel) {
  const std::string dir = scratch_dir();
  const Tree tree{3, {1, 2, 4}};
  ASSERT_EQ(run_exchange(dir, "ebft").exit_code, 0);
  const Vcd vcd = parse_vcd(read_file(dir + "/ebft.vcd"));
  const std::string text = read_file(dir + "/ebft.gtkw");
  std::istringstream in(text);
  std::set<std::string> channels_with_group, groups;
  std::string group, flags;
  int rows = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("@800200", 0) == 0) {
      std::getline(in, group);
      EXPECT_TRUE(groups.insert(group).second) << group << " twice";
      continue;
    }
    if (line[0] == '@') flags = line;
    if (line.rfind("+{", 0) != 0) continue;
    const std::string label = line.substr(2, line.find('}') - 2);
    const std::string signal = line.substr(line.find("} ") + 2);
    const std::string name = signal.substr(0, signal.find('['));
    if (name == "SystemC.cycle") continue;
    ++rows;
    EXPECT_EQ(vcd.ids.count(name), 1u) << name;
    const std::string channel = channel_of(name);
    channels_with_group.insert(channel);
    std::string path = name.substr(kWaveformTop.size()), slashed = channel;
    std::replace(path.begin(), path.end(), '.', '/');
    std::replace(slashed.begin(), slashed.end(), '.', '/');
    EXPECT_NE(group.find(slashed), std::string::npos) << "group " << group << " holds " << name;
    std::string expected = path;
    if (channel.rfind("level0.nic", 0) == 0) {  // nic<k>/inject/...
      const std::string nic = channel.substr(7, channel.find(".up") - 7);
      expected = nic + "/inject/" + path.substr(channel.size() + 1);
    } else if (channel.rfind("level1.", 0) == 0 && channel.find(".down") != std::string::npos &&
               name.find(".queue") == std::string::npos) {  // the router's queue keeps its own name
      const unsigned leaf = 2 * std::stoul(channel.substr(channel.find('_') + 1)) + (channel.back() - '0');
      expected = "nic" + std::to_string(leaf) + "/eject/" + path.substr(channel.size() + 1);
    }
    EXPECT_EQ(label, expected) << name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, "queue") == 0) {
      EXPECT_EQ(flags, "@24") << name;
    }
  }
  // Per channel: its queue, 4 rows per physical link, and on a wide channel
  // the count of links busy.
  std::set<std::string> all;
  int expected_rows = 0;
  for (const auto& [channel, width] : tree.channels()) {
    all.insert(channel);
    expected_rows += 1 + 4 * static_cast<int>(width) + (width > 1 ? 1 : 0);
  }
  EXPECT_EQ(channels_with_group, all);
  EXPECT_EQ(rows, expected_rows);
  EXPECT_NE(text.find("+{level2/r2_0/up/link1/pkt/dst} SystemC.icnsim.level2.r2_0.up.link1.pkt.dst"), std::string::npos);
  EXPECT_NE(text.find("+{nic3/inject/source_queue} SystemC.icnsim.level0.nic3.up.source_queue"), std::string::npos);
}

// A NIC's ejection label names the NIC the channel is wired to: with
// network.swap_ejection=[0, 3], r1_0.down0 feeds leaf 3 and r1_1.down1 leaf 0
// (the run then fails its verdict, and still writes its waveform).
TEST(WaveformFatTreePacket, EjectionLabelsFollowTheWiring) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_icnsim("run /dev/null --quiet --set network.leaves=8 --set traffic.collective=total_exchange "
                                     "--set network.swap_ejection=[0,3] --vcd " + dir + "/s.vcd");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const std::string text = read_file(dir + "/s.gtkw");
  EXPECT_NE(text.find("+{nic3/eject/pkt/src} SystemC.icnsim.level1.r1_0.down0.pkt.src"), std::string::npos);
  EXPECT_NE(text.find("+{nic0/eject/pkt/src} SystemC.icnsim.level1.r1_1.down1.pkt.src"), std::string::npos);
  EXPECT_NE(text.find("+{nic1/eject/pkt/src} SystemC.icnsim.level1.r1_0.down1.pkt.src"), std::string::npos);
}

// outputs.trace_packet on the packet fat tree: per followed packet a save
// file whose rows are exactly the channels of its tree path, in path order
// (each channel's queue, and the physical link the bus shows the packet
// on), with marker A in the cycle its source NIC's bus shows it and B in the
// cycle the bus into its destination shows it (links of latency 1: it has
// arrived at the end of that cycle), and a comment per hop whose "sent in
// cycle" is when the bus shows it there. Packets picked by a fixed
// pseudo-random sequence; one id the run never made gets a file that says so.
TEST(WaveformFatTreePacket, TracePacketSaveFileListsThePathInOrderWithMarkers) {
  const std::string dir = scratch_dir();
  const Tree tree{3, {1, 2, 4}};
  std::set<unsigned> picked;
  for (unsigned x = 7; picked.size() < 16;) picked.insert((x = (x * 1103515245u + 12345u) % 2147483648u) % 56);
  std::string list;
  for (unsigned id : picked) list += std::to_string(id) + ",";
  const CommandResult r = run_exchange(dir, "ebft", "--set outputs.trace_packet=[" + list + "56]");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Vcd vcd = parse_vcd(read_file(dir + "/ebft.vcd"));
  const auto seen = sightings(vcd, tree);
  std::uint64_t wide = 0;
  for (unsigned id : picked) {
    SCOPED_TRACE("packet " + std::to_string(id));
    const std::string text = read_file(dir + "/ebft.packet" + std::to_string(id) + ".gtkw");
    ASSERT_FALSE(text.empty());
    ASSERT_EQ(seen.count(id), 1u);
    const auto& s = seen.at(id);
    const unsigned src = std::stoul(s.front().channel.substr(10));
    const std::string& last = s.back().channel;
    const unsigned dst = 2 * std::stoul(last.substr(last.find('_') + 1)) + (last.back() - '0');
    // Its rows: the channels of the path, in order; each bus row one the packet is on.
    std::vector<std::string> channels;
    for (const std::string& signal : save_file_signals(text)) {
      ASSERT_EQ(vcd.ids.count(signal), 1u) << signal;
      const std::string channel = channel_of(signal);
      if (channels.empty() || channels.back() != channel) channels.push_back(channel);
      const std::string tail = ".pkt.packet";
      if (signal.size() > tail.size() && signal.compare(signal.size() - tail.size(), tail.size(), tail) == 0) {
        const auto ids = vcd.series(signal), valid = vcd.series(signal.substr(0, signal.size() - 6) + "valid");
        bool on = false;
        for (std::size_t t = 0; t < ids.size(); ++t) on = on || (valid[t] != 0 && ids[t] == id);
        EXPECT_TRUE(on) << signal << " never shows the packet";
        wide += signal.find(".link0.") == std::string::npos && signal.find(".link") != std::string::npos;
      }
    }
    EXPECT_EQ(channels, Tree::path(src, dst)) << src << " -> " << dst;
    // Markers A and B: "*<zoom> <marker> <A> <B> ..." in nanoseconds (1 ns a cycle).
    std::istringstream in(text);
    std::vector<std::uint64_t> sent;
    for (std::string line; std::getline(in, line);) {
      if (line[0] == '*') {
        std::istringstream fields(line);
        std::string zoom;
        long long marker = 0, a = 0, b = 0;
        fields >> zoom >> marker >> a >> b;
        EXPECT_EQ(a, static_cast<long long>(s.front().cycle)) << line;
        EXPECT_EQ(b, static_cast<long long>(s.back().cycle)) << line;
      }
      const auto at = line.find("sent in cycle ");
      if (line.rfind("[*] hop ", 0) == 0 && at != std::string::npos) sent.push_back(std::stoull(line.substr(at + 14)));
    }
    std::vector<std::uint64_t> bus;
    for (const Seen& x : s) bus.push_back(x.cycle);
    EXPECT_EQ(sent, bus) << "one comment per hop, sent when the bus shows it";
  }
  EXPECT_GT(wide, 0u) << "no followed packet took a second physical link: the link choice is untested";
  const std::string none = read_file(dir + "/ebft.packet56.gtkw");
  EXPECT_NE(none.find("Packet 56 was not injected in this run"), std::string::npos) << none;
  EXPECT_TRUE(save_file_signals(none).empty());
}

// A followed broadcast (every copy shares its message id): its save file
// holds every channel of the tree once, directed away from the source (each
// of the 2n - 2 edges), and one delivery per other leaf, B at the last.
TEST(WaveformFatTreePacket, TracePacketFollowsABroadcastsWholeTree) {
  const std::string dir = scratch_dir();
  const Tree tree{3, {1, 1, 1}};
  const CommandResult r = run_icnsim("run /dev/null --quiet --set network.leaves=8 --set traffic.collective=broadcast "
                                     "--set traffic.root=5 --set outputs.trace_packet=0 --vcd " + dir + "/b.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Vcd vcd = parse_vcd(read_file(dir + "/b.vcd"));
  const auto seen = sightings(vcd, tree);
  ASSERT_EQ(seen.count(0), 1u);
  const std::string text = read_file(dir + "/b.packet0.gtkw");
  std::set<std::string> channels;
  for (const std::string& signal : save_file_signals(text)) channels.insert(channel_of(signal));
  std::set<std::string> on_bus;
  for (const Seen& x : seen.at(0)) on_bus.insert(x.channel);
  EXPECT_EQ(channels, on_bus);
  EXPECT_EQ(channels.size(), 2u * 8u - 2u);
  EXPECT_EQ(channels.count(Tree::up(0, 5)), 1u);
  std::size_t deliveries = 0;
  for (std::size_t at = text.find("[*] delivered to nic"); at != std::string::npos; at = text.find("[*] delivered to nic", at + 1))
    ++deliveries;
  EXPECT_EQ(deliveries, 7u);
}

// outputs.trace_packet needs a waveform: without one, one line and exit 2.
TEST(WaveformFatTreePacket, TracePacketWithoutAWaveformIsOneLine) {
  expect_rejected("run /dev/null --set network.leaves=8 --set outputs.trace_packet=3",
                  "outputs.trace_packet = 3: needs a waveform to follow the packet in");
  expect_rejected("run /dev/null --set outputs.trace_packet=[1,x] --vcd " + scratch_dir() + "/x.vcd",
                  "outputs.trace_packet");
}

}  // namespace icn::test
