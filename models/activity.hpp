// Activity counters of a router's blocks (issue 23, docs/energy.md): what the
// simulated hardware did, counted where it does it, and what the energy model
// (power/energy_report.hpp) prices event by event.
//
// Plain integers, incremented in the hot path (no maps, no strings); summed
// over routers of one shape only when the results are written.
#pragma once

#include <cstdint>

namespace icn {

// One stage of an allocator: its arbiters' decisions (an arbiter that had at
// least one request in a cycle) and the requests those decisions saw. ORION's
// arbiter energy is linear in the requests, so the two sums price it exactly.
struct ArbiterActivity {
  std::uint64_t decisions = 0;
  std::uint64_t requests = 0;

  void record(unsigned n) {
    ++decisions;
    requests += n;
  }
  ArbiterActivity& operator+=(const ArbiterActivity& o) {
    decisions += o.decisions;
    requests += o.requests;
    return *this;
  }
  // What happened since an earlier reading `o` (a family that runs several
  // trials prices one of them).
  ArbiterActivity& operator-=(const ArbiterActivity& o) {
    decisions -= o.decisions;
    requests -= o.requests;
    return *this;
  }
};

struct RouterActivity {
  std::uint64_t clocked_cycles = 0;  // cycles the router was evaluated (its clock ran; idle routers are gated)
  std::uint64_t buffer_writes = 0;   // flits written into an input VC
  std::uint64_t buffer_reads = 0;    // flits read out of one (the switch granted)
  std::uint64_t crossbar = 0;        // flits through the crossbar
  ArbiterActivity sw_input;          // switch allocator: per input port, over its VCs
  ArbiterActivity sw_output;         // ... per output port, over the input ports
  ArbiterActivity vc_input;          // VC allocator: per input VC, over the output VCs it asks for
  ArbiterActivity vc_output;         // ... per output VC, over the input VCs that picked it

  RouterActivity& operator+=(const RouterActivity& o) {
    clocked_cycles += o.clocked_cycles;
    buffer_writes += o.buffer_writes;
    buffer_reads += o.buffer_reads;
    crossbar += o.crossbar;
    sw_input += o.sw_input;
    sw_output += o.sw_output;
    vc_input += o.vc_input;
    vc_output += o.vc_output;
    return *this;
  }
  RouterActivity& operator-=(const RouterActivity& o) {
    clocked_cycles -= o.clocked_cycles;
    buffer_writes -= o.buffer_writes;
    buffer_reads -= o.buffer_reads;
    crossbar -= o.crossbar;
    sw_input -= o.sw_input;
    sw_output -= o.sw_output;
    vc_input -= o.vc_input;
    vc_output -= o.vc_output;
    return *this;
  }
};

}  // namespace icn
