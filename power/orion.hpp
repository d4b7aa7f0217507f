// ORION 2.0's energy, leakage and area of a virtual-channel router's blocks and
// of a link (docs/energy.md says which equation comes from where).
//
// Units: energy in joules per event, power in watts, area in square
// millimetres. "Per event" is ORION 2.0's average case (its is_max = false):
// half the bits of a flit toggle.
//
// The blocks are those of icnsim's VC router (routers/vc/: input_unit.hpp, vc_allocator.hpp, switch_allocator.hpp, crossbar.hpp, output_unit.hpp):
//   input buffers     one FIFO of `depth` flits per input VC (ORION's register FIFO)
//   crossbar          ports_in x ports_out, flit_bits wide (ORION's matrix crossbar, tri-state)
//   switch allocator  per input port an arbiter over its VCs, per output port one
//                     over the other input ports (ORION's SWAllocator)
//   VC allocator      per input VC one over the V VCs of its port, per output VC one
//                     over the (ports_in - 1) * V input VCs (ORION's TWO_STAGE_ARB)
//                     (each allocator's arbiters round-robin or matrix: ORION's
//                     RRArbiter and MatrixArbiter, router.sw_arbiter and vc_arbiter)
//   clock             the pipeline registers of ORION's Clock (no H-tree)
//   link              a repeated global wire per bit (ORION's Wire / OrionLink)
#pragma once

#include "power/technology.hpp"

namespace icn::power {

// The arbiter circuits ORION prices: a round-robin arbiter (a carry chain and
// one priority flip-flop per requester) or a matrix arbiter (a flip-flop per
// pair of requesters).
enum class ArbiterCircuit : unsigned char { kRoundRobin, kMatrix };

struct RouterShape {
  unsigned ports_in = 5;
  unsigned ports_out = 5;
  unsigned vcs = 2;
  unsigned depth = 4;        // flits per VC
  unsigned flit_bits = 64;
  // Pipeline registers the clock drives besides the one after the crossbar
  // (ORION's Clock has all three: after the link, after the input buffers,
  // after the crossbar). icnsim's VC router writes a flit into its FIFO in
  // its arrival cycle and reads the FIFO front combinationally, so it has
  // only the switch-traversal register (docs/energy.md, "Area against
  // synthesis": its RTL twin has exactly P (F + 2) flip-flops there).
  bool register_after_link = true;
  bool register_after_buffers = true;
  ArbiterCircuit sw_arbiter = ArbiterCircuit::kRoundRobin;
  ArbiterCircuit vc_arbiter = ArbiterCircuit::kRoundRobin;
};

struct RouterEnergy {        // J per event
  double buffer_write = 0;   // one flit written into an input VC
  double buffer_read = 0;    // one flit read out of it
  double crossbar = 0;       // one flit through the crossbar
  double sw_arb_input = 0;   // one decision of an input port's arbiter (one request)
  double sw_arb_output = 0;  // one decision of an output port's arbiter (one request)
  double vc_arb_input = 0;   // one decision of an input VC's arbiter (one request)
  double vc_arb_output = 0;  // one decision of an output VC's arbiter (one request)
  double clock = 0;          // one clock cycle of the router
};

struct RouterBlocks {        // one figure per block of the whole router
  double buffers = 0;
  double crossbar = 0;
  double sw_allocator = 0;
  double vc_allocator = 0;
  double clock = 0;
  double total() const { return buffers + crossbar + sw_allocator + vc_allocator + clock; }
};

struct RouterFigures {
  RouterEnergy energy;
  RouterBlocks leakage_w;
  RouterBlocks area_mm2;     // clock: the pipeline registers
};

struct LinkFigures {
  double energy_per_bit = 0;  // J per bit sent (half the bits toggle)
  double leakage_w = 0;       // W, all bits
  double area_mm2 = 0;        // wires only
  unsigned repeaters = 0;     // per bit
  double repeater_size = 0;   // times a minimum repeater
};

class OrionModel {
 public:
  // vdd <= 0: the node's own supply.
  OrionModel(const Technology& tech, double clock_ghz, double vdd = 0);

  const Technology& technology() const { return tech_; }
  double vdd() const { return vdd_; }

  RouterFigures router(const RouterShape& shape) const;
  // The widths ORION gives a router's four kinds of arbiter (0: none, one
  // requester needs no arbiter) and the request wire of the switch
  // allocator's output stage (docs/energy.md, "Arbiters").
  struct ArbiterWidths {
    unsigned sw_input = 0, sw_output = 0, vc_input = 0, vc_output = 0;
    double sw_output_wire_um = 0;
  };
  ArbiterWidths arbiter_widths(const RouterShape& shape) const;
  LinkFigures link(double length_mm, unsigned bits) const;

  // An arbiter of `width` requesters with `wire_um` of request wire: energy
  // of one decision among `requests` requests, its leakage and its area.
  double arbiter_energy(unsigned width, double requests, double wire_um,
                        ArbiterCircuit circuit = ArbiterCircuit::kRoundRobin) const;
  double arbiter_leakage_w(unsigned width, ArbiterCircuit circuit = ArbiterCircuit::kRoundRobin) const;
  double arbiter_area_um2(unsigned width, ArbiterCircuit circuit = ArbiterCircuit::kRoundRobin) const;

  // A per-bit link energy (J per bit toggle) and the repeaters it assumes.
  double wire_energy_per_toggle(double length_m, int* repeaters = nullptr, double* size = nullptr) const;

 private:
  // TechParameter's device capacitances.
  double gate_cap(double width_um, double poly_um) const;
  double drain_cap(double width_um, bool nmos, unsigned stack) const;
  double driver_p_width(double load_f, double rise_s) const;
  double matrix_arbiter_energy(unsigned width, double requests, double wire_um) const;
  // ORION's NEG_DFF flip-flop with load `load` on its output.
  struct FlipFlop {
    double e_switch, e_keep_0, e_keep_1, e_clock, i_static;
  };
  FlipFlop flip_flop(double load) const;
  double buffer_read(unsigned depth, unsigned bits) const;
  double buffer_write(unsigned bits) const;
  double crossbar_energy(unsigned in, unsigned out, unsigned bits) const;
  double crossbar_leakage_a(unsigned in, unsigned out, unsigned bits) const;

  Technology tech_;
  double vdd_;
  double period_s_;
  double e_factor_;  // Vdd^2
};

}  // namespace icn::power
