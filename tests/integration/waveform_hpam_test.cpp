// outputs.trace_packet on HPAM (network.type=hpam): the save file of a
// followed message, read back with the VCD it names. What the test expects
// comes from the machine as docs/hpam.md defines it (node numbering, the
// mesh and inter-level links, extended X-Y routing, the replicator's branch
// i leading to column col * f + i below, all computed here) and from the
// waveform itself (which NICs ejected the message, and when): never from the
// follower's own records.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tests/support/save_file.hpp"
#include "tests/support/sim_helpers.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {

namespace {

struct Pos {
  unsigned l = 0, r = 0, c = 0;  // level (0-based), row, column
  bool operator==(const Pos& o) const { return l == o.l && r == o.r && c == o.c; }
};

// An HPAM machine: levels of rows x cols meshes, nodes numbered level by
// level, row-major; routers named l<level from 1>_r<row>_<col>.
struct Machine {
  std::vector<std::pair<unsigned, unsigned>> levels;  // rows, cols

  unsigned node(const Pos& p) const {
    unsigned n = 0;
    for (unsigned i = 0; i < p.l; ++i) n += levels[i].first * levels[i].second;
    return n + p.r * levels[p.l].second + p.c;
  }
  Pos pos(unsigned n) const {
    for (unsigned l = 0;; ++l) {
      const unsigned size = levels[l].first * levels[l].second;
      if (n < size) return {l, n / levels[l].second, n % levels[l].second};
      n -= size;
    }
  }
  static std::string name(const Pos& p) {
    return "l" + std::to_string(p.l + 1) + "_r" + std::to_string(p.r) + "_" + std::to_string(p.c);
  }
  unsigned fanout(unsigned l) const { return levels[l].second / levels[l - 1].second; }
  // Where output `port` of router p leads: the router and the input it enters by.
  std::pair<Pos, std::string> across(const Pos& p, const std::string& port) const {
    if (port == "east") return {{p.l, p.r, p.c + 1}, "west"};
    if (port == "west") return {{p.l, p.r, p.c - 1}, "east"};
    if (port == "south") return {{p.l, p.r + 1, p.c}, "north"};
    if (port == "north") return {{p.l, p.r - 1, p.c}, "south"};
    if (port == "up") return {{p.l - 1, levels[p.l - 1].first - 1, p.c / fanout(p.l)}, "down" + std::to_string(p.c % fanout(p.l))};
    if (port.rfind("down", 0) == 0)
      return {{p.l + 1, 0, p.c * fanout(p.l + 1) + static_cast<unsigned>(std::stoul(port.substr(4)))}, "up"};
    ADD_FAILURE() << "no such link port " << port;
    return {p, ""};
  }
};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::istringstream in(s);
  for (std::string part; std::getline(in, part, sep);) parts.push_back(part);
  return parts;
}

// The save file's groups walked as a path from nic<src> to nic<dst>: every
// step must be a link of the machine (a mesh or inter-level link, or the
// replicator below the router the copy left by its `replicate` port, down
// the branch to the column the group names). Returns the routers crossed and
// fills `buses` with the flit buses in path order.
std::vector<Pos> walk(const Machine& m, const std::vector<std::string>& groups, unsigned src, unsigned dst,
                      std::vector<std::string>& buses) {
  std::vector<Pos> routers;
  std::size_t i = 0;
  EXPECT_EQ(groups.at(i), "nic" + std::to_string(src) + "/inject");
  buses.push_back("nic" + std::to_string(src) + ".inject");
  Pos next = m.pos(src);
  std::string enter = "local";
  while (++i < groups.size()) {
    const auto in = split(groups[i], '/');  // router, port, "in", vc<v>
    EXPECT_EQ(in.size(), 4u) << groups[i];
    if (in.size() != 4) return routers;
    EXPECT_EQ(in[0], Machine::name(next)) << groups[i];
    EXPECT_EQ(in[1], enter) << groups[i];
    routers.push_back(next);
    const Pos at = next;
    if (++i == groups.size()) break;
    const auto out = split(groups[i], '/');
    if (out.size() == 2 && out[1] == "eject") {
      EXPECT_EQ(out[0], "nic" + std::to_string(dst));
      EXPECT_EQ(m.node(at), dst) << "ejected at a router that is not the destination's";
      buses.push_back(out[0] + ".eject");
      EXPECT_EQ(i + 1, groups.size()) << "groups after the ejection";
      return routers;
    }
    if (out.size() == 3 && out[2] == "out") {
      EXPECT_EQ(out[0], Machine::name(at)) << groups[i];
      buses.push_back(out[0] + "." + out[1] + ".out");
      std::tie(next, enter) = m.across(at, out[1]);
      continue;
    }
    // The replicator below this router: its input, then one branch down.
    EXPECT_EQ(groups[i], "repl_" + Machine::name(at) + "/in");
    buses.push_back("repl_" + Machine::name(at) + ".in");
    if (++i == groups.size()) break;
    const auto branch = split(groups[i], '/');
    EXPECT_EQ(branch.size(), 2u);
    EXPECT_EQ(branch[0], "repl_" + Machine::name(at));
    EXPECT_EQ(branch.at(1).rfind("branch", 0), 0u) << groups[i];
    buses.push_back(branch[0] + "." + branch[1]);
    next = {at.l + 1, 0, at.c * m.fanout(at.l + 1) + static_cast<unsigned>(std::stoul(branch[1].substr(6)))};
    enter = "from_replicator";
  }
  ADD_FAILURE() << "the groups end before nic" << dst << "/eject";
  return routers;
}

struct Followed {
  SaveFile file;
  std::string text;
  long src = -1, dst = -1, injected = -1;
  std::vector<std::string> buses;
  std::vector<Pos> routers;
};

const std::string kVcdPrefix = "SystemC.icnsim.";

// The cycle of packet `id`'s head on `bus` (its first), or -1.
long head_cycle(const Vcd& vcd, const std::string& bus, long id) {
  const std::string b = kVcdPrefix + bus + ".flit.";
  const auto valid = vcd.series(b + "valid"), head = vcd.series(b + "head"), packet = vcd.series(b + "packet");
  for (std::size_t t = 0; t < valid.size(); ++t)
    if (valid[t] != 0 && head[t] != 0 && static_cast<long>(packet[t]) == id) return static_cast<long>(t);
  return -1;
}

bool head_at(const Vcd& vcd, const std::string& bus, long t, long id) {
  const std::string b = kVcdPrefix + bus + ".flit.";
  const auto c = static_cast<std::uint64_t>(t);
  return vcd.at(b + "valid", c) != 0 && vcd.at(b + "head", c) != 0 && static_cast<long>(vcd.at(b + "packet", c)) == id;
}

// Reads dir/h.packet<id>.gtkw and checks it against the VCD: its rows exist,
// its groups are a path of the machine, the message's head is on each bus of
// the path at increasing cycles (the eject bus carrying it to the named node) and on each recorded hop's bus in the cycle
// the hop says, and markers A and B are its injection and ejection.
Followed read_followed(const Machine& m, const Vcd& vcd, const std::string& dir, long id) {
  Followed f;
  f.text = read_file(dir + "/h.packet" + std::to_string(id) + ".gtkw");
  f.file = parse_save_file(f.text);
  std::istringstream in(f.text);
  for (std::string line; std::getline(in, line);)
    if (std::sscanf(line.c_str(), "[*] %ld -> %ld: injected (head) in cycle %ld", &f.src, &f.dst, &f.injected) == 3) break;
  EXPECT_GE(f.dst, 0) << "no injection line in\n" << f.text;
  if (f.dst < 0) return f;
  for (const auto& row : f.file.rows) EXPECT_EQ(vcd.ids.count(row.signal), 1u) << row.signal << " is not in the VCD";
  f.routers = walk(m, f.file.groups, static_cast<unsigned>(f.src), static_cast<unsigned>(f.dst), f.buses);
  long before = -1;
  for (const auto& bus : f.buses) {
    const long t = head_cycle(vcd, bus, id);
    EXPECT_GT(t, before) << bus << ": the head is not there after the previous row's";
    before = t;
  }
  EXPECT_EQ(f.file.marker_a, head_cycle(vcd, "nic" + std::to_string(f.src) + ".inject", id));
  // Marker B: the destination NIC has the head, a link (1 cycle) after its ejection bus shows it.
  const long eject = head_cycle(vcd, "nic" + std::to_string(f.dst) + ".eject", id);
  EXPECT_EQ(f.file.marker_b, eject + 1);
  EXPECT_EQ(vcd.at(kVcdPrefix + f.buses.back() + ".flit.dst", static_cast<std::uint64_t>(eject)), static_cast<std::uint64_t>(f.dst));
  // Each recorded hop: the head on that output (the replicator's input for
  // `replicate`, the destination's ejection for `local`) in the cycle it was sent.
  in = std::istringstream(f.text);
  std::size_t hops = 0, replicators = 0;
  for (std::string line; std::getline(in, line);) {
    char router[32], out_port[24], repl[40], branch[24];
    long t_in = 0, t_out = 0;
    const auto sent = line.find(", sent ");
    if (line.rfind("[*] hop ", 0) == 0 && sent != std::string::npos &&
        std::sscanf(line.c_str(), "[*] hop %*d: %31s in %*s vc%*u -> out %23s", router, out_port) == 2) {
      const std::string port = out_port;
      const std::string bus = port == "local" ? "nic" + std::to_string(f.dst) + ".eject"
                              : port == "replicate" ? "repl_" + std::string(router) + ".in"
                                                    : std::string(router) + "." + port + ".out";
      EXPECT_TRUE(head_at(vcd, bus, std::stol(line.substr(sent + 7)), id)) << line;
      ++hops;
    }
    if (std::sscanf(line.c_str(), "[*] replicator %39s head in (on in) %ld, taken %*d, sent down %23s in %ld", repl,
                    &t_in, branch, &t_out) == 4) {
      std::string r = repl;
      r.pop_back();  // the colon
      EXPECT_TRUE(head_at(vcd, r + ".in", t_in, id)) << line;
      EXPECT_TRUE(head_at(vcd, r + "." + branch, t_out, id)) << line;
      ++replicators;
    }
  }
  // One hop line per router crossed, one replicator line per replicator.
  EXPECT_EQ(hops, f.routers.size());
  std::size_t repl_groups = 0;
  for (const auto& g : f.file.groups) repl_groups += g.rfind("repl_", 0) == 0 && g.size() > 3 && g.compare(g.size() - 3, 3, "/in") == 0;
  EXPECT_EQ(replicators, repl_groups);
  return f;
}

// Per node, the cycles message `id`'s head and tail reached its NIC (the
// last tail on its ejection bus), read from the VCD.
std::map<unsigned, std::pair<long, long>> ejections(const Machine& m, const Vcd& vcd, long id) {
  std::map<unsigned, std::pair<long, long>> out;
  unsigned nodes = 0;
  for (const auto& [rows, cols] : m.levels) nodes += rows * cols;
  for (unsigned n = 0; n < nodes; ++n) {
    const std::string b = kVcdPrefix + "nic" + std::to_string(n) + ".eject.flit.";
    const auto valid = vcd.series(b + "valid"), tail = vcd.series(b + "tail"), packet = vcd.series(b + "packet");
    for (std::size_t t = 0; t < valid.size(); ++t)
      if (valid[t] != 0 && tail[t] != 0 && static_cast<long>(packet[t]) == id)
        out[n] = {head_cycle(vcd, "nic" + std::to_string(n) + ".eject", id), static_cast<long>(t)};
  }
  return out;
}

// The destinations line: node -> (head, tail ejected), -1 for "not delivered".
std::map<unsigned, std::pair<long, long>> destinations_line(const std::string& text) {
  std::map<unsigned, std::pair<long, long>> out;
  const std::string key = "tail ejected):";
  const auto at = text.find(key);
  if (at == std::string::npos) return out;
  std::istringstream in(text.substr(at + key.size(), text.find('\n', at) - at - key.size()));
  for (std::string entry; std::getline(in, entry, ';');) {
    unsigned n = 0;
    long head = -1, tail = -1;
    if (std::sscanf(entry.c_str(), " %u: %ld, %ld", &n, &head, &tail) == 3) out[n] = {head, tail};
    else if (std::sscanf(entry.c_str(), " %u: not delivered", &n) == 1) out[n] = {-1, -1};
  }
  return out;
}

// The cycles the NICs received what their ejection buses carried: one link
// (latency 1) later; the save file gives these, as the VC family's does.
std::map<unsigned, std::pair<long, long>> received(std::map<unsigned, std::pair<long, long>> ejected) {
  for (auto& [n, cycles] : ejected) cycles = {cycles.first + 1, cycles.second + 1};
  return ejected;
}

// The node whose NIC had the whole message last (its tail), ties to the lowest.
unsigned reached_last(const std::map<unsigned, std::pair<long, long>>& ejected) {
  unsigned best = 0;
  long when = -1;
  for (const auto& [n, cycles] : ejected)
    if (cycles.second > when) best = n, when = cycles.second;  // in node order: a tie keeps the lower
  return best;
}

bool crosses_a_replicator(const Followed& f) {
  for (const auto& g : f.file.groups)
    if (g.rfind("repl_", 0) == 0) return true;
  return false;
}

const Machine kOneOverFourByFour{{{1, 1}, {4, 4}}};

std::string scenario(const std::string& name) {
  return std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/" + name + ".yaml";
}

}  // namespace

// A replicated broadcast: the save file follows one copy from the source's
// injection through the replicator's input and the branch it took to the
// NIC that had the message last (read from the VCD's ejection buses), and
// lists every NIC that ejected it, with the cycles the VCD shows.
TEST(WaveformHpam, TracePacketFollowsAReplicatedMessageToTheDestinationItReachedLast) {
  const std::string dir = scratch_dir();
  for (const std::string mode : {"lockstep", "buffered"}) {
    SCOPED_TRACE(mode);
    const CommandResult r = run_icnsim("run " + scenario("hpam_broadcast_multicast") + " --quiet --set traffic.submesh=[2,1] " +
                                       "--set network.replicator_mode=" + mode + " --set outputs.trace_packet=[0,1] --vcd " +
                                       dir + "/h.vcd");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Vcd vcd = parse_vcd(read_file(dir + "/h.vcd"));
    for (long id : {0L, 1L}) {
      SCOPED_TRACE("message " + std::to_string(id));
      const Followed f = read_followed(kOneOverFourByFour, vcd, dir, id);
      EXPECT_TRUE(crosses_a_replicator(f));
      const auto ejected = ejections(kOneOverFourByFour, vcd, id);
      ASSERT_EQ(ejected.size(), 4u) << "one copy per column below the replicator";
      EXPECT_EQ(f.dst, static_cast<long>(reached_last(ejected)));
      EXPECT_EQ(destinations_line(f.text), received(ejected));
    }
  }
}

// A failed link below the replicator (l2_r0_0.south) keeps column 0's copies
// of the messages to rows 1 and 2 from ever arriving: the save file follows
// the first of the other columns' copies (branch 1), says column 0's was not
// delivered, and a message the replicator never took says so.
TEST(WaveformHpam, TracePacketTakesTheBranchOfTheCopyItFollows) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_icnsim("run " + scenario("hpam_broadcast_multicast") + " --quiet --set traffic.submesh=[1,1] " +
                                     "--set traffic.message_bytes=16 --set network.failed_links=[l2_r0_0.south] " +
                                     "--set outputs.trace_packet=[1,3] --vcd " + dir + "/h.vcd");
  ASSERT_EQ(r.exit_code, 1) << "the run stalls behind the failed link: " << r.err;
  const Vcd vcd = parse_vcd(read_file(dir + "/h.vcd"));
  const Followed f = read_followed(kOneOverFourByFour, vcd, dir, 1);
  const auto ejected = ejections(kOneOverFourByFour, vcd, 1);
  ASSERT_EQ(ejected.size(), 3u) << "the copy down column 0 never arrives";
  EXPECT_EQ(ejected.count(kOneOverFourByFour.node({1, 1, 0})), 0u);
  EXPECT_EQ(f.dst, static_cast<long>(reached_last(ejected)));
  EXPECT_EQ(kOneOverFourByFour.pos(static_cast<unsigned>(f.dst)).c, 1u) << "ties go to the lowest node: column 1";
  auto listed = destinations_line(f.text);
  EXPECT_EQ(listed.at(kOneOverFourByFour.node({1, 1, 0})), std::make_pair(-1L, -1L));
  listed.erase(kOneOverFourByFour.node({1, 1, 0}));
  EXPECT_EQ(listed, received(ejected));
  const std::string never = read_file(dir + "/h.packet3.gtkw");
  EXPECT_NE(never.find("not delivered when the run ended"), std::string::npos) << never;
  EXPECT_TRUE(ejections(kOneOverFourByFour, vcd, 3).empty());
}

// Without the replication hardware every relay is a message of its own: its
// save file is the extended X-Y path, computed here from the coordinates
// (level 1's one router straight down to the destination's column, then
// south; within level 2, X first, then Y).
TEST(WaveformHpam, TracePacketWithoutReplicationIsAPlainXyPath) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_icnsim("run " + scenario("hpam_broadcast_hybrid") + " --quiet --set traffic.submesh=[4,2] " +
                                     "--set outputs.trace_packet=[0,1,2,3,4,5,6,7,8,100000] --vcd " + dir + "/h.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Vcd vcd = parse_vcd(read_file(dir + "/h.vcd"));
  const Machine& m = kOneOverFourByFour;
  std::set<std::pair<unsigned, unsigned>> kinds;  // (source level, destination level) seen
  for (long id = 0; id <= 8; ++id) {
    SCOPED_TRACE("message " + std::to_string(id));
    const Followed f = read_followed(m, vcd, dir, id);
    ASSERT_GE(f.dst, 0);
    EXPECT_FALSE(crosses_a_replicator(f));
    EXPECT_EQ(f.text.find("replicated into"), std::string::npos);
    const Pos s = m.pos(static_cast<unsigned>(f.src)), d = m.pos(static_cast<unsigned>(f.dst));
    kinds.insert({s.l, d.l});
    std::vector<Pos> expected{s};
    Pos at = s;
    if (s.l == 0) expected.push_back(at = {1, 0, d.c});  // down the link to the destination's column
    while (at.c != d.c) expected.push_back(at = {at.l, at.r, at.c < d.c ? at.c + 1 : at.c - 1});
    while (at.r != d.r) expected.push_back(at = {at.l, at.r < d.r ? at.r + 1 : at.r - 1, at.c});
    ASSERT_EQ(f.routers.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(Machine::name(f.routers[i]), Machine::name(expected[i]));
    EXPECT_EQ(ejections(m, vcd, id).size(), 1u);
  }
  EXPECT_EQ(kinds.size(), 2u) << "both the inter-level sends and the level-2 relays";
  const std::string never = read_file(dir + "/h.packet100000.gtkw");
  EXPECT_NE(never.find("Packet 100000 was not injected in this run"), std::string::npos) << never;
}

// A multicast gather: a column block's message ends in the combiner above
// (the merged message is a packet of its own, `packet` 0 on the buses, and
// may reuse the block's packet handle): the save file of message 0 stops at
// the router above, and never takes the merged message's way to nic0 for its own.
TEST(WaveformHpam, TracePacketOfAGatherBlockEndsInTheCombiner) {
  const std::string dir = scratch_dir();
  const CommandResult r = run_icnsim("run " + scenario("hpam_gather_multicast") + " --quiet --set traffic.submesh=[1,1] " +
                                     "--set outputs.trace_packet=[0] --vcd " + dir + "/h.vcd");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = read_file(dir + "/h.packet0.gtkw");
  long src = -1, dst = -1;
  std::istringstream in(text);
  std::size_t hops = 0;
  for (std::string line; std::getline(in, line);) {
    std::sscanf(line.c_str(), "[*] %ld -> %ld: injected", &src, &dst);
    hops += line.rfind("[*] hop ", 0) == 0;
  }
  ASSERT_GE(src, 1) << text;
  EXPECT_EQ(dst, 0);
  EXPECT_NE(text.find("taken whole by the combiner"), std::string::npos) << text;
  EXPECT_EQ(text.find("/eject"), std::string::npos) << "the merged message's ejection is not this message's";
  // Up its column to row 0, then up to l1_r0_0, which routes it into its combine port.
  const Pos s = kOneOverFourByFour.pos(static_cast<unsigned>(src));
  EXPECT_EQ(hops, s.r + 2);
  const SaveFile f = parse_save_file(text);
  ASSERT_FALSE(f.groups.empty());
  EXPECT_EQ(f.groups.back().rfind("l1_r0_0/down" + std::to_string(s.c) + "/in/vc", 0), 0u) << f.groups.back();
}

TEST(WaveformHpam, TracePacketBadInputIsOneLine) {
  const std::string run = "run " + scenario("hpam_broadcast_multicast") + " ";
  expect_rejected(run + "--set outputs.trace_packet=0", "outputs.trace_packet = 0: needs a waveform to follow the packet in");
  expect_rejected(run + "--set outputs.trace_packet=[0,x] --vcd " + scratch_dir() + "/x.vcd", "outputs.trace_packet");
}

}  // namespace icn::test
