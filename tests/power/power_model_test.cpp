// The energy and area model (power/, docs/energy.md): hand-computed values from
// ORION 2.0's published parameters, invariants of the physics, and the
// parameter file as untrusted input. No expected value here is read from the
// code under test.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "power/keys.hpp"
#include "power/orion.hpp"
#include "power/technology.hpp"

namespace icn::power {
namespace {

OrionModel model(const std::string& node, double vdd = 0) { return OrionModel(technology(node), 1.0, vdd); }

RouterShape shape(unsigned ports, unsigned vcs, unsigned depth, unsigned bits) {
  RouterShape s;
  s.ports_in = s.ports_out = ports;
  s.vcs = vcs;
  s.depth = depth;
  s.flit_bits = bits;
  return s;
}

// Every dynamic energy of a router, for comparisons block by block.
std::vector<double> events(const RouterFigures& f) {
  const RouterEnergy& e = f.energy;
  return {e.buffer_write, e.buffer_read, e.crossbar, e.sw_arb_input, e.sw_arb_output, e.vc_arb_input, e.vc_arb_output, e.clock};
}

TEST(PowerModel, ClockEnergyIsThePipelineRegistersClockLoadAtVddSquared) {
  // ORION 2.0 (orion/Clock.cc): 3 registers of F bits per port (after the link,
  // the buffer, the crossbar), each bit 1.5e-14 F at 45 nm NVT (TechParameter
  // m_ClockCap), times Vdd^2 = 1 V^2: 5 ports x 3 x 64 bits x 15 fF = 14.4 pJ.
  const RouterFigures f = model("45nm").router(shape(5, 2, 4, 64));
  EXPECT_NEAR(f.energy.clock, 14.4e-12, 1e-15);
  // 32 nm: 1.44e-14 F per bit at 0.9 V.
  const RouterFigures g = model("32nm").router(shape(5, 2, 4, 64));
  EXPECT_NEAR(g.energy.clock, 960 * 1.44e-14 * 0.81, 1e-15);
  // icnsim's VC router: only the register after the crossbar, 5 x 64 bits x
  // 15 fF = 4.8 pJ a cycle; its leakage and area a third of ORION's router's.
  RouterShape one = shape(5, 2, 4, 64);
  one.register_after_link = one.register_after_buffers = false;
  const RouterFigures h = model("45nm").router(one);
  EXPECT_NEAR(h.energy.clock, 4.8e-12, 1e-15);
  EXPECT_NEAR(h.leakage_w.clock * 3, f.leakage_w.clock, 1e-12 * f.leakage_w.clock);
  EXPECT_NEAR(h.area_mm2.clock * 3, f.area_mm2.clock, 1e-12 * f.area_mm2.clock);
  EXPECT_EQ(h.energy.buffer_write, f.energy.buffer_write);  // nothing else changes
  EXPECT_EQ(h.area_mm2.crossbar, f.area_mm2.crossbar);
}

TEST(PowerModel, BufferWriteIsOrionsFlipFlopWorkedOutByHand) {
  // 45 nm NVT numbers of ORION 2.0's TechParameter, worked out step by step:
  // a register-FIFO write of F bits = F/2 flip-flop switches + F clocked bits.
  const double st = 0.8233582, leff = 0.0696, vdd2 = 1.0;
  const double nor_gate = (1.20 + 2.62) * leff * 3.9664e-14 * st;          // 2-input NOR's input
  const double nor_n_drain = (3 * leff * 1.20 * 2.9535e-15 + (6 * leff + 1.20) * 2.55e-16 + 1.20 * 1.27e-16) * st;
  const double p1 = 3 * leff * 2.62 * 3.3306e-15 + (6 * leff + 2.62) * 1.2994e-15 + 2.62 * 1.21e-16;
  const double p_series = leff * 2.62 * 3.3306e-15 + 2 * leff * 1.2994e-15 + 2 * 2.62 * 1.21e-16;
  auto nor_p_drain = [&](int stack) { return (p1 + (stack - 1) * p_series) * st; };
  auto node = [&](int fanin, int fanout) { return fanin * nor_n_drain + nor_p_drain(fanin) + fanout * nor_gate; };
  // Six nodes of Katz's flip-flop: three (2,1), two (2,3), one (3,2).
  const double e_switch = (3 * node(2, 1) + 2 * node(2, 3) + node(3, 2)) / 2 * vdd2;
  const double e_clock = 2 * nor_gate * vdd2;
  const double expected = e_switch * 64 / 2 + e_clock * 64;
  EXPECT_NEAR(model("45nm").router(shape(5, 2, 4, 64)).energy.buffer_write, expected, expected * 1e-9);
}

TEST(PowerModel, ArbiterAreaIsItsGateCountAtOrionsCellAreas) {
  // A round-robin arbiter of R requesters: 6R NOR2, 2R inverters, R flip-flops
  // (orion/Allocator/RRArbiter.cc), at 2.52, 1.44 and 8.28 um^2 scaled by
  // SCALE_T = 0.8233582 at 45 nm (TechParameter m_AreaNOR/INV/DFF).
  const double per_requester = (6 * 2.52 + 2 * 1.44 + 8.28) * 0.8233582;
  EXPECT_NEAR(model("45nm").arbiter_area_um2(4), 4 * per_requester, 1e-9);
  EXPECT_EQ(model("45nm").arbiter_area_um2(1), 0.0);  // one requester needs no arbiter
}

TEST(PowerModel, MatrixArbiterAreaIsItsGateCountAtOrionsCellAreas) {
  // A matrix arbiter of R requesters (ORION's router area, MATRIX_ARBITER):
  // 2 (R - 1) R NOR2, R inverters and a priority flip-flop per pair of
  // requesters: for R = 4, 24 NOR2, 4 inverters, 6 flip-flops.
  const double expected = (24 * 2.52 + 4 * 1.44 + 6 * 8.28) * 0.8233582;
  EXPECT_NEAR(model("45nm").arbiter_area_um2(4, ArbiterCircuit::kMatrix), expected, 1e-9);
  EXPECT_EQ(model("45nm").arbiter_area_um2(1, ArbiterCircuit::kMatrix), 0.0);
  // Its flip-flops grow as R^2: at 16 requesters it is larger than a round-robin one.
  EXPECT_GT(model("45nm").arbiter_area_um2(16, ArbiterCircuit::kMatrix), model("45nm").arbiter_area_um2(16));
}

TEST(PowerModel, MatrixArbiterDecisionIsOrionsEquationWorkedOutByHand) {
  // orion/Allocator/MatrixArbiter.cc, average case, 4 requesters, one
  // request, no request wire, 45 nm NVT (Vdd^2 = 1): the same device
  // capacitances as the buffer test above, for any transistor width.
  const double st = 0.8233582, leff = 0.0696;
  auto gate = [&](double w) { return w * leff * 3.9664e-14 * st; };
  auto drain_n = [&](double w) { return (3 * leff * w * 2.9535e-15 + (6 * leff + w) * 2.55e-16 + w * 1.27e-16) * st; };
  auto drain_p = [&](double w, int stack) {
    const double first = 3 * leff * w * 3.3306e-15 + (6 * leff + w) * 1.2994e-15 + w * 1.21e-16;
    const double series = leff * w * 3.3306e-15 + 2 * leff * 1.2994e-15 + 2 * w * 1.21e-16;
    return (first + (stack - 1) * series) * st;
  };
  const double nor_n = 1.20, nor_p = 2.62, inv_n = 1.46, inv_p = 3.93;
  const double nor_gate = gate(nor_n + nor_p);
  auto node = [&](int fanin, int fanout) { return fanin * drain_n(nor_n) + drain_p(nor_p, fanin) + fanout * nor_gate; };
  // Request line: 3 NOR inputs of the other rows, an inverter, the "huge" NOR's input.
  const double c_req = 3 * nor_gate + drain_n(inv_n) + drain_p(inv_p, 1) + gate(inv_n + inv_p) + nor_gate;
  const double c_grant = 4 * drain_n(nor_n) + drain_p(nor_p, 4);                 // a 4-input NOR's output
  const double c_int = 2 * drain_n(nor_n) + drain_p(nor_p, 2) + nor_gate;         // between two NOR blocks
  // Priority flip-flops (Katz's six nodes) loaded by two NOR inputs each.
  const double e_switch = (3 * node(2, 1) + 2 * node(2, 3) + node(3, 2) + 2 * nor_gate) / 2;
  const double e_keep_0 = node(2, 3), e_keep_1 = node(3, 2), e_clock = 2 * nor_gate;
  // 6 priority bits; a grant changes half of the winner's 3; the rest keep
  // their value, half 0 and half 1; every bit is clocked; the internal nodes
  // switch (requests + 1)(R - 1) / 2 times.
  const double expected = c_req / 2 + c_grant + e_switch * 1.5 + (e_keep_0 + e_keep_1) * (6 - 1.5) / 2 + e_clock * 6 +
                          c_int / 2 * 2 * 3 / 2;
  const OrionModel m = model("45nm");
  EXPECT_NEAR(m.arbiter_energy(4, 1, 0, ArbiterCircuit::kMatrix), expected, expected * 1e-9);
  // Linear in the requests (energy_report prices a stage at its mean).
  const double e1 = m.arbiter_energy(4, 1, 0, ArbiterCircuit::kMatrix), e2 = m.arbiter_energy(4, 2, 0, ArbiterCircuit::kMatrix),
               e3 = m.arbiter_energy(4, 3, 0, ArbiterCircuit::kMatrix);
  EXPECT_NEAR(e3 - e2, e2 - e1, 1e-9 * e1);
  EXPECT_NEAR(e2 - e1, (c_req + c_int * 3 / 2) / 2, 1e-9 * e1);
  EXPECT_EQ(m.arbiter_energy(1, 1, 0, ArbiterCircuit::kMatrix), 0.0);
}

// router.sw_arbiter and vc_arbiter reach the router's figures: only the
// allocator whose arbiters change is priced differently.
TEST(PowerModel, ARoutersArbiterCircuitsPriceOnlyTheirAllocator) {
  const OrionModel m = model("45nm");
  const RouterShape rr = shape(5, 2, 4, 64);
  RouterShape sw = rr, vc = rr;
  sw.sw_arbiter = ArbiterCircuit::kMatrix;
  vc.vc_arbiter = ArbiterCircuit::kMatrix;
  const RouterFigures a = m.router(rr), b = m.router(sw), c = m.router(vc);
  EXPECT_NE(b.energy.sw_arb_input, a.energy.sw_arb_input);
  EXPECT_NE(b.area_mm2.sw_allocator, a.area_mm2.sw_allocator);
  EXPECT_NE(b.leakage_w.sw_allocator, a.leakage_w.sw_allocator);
  EXPECT_EQ(b.area_mm2.vc_allocator, a.area_mm2.vc_allocator);
  EXPECT_EQ(b.energy.vc_arb_output, a.energy.vc_arb_output);
  EXPECT_NE(c.energy.vc_arb_output, a.energy.vc_arb_output);
  EXPECT_NE(c.area_mm2.vc_allocator, a.area_mm2.vc_allocator);
  EXPECT_EQ(c.area_mm2.sw_allocator, a.area_mm2.sw_allocator);
  // The switch allocator's output arbiters (4 requesters here) as worked out above, with their request wire.
  EXPECT_NEAR(b.area_mm2.sw_allocator, (m.arbiter_area_um2(2, ArbiterCircuit::kMatrix) * 5 +
                                        m.arbiter_area_um2(4, ArbiterCircuit::kMatrix) * 5) * 1e-6, 1e-15);
}

TEST(PowerModel, LinkWireCapacitanceIsThatOfAnOnChipWire) {
  // Switched capacitance per bit per mm (wire and repeaters) = energy per
  // toggle / Vdd^2: within 0.1..1 fF/um around the textbook 0.2 fF/um of an
  // on-chip wire (e.g. Ho, Mai & Horowitz, "The future of wires", 2001).
  for (const char* node : {"45nm", "32nm"}) {
    const OrionModel m = model(node);
    const double c_per_um = m.wire_energy_per_toggle(1e-3) / (m.vdd() * m.vdd()) / 1000.0;
    EXPECT_GT(c_per_um, 0.1e-15) << node;
    EXPECT_LT(c_per_um, 1.0e-15) << node;
  }
}

TEST(PowerModel, ZeroLengthLinkCostsNoWireEnergyLeakageOrArea) {
  const LinkFigures f = model("45nm").link(0.0, 64);
  EXPECT_EQ(f.energy_per_bit, 0.0);
  EXPECT_EQ(f.leakage_w, 0.0);
  EXPECT_EQ(f.area_mm2, 0.0);
  EXPECT_GT(model("45nm").link(1.0, 64).energy_per_bit, 0.0);
}

TEST(PowerModel, LinkEnergyGrowsWithLengthAndAFlitsWithItsWidth) {
  const OrionModel m = model("45nm");
  EXPECT_LT(m.link(1.0, 64).energy_per_bit, m.link(2.0, 64).energy_per_bit);
  // A flit of twice the bits costs twice: energy is per bit.
  EXPECT_DOUBLE_EQ(128 * m.link(1.0, 128).energy_per_bit, 2.0 * 64 * m.link(1.0, 64).energy_per_bit);
  EXPECT_DOUBLE_EQ(m.link(1.0, 128).leakage_w, 2.0 * m.link(1.0, 64).leakage_w);
  EXPECT_DOUBLE_EQ(m.link(1.0, 128).area_mm2, 2.0 * m.link(1.0, 64).area_mm2);
}

TEST(PowerModel, DoubleFlitWidthAtLeastDoublesCrossbarAndBufferEnergy) {
  const OrionModel m = model("45nm");
  const RouterFigures a = m.router(shape(5, 2, 4, 64)), b = m.router(shape(5, 2, 4, 128));
  // Buffer: every bit has its own flip-flops, so exactly twice.
  EXPECT_NEAR(b.energy.buffer_write / a.energy.buffer_write, 2.0, 1e-9);
  EXPECT_NEAR(b.energy.buffer_read / a.energy.buffer_read, 2.0, 1e-9);
  // Crossbar: twice the lines, each line twice as long (a matrix crossbar's
  // side is ports x bits cells): between twice and four times.
  const double r = b.energy.crossbar / a.energy.crossbar;
  EXPECT_GE(r, 2.0);
  EXPECT_LE(r, 4.0);
}

TEST(PowerModel, BufferEnergyGrowsWithDepthAndWidth) {
  const OrionModel m = model("45nm");
  double last_read = 0;
  for (unsigned depth : {1u, 2u, 4u, 8u, 16u}) {
    const RouterFigures f = m.router(shape(5, 2, depth, 64));
    EXPECT_GT(f.energy.buffer_read, last_read) << depth;
    last_read = f.energy.buffer_read;
  }
  EXPECT_LT(m.router(shape(5, 2, 4, 32)).energy.buffer_write, m.router(shape(5, 2, 4, 64)).energy.buffer_write);
  EXPECT_LT(m.router(shape(5, 2, 4, 32)).leakage_w.buffers, m.router(shape(5, 2, 8, 32)).leakage_w.buffers);
}

TEST(PowerModel, DynamicEnergyScalesWithVddSquaredAndLeakageWithVdd) {
  const RouterShape s = shape(5, 4, 4, 64);
  const RouterFigures full = model("45nm", 1.0).router(s), half = model("45nm", 0.5).router(s);
  const std::vector<double> e_full = events(full), e_half = events(half);
  for (std::size_t i = 0; i < e_full.size(); ++i) EXPECT_NEAR(e_half[i], e_full[i] / 4.0, e_full[i] * 1e-12) << i;
  EXPECT_NEAR(half.leakage_w.total(), full.leakage_w.total() / 2.0, full.leakage_w.total() * 1e-12);
  EXPECT_NEAR(model("45nm", 0.5).link(1.0, 64).leakage_w, model("45nm", 1.0).link(1.0, 64).leakage_w / 2.0, 1e-15);
}

TEST(PowerModel, TheSmallerNodeSpendsLessPerEventAndLeaksDifferently) {
  const RouterShape s = shape(5, 4, 4, 64);
  const std::vector<double> e45 = events(model("45nm").router(s)), e32 = events(model("32nm").router(s));
  for (std::size_t i = 0; i < e45.size(); ++i) EXPECT_LT(e32[i], e45[i]) << i;
  EXPECT_LT(model("32nm").link(1.0, 64).energy_per_bit, model("45nm").link(1.0, 64).energy_per_bit);
  // At the same supply, ORION 2.0's leakage scale SCALE_S is 3.13 at 32 nm
  // against 2.19 at 45 nm: the smaller node leaks more per block.
  EXPECT_GT(model("32nm", 1.0).router(s).leakage_w.crossbar, model("45nm", 1.0).router(s).leakage_w.crossbar);
  EXPECT_NE(model("32nm").router(s).leakage_w.total(), model("45nm").router(s).leakage_w.total());
  // The smaller node is smaller.
  EXPECT_LT(model("32nm").router(s).area_mm2.total(), model("45nm").router(s).area_mm2.total());
}

TEST(PowerModel, AreaGrowsWithPortsVcsAndDepth) {
  const OrionModel m = model("45nm");
  const double base = m.router(shape(5, 2, 4, 64)).area_mm2.total();
  EXPECT_GT(m.router(shape(7, 2, 4, 64)).area_mm2.total(), base);
  EXPECT_GT(m.router(shape(5, 4, 4, 64)).area_mm2.total(), base);
  EXPECT_GT(m.router(shape(5, 2, 8, 64)).area_mm2.total(), base);
  EXPECT_GT(m.router(shape(5, 2, 4, 128)).area_mm2.total(), base);
  for (unsigned p = 2; p < 12; ++p)
    EXPECT_LT(m.router(shape(p, 2, 4, 64)).area_mm2.total(), m.router(shape(p + 1, 2, 4, 64)).area_mm2.total()) << p;
}

TEST(PowerModel, EveryBlockOfAVcRouterHasEnergyLeakageAndArea) {
  const RouterFigures f = model("45nm").router(shape(5, 2, 4, 64));
  for (double e : events(f)) EXPECT_GT(e, 0.0);
  for (double v : {f.leakage_w.buffers, f.leakage_w.crossbar, f.leakage_w.sw_allocator, f.leakage_w.vc_allocator, f.leakage_w.clock})
    EXPECT_GT(v, 0.0);
  for (double v : {f.area_mm2.buffers, f.area_mm2.crossbar, f.area_mm2.sw_allocator, f.area_mm2.vc_allocator, f.area_mm2.clock})
    EXPECT_GT(v, 0.0);
  // One VC: no VC allocator and no input arbiter (ORION builds none).
  const RouterFigures g = model("45nm").router(shape(5, 1, 4, 64));
  EXPECT_EQ(g.energy.vc_arb_output, 0.0);
  EXPECT_EQ(g.energy.sw_arb_input, 0.0);
  EXPECT_EQ(g.area_mm2.vc_allocator, 0.0);
}

// --- technologies and parameter files ---

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(PowerTechnology, NodesByNameWithTheirSupplies) {
  EXPECT_EQ(technology("45nm").vdd, 1.0);
  EXPECT_EQ(technology("32nm").vdd, 0.9);
  EXPECT_EQ(load_technology("32nm").node_nm, 32);
  const std::string e = error_of([] { technology("22nm"); });
  EXPECT_NE(e.find("45nm"), std::string::npos) << e;
  EXPECT_NE(e.find("32nm"), std::string::npos) << e;
}

TEST(PowerTechnology, AParameterFileStartsFromItsBaseNode) {
  const Technology t = parse_technology("# a test node\nbase = 45nm\nvdd = 0.8\n  wire_k = 2.5 # low-k\n", "t.tech");
  EXPECT_EQ(t.vdd, 0.8);
  EXPECT_EQ(t.wire_k, 2.5);
  EXPECT_EQ(t.c_clock, 1.5e-14);  // from 45nm
  EXPECT_EQ(t.name, "t.tech");
}

TEST(PowerTechnology, BadFilesAreOneLineErrorsNamingTheProblemAndTheKeys) {
  struct Case {
    std::string text, says;
  };
  const Case cases[] = {
      {"base = 45nm\nvddd = 1\n", "t:2: unknown key"},
      {"vdd = 1\n", "no base"},
      {"base = 45nm\nvdd = fast\n", "t:2: vdd = fast"},
      {"base = 45nm\nvdd = 9\n", "outside 0.1..5"},
      {"base = 45nm\nc_gate = -1e-14\n", "non-negative"},
      {"base = 45nm\nc_gate = nan\n", "non-negative"},
      {"base = 45nm\nc_gate = 1\nc_gate = 2\n", "given twice"},
      {"base = 7nm\n", "not a node"},
      {"base = 45nm\njust words\n", "expected key = value"},
      {std::string(70000, '#'), "64 KiB"},
  };
  for (const Case& c : cases) {
    const std::string e = error_of([&] { parse_technology(c.text, "t"); });
    EXPECT_NE(e.find(c.says), std::string::npos) << c.text.substr(0, 40) << " -> " << e;
    EXPECT_NE(e.find("allowed keys: base, vdd"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(PowerTechnology, LoadingReadsAFileAndRefusesWhatIsNotOne) {
  const std::string path = testing::TempDir() + "icnsim_power_test.tech";
  { std::ofstream(path) << "base = 32nm\nvdd = 0.85\n"; }
  EXPECT_EQ(load_technology(path).vdd, 0.85);
  std::remove(path.c_str());
  for (const std::string& bad : {std::string("/nonexistent/x.tech"), testing::TempDir()}) {
    const std::string e = error_of([&] { load_technology(bad); });
    EXPECT_FALSE(e.empty()) << bad;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(PowerKeys, DefaultsAreStated) {
  EXPECT_EQ(kTech.key, "power.tech");
  EXPECT_EQ(kTech.fallback, "45nm");
  EXPECT_EQ(kClockGhz.fallback, "1.0");
  EXPECT_EQ(kVdd.fallback, "0");
  // 0 means the node's supply.
  EXPECT_EQ(OrionModel(technology("32nm"), 1.0, 0).vdd(), 0.9);
}

}  // namespace
}  // namespace icn::power
