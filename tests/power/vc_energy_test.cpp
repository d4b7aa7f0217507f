// Activity counters and result.energy / result.area of the VC family
// (docs/energy.md, "Counters and result fields"): counters against values
// derived by hand from the route, and the energy's invariants. Each run is an
// icnsim process (one SystemC elaboration per process).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "power/energy_report.hpp"
#include "power/orion.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

using Json = nlohmann::ordered_json;

// One VC run (on a 4x4 mesh unless `sets` names a topology) with these
// extra --set words; its results.
Json run_vc(const std::string& sets, const std::string& tag) {
  const std::string json = scratch_dir() + "/" + tag + ".json";
  const std::string mesh = sets.find("network.topology") == std::string::npos ? "--set network.k=4 --set network.n=2 " : "";
  const CommandResult r =
      run_icnsim("run /dev/null --quiet --set network.type=vc " + mesh + sets + " --json " + json, 120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return Json::parse(read_file(json));
}

// One packet of `flits` flits from node `src` to node `dst` (a trace).
Json one_packet(unsigned src, unsigned dst, unsigned flits, const std::string& more = "") {
  const std::string trace = scratch_dir() + "/one.trace";
  std::ofstream(trace) << "1 " << src << " " << dst << " " << flits << "\n";
  return run_vc("--set traffic.pattern=trace --set traffic.trace_file=" + trace + " --set measure.cycles=1 " + more,
                "one" + std::to_string(flits));
}

double pj(const Json& r, const std::string& component, const std::string& part) {
  return r.at("result").at("energy").at("components").at(component).at(part).get<double>();
}

}  // namespace

// Node 0 at (0,0) to node 15 at (3,3) on the 4x4 mesh: dimension order goes
// x+ three times, then y+ three times, through the routers (0,0) (1,0) (2,0)
// (3,0) (3,1) (3,2) (3,3): h = 7 routers, 6 links between routers, plus the
// NIC's injection and ejection links. Every flit is written into and read out
// of one input buffer per router, crosses its crossbar once, and wins one
// input-port and one output-port arbitration there; the head alone is
// allocated a VC (one decision per stage per router; its input VC asks for
// both VCs of the next port, both free).
TEST(VcActivity, OnePacketAlongAKnownRoute) {
  const unsigned F = 5, h = 7, vcs = 2;
  const Json r = one_packet(0, 15, F);
  ASSERT_TRUE(r.at("result").at("verified").get<bool>()) << r.dump(1);
  const Json& a = r.at("stats").at("activity");
  const Json& t = a.at("routers");
  EXPECT_EQ(t.at("buffer_writes").get<unsigned>(), F * h);
  EXPECT_EQ(t.at("buffer_reads").get<unsigned>(), F * h);
  EXPECT_EQ(t.at("crossbar_traversals").get<unsigned>(), F * h);
  EXPECT_EQ(t.at("sw_allocator").at("input").at("decisions").get<unsigned>(), F * h);
  EXPECT_EQ(t.at("sw_allocator").at("input").at("requests").get<unsigned>(), F * h);
  EXPECT_EQ(t.at("sw_allocator").at("output").at("decisions").get<unsigned>(), F * h);
  EXPECT_EQ(t.at("sw_allocator").at("output").at("requests").get<unsigned>(), F * h);
  EXPECT_EQ(t.at("vc_allocator").at("input").at("decisions").get<unsigned>(), h);
  EXPECT_EQ(t.at("vc_allocator").at("input").at("requests").get<unsigned>(), h * vcs);
  EXPECT_EQ(t.at("vc_allocator").at("output").at("decisions").get<unsigned>(), h);
  EXPECT_EQ(t.at("vc_allocator").at("output").at("requests").get<unsigned>(), h);
  EXPECT_GE(t.at("clocked_cycles").get<unsigned>(), h);
  const Json& l = a.at("links");
  EXPECT_EQ(l.at("channels").at("flits").get<unsigned>(), F * (h - 1));
  EXPECT_EQ(l.at("channels").at("bits").get<unsigned>(), F * (h - 1) * 64);
  EXPECT_EQ(l.at("channels").at("links").get<unsigned>(), 2u * 2 * 4 * 3);  // 24 neighbour pairs, both ways
  EXPECT_EQ(l.at("injection").at("flits").get<unsigned>(), F);
  EXPECT_EQ(l.at("ejection").at("flits").get<unsigned>(), F);
  EXPECT_EQ(r.at("result").at("energy").at("delivered_flits").get<unsigned>(), F);

  // Priced by hand from the model: writes, reads and traversals times their
  // energy, and the links' bits.
  icn::power::OrionModel m(icn::power::technology("45nm"), 1.0);
  icn::power::RouterShape shape;  // 5 ports, 2 VCs, 4 flits deep, 64 bits: the run's
  const auto f = m.router(shape);
  EXPECT_NEAR(pj(r, "buffers", "dynamic_pj"), F * h * (f.energy.buffer_write + f.energy.buffer_read) * 1e12, 1e-6);
  EXPECT_NEAR(pj(r, "crossbar", "dynamic_pj"), F * h * f.energy.crossbar * 1e12, 1e-6);
  EXPECT_NEAR(pj(r, "links", "dynamic_pj"), F * (h - 1) * 64 * m.link(1.0, 64).energy_per_bit * 1e12, 1e-6);
}

// Another route and a longer packet: node 3 at (3,0) to node 8 at (0,2) goes
// x- three times, then y+ twice: (3,0) (2,0) (1,0) (0,0) (0,1) (0,2), 6 routers.
TEST(VcActivity, CountsFollowTheRoute) {
  const unsigned F = 9, routers = 6;
  const Json r = one_packet(3, 8, F);
  const Json& t = r.at("stats").at("activity").at("routers");
  EXPECT_EQ(t.at("buffer_writes").get<unsigned>(), F * routers);
  EXPECT_EQ(t.at("crossbar_traversals").get<unsigned>(), F * routers);
  EXPECT_EQ(r.at("stats").at("activity").at("links").at("channels").at("flits").get<unsigned>(), F * (routers - 1));
}

// A fat tree's routers differ by level: one group per port count, covering
// every router, whose counters sum to the totals; each group is priced at its
// own shape.
TEST(VcActivity, RouterTypesCoverEveryRouter) {
  const Json r = run_vc("--set network.topology=fattree --set network.leaves=16 --set network.capacities=ebft "
                        "--set measure.cycles=300 --set traffic.injection_rate=0.1",
                        "fattree");
  const Json& a = r.at("stats").at("activity");
  unsigned routers = 0, writes = 0, ports = 0;
  for (const auto& t : a.at("router_types")) {
    EXPECT_GT(t.at("ports").get<unsigned>(), ports);  // ascending, each once
    ports = t.at("ports").get<unsigned>();
    routers += t.at("routers").get<unsigned>();
    writes += t.at("buffer_writes").get<unsigned>();
  }
  EXPECT_GE(a.at("router_types").size(), 2u);
  EXPECT_EQ(routers, 15u);
  EXPECT_EQ(writes, a.at("routers").at("buffer_writes").get<unsigned>());
  const Json& area = r.at("result").at("area").at("router_types");
  ASSERT_EQ(area.size(), a.at("router_types").size());
  EXPECT_LT(area.at(0).at("per_router_mm2").at("total").get<double>(),
            area.at(area.size() - 1).at("per_router_mm2").at("total").get<double>());
}

// No traffic: no event happens, so the network spends leakage only, and that
// leakage is every block's leakage power over the simulated time.
TEST(VcEnergy, IdleNetworkSpendsLeakageOnly) {
  const Json r = run_vc("--set traffic.injection_rate=0 --set measure.cycles=1000", "idle");
  const Json& e = r.at("result").at("energy");
  EXPECT_EQ(e.at("dynamic_pj").get<double>(), 0.0);
  EXPECT_GT(e.at("leakage_pj").get<double>(), 0.0);
  EXPECT_TRUE(e.at("per_flit_pj").is_null());
  const double cycles = e.at("cycles").get<double>();
  ASSERT_GT(cycles, 0);
  icn::power::OrionModel m(icn::power::technology("45nm"), 1.0);
  icn::power::RouterShape vc;  // 5 ports, 2 VCs x 4, 64 bits; one register stage, after the crossbar
  vc.register_after_link = vc.register_after_buffers = false;
  const double watts = 16 * m.router(vc).leakage_w.total() + 48 * m.link(1.0, 64).leakage_w;
  EXPECT_NEAR(e.at("leakage_pj").get<double>(), watts * cycles * 1e-9 * 1e12, 1e-9 * e.at("leakage_pj").get<double>());
}

// At low load, dynamic energy is proportional to the delivered flits (the same
// events per flit); the total is leakage plus that.
TEST(VcEnergy, LowLoadEnergyGrowsLinearlyWithFlits) {
  const std::string w = "--set measure.cycles=4000 --set traffic.packet_size=4 ";
  const Json a = run_vc(w + "--set traffic.injection_rate=0.01", "low1");
  const Json b = run_vc(w + "--set traffic.injection_rate=0.02", "low2");
  const Json c = run_vc(w + "--set traffic.injection_rate=0.04", "low4");
  auto per_flit = [](const Json& r) {
    const Json& e = r.at("result").at("energy");
    return e.at("dynamic_pj").get<double>() / e.at("delivered_flits").get<double>();
  };
  const double fa = a.at("result").at("energy").at("delivered_flits").get<double>();
  const double fc = c.at("result").at("energy").at("delivered_flits").get<double>();
  EXPECT_GT(fc, 3 * fa);
  EXPECT_NEAR(per_flit(b) / per_flit(a), 1.0, 0.1);
  EXPECT_NEAR(per_flit(c) / per_flit(a), 1.0, 0.1);
}

// Doubling the flit width: the same events, links twice the energy, the
// crossbar between two and four times (its lines grow with the width too).
TEST(VcEnergy, DoublingTheFlitWidth) {
  const std::string w = "--set measure.cycles=1000 --set traffic.injection_rate=0.05 ";
  const Json a = run_vc(w + "--set power.flit_bits=64", "w64");
  const Json b = run_vc(w + "--set power.flit_bits=128", "w128");
  EXPECT_EQ(a.at("stats").at("activity").at("routers"), b.at("stats").at("activity").at("routers"));
  EXPECT_NEAR(pj(b, "links", "dynamic_pj") / pj(a, "links", "dynamic_pj"), 2.0, 1e-9);
  const double xbar = pj(b, "crossbar", "dynamic_pj") / pj(a, "crossbar", "dynamic_pj");
  EXPECT_GT(xbar, 2.0);
  EXPECT_LT(xbar, 4.0);
  EXPECT_NEAR(pj(b, "buffers", "dynamic_pj") / pj(a, "buffers", "dynamic_pj"), 2.0, 0.05);
  EXPECT_NEAR(b.at("result").at("area").at("links_mm2").get<double>() / a.at("result").at("area").at("links_mm2").get<double>(),
              2.0, 1e-9);
}

// The JSON adds up: components to dynamic, leakage and total; areas to theirs.
TEST(VcEnergy, FieldsSumToTheTotal) {
  const Json r = run_vc("--set measure.cycles=500 --set traffic.injection_rate=0.1", "sum");
  const Json& e = r.at("result").at("energy");
  double dyn = 0, leak = 0, tot = 0;
  for (const auto& [name, c] : e.at("components").items()) {
    dyn += c.at("dynamic_pj").get<double>();
    leak += c.at("leakage_pj").get<double>();
    tot += c.at("total_pj").get<double>();
    EXPECT_NEAR(c.at("total_pj").get<double>(), c.at("dynamic_pj").get<double>() + c.at("leakage_pj").get<double>(),
                1e-9 * tot + 1e-12)
        << name;
  }
  EXPECT_EQ(e.at("components").size(), 6u);
  const double total = e.at("total_pj").get<double>();
  EXPECT_NEAR(dyn, e.at("dynamic_pj").get<double>(), 1e-9 * total);
  EXPECT_NEAR(leak, e.at("leakage_pj").get<double>(), 1e-9 * total);
  EXPECT_NEAR(tot, total, 1e-9 * total);
  EXPECT_NEAR(e.at("per_flit_pj").get<double>() * e.at("delivered_flits").get<double>(), total, 1e-9 * total);
  const Json& area = r.at("result").at("area");
  double routers = 0;
  for (const auto& t : area.at("router_types")) {
    routers += t.at("total_mm2").get<double>();
    const Json& p = t.at("per_router_mm2");
    EXPECT_NEAR(p.at("buffers").get<double>() + p.at("crossbar").get<double>() + p.at("sw_allocator").get<double>() +
                    p.at("vc_allocator").get<double>() + p.at("clock").get<double>(),
                p.at("total").get<double>(), 1e-12);
  }
  EXPECT_NEAR(routers, area.at("routers_mm2").get<double>(), 1e-12);
  EXPECT_NEAR(area.at("routers_mm2").get<double>() + area.at("links_mm2").get<double>(),
              area.at("total_mm2").get<double>(), 1e-12);
}

// The 32 nm node and another supply change the figures, as the keys say.
TEST(VcEnergy, KeysReachTheModel) {
  const std::string w = "--set measure.cycles=300 --set traffic.injection_rate=0.05 ";
  const Json a = run_vc(w, "k45");
  const Json b = run_vc(w + "--set power.vdd=0.5", "k45v");
  const Json c = run_vc(w + "--set power.tech=32nm --set power.clock_ghz=2 --set power.link_mm=2", "k32");
  EXPECT_NEAR(pj(b, "crossbar", "dynamic_pj") / pj(a, "crossbar", "dynamic_pj"), 0.25, 0.02);  // Vdd^2
  EXPECT_EQ(c.at("result").at("energy").at("tech").get<std::string>(), "32nm");
  EXPECT_EQ(c.at("stats").at("activity").at("links").at("channels").at("length_mm").get<double>(), 2.0);
  EXPECT_NEAR(c.at("result").at("area").at("links").at(0).at("length_mm").get<double>(), 2.0, 0);
}

// router.sw_arbiter and vc_arbiter: one packet along the route of
// OnePacketAlongAKnownRoute, its switch allocator's arbiters priced as matrix
// arbiters (power/orion.hpp) and its VC allocator's as round-robin ones, at
// the decisions and requests counted there. The routers' area changes in
// the switch allocator only. Every kind the keys offer is priced.
TEST(VcEnergy, TheArbitersKeysChooseTheCircuitsPriced) {
  const unsigned F = 5, h = 7;
  const Json rr = one_packet(0, 15, F);
  const Json mx = one_packet(0, 15, F, "--set router.sw_arbiter=matrix");
  ASSERT_TRUE(mx.at("result").at("verified").get<bool>());
  icn::power::OrionModel m(icn::power::technology("45nm"), 1.0);
  icn::power::RouterShape shape;
  const icn::power::OrionModel::ArbiterWidths w = m.arbiter_widths(shape);
  // Each decision of either stage saw one request (the counters above).
  const double sw = F * h * (m.arbiter_energy(w.sw_input, 1, 0, icn::power::ArbiterCircuit::kMatrix) +
                             m.arbiter_energy(w.sw_output, 1, w.sw_output_wire_um, icn::power::ArbiterCircuit::kMatrix));
  EXPECT_NEAR(pj(mx, "sw_allocator", "dynamic_pj"), sw * 1e12, 1e-6);
  EXPECT_NE(pj(mx, "sw_allocator", "dynamic_pj"), pj(rr, "sw_allocator", "dynamic_pj"));
  EXPECT_EQ(pj(mx, "vc_allocator", "dynamic_pj"), pj(rr, "vc_allocator", "dynamic_pj"));
  auto per_router = [](const Json& r, const char* block) {
    return r.at("result").at("area").at("router_types").at(0).at("per_router_mm2").at(block).get<double>();
  };
  EXPECT_GT(per_router(mx, "sw_allocator"), 0.0);
  EXPECT_NE(per_router(mx, "sw_allocator"), per_router(rr, "sw_allocator"));
  EXPECT_EQ(per_router(mx, "vc_allocator"), per_router(rr, "vc_allocator"));
  const Json both = one_packet(0, 15, F, "--set router.sw_arbiter=matrix --set router.vc_arbiter=matrix");
  EXPECT_NE(per_router(both, "vc_allocator"), per_router(rr, "vc_allocator"));
}

// Bad values: one line, exit 2.
TEST(VcEnergy, BadKeysAreRefused) {
  const std::string run = "run /dev/null --set network.type=vc --set network.k=4 ";
  expect_rejected(run + "--set power.tech=7nm", "power.tech");
  expect_rejected(run + "--set power.clock_ghz=0", "power.clock_ghz");
  expect_rejected(run + "--set power.vdd=0.05", "power.vdd");
  expect_rejected(run + "--set power.vdd=-1", "power.vdd");
  expect_rejected(run + "--set power.flit_bits=0", "power.flit_bits");
  expect_rejected(run + "--set power.link_mm=-1", "power.link_mm");
  // A technology file is an input: no output may overwrite it.
  const std::string tech = scratch_dir() + "/node.tech";
  std::ofstream(tech) << "base = 45nm\nvdd = 0.9\n";
  expect_rejected(run + "--set power.tech=" + tech + " --json " + tech, "is the power.tech");
}

// Same seed, same bytes (the counters are plain integers, the pricing a fixed sum).
TEST(VcEnergy, Deterministic) {
  const std::string w = "--set measure.cycles=300 --set traffic.injection_rate=0.1 ";
  const Json a = run_vc(w, "d1"), b = run_vc(w, "d2");
  EXPECT_EQ(a.at("result").dump(), b.at("result").dump());
  EXPECT_EQ(a.at("stats").dump(), b.at("stats").dump());
}

}  // namespace icn::test
