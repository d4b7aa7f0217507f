// Activity counters and result.energy / result.area of the crossbars of
// single-port processors (docs/energy.md, "The crossbars (Sanders &
// Sibeyn)"): the counts of broadcasts whose every transfer follows from the
// algorithm's definition (a chain hands each packet from rank i to rank
// i + 1; every algorithm delivers each packet once to each of the P - 1
// other processors), computed here, not with the model's code; the wire
// lengths from the grid floor plan drawn here by coordinates; the energy's
// invariants. Each run is an icnsim process.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "power/orion.hpp"
#include "power/technology.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

using Json = nlohmann::ordered_json;

Json run_xbar(const std::string& sets, const std::string& tag) {
  const std::string json = scratch_dir() + "/" + tag + ".json";
  const CommandResult r = run_icnsim("run /dev/null --quiet " + sets + " --set nic.startup=4 --json " + json, 120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(read_file(json));
  EXPECT_TRUE(j.at("result").at("verified").get<bool>()) << tag;
  return j;
}

std::uint64_t u(const Json& j, const std::string& key) { return j.at(key).get<std::uint64_t>(); }
double dyn(const Json& r, const std::string& component) {
  return r.at("result").at("energy").at("components").at(component).at("dynamic_pj").get<double>();
}

// A broadcast of s packets of m units to P - 1 receivers: each packet is
// received once by each of them, and every transfer here crosses one switch
// (a full crossbar), so the switch writes, reads and carries (P - 1) s m
// units, and its output arbiters decide once per packet received.
void expect_one_switch_per_transfer(const Json& a, std::uint64_t P, std::uint64_t s, std::uint64_t m) {
  const Json& t = a.at("routers");
  const std::uint64_t units = (P - 1) * s * m;
  EXPECT_EQ(u(t, "buffer_writes"), units);
  EXPECT_EQ(u(t, "buffer_reads"), units);
  EXPECT_EQ(u(t, "crossbar_traversals"), units);
  EXPECT_EQ(u(t.at("sw_allocator").at("output"), "decisions"), (P - 1) * s);
  // Single-port processors receive one packet at a time: no head ever waits
  // for another at a processor's port.
  EXPECT_EQ(u(t.at("sw_allocator").at("output"), "requests"), (P - 1) * s);
  EXPECT_EQ(u(t.at("sw_allocator").at("input"), "decisions"), 0u);
  EXPECT_EQ(u(t.at("vc_allocator").at("output"), "decisions"), 0u);
  const Json& nics = a.at("nics");
  EXPECT_EQ(u(nics, "injections"), (P - 1) * s);
  EXPECT_EQ(u(nics, "ejections"), (P - 1) * s);
  EXPECT_EQ(u(nics, "injected_flits"), units);
  EXPECT_EQ(u(nics, "ejected_flits"), units);
}

// The grid floor plan of 8 processor tiles around a crossbar, drawn here:
// 3 columns, 3 rows (the last has 2 tiles), the crossbar at (1.5, 1.5).
// Tile x sits at column x % 3, row x / 3; its centre is half a tile in.
double tiles_of_8(unsigned x) {
  const double cx = x % 3 + 0.5, cy = x / 3 + 0.5;
  return std::fabs(cx - 1.5) + std::fabs(cy - 1.5);
}

}  // namespace

// A chain from processor 0 (rank x on processor x): processors 0..6 each
// send every packet once, 1..7 each receive it once.
TEST(CrossbarActivity, ChainCountsAndWireLengths) {
  const std::uint64_t P = 8, s = 4, m = 3;
  const Json r = run_xbar("--set network.type=crossbar --set network.processors=8 --set traffic.algorithm=chain "
                          "--set traffic.packets=4 --set traffic.message_units=12",
                          "chain");
  const Json& a = r.at("stats").at("activity");
  expect_one_switch_per_transfer(a, P, s, m);
  // One switch of 8 ports, clocked in each of the chain's P - 2 + s steps for
  // at least the m cycles its units cross, never beyond the run.
  ASSERT_EQ(a.at("router_types").size(), 1u);
  EXPECT_EQ(u(a.at("router_types")[0], "ports"), P);
  EXPECT_GE(u(a.at("routers"), "clocked_cycles"), (P - 2 + s) * m);
  EXPECT_LE(u(a.at("routers"), "clocked_cycles"), u(r.at("result"), "cycles"));
  // Each processor's two wires at its tile's distance, carrying s m units
  // per direction it used.
  std::map<double, std::uint64_t> links, flits;
  for (unsigned x = 0; x < P; ++x) {
    links[tiles_of_8(x)] += 2;
    flits[tiles_of_8(x)] += (x < P - 1 ? s * m : 0) + (x > 0 ? s * m : 0);
  }
  EXPECT_EQ(links, (std::map<double, std::uint64_t>{{0.0, 2}, {1.0, 8}, {2.0, 6}}));  // written out: 2 1 2 / 1 0 1 / 2 1
  std::map<double, std::uint64_t> got_links, got_flits;
  for (const Json& g : a.at("links").at("by_length")) {
    EXPECT_EQ(g.at("kind").get<std::string>(), "processor");
    got_links[g.at("tiles").get<double>()] += u(g, "links");
    got_flits[g.at("tiles").get<double>()] += u(g, "flits");
    EXPECT_DOUBLE_EQ(g.at("length_mm").get<double>(), g.at("tiles").get<double>());  // 1 mm tiles
  }
  EXPECT_EQ(got_links, links);
  EXPECT_EQ(got_flits, flits);
  EXPECT_EQ(u(a.at("links").at("processor"), "bits"), 2 * (P - 1) * s * m * 64);
}

// Binary and fractional trees move the same units as the chain: each
// packet still reaches each of the P - 1 others exactly once.
TEST(CrossbarActivity, EveryBroadcastDeliversEachPacketOnce) {
  for (const std::string alg : {"binary", "fractional"}) {
    const Json r = run_xbar("--set network.type=crossbar --set network.processors=16 --set traffic.algorithm=" + alg +
                                (alg == "fractional" ? " --set traffic.group=2" : "") +
                                " --set traffic.packets=8 --set traffic.message_units=40",
                            alg);
    expect_one_switch_per_transfer(r.at("stats").at("activity"), 16, 8, 5);
  }
}

// A 4 x 2 hierarchical crossbar, one channel per module, chain 0 -> 7:
// the transfers 1->2, 3->4, 5->6 leave their module (module, global,
// module: three switches, one up and one down channel); 0->1, 2->3, 4->5,
// 6->7 stay in theirs. Floor plan drawn here: a module's two tiles side by
// side, its switch between them (0.5 tiles each); the modules (2 x 1 tiles)
// in 2 columns and 2 rows, centres (1, 0.5), (3, 0.5), (1, 1.5), (3, 1.5),
// the global switch at (2, 1): 1.5 tiles each.
TEST(CrossbarActivity, HierarchicalChainCrossesModulesThreeTimes) {
  const std::uint64_t s = 2, m = 4;
  const Json r = run_xbar("--set network.type=hier_crossbar --set network.modules=4 --set network.module_size=2 "
                          "--set network.inter_module_channels=1 --set traffic.algorithm=chain "
                          "--set traffic.packets=2 --set traffic.message_units=8",
                          "hier_chain");
  const Json& a = r.at("stats").at("activity");
  const Json& types = a.at("router_types");
  ASSERT_EQ(types.size(), 2u);
  EXPECT_EQ(types[0].at("name").get<std::string>(), "module");
  EXPECT_EQ(u(types[0], "routers"), 4u);
  EXPECT_EQ(u(types[0], "ports"), 3u);  // b processors + c channels
  EXPECT_EQ(u(types[0], "buffer_writes"), (4 + 2 * 3) * s * m);
  EXPECT_EQ(u(types[0], "crossbar_traversals"), (4 + 2 * 3) * s * m);
  EXPECT_EQ(types[1].at("name").get<std::string>(), "global");
  EXPECT_EQ(u(types[1], "ports"), 4u);  // a c
  EXPECT_EQ(u(types[1], "buffer_writes"), 3 * s * m);
  EXPECT_EQ(u(types[1].at("sw_allocator").at("output"), "decisions"), 3 * s);
  const Json& links = a.at("links");
  EXPECT_EQ(u(links.at("processor"), "flits"), 2 * 7 * s * m);
  EXPECT_EQ(u(links.at("inter_module"), "links"), 4 * 2u);
  EXPECT_EQ(u(links.at("inter_module"), "flits"), 2 * 3 * s * m);
  for (const Json& g : links.at("by_length"))
    EXPECT_DOUBLE_EQ(g.at("tiles").get<double>(), g.at("kind") == "processor" ? 0.5 : 1.5);
}

// Leakage is every block's leakage power over the run, whatever it did:
// the 8-port crossbar priced here from its shape (8 x 8, one VC,
// power.buffer_depth, one register stage) and the 16 wires at their tiles.
// The dynamic energy of the buffers, crossbar and wires is the chain's
// counts (above) times ORION's event energies.
TEST(CrossbarEnergy, LeakageAndEventsPricedByHand) {
  const std::uint64_t P = 8, s = 4, m = 3;
  const Json r = run_xbar("--set network.type=crossbar --set network.processors=8 --set traffic.algorithm=chain "
                          "--set traffic.packets=4 --set traffic.message_units=12 --set power.buffer_depth=6 "
                          "--set power.link_mm=2",
                          "priced");
  const Json& e = r.at("result").at("energy");
  const power::OrionModel model(power::technology("45nm"), 1.0);
  power::RouterShape shape;
  shape.ports_in = shape.ports_out = P;
  shape.vcs = 1;
  shape.depth = 6;
  shape.register_after_link = shape.register_after_buffers = false;
  const power::RouterFigures f = model.router(shape);
  const auto& lk = f.leakage_w;
  double leak_w = lk.buffers + lk.crossbar + lk.sw_allocator + lk.vc_allocator + lk.clock;
  double links = 0;
  for (unsigned x = 0; x < P; ++x) {
    const power::LinkFigures l = model.link(2.0 * tiles_of_8(x), 64);
    leak_w += 2 * l.leakage_w;
    links += double((x < P - 1 ? s * m : 0) + (x > 0 ? s * m : 0)) * 64 * l.energy_per_bit;
  }
  const double units = (P - 1) * s * m;
  const double seconds = double(u(e, "cycles")) * 1e-9;
  EXPECT_EQ(u(e, "cycles"), u(r.at("result"), "cycles"));
  EXPECT_NEAR(e.at("leakage_pj").get<double>(), leak_w * seconds * 1e12, 1e-9 * leak_w * seconds * 1e12);
  EXPECT_NEAR(dyn(r, "buffers"), units * (f.energy.buffer_write + f.energy.buffer_read) * 1e12, 1e-6);
  EXPECT_NEAR(dyn(r, "crossbar"), units * f.energy.crossbar * 1e12, 1e-6);
  EXPECT_NEAR(dyn(r, "links"), links * 1e12, 1e-9 * links * 1e12);
  EXPECT_EQ(dyn(r, "vc_allocator"), 0.0);
  EXPECT_EQ(u(e, "delivered_flits"), units);
  EXPECT_EQ(u(e, "delivered_packets"), (P - 1) * s);
  EXPECT_NEAR(e.at("per_packet_pj").get<double>(), e.at("total_pj").get<double>() / double((P - 1) * s), 1e-9);
  const Json& area = r.at("result").at("area");
  EXPECT_EQ(u(area, "buffer_depth"), 6u);
  EXPECT_NEAR(area.at("routers_mm2").get<double>(), f.area_mm2.total(), 1e-12);
}

// Twice the packets of the same size: twice every count, so twice the
// buffers', crossbar's, arbiters' and wires' energy, for twice the delivered
// flits and packets.
TEST(CrossbarEnergy, EventEnergyLinearInDeliveredPackets) {
  for (const std::string alg : {"chain", "binary"}) {
    const std::string run = "--set network.type=crossbar --set network.processors=8 --set traffic.algorithm=" + alg;
    const Json one = run_xbar(run + " --set traffic.packets=4 --set traffic.message_units=12", "one_" + alg);
    const Json two = run_xbar(run + " --set traffic.packets=8 --set traffic.message_units=24", "two_" + alg);
    EXPECT_EQ(u(two.at("result").at("energy"), "delivered_packets"),
              2 * u(one.at("result").at("energy"), "delivered_packets"));
    EXPECT_EQ(u(two.at("result").at("energy"), "delivered_flits"),
              2 * u(one.at("result").at("energy"), "delivered_flits"));
    for (const char* c : {"buffers", "crossbar", "sw_allocator", "links"})
      EXPECT_NEAR(dyn(two, c), 2 * dyn(one, c), 1e-9 * dyn(two, c)) << alg << " " << c;
  }
}

// power.flit_bits 64 -> 128: the same events; wire energy and area double,
// the crossbar's energy grows 2..4 times; the components sum to the totals.
TEST(CrossbarEnergy, WiderFlitsDoubleLinkEnergy) {
  const std::string run = "--set network.type=hier_crossbar --set network.modules=4 --set network.module_size=4 "
                          "--set traffic.algorithm=fractional --set traffic.group=2 --set traffic.packets=8 "
                          "--set traffic.message_units=32";
  const Json narrow = run_xbar(run, "narrow");
  const Json wide = run_xbar(run + " --set power.flit_bits=128", "wide");
  EXPECT_EQ(narrow.at("stats").at("activity").at("routers"), wide.at("stats").at("activity").at("routers"));
  EXPECT_GT(dyn(narrow, "links"), 0.0);
  EXPECT_NEAR(dyn(wide, "links"), 2 * dyn(narrow, "links"), 1e-9 * dyn(wide, "links"));
  const double links_mm2 = narrow.at("result").at("area").at("links_mm2").get<double>();
  EXPECT_NEAR(wide.at("result").at("area").at("links_mm2").get<double>(), 2 * links_mm2, 1e-9 * links_mm2);
  const double x = dyn(wide, "crossbar") / dyn(narrow, "crossbar");
  EXPECT_GE(x, 2.0);
  EXPECT_LE(x, 4.0);
  for (const Json* j : {&narrow, &wide}) {
    const Json& e = j->at("result").at("energy");
    double sum = 0, dynamic = 0;
    for (const auto& [name, part] : e.at("components").items()) {
      sum += part.at("total_pj").get<double>();
      dynamic += part.at("dynamic_pj").get<double>();
    }
    EXPECT_NEAR(sum, e.at("total_pj").get<double>(), 1e-9 * sum);
    EXPECT_NEAR(dynamic, e.at("dynamic_pj").get<double>(), 1e-9 * sum);
  }
}

TEST(CrossbarEnergy, BadKeysAreRefused) {
  const std::string run = "run /dev/null --quiet --set network.type=crossbar ";
  expect_rejected(run + "--set power.buffer_depth=0", "power.buffer_depth");
  expect_rejected(run + "--set power.flit_bits=0", "power.flit_bits");
  expect_rejected(run + "--set power.tech=7nm", "power.tech");
  expect_rejected("run /dev/null --quiet --set network.type=hier_crossbar --set power.link_mm=-1", "power.link_mm");
}

TEST(CrossbarEnergy, SameRunSameBytes) {
  const std::string run = "--set network.type=hier_crossbar --set traffic.algorithm=fractional --set traffic.packets=8";
  EXPECT_EQ(deterministic_part(run_xbar(run, "a")).dump(), deterministic_part(run_xbar(run, "b")).dump());
}

}  // namespace icn::test
