// VcRouter: an input-queued virtual-channel wormhole router with credit flow
// control (Dally & Towles ch. 16; BookSim's iq_router is the reference).
//
// Per head flit the pipeline is: buffer write (the cycle it arrives), route
// computation (routing_delay), VC allocation (vc_alloc_delay), switch
// allocation (sw_alloc_delay), switch traversal (st_delay), then the link.
// Body and tail flits skip route computation and VC allocation. A packet holds
// its output VC from VC allocation until its tail has won the switch.
// Speculation is off. docs/vc_router.md narrates one cycle.
#pragma once

#include <systemc>

#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/link.hpp"
#include "models/packet.hpp"
#include "models/rng.hpp"
#include "routers/vc/router_blocks.hpp"
#include "routers/vc/stage_log.hpp"
#include "routers/vc/vc_topology.hpp"

namespace icn::vc {

struct RouterParams {
  unsigned vcs = 2;
  unsigned buffer_depth = 4;
  unsigned routing_delay = 1;
  unsigned vc_alloc_delay = 1;
  unsigned sw_alloc_delay = 1;
  unsigned st_delay = 1;
  SeparableAllocator::Options vc_allocator{true, 1};
  std::uint64_t seed = 1;  // for the routing function's random choices
};

using FlitLink = Link<Flit>;
using CreditLink = Link<Credit>;

class VcRouter : public sc_core::sc_module, public Clocked {
 public:
  VcRouter(sc_core::sc_module_name name, unsigned id, const VcTopology& topo, const RouterParams& params,
           PacketPool& pool);

  // Port `port`: flits arrive on `in` and leave on `out`; credits for our
  // input buffers leave on `credit_out`, credits for the downstream buffers
  // arrive on `credit_in`. `downstream_depth` is the buffer depth behind `out`.
  void connect(unsigned port, FlitLink* in, FlitLink* out, CreditLink* credit_in, CreditLink* credit_out,
               unsigned downstream_depth);

  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  unsigned id() const { return id_; }
  const InputUnit& input(unsigned port) const { return inputs_[port]; }
  const OutputUnit& output(unsigned port) const { return outputs_[port]; }
  const FlitLink* out_link(unsigned port) const { return out_[port]; }
  unsigned buffered() const { return buffered_; }
  // Fault injection (network.failed_links): the output link of `port` never
  // carries a flit; with no credits for it, nothing is ever granted to it.
  void fail_output(unsigned port);
  bool output_failed(unsigned port) const { return ((failed_outputs_ >> port) & 1u) != 0; }
  // The input VC (port, vc) holds a packet whose next hop is a failed link.
  bool waits_on_failed(unsigned port, unsigned vc) const;
  // Heads leaving this router add their stage cycles here.
  void set_stage_log(StageLog* log) { stages_ = log; }

  // The input VC (port, vc) waits for which downstream input VC? For the
  // deadlock report: set when the packet holds an output VC and has no credit.
  bool waits_on_credit(unsigned port, unsigned vc, unsigned& out_port, unsigned& out_vc) const;
  // ... or for VC allocation, all allowed output VCs held: the input VCs
  // (port * V + vc) holding them; empty if not waiting for a VC.
  std::vector<unsigned> waits_on_vc(unsigned port, unsigned vc) const;

 private:
  void read_input(unsigned port, Cycle now);
  void advance_heads(Cycle now);
  void allocate_vcs(Cycle now);
  void allocate_switch(Cycle now);
  void record_stages(PacketStages& st, const InputUnit::VcState& s, Cycle now) const;

  unsigned id_;
  const VcTopology& topo_;
  RouterParams params_;
  PacketPool& pool_;
  unsigned ports_;
  Rng rng_;
  std::vector<FlitLink*> in_, out_;
  std::vector<CreditLink*> credit_in_, credit_out_;
  std::vector<InputUnit> inputs_;
  std::vector<OutputUnit> outputs_;
  VcAllocator vc_alloc_;
  SwitchAllocator sw_alloc_;
  Crossbar crossbar_;
  std::vector<std::uint64_t> sa_ready_;
  std::vector<int> sa_grant_;
  // Latency-1 links mark their port here when they carry something (flits in
  // bits 0..7, credits in bits 8..15), so idle ports are not read.
  ArrivalMask arrivals_;
  bool use_mask_ = true;
  unsigned buffered_ = 0;    // flits in the input buffers
  unsigned in_pipeline_ = 0; // heads in route computation or VC allocation
  bool heads_pending_ = false;  // an idle VC may have a head at its front
  StageLog* stages_ = nullptr;
  std::uint64_t failed_outputs_ = 0;  // bit p: output p's link has failed
  std::uint64_t all_vcs_ = 0;         // mask of every VC (set with the first failure)
};

}  // namespace icn::vc
