// ORION 2.0, equation by equation. The model is the one published by Kahng,
// Li, Peh and Samadi (DATE 2009); the equations are those of its public
// source as gem5 ships it (src/mem/ruby/network/orion/, cited below as
// "orion/<file> <function>"), rewritten here. docs/energy.md lists them.
#include "power/orion.hpp"

#include <cmath>
#include <stdexcept>

#include "models/config.hpp"

namespace icn::power {

OrionModel::OrionModel(const Technology& tech, double clock_ghz, double vdd)
    : tech_(tech), vdd_(vdd > 0 ? vdd : tech.vdd) {
  if (!(clock_ghz > 0) || !std::isfinite(clock_ghz)) throw ConfigError("power.clock_ghz: must be a positive number of GHz");
  if (!(vdd_ > 0) || !std::isfinite(vdd_)) throw ConfigError("power.vdd: must be a positive number of volts");
  period_s_ = 1e-9 / clock_ghz;
  e_factor_ = vdd_ * vdd_;  // orion/TechParameter.cc: m_EnergyFactor = Vdd^2
}

// orion/TechParameter.cc calc_gatecap: (W Leff Cgate + Lpoly Cpolywire Leff) SCALE_T.
double OrionModel::gate_cap(double w, double poly) const {
  return (w * tech_.leff_um * tech_.c_gate + poly * tech_.c_polywire * tech_.leff_um) * tech_.scale_t;
}

// orion/TechParameter.cc calc_draincap: diffusion area, side wall and overlap of
// a transistor of width W (folded above 10 um) plus (stack - 1) series devices.
double OrionModel::drain_cap(double w, bool nmos, unsigned stack) const {
  const double side = nmos ? tech_.c_ndiff_side : tech_.c_pdiff_side;
  const double area = nmos ? tech_.c_ndiff_area : tech_.c_pdiff_area;
  const double overlap = nmos ? tech_.c_n_overlap : tech_.c_p_overlap;
  const double l = tech_.leff_um;
  const double extra = static_cast<double>(stack) - 1.0;
  double c;
  if (w >= 10) {
    c = 1.5 * l * w * area + 6.0 * l * side + w * overlap;
    c += extra * (l * w * area + 4.0 * l * side + 2.0 * w * overlap);
  } else {
    c = 3.0 * l * w * area + (6.0 * l + w) * side + w * overlap;
    c += extra * (l * w * area + 2.0 * l * side + 2.0 * w * overlap);
  }
  return c * tech_.scale_t;
}

// orion/TechParameter.cc calc_driver_psize: the PMOS width whose on-resistance
// charges `load` in `rise` (R = rise / (C ln(1/vs_inv))), clamped.
double OrionModel::driver_p_width(double load, double rise) const {
  const double r_drive = rise / (load * -std::log(tech_.vs_inv));
  double w = tech_.r_p_on / r_drive;
  if (w > tech_.max_driver_um) w = tech_.max_driver_um;
  if (w < tech_.min_driver_um) w = tech_.min_driver_um;
  return w;
}

// orion/FlipFlop.cc init (NEG_DFF, Katz's six-NOR edge-triggered flip-flop):
// node capacitance = fan-in NOR drains + fan-out NOR gates.
OrionModel::FlipFlop OrionModel::flip_flop(double load) const {
  auto node = [&](unsigned fanin, unsigned fanout) {
    return fanin * drain_cap(tech_.w_nor_n, true, 1) + drain_cap(tech_.w_nor_p, false, fanin) +
           fanout * gate_cap(tech_.w_nor_n + tech_.w_nor_p, 0);
  };
  const double c1 = node(2, 1), c2 = node(2, 3), c3 = node(3, 2), c4 = node(2, 3);
  FlipFlop ff;
  ff.e_switch = (c1 + c2 + c3 + c4 + c1 + c1 + load) * e_factor_ / 2.0;  // c5 = c6 = c1
  ff.e_keep_0 = c2 * e_factor_;
  ff.e_keep_1 = c3 * e_factor_;
  ff.e_clock = 2.0 * gate_cap(tech_.w_nor_n + tech_.w_nor_p, 0) * e_factor_;
  // orion/FlipFlop.cc calc_i_static: six NOR2 gates, input states equally likely.
  const double* nor = tech_.i_nor2;
  ff.i_static = (tech_.w_nor_p * nor[0] + tech_.w_nor_n * (nor[1] + nor[2] + nor[3])) / 4.0 * 6.0;
  return ff;
}

// orion/Buffer/Register.cc init, calc_e_write: a write clocks every bit's
// flip-flop and switches half of them.
double OrionModel::buffer_write(unsigned bits) const {
  const FlipFlop ff = flip_flop(0);
  return ff.e_switch * bits / 2.0 + ff.e_clock * bits;
}

// orion/Buffer/Register.cc calc_e_read: a read clocks half the bits, and a
// register FIFO shifts the flits behind (assumed a quarter of the depth).
double OrionModel::buffer_read(unsigned depth, unsigned bits) const {
  const double read = flip_flop(0).e_clock * bits / 2.0;
  return depth > 1 ? read + depth * 0.25 * buffer_write(bits) : read;
}

// orion/Crossbar/MatrixCrossbar.cc init + orion/Crossbar/Crossbar.cc calc_in_cap,
// calc_out_cap, calc_ctr_cap (tri-state connectors, one segment): a flit charges
// half its input lines and half its output lines, and one control line.
double OrionModel::crossbar_energy(unsigned in, unsigned out, unsigned bits) const {
  const double len_in = out * bits * tech_.xbar_cell_w_um;   // um, one input line
  const double len_out = in * bits * tech_.xbar_cell_h_um;   // um, one output line
  const double tri_gate = gate_cap(tech_.w_tri_nand_n + tech_.w_tri_nand_p, 0) + gate_cap(tech_.w_tri_nor_n + tech_.w_tri_nor_p, 0);
  const double tri_drain = drain_cap(tech_.w_out_n, true, 1) + drain_cap(tech_.w_out_p, false, 1);
  // Input line: wire, one tri-state input per output, and its driver sized to
  // charge the line in a third of the cycle.
  double c_in = tech_.c_metal_3x * len_in + tri_gate * out;
  const double p = driver_p_width(c_in, period_s_ / 3.0);
  const double n = p * tech_.w_inv_n / tech_.w_inv_p;
  c_in += drain_cap(n, true, 1) + drain_cap(p, false, 1) + gate_cap(n + p, 0);
  c_in /= 2.0;
  // Output line: wire, one tri-state output per input, and the output driver.
  // (ORION's MatrixCrossbar passes the number of outputs here; for the square
  // crossbars of icnsim's routers it is the same number.)
  double c_out = tech_.c_metal_3x * len_out + tri_drain * in;
  c_out += tri_drain + gate_cap(tech_.w_out_n + tech_.w_out_p, 0);
  c_out /= 2.0;
  // Control line: half an input line of local metal, a tri-state enable per bit, an inverter.
  const double c_ctr = tech_.c_metal * len_in / 2.0 + tri_gate * bits + drain_cap(tech_.w_inv_n, true, 1) +
                       drain_cap(tech_.w_inv_p, false, 1) + gate_cap(tech_.w_inv_n + tech_.w_inv_p, 0);
  // orion/Crossbar/MatrixCrossbar.cc get_dynamic_energy (average: half the bits).
  return (c_in * bits * 0.5 + c_out * bits * 0.5 + c_ctr) * e_factor_;
}

// orion/Crossbar/MatrixCrossbar.cc calc_i_static.
double OrionModel::crossbar_leakage_a(unsigned in, unsigned out, unsigned bits) const {
  const double* nand = tech_.i_nand2;
  const double* nor = tech_.i_nor2;
  const double inv = tech_.w_inv_n * tech_.i_nmos + tech_.w_inv_p * tech_.i_pmos;
  const double driver = tech_.w_out_n * tech_.i_nmos + tech_.w_out_p * tech_.i_pmos;
  const double tri = (tech_.w_tri_nand_p * (nand[0] + nand[1] + nand[2]) + tech_.w_tri_nand_n * nand[3]) / 4.0 +
                     (tech_.w_tri_nor_p * nor[0] + tech_.w_tri_nor_n * (nor[1] + nor[2] + nor[3])) / 4.0 + driver;
  return tri * in * out * bits + inv * in * bits + driver * out * bits + inv * in * out;
}

// orion/Allocator/RRArbiter.cc init, calc_dynamic_energy: request, grant, carry
// chain and priority flip-flops of a round-robin arbiter.
double OrionModel::arbiter_energy(unsigned width, double requests, double wire_um, ArbiterCircuit circuit) const {
  if (width < 2 || requests <= 0) return 0;  // ORION builds no arbiter for one requester
  if (requests > width) requests = width;
  if (circuit == ArbiterCircuit::kMatrix) return matrix_arbiter_energy(width, requests, wire_um);
  const double nor_gate = gate_cap(tech_.w_nor_n + tech_.w_nor_p, 0);
  const double nor_drain = 2.0 * drain_cap(tech_.w_nor_n, true, 1) + drain_cap(tech_.w_nor_p, false, 2);
  const double c_req = 2.0 * nor_gate + drain_cap(tech_.w_inv_n, true, 1) + drain_cap(tech_.w_inv_p, false, 1) +
                       gate_cap(tech_.w_inv_n + tech_.w_inv_p, 0) + wire_um * tech_.c_metal;
  const double c_grant = nor_drain;
  const double c_carry = nor_drain + nor_gate;
  const double c_carry_in = 2.0 * nor_gate + nor_drain;
  const FlipFlop pri = flip_flop(nor_gate);  // priority register, loaded by one NOR
  const double grants = requests >= 1 ? 1.0 : 1.0 / std::ceil(1.0 / requests);
  const double w = width;
  double e = c_req / 2.0 * e_factor_ * requests;
  e += c_grant * e_factor_ * grants;
  e += c_carry / 2.0 * e_factor_ * w * 0.5 * grants;            // carry runs half the chain
  e += c_carry_in / 2.0 * e_factor_ * (w * 0.5 - 1.0) * grants;
  e += pri.e_switch * 2.0 * grants;                             // two priority bits change
  e += pri.e_keep_0 * (w - 2.0 * grants);
  e += pri.e_clock * w;
  return e;
}

// orion/Allocator/RRArbiter.cc calc_i_static (6 NOR2, 2 inverters, 1 flip-flop
// per requester) times orion/Allocator/Arbiter.cc get_static_power's Vdd SCALE_S.
double OrionModel::arbiter_leakage_w(unsigned width, ArbiterCircuit circuit) const {
  if (width < 2) return 0;
  const double* nor = tech_.i_nor2;
  const double w = width;
  const double nor_i = (tech_.w_nor_p * nor[0] + tech_.w_nor_n * (nor[1] + nor[2] + nor[3])) / 4.0;
  const double inv_i = (tech_.w_inv_n * tech_.i_nmos + tech_.w_inv_p * tech_.i_pmos) / 2.0;
  double i = 0;
  if (circuit == ArbiterCircuit::kMatrix) {
    // orion/Allocator/MatrixArbiter.cc calc_i_static: (2w - 1) w NOR2, w
    // inverters, a flip-flop per pair of requesters.
    i = (2.0 * w - 1.0) * w * nor_i + w * inv_i + w * (w - 1.0) / 2.0 * tech_.w_dff * tech_.i_dff;
  } else {
    i = 6.0 * w * nor_i + 2.0 * w * inv_i + w * tech_.w_dff * tech_.i_dff;
  }
  return i * vdd_ * tech_.scale_s;
}

// The same gate count priced with ORION 2.0's standard-cell areas (TechParameter
// m_AreaNOR, m_AreaINV, m_AreaDFF).
double OrionModel::arbiter_area_um2(unsigned width, ArbiterCircuit circuit) const {
  if (width < 2) return 0;
  const double w = width;
  // ORION's router area (OrionConfig's MATRIX_ARBITER case): 2 (w - 1) w NOR2,
  // w inverters, w (w - 1) / 2 flip-flops.
  if (circuit == ArbiterCircuit::kMatrix)
    return 2.0 * (w - 1.0) * w * tech_.area_nor + w * tech_.area_inv + w * (w - 1.0) / 2.0 * tech_.area_dff;
  return w * (6.0 * tech_.area_nor + 2.0 * tech_.area_inv + tech_.area_dff);
}

// orion/Allocator/MatrixArbiter.cc init and calc_dynamic_energy (the average
// case): every requester's row of NOR gates, the grant NOR, the internal
// nodes between the blocks, and w (w - 1) / 2 priority flip-flops, of which
// a grant changes half of the winner's w - 1.
double OrionModel::matrix_arbiter_energy(unsigned width, double requests, double wire_um) const {
  const double w = width;
  const double nor_gate = gate_cap(tech_.w_nor_n + tech_.w_nor_p, 0);
  const double c_req = (w - 1.0) * nor_gate + drain_cap(tech_.w_inv_n, true, 1) + drain_cap(tech_.w_inv_p, false, 1) +
                       gate_cap(tech_.w_inv_n + tech_.w_inv_p, 0) + nor_gate + wire_um * tech_.c_metal;
  const double c_grant = w * drain_cap(tech_.w_nor_n, true, 1) + drain_cap(tech_.w_nor_p, false, width);
  const double c_int = 2.0 * drain_cap(tech_.w_nor_n, true, 1) + drain_cap(tech_.w_nor_p, false, 2) + nor_gate;
  const FlipFlop pri = flip_flop(2.0 * nor_gate);  // a priority bit drives two NOR gates
  const double grants = requests >= 1 ? 1.0 : 1.0 / std::ceil(1.0 / requests);
  const double bits = w * (w - 1.0) / 2.0;
  const double changed = (w - 1.0) * 0.5 * grants;
  double e = c_req / 2.0 * e_factor_ * requests;
  e += c_grant * e_factor_ * grants;
  e += pri.e_switch * changed;
  e += (pri.e_keep_0 + pri.e_keep_1) * (bits - changed) * 0.5;  // the bits kept, half 0 and half 1
  e += pri.e_clock * bits;
  e += c_int / 2.0 * e_factor_ * (requests + 1.0) * (w - 1.0) * 0.5;
  return e;
}

OrionModel::ArbiterWidths OrionModel::arbiter_widths(const RouterShape& s) const {
  ArbiterWidths a;
  const unsigned in = s.ports_in, v = s.vcs;
  // ORION's SWAllocator: the output arbiters' request wires run along the
  // crossbar's input lines (MatrixCrossbar get_len_req_wire).
  a.sw_output_wire_um = s.ports_out * s.flit_bits * tech_.xbar_cell_w_um;
  a.sw_input = v;
  a.sw_output = in > 2 ? in - 1 : 0;          // SWAllocator: none below 3 ports
  a.vc_input = v > 1 ? v : 0;                 // VCAllocator, TWO_STAGE_ARB
  a.vc_output = v > 1 ? (in - 1) * v : 0;
  return a;
}

RouterFigures OrionModel::router(const RouterShape& s) const {
  if (s.ports_in < 1 || s.ports_out < 1 || s.vcs < 1 || s.depth < 1 || s.flit_bits < 1)
    throw std::invalid_argument("router shape: ports, VCs, depth and flit width must be at least 1");
  RouterFigures f;
  const unsigned in = s.ports_in, out = s.ports_out, v = s.vcs, b = s.depth, w = s.flit_bits;
  const ArbiterWidths a = arbiter_widths(s);
  const double req_wire_um = a.sw_output_wire_um;
  const unsigned sw_in = a.sw_input, sw_out = a.sw_output, vc_in = a.vc_input, vc_out = a.vc_output;
  f.energy.buffer_write = buffer_write(w);
  f.energy.buffer_read = buffer_read(b, w);
  f.energy.crossbar = crossbar_energy(in, out, w);
  const ArbiterCircuit sw = s.sw_arbiter, vc = s.vc_arbiter;
  f.energy.sw_arb_input = arbiter_energy(sw_in, 1, 0, sw);
  f.energy.sw_arb_output = arbiter_energy(sw_out, 1, req_wire_um, sw);
  f.energy.vc_arb_input = arbiter_energy(vc_in, 1, 0, vc);
  f.energy.vc_arb_output = arbiter_energy(vc_out, 1, 0, vc);
  // orion/Clock.cc init (no H-tree, shared switch ports): the registers after
  // the link, after the input buffers and after the crossbar (the first two
  // as the shape says).
  const double pipe_bits = (s.register_after_link ? static_cast<double>(in) * w : 0.0) +
                           (s.register_after_buffers ? static_cast<double>(in) * w : 0.0) +
                           static_cast<double>(out) * w;
  f.energy.clock = pipe_bits * tech_.c_clock * e_factor_;

  // Leakage: current x Vdd x SCALE_S (orion/Buffer/Buffer.cc, Crossbar.cc,
  // Arbiter.cc get_static_power); per-block counts from OrionRouter.cc,
  // SWAllocator.cc and VCAllocator.cc get_static_power.
  const double ff_i = flip_flop(0).i_static;
  f.leakage_w.buffers = ff_i * w * b * v * in * vdd_ * tech_.scale_s;  // Register.cc calc_i_static per VC
  f.leakage_w.crossbar = crossbar_leakage_a(in, out, w) * vdd_ * tech_.scale_s;
  f.leakage_w.sw_allocator = arbiter_leakage_w(sw_in, sw) * in + arbiter_leakage_w(sw_out, sw) * out;
  f.leakage_w.vc_allocator = arbiter_leakage_w(vc_in, vc) * in * v + arbiter_leakage_w(vc_out, vc) * out * v;
  f.leakage_w.clock = pipe_bits * tech_.i_dff * tech_.w_dff * vdd_;  // Clock.cc: no SCALE_S

  // Area (um^2 -> mm^2): ORION 2.0's cell areas (docs/energy.md).
  const double um2 = 1e-6;
  f.area_mm2.buffers = static_cast<double>(in) * v * b * w * tech_.area_dff * um2;
  f.area_mm2.crossbar = (out * w * tech_.xbar_cell_w_um) * (in * w * tech_.xbar_cell_h_um) * um2;
  f.area_mm2.sw_allocator = (arbiter_area_um2(sw_in, sw) * in + arbiter_area_um2(sw_out, sw) * out) * um2;
  f.area_mm2.vc_allocator = (arbiter_area_um2(vc_in, vc) * in * v + arbiter_area_um2(vc_out, vc) * out * v) * um2;
  f.area_mm2.clock = pipe_bits * tech_.area_dff * um2;
  return f;
}

// orion/Wire.cc: resistance and capacitance per metre of a double-width,
// double-spacing wire (calc_res_unit_len, calc_gnd_cap_unit_len,
// calc_couple_cap_unit_len: PTM's interconnect formulas), the minimum-delay
// repeaters (calc_opt_buffering, unshielded) and calc_dynamic_energy.
double OrionModel::wire_energy_per_toggle(double len, int* repeaters, double* size) const {
  if (repeaters) *repeaters = 0;
  if (size) *size = 0;
  if (!(len > 0)) return 0;
  const double wd = 2 * tech_.wire_width_m, sp = 2 * tech_.wire_spacing_m;
  const double t = tech_.wire_thickness_m, b = tech_.wire_barrier_m, h = tech_.wire_dielectric_m;
  const double eps = tech_.wire_k * 8.85e-12;
  const double rho = 2.202e-8 + 1.030e-15 / (wd - 2 * b);
  const double r_unit = rho / ((wd - 2 * b) * (t - b));
  const double cg_unit = eps * (wd / h + 2.04 * std::pow(sp / (sp + 0.54 * h), 1.77) * std::pow(t / (t + 4.53 * h), 0.07));
  const double cc_unit = eps * (1.14 * (t / sp) * std::exp(-4 * sp / (sp + 8.01 * h)) +
                                2.37 * std::pow(wd / (wd + 0.31 * sp), 0.28) * std::pow(h / (h + 8.96 * sp), 0.76) *
                                    std::exp(-2 * sp / (sp + 6 * h)));
  const double r = r_unit * len, cg = 2 * cg_unit * len, cc = 2 * cc_unit * len;
  const double rb = tech_.rep_r_ohm, cb = tech_.rep_c_in;
  const int k = static_cast<int>(std::sqrt((0.4 * r * cg + 1.51 * r * cc) / (0.7 * rb * cb)));
  const double hsize = std::sqrt((0.7 * rb * cg + 1.4 * 2.2 * rb * cc) / (0.7 * r * cb));
  if (repeaters) *repeaters = k;
  if (size) *size = hsize;
  return (cg + cc + k * cb * hsize) * e_factor_;
}

// orion/OrionLink.cc: a bit that toggles costs half the wire energy
// (calc_dynamic_energy); half the bits of a flit toggle (the average case).
// Leakage: orion/Wire.cc calc_static_power. Area: ours, the wires' pitch.
LinkFigures OrionModel::link(double length_mm, unsigned bits) const {
  if (!(length_mm >= 0) || !std::isfinite(length_mm)) throw std::invalid_argument("link length must be a non-negative number of mm");
  LinkFigures f;
  int k = 0;
  double hsize = 0;
  const double e = wire_energy_per_toggle(length_mm * 1e-3, &k, &hsize);
  f.energy_per_bit = e / 2.0 * 0.5;
  f.repeaters = static_cast<unsigned>(k);
  f.repeater_size = hsize;
  f.leakage_w = bits * vdd_ * (tech_.rep_ioff_p + tech_.rep_ioff_n) * hsize * k / 2.0;
  const double pitch_mm = (2 * tech_.wire_width_m + 2 * tech_.wire_spacing_m) * 1e3;
  f.area_mm2 = bits * pitch_mm * length_mm;
  return f;
}

}  // namespace icn::power
