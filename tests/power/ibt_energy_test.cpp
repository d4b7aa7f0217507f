// Activity counters, link lengths and result.energy of the torus / iBT family
// (docs/energy.md, "Tori and iBT (Zhang & Deng)"). Expected counts come from
// a breadth-first search written here over the topology's definition (x +- 1,
// x +- b mod n), not from the model's route or distance functions; link
// lengths from the folded ring order written out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "power/energy_report.hpp"
#include "power/orion.hpp"
#include "routers/ibt/ibt_floorplan.hpp"
#include "testbench/ibt_energy.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

using Json = nlohmann::ordered_json;

// A folded ring's ring positions in the order they sit along the chip: out on
// the even slots, back on the odd ones.
const std::vector<unsigned> kFolded8{0, 7, 1, 6, 2, 5, 3, 4};
const std::vector<unsigned> kFolded16{0, 15, 1, 14, 2, 13, 3, 12, 4, 11, 5, 10, 6, 9, 7, 8};

unsigned slot_of(const std::vector<unsigned>& folded, unsigned i) {
  return static_cast<unsigned>(std::find(folded.begin(), folded.end(), i) - folded.begin());
}
unsigned tiles(const std::vector<unsigned>& folded, unsigned a, unsigned b) {
  return static_cast<unsigned>(std::abs(int(slot_of(folded, a)) - int(slot_of(folded, b))));
}

// A one-dimensional Torus(n) or iBT(n; <b>): node x links to x +- 1 (ring)
// and, with b > 0, to x +- b (bypass). One packet broadcast from node 0: a
// node at distance d takes it in cycle d and, in that cycle, sends it to every
// neighbour whose status (one cycle late) does not yet show it: those at
// distance >= d. What each counter must then read:
struct Flood {
  std::uint64_t ring = 0, bypass = 0, clocked = 0;
  std::map<std::pair<bool, unsigned>, std::uint64_t> flits_by_length;  // (bypass, tiles)
};
Flood flood(unsigned n, unsigned b, const std::vector<unsigned>& folded) {
  std::vector<std::vector<std::pair<unsigned, bool>>> adj(n);  // (neighbour, bypass)
  for (unsigned x = 0; x < n; ++x) {
    adj[x] = {{(x + 1) % n, false}, {(x + n - 1) % n, false}};
    if (b > 0) adj[x].insert(adj[x].end(), {{(x + b) % n, true}, {(x + n - b) % n, true}});
  }
  std::vector<int> dist(n, -1);
  std::vector<unsigned> queue{0};
  dist[0] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (auto [y, bp] : adj[queue[i]])
      if (dist[y] < 0) dist[y] = dist[queue[i]] + 1, queue.push_back(y);
  Flood f;
  for (unsigned x = 0; x < n; ++x) {
    bool second_tick = false;  // a neighbour at its own distance sends it a copy one cycle later
    for (auto [y, bp] : adj[x]) {
      if (dist[y] >= dist[x]) {
        ++(bp ? f.bypass : f.ring);
        ++f.flits_by_length[{bp, tiles(folded, x, y)}];
      }
      if (dist[y] == dist[x]) second_tick = true;
    }
    f.clocked += second_tick ? 2 : 1;
  }
  return f;
}

Json run(const std::string& sets, const std::string& tag) {
  const std::string json = scratch_dir() + "/" + tag + ".json";
  const CommandResult r = run_icnsim("run /dev/null --quiet " + sets + " --json " + json, 120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return Json::parse(read_file(json));
}

Json ring_broadcast(unsigned n, unsigned b, unsigned k, const std::string& more = "") {
  const std::string type = b > 0 ? "--set network.type=ibt --set network.bypass=[" + std::to_string(b) + "] "
                                 : "--set network.type=torus ";
  return run(type + "--set network.d=1 --set network.n=" + std::to_string(n) +
                 " --set traffic.collective=line_broadcast --set traffic.source=0 --set traffic.packets=" +
                 std::to_string(k) + " " + more,
             "ring" + std::to_string(n) + "_" + std::to_string(b) + "_" + std::to_string(k) + "_" +
                 std::to_string(std::hash<std::string>{}(more)));
}

double pj(const Json& r, const std::string& component, const std::string& part = "dynamic_pj") {
  return r.at("result").at("energy").at("components").at(component).at(part).get<double>();
}
std::uint64_t u(const Json& j, const std::string& pointer) { return j.at(Json::json_pointer(pointer)).get<std::uint64_t>(); }

// Every counter of one packet's broadcast against the flood computed above,
// and the links priced at their folded lengths.
void expect_flood(const Json& r, unsigned n, unsigned b, const std::vector<unsigned>& folded) {
  ASSERT_TRUE(r.at("result").at("verified").get<bool>()) << r.dump(1);
  const Flood f = flood(n, b, folded);
  const std::uint64_t sends = f.ring + f.bypass;
  const Json& a = r.at("stats").at("activity");
  EXPECT_EQ(u(a, "/links/ring/flits"), f.ring);
  EXPECT_EQ(u(a, "/links/bypass/flits"), f.bypass);
  EXPECT_EQ(u(a, "/links/ring/links"), 2u * n);
  EXPECT_EQ(u(a, "/links/bypass/links"), b > 0 ? 2u * n : 0u);
  EXPECT_EQ(u(a, "/ejections"), n - 1u);
  EXPECT_EQ(u(a, "/injections"), 1u);
  EXPECT_EQ(u(a, "/duplicates_discarded"), sends - (n - 1));
  EXPECT_EQ(u(a, "/routers/buffer_writes"), n);  // every node keeps it: its line goes on both ways
  EXPECT_EQ(u(a, "/routers/buffer_reads"), sends);
  EXPECT_EQ(u(a, "/routers/crossbar_traversals"), sends + (n - 1));
  EXPECT_EQ(u(a, "/routers/sw_allocator/output/decisions"), sends);
  EXPECT_EQ(u(a, "/routers/sw_allocator/output/requests"), sends);  // one packet: one candidate
  EXPECT_EQ(u(a, "/routers/clocked_cycles"), f.clocked);
  std::map<std::pair<bool, unsigned>, std::uint64_t> seen;
  for (const Json& g : a.at("links").at("by_length"))
    if (g.at("flits").get<std::uint64_t>() > 0)
      seen[{g.at("kind") == "bypass", g.at("tiles").get<unsigned>()}] = g.at("flits").get<std::uint64_t>();
  EXPECT_EQ(seen, f.flits_by_length);
  // The links' dynamic energy: each group's bits at its length (1 mm a tile).
  const icn::power::OrionModel m(icn::power::technology("45nm"), 1.0);
  double links_j = 0;
  for (const auto& [key, flits] : f.flits_by_length) links_j += double(flits) * 64 * m.link(key.second, 64).energy_per_bit;
  EXPECT_NEAR(pj(r, "links"), links_j * 1e12, links_j * 1e12 * 1e-9);
}

}  // namespace

// Folded rings: every ring link spans 2 tiles but the two at the folds (1);
// a third dimension's links step over blocks of n tiles.
TEST(IbtFloorplan, FoldedRingsAndBypassSpans) {
  const IbtTopology torus(8, 3, {});
  const ibt::IbtFloorplan plan(torus);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(plan.link_tiles(torus.node({i, 0, 0}), 0), tiles(kFolded8, i, (i + 1) % 8)) << i;
    EXPECT_EQ(plan.link_tiles(torus.node({0, i, 0}), 3), tiles(kFolded8, i, (i + 7) % 8)) << i;
    EXPECT_EQ(plan.link_tiles(torus.node({0, 0, i}), 4), 8 * tiles(kFolded8, i, (i + 1) % 8)) << i;
    EXPECT_LE(plan.link_tiles(torus.node({i, 0, 0}), 0), 2u);  // no wrap link crosses the chip
  }
  const IbtTopology ibt(16, 1, {4});
  const ibt::IbtFloorplan folded(ibt);
  for (unsigned x = 0; x < 16; ++x) {
    EXPECT_EQ(folded.link_tiles(x, ibt.bypass_port()), tiles(kFolded16, x, (x + 4) % 16)) << x;
    EXPECT_EQ(folded.link_tiles(x, ibt.bypass_port() + 1), tiles(kFolded16, x, (x + 12) % 16)) << x;
  }
}

TEST(IbtActivity, OnePacketFloodsARing) { expect_flood(ring_broadcast(8, 0, 1), 8, 0, kFolded8); }

TEST(IbtActivity, OnePacketOverRingAndBypassLinks) { expect_flood(ring_broadcast(16, 4, 1), 16, 4, kFolded16); }

// No activity: no dynamic energy, and leakage in proportion to the time.
TEST(IbtEnergy, IdleNetworkSpendsLeakageOnly) {
  const IbtTopology topo(16, 2, {4});
  const icn::power::PowerSettings p;
  ibt::IbtNetworkActivity idle;
  idle.links.push_back({false, 2, 4u * 256, 0});
  idle.links.push_back({true, 8, 2u * 256, 0});
  const auto e1 = icn::power::energy(p, IbtEnergy::input(p, topo, 32, idle, 1000));
  const auto e2 = icn::power::energy(p, IbtEnergy::input(p, topo, 32, idle, 2000));
  EXPECT_EQ(e1.dynamic_j(), 0.0);
  EXPECT_GT(e1.leakage_j(), 0.0);
  EXPECT_GT(e1.links.leakage_j, 0.0);
  EXPECT_NEAR(e2.leakage_j(), 2 * e1.leakage_j(), 1e-9 * e1.leakage_j());
}

// On a ring whose every port sends its lowest packet first, every packet of a
// pipelined broadcast takes the first one's route, one cycle behind it:
// writes, reads, traversals and link bits grow exactly with the packets
// delivered, and so do the crossbar's and the links' energy. The store's
// reads cost more per read with k slots than with one (its FIFOs are
// deeper), and the source's arbiters see k, k-1, ... candidates, so the
// whole grows only roughly linearly.
TEST(IbtEnergy, GrowsLinearlyWithDeliveredPackets) {
  const std::string ascending = "--set network.forward_order=pattern --set traffic.pattern=0";
  const Json one = ring_broadcast(8, 0, 1, ascending), many = ring_broadcast(8, 0, 16, ascending);
  ASSERT_EQ(u(many, "/result/energy/delivered_flits"), 16 * u(one, "/result/energy/delivered_flits"));
  for (const char* counter : {"/buffer_writes", "/buffer_reads", "/crossbar_traversals", "/sw_allocator/output/decisions"})
    EXPECT_EQ(u(many, std::string("/stats/activity/routers") + counter), 16 * u(one, std::string("/stats/activity/routers") + counter))
        << counter;
  EXPECT_EQ(u(many, "/stats/activity/links/ring/flits"), 16 * u(one, "/stats/activity/links/ring/flits"));
  for (const char* part : {"crossbar", "links"})
    EXPECT_NEAR(pj(many, part), 16 * pj(one, part), 1e-9 * pj(many, part)) << part;
  const double ratio = many.at("result").at("energy").at("dynamic_pj").get<double>() /
                       one.at("result").at("energy").at("dynamic_pj").get<double>();
  EXPECT_GT(ratio, 0.8 * 16);
  EXPECT_LT(ratio, 1.25 * 16);
}

// power.flit_bits widens every link and the crossbar: link energy doubles
// exactly (per bit), the crossbar's grows between 2 and 4 times (its lines
// are F cells long, docs/energy.md); the counters do not move.
TEST(IbtEnergy, DoublingFlitBitsDoublesLinkAndCrossbarEnergy) {
  const Json narrow = ring_broadcast(16, 4, 4), wide = ring_broadcast(16, 4, 4, "--set power.flit_bits=128");
  EXPECT_EQ(narrow.at("stats").at("activity").at("routers"), wide.at("stats").at("activity").at("routers"));
  EXPECT_NEAR(pj(wide, "links"), 2 * pj(narrow, "links"), 1e-9 * pj(wide, "links"));
  EXPECT_GT(pj(wide, "crossbar"), 2 * pj(narrow, "crossbar"));
  EXPECT_LE(pj(wide, "crossbar"), 4 * pj(narrow, "crossbar"));
}

// Longer tiles, longer links: the same bits cost more.
TEST(IbtEnergy, LinksPricedAtTheirLength) {
  const Json near = ring_broadcast(16, 4, 2), far = ring_broadcast(16, 4, 2, "--set power.link_mm=3");
  EXPECT_GT(pj(far, "links"), 2 * pj(near, "links"));
  EXPECT_EQ(pj(far, "crossbar"), pj(near, "crossbar"));
}

TEST(IbtEnergy, BadPowerKeyIsOneLineAndExitTwo) {
  const CommandResult r = run_icnsim("run /dev/null --quiet --set network.type=ibt --set power.flit_bits=0", 60);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("power.flit_bits"), std::string::npos) << r.err;
}

}  // namespace icn::test
