// Waveforms of the torus and iBT broadcasts (network.type=torus|ibt): each
// link's packet bus, the save file's rows and groups, and outputs.trace_packet.
// Everything is read back from the files icnsim writes (the VCD and the save
// files), and checked against what the test knows on its own: the topology
// as docs/ibt.md defines it (neighbours and distances computed here), the
// broadcast it asked for (source, k, the split over colours) and the paper's
// rule that every node of the group receives every packet once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <numeric>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/support/save_file.hpp"
#include "tests/support/sim_helpers.hpp"
#include "tests/support/vcd.hpp"

namespace icn::test {

namespace {

// Torus(n^d) or iBT(n^d; b) as docs/ibt.md builds it: node id x_1 + n x_2 + ...;
// ports 2i = +e_i, 2i+1 = -e_i, then b+ and b-; a node of class
// c = (x_1 + ... + x_d) mod dk has its bypass along dimension c mod d, length b_{c / d}.
struct Net {
  unsigned n = 0, d = 0;
  std::vector<unsigned> bypass;

  unsigned nodes() const {
    unsigned N = 1;
    for (unsigned i = 0; i < d; ++i) N *= n;
    return N;
  }
  unsigned coord(unsigned x, unsigned i) const {
    for (unsigned j = 0; j < i; ++j) x /= n;
    return x % n;
  }
  unsigned ports() const { return 2 * d + (bypass.empty() ? 0 : 2); }
  unsigned neighbour(unsigned x, unsigned port) const {
    unsigned dim = port / 2;
    long delta = 1;
    if (port >= 2 * d) {
      unsigned sum = 0;
      for (unsigned i = 0; i < d; ++i) sum += coord(x, i);
      const unsigned c = sum % (d * static_cast<unsigned>(bypass.size()));
      dim = c % d;
      delta = bypass[c / d];
    }
    if (port % 2 == 1) delta = -delta;
    unsigned stride = 1;
    for (unsigned i = 0; i < dim; ++i) stride *= n;
    const long moved = (static_cast<long>(coord(x, dim)) + delta % static_cast<long>(n) + n) % n;
    return x - coord(x, dim) * stride + static_cast<unsigned>(moved) * stride;
  }
  std::string name(unsigned x) const {
    std::string s = "r";
    for (unsigned i = 0; i < d; ++i) s += (i ? "_" : "") + std::to_string(coord(x, i));
    return s;
  }
  // "x+", "b-": the port's label; its waveform scope has p / m for + / -.
  std::string port_label(unsigned q) const {
    return std::string(1, q >= 2 * d ? 'b' : "xyzw"[q / 2]) + (q % 2 == 0 ? "+" : "-");
  }
  std::string port_scope(unsigned q) const {
    std::string s = port_label(q);
    s.back() = s.back() == '+' ? 'p' : 'm';
    return s;
  }
  std::vector<unsigned> distances(unsigned from) const {
    std::vector<unsigned> dist(nodes(), ~0u);
    std::deque<unsigned> queue{from};
    dist[from] = 0;
    while (!queue.empty()) {
      const unsigned x = queue.front();
      queue.pop_front();
      for (unsigned q = 0; q < ports(); ++q) {
        const unsigned y = neighbour(x, q);
        if (dist[y] == ~0u) {
          dist[y] = dist[x] + 1;
          queue.push_back(y);
        }
      }
    }
    return dist;
  }
  int node_named(const std::string& name) const {
    for (unsigned x = 0; x < nodes(); ++x)
      if (this->name(x) == name) return static_cast<int>(x);
    return -1;
  }
  int port_named(const std::string& label) const {
    for (unsigned q = 0; q < ports(); ++q)
      if (port_label(q) == label || port_scope(q) == label) return static_cast<int>(q);
    return -1;
  }
};

// A broadcast the test asks for, and what it knows about it.
struct Case {
  std::string title;
  Net net;
  std::string collective;  // rect_broadcast (dimensions 1 and 2: every node) or line_broadcast along y
  unsigned source = 0;
  std::vector<unsigned> split;  // packets per colour; colour c takes the next split[c] packet numbers
  bool torus() const { return net.bypass.empty(); }
  unsigned packets() const {
    unsigned k = 0;
    for (unsigned s : split) k += s;
    return k;
  }
  unsigned colour_of(unsigned p) const {  // 1-based, as the JSON numbers colours
    for (unsigned c = 0, start = 0; c < split.size(); start += split[c++])
      if (p < start + split[c]) return c + 1;
    return 0;
  }
  bool in_group(unsigned x) const {
    return collective == "rect_broadcast" || net.coord(x, 0) == net.coord(source, 0);  // the line along y
  }
  std::string args() const {
    std::string s = "run /dev/null --quiet --set network.type=" + std::string(torus() ? "torus" : "ibt") +
                    " --set network.n=" + std::to_string(net.n) + " --set network.d=" + std::to_string(net.d);
    if (!torus()) s += " --set network.bypass=[" + std::to_string(net.bypass[0]) + "]";
    s += " --set traffic.collective=" + collective + " --set traffic.packets=" + std::to_string(packets());
    if (collective == "line_broadcast") s += " --set traffic.dimension=2";
    std::string split_text;
    for (unsigned v : split) split_text += (split_text.empty() ? "" : ",") + std::to_string(v);
    return s + " --set traffic.split=[" + split_text + "] --set traffic.source=" + std::to_string(source);
  }
};

Case make_case(const std::string& title, unsigned n, std::vector<unsigned> bypass, const std::string& collective,
               unsigned source, std::vector<unsigned> split) {
  Case c;
  c.title = title;
  c.net.n = n;
  c.net.d = 2;
  c.net.bypass = std::move(bypass);
  c.collective = collective;
  c.source = source;
  c.split = std::move(split);
  return c;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      // 4 directed torus trees; no link ever carries a packet its receiver holds (docs/ibt.md).
      make_case("torus rectangle", 5, {}, "rect_broadcast", 1 + 5 * 2, {3, 1, 2, 1}),
      make_case("iBT rectangle", 8, {2}, "rect_broadcast", 3 + 8 * 5, {4, 2}),
      make_case("iBT line along y", 8, {2}, "line_broadcast", 2 + 8 * 1, {5}),
  };
  return all;
}

// One transfer on a link, as the sender's packet bus shows it.
struct Send {
  unsigned from = 0, port = 0, to = 0;
  std::uint64_t cycle = 0, packet = 0, colour = 0, src = 0, hops = 0, dup = 0;
};

std::vector<Send> read_sends(const Vcd& vcd, const Net& net) {
  std::vector<Send> sends;
  for (const auto& [id, name] : vcd.names) {
    const std::string tail = ".pkt.valid";
    if (name.size() < tail.size() || name.compare(name.size() - tail.size(), tail.size(), tail) != 0) continue;
    const std::string bus = name.substr(0, name.size() - 5);  // ...pkt.
    const std::string path = name.substr(kWaveformTop.size());  // r3_5.xp.pkt.valid
    const std::string router = path.substr(0, path.find('.'));
    const std::string port = path.substr(router.size() + 1, path.find('.', router.size() + 1) - router.size() - 1);
    const int x = net.node_named(router), q = net.port_named(port);
    EXPECT_GE(x, 0) << name;
    EXPECT_GE(q, 0) << name;
    if (x < 0 || q < 0) continue;
    const auto valid = vcd.series(name), packet = vcd.series(bus + "packet"), colour = vcd.series(bus + "colour"),
               src = vcd.series(bus + "src"), hops = vcd.series(bus + "hops"), dup = vcd.series(bus + "dup");
    for (std::uint64_t t = 0; t < valid.size(); ++t)
      if (valid[t] != 0)
        sends.push_back({static_cast<unsigned>(x), static_cast<unsigned>(q), net.neighbour(static_cast<unsigned>(x),
                         static_cast<unsigned>(q)), t, packet[t], colour[t], src[t], hops[t], dup[t]});
  }
  return sends;
}

struct IbtRun {
  Vcd vcd;
  nlohmann::json json;
  std::string stem;  // dir/name: the VCD is stem.vcd, the save file stem.gtkw
};

IbtRun run_case(const Case& c, const std::string& name, const std::string& extra = "") {
  IbtRun r;
  r.stem = scratch_dir() + "/" + name;
  const CommandResult out = run_icnsim(c.args() + " " + extra + " --json " + r.stem + ".json --vcd " + r.stem + ".vcd");
  EXPECT_EQ(out.exit_code, 0) << out.err;
  r.vcd = parse_vcd(read_file(r.stem + ".vcd"));
  r.json = nlohmann::json::parse(read_file(r.stem + ".json"));
  return r;
}

// Per node and packet: the cycle its first copy crossed the last link (the
// one the receiver keeps: dup 0), and that copy's hop count.
struct FirstArrivals {
  std::map<std::pair<unsigned, std::uint64_t>, std::uint64_t> cycle, hops;
};

FirstArrivals first_arrivals(const std::vector<Send>& sends) {
  FirstArrivals f;
  for (const Send& s : sends)
    if (s.dup == 0) {
      f.cycle[{s.to, s.packet}] = s.cycle;
      f.hops[{s.to, s.packet}] = s.hops;
    }
  return f;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

// Every transfer on the links, read back from the packet buses: each packet
// number carries its colour (from the split the test asked for) and the
// broadcast's source, every node of the group keeps each packet exactly once
// (dup = 0; the source and nodes outside the group none), a copy's hop count
// is one more than that of the copy its sender kept and at least the
// distance from the source, a router forwards a packet only after it has it,
// and the totals are the JSON's. The ejection and injection rows agree.
TEST(WaveformIbt, EveryGroupNodeKeepsEachPacketOnceFromTheSource) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.title);
    const IbtRun run = run_case(c, "w");
    const Net& net = c.net;
    const unsigned k = c.packets();
    const std::vector<Send> sends = read_sends(run.vcd, net);
    ASSERT_FALSE(sends.empty());
    const FirstArrivals first = first_arrivals(sends);
    const std::vector<unsigned> dist = net.distances(c.source);
    std::map<std::pair<unsigned, std::uint64_t>, int> kept, any;
    std::uint64_t dups = 0, last = 0;
    for (const Send& s : sends) {
      SCOPED_TRACE(net.name(s.from) + " " + net.port_label(s.port) + " cycle " + std::to_string(s.cycle));
      ASSERT_LT(s.packet, k);
      EXPECT_EQ(s.src, c.source);
      EXPECT_EQ(s.colour, c.colour_of(static_cast<unsigned>(s.packet)));
      EXPECT_GE(s.hops, dist[s.to]);
      if (s.from == c.source) {
        EXPECT_EQ(s.hops, 1u);
      } else {
        ASSERT_EQ(first.cycle.count({s.from, s.packet}), 1u) << "forwarded a packet it never kept";
        EXPECT_GT(s.cycle, first.cycle.at({s.from, s.packet}));
        EXPECT_EQ(s.hops, first.hops.at({s.from, s.packet}) + 1);
      }
      ++any[{s.to, s.packet}];
      if (s.dup == 0) {
        ++kept[{s.to, s.packet}];
        last = std::max(last, s.cycle);
      }
      dups += s.dup;
    }
    for (unsigned x = 0; x < net.nodes(); ++x)
      for (unsigned p = 0; p < k; ++p) {
        const bool receives = x != c.source && c.in_group(x);
        EXPECT_EQ(kept[std::make_pair(x, std::uint64_t{p})], receives ? 1 : 0) << net.name(x) << " packet " << p;
        if (!c.in_group(x)) {
          EXPECT_EQ(any[std::make_pair(x, std::uint64_t{p})], 0) << net.name(x) << " is outside the group";
        }
      }
    const auto& links = run.json["links"];
    EXPECT_EQ(sends.size(), links["transfers"].get<std::size_t>());
    EXPECT_EQ(dups, links["duplicates_discarded"].get<std::uint64_t>());
    if (c.torus()) EXPECT_EQ(dups, 0u);
    else EXPECT_GT(dups, 0u) << "an iBT broadcast has duplicates (docs/ibt.md): the dup row is never exercised";
    EXPECT_EQ(last, run.json["result"]["cycles"].get<std::uint64_t>()) << "the last packet crosses its last link then";

    // The ejection port hands the processor, in cycle t + 1, the packets kept from the links in t.
    std::map<std::pair<unsigned, std::uint64_t>, std::uint64_t> fresh;
    for (const Send& s : sends)
      if (s.dup == 0) ++fresh[{s.to, s.cycle + 1}];
    for (unsigned x = 0; x < net.nodes(); ++x) {
      const std::string r = kWaveformTop + net.name(x) + ".";
      const auto eject = run.vcd.series(r + "eject.count"), held = run.vcd.series(r + "held");
      for (std::uint64_t t = 0; t < eject.size(); ++t) {
        const auto it = fresh.find({x, t});
        EXPECT_EQ(eject[t], it == fresh.end() ? 0u : it->second) << net.name(x) << " cycle " << t;
      }
      EXPECT_EQ(held.back(), c.in_group(x) ? k : 0u) << net.name(x);
    }
    // All k packets go into the source's buffer in step 1, where its first link transfer is.
    const std::string nic = kWaveformTop + net.name(c.source) + ".nic.inject.";
    const auto injected = run.vcd.series(nic + "count");
    EXPECT_EQ(injected[1], k);
    EXPECT_EQ(std::accumulate(injected.begin(), injected.end(), std::uint64_t{0}), k);
    EXPECT_EQ(run.vcd.series(nic + "total").back(), k);
    EXPECT_EQ(std::min_element(sends.begin(), sends.end(), [](const Send& a, const Send& b) { return a.cycle < b.cycle; })->cycle, 1u);
  }
}

// The save file beside the waveform: every row is a signal of the VCD,
// labelled with its full path (r3_5/x+/pkt/packet for
// SystemC.icnsim.r3_5.xp.pkt.packet), inside the group of its router or
// port; counts in decimal, single bits in binary; the source router's groups
// come first, then every router with its ports.
TEST(WaveformIbt, SaveFileGroupsEveryRouterAndPortWithFullPathLabels) {
  const Case& c = cases()[1];
  const IbtRun run = run_case(c, "g");
  const Net& net = c.net;
  std::vector<std::string> groups;
  std::string group, flags;
  std::set<std::string> shown;
  for (const std::string& line : split_lines(read_file(run.stem + ".gtkw"))) {
    if (line.rfind("@", 0) == 0) flags = line;
    if (line.rfind("-", 0) == 0) {
      if (flags == "@800200") groups.push_back(group = line.substr(1));
      else group.clear();
    }
    if (line.rfind("+{", 0) != 0) continue;
    const auto [label, signal] = save_file_row(line);
    EXPECT_EQ(run.vcd.ids.count(signal), 1u) << signal;
    shown.insert(signal);
    if (signal == "SystemC.cycle") continue;
    ASSERT_EQ(signal.rfind(kWaveformTop, 0), 0u) << signal;
    // The label from the signal's name: dots become '/', a port scope (xp) its name (x+).
    std::vector<std::string> parts;
    std::istringstream in(signal.substr(kWaveformTop.size()));
    for (std::string part; std::getline(in, part, '.');) parts.push_back(part);
    if (parts.size() > 1 && net.port_named(parts[1]) >= 0) parts[1] = net.port_label(static_cast<unsigned>(net.port_named(parts[1])));
    std::string expected;
    for (const std::string& part : parts) expected += (expected.empty() ? "" : "/") + part;
    EXPECT_EQ(label, expected);
    EXPECT_EQ(label.rfind(group + "/", 0), 0u) << label << " in group " << group;
    const std::string leaf = parts.back();
    EXPECT_EQ(flags, leaf == "valid" || leaf == "dup" ? "@28" : "@24") << label;
  }
  // Every signal of the waveform is on the first screen.
  EXPECT_EQ(shown.size(), run.vcd.ids.size());
  ASSERT_GE(groups.size(), 3u);
  const std::string src = net.name(c.source);
  EXPECT_EQ(groups[0], src);
  EXPECT_EQ(groups[1], src + "/nic/inject");
  EXPECT_EQ(groups[2], src + "/x+");
  EXPECT_EQ(groups.size(), net.nodes() * (1 + net.ports()) + 1);
  for (unsigned x = 0; x < net.nodes(); ++x)
    for (unsigned q = 0; q < net.ports(); ++q)
      EXPECT_EQ(std::count(groups.begin(), groups.end(), net.name(x) + "/" + net.port_label(q)), 1);
}

namespace {

// A packet save file, parsed: the route it names and its rows.
struct PacketFile {
  std::string text;
  unsigned colour = 0;
  std::string source, destination;
  struct Hop {
    std::string from, port, to;
    std::uint64_t sent = 0;
    bool outside = false;  // said to be not in the waveform
  };
  std::vector<Hop> hops;
  std::vector<std::string> groups, rows;
  long long marker_a = -2, marker_b = -2;
};

PacketFile read_packet_file(const std::string& path) {
  PacketFile f;
  f.text = read_file(path);
  for (const std::string& line : split_lines(f.text)) {
    char a[32], b[32], port[8];
    unsigned colour = 0, id = 0, node = 0;
    unsigned long long sent = 0;
    if (std::sscanf(line.c_str(), "[*] Packet %u (colour %u) of the broadcast from %31s (node %u)", &id, &colour, a, &node) == 4) {
      f.colour = colour;
      f.source = a;
    }
    if (const auto at = line.find("its route to "); at != std::string::npos) f.destination = line.substr(at + 13, line.find(' ', at + 13) - at - 13);
    if (std::sscanf(line.c_str(), "[*] hop %*u: %31s %7s -> %31[^,], sent in cycle %llu", a, port, b, &sent) == 4)
      f.hops.push_back({a, port, b, sent, line.find("(not in the waveform") != std::string::npos});
  }
  const SaveFile save = parse_save_file(f.text);
  f.groups = save.groups;
  for (const SaveFileRow& r : save.rows) f.rows.push_back(r.signal);
  f.marker_a = save.marker_a;
  f.marker_b = save.marker_b;
  return f;
}

}  // namespace

// outputs.trace_packet=ID follows packet number ID from the source to the
// node it reached last (computed here from the packet buses): the hops form
// a path of the topology (neighbours computed here) from the source to that
// node, at strictly increasing cycles, each on the bus of its link with that
// packet number and dup 0; marker A is the NIC's injection, B the last hop;
// the rows are the NIC's, each link's and the destination's, in route order.
// A packet number the broadcast does not have gets a file that says so.
TEST(WaveformIbt, TracePacketFollowsTheRouteToTheNodeItReachedLast) {
  for (const Case& c : {cases()[0], cases()[1]}) {
    SCOPED_TRACE(c.title);
    const Net& net = c.net;
    const unsigned k = c.packets();
    const std::vector<unsigned> ids = {0, k / 2, k - 1};
    const IbtRun run = run_case(c, "p", "--set outputs.trace_packet=[0," + std::to_string(k / 2) + "," +
                                         std::to_string(k - 1) + ",99]");
    const FirstArrivals first = first_arrivals(read_sends(run.vcd, net));
    for (unsigned id : ids) {
      SCOPED_TRACE("packet " + std::to_string(id));
      const PacketFile f = read_packet_file(run.stem + ".packet" + std::to_string(id) + ".gtkw");
      EXPECT_EQ(f.colour, c.colour_of(id));
      EXPECT_EQ(f.source, net.name(c.source));
      // The node it reached last; of several, the lowest node id.
      unsigned last_node = c.source;
      std::uint64_t latest = 0;
      for (unsigned x = 0; x < net.nodes(); ++x)
        if (const auto it = first.cycle.find({x, id}); it != first.cycle.end() && it->second > latest) {
          latest = it->second;
          last_node = x;
        }
      EXPECT_EQ(f.destination, net.name(last_node));
      ASSERT_FALSE(f.hops.empty());
      std::string at = net.name(c.source);
      std::uint64_t cycle = 0;
      for (const auto& h : f.hops) {
        SCOPED_TRACE(h.from + " " + h.port + " -> " + h.to);
        EXPECT_EQ(h.from, at);
        const int x = net.node_named(h.from), q = net.port_named(h.port);
        ASSERT_TRUE(x >= 0 && q >= 0);
        EXPECT_EQ(h.to, net.name(net.neighbour(static_cast<unsigned>(x), static_cast<unsigned>(q))));
        EXPECT_GT(h.sent, cycle);
        EXPECT_FALSE(h.outside);
        const std::string bus = kWaveformTop + h.from + "." + net.port_scope(static_cast<unsigned>(q)) + ".pkt.";
        EXPECT_EQ(run.vcd.at(bus + "valid", h.sent), 1u);
        EXPECT_EQ(run.vcd.at(bus + "packet", h.sent), id);
        EXPECT_EQ(run.vcd.at(bus + "dup", h.sent), 0u);
        at = h.to;
        cycle = h.sent;
      }
      EXPECT_EQ(at, f.destination);
      EXPECT_EQ(cycle, latest);
      EXPECT_EQ(f.marker_b, static_cast<long long>(latest));
      EXPECT_EQ(run.vcd.at(kWaveformTop + net.name(c.source) + ".nic.inject.count", static_cast<std::uint64_t>(f.marker_a)), k);
      // Rows in route order, every one a signal of the waveform.
      std::vector<std::string> groups{net.name(c.source) + "/nic/inject"};
      for (const auto& h : f.hops) groups.push_back(h.from + "/" + h.port);
      groups.push_back(f.destination);
      EXPECT_EQ(f.groups, groups);
      for (const std::string& row : f.rows) EXPECT_EQ(run.vcd.ids.count(row), 1u) << row;
      EXPECT_EQ(f.rows.size(), 2 + 7 * f.hops.size() + 2);
    }
    const std::string unsent = read_file(run.stem + ".packet99.gtkw");
    EXPECT_NE(unsent.find("Packet 99 was not sent in this run"), std::string::npos) << unsent;
    EXPECT_EQ(unsent.find("+{"), std::string::npos);
  }
}

// With outputs.trace_routers keeping a few routers, a followed packet is shown
// to the kept router it reached last, and each hop whose link is not in the
// waveform says so; the save file names only rows the waveform has.
TEST(WaveformIbt, TracePacketSaysWhichHopsAreOutsideTheTracedRouters) {
  const Case& c = cases()[1];
  const Net& net = c.net;
  const FirstArrivals first = first_arrivals(read_sends(run_case(c, "all").vcd, net));
  const unsigned id = 1;
  // The source, and two routers far from it (diagonally opposite corners of the torus).
  const std::vector<unsigned> kept = {c.source, (c.source + 4 + 8 * 4) % 64, (c.source + 4) % 64};
  std::string list;
  for (unsigned x : kept) list += (list.empty() ? "" : ",") + net.name(x);
  const IbtRun run = run_case(c, "some", "--set outputs.trace_routers=[" + list + "] --set outputs.trace_packet=" + std::to_string(id));
  const PacketFile f = read_packet_file(run.stem + ".packet1.gtkw");
  const unsigned expected = first.cycle.at({kept[1], id}) > first.cycle.at({kept[2], id}) ||
                                    (first.cycle.at({kept[1], id}) == first.cycle.at({kept[2], id}) && kept[1] < kept[2])
                                ? kept[1]
                                : kept[2];
  EXPECT_EQ(f.destination, net.name(expected));
  ASSERT_GE(f.hops.size(), 2u);
  int outside = 0;
  for (const auto& h : f.hops) {
    const bool kept_router = std::find(kept.begin(), kept.end(), static_cast<unsigned>(net.node_named(h.from))) != kept.end();
    EXPECT_EQ(h.outside, !kept_router) << h.from;
    outside += h.outside;
  }
  EXPECT_GT(outside, 0);
  for (const std::string& row : f.rows) EXPECT_EQ(run.vcd.ids.count(row), 1u) << row;
}

// Bad input: one line and exit 2 (a waveform is needed; ids are 32-bit, at
// most 64). A broadcast-less run writes a save file saying nothing was sent.
TEST(WaveformIbt, TracePacketBadInputIsOneLine) {
  const std::string ibt = "run /dev/null --set network.type=ibt --set network.n=8 --set network.bypass=[2] ";
  const std::string dir = scratch_dir();
  expect_rejected(ibt + "--set outputs.trace_packet=3", "outputs.trace_packet = 3: needs a waveform to follow the packet in");
  expect_rejected(ibt + "--set outputs.trace_packet=-1 --vcd " + dir + "/a.vcd", "outputs.trace_packet = -1: out of range");
  expect_rejected(ibt + "--set outputs.trace_packet=x --vcd " + dir + "/b.vcd", "outputs.trace_packet");
  std::string many;
  for (int i = 0; i < 65; ++i) many += (many.empty() ? "" : ",") + std::to_string(i);
  expect_rejected(ibt + "--set outputs.trace_packet=[" + many + "] --vcd " + dir + "/c.vcd", "65 packets; at most 64");
  const CommandResult none = run_icnsim(ibt + "--quiet --set traffic.collective=none --set outputs.trace_packet=2 --vcd " + dir + "/n.vcd");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(read_file(dir + "/n.packet2.gtkw").find("Packet 2 was not sent in this run (traffic.collective=none"),
            std::string::npos);
}

}  // namespace icn::test
