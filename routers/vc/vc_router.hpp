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

#include <memory>
#include <memory_resource>
#include <string>
#include <vector>

#include "models/activity.hpp"
#include "models/engine.hpp"
#include "models/link.hpp"
#include "models/packet.hpp"
#include "models/rng.hpp"
#include "routers/vc/crossbar.hpp"
#include "routers/vc/input_unit.hpp"
#include "routers/vc/output_unit.hpp"
#include "routers/vc/packet_follower.hpp"
#include "routers/vc/stage_log.hpp"
#include "routers/vc/switch_allocator.hpp"
#include "routers/vc/vc_allocator.hpp"
#include "routers/vc/vc_topology.hpp"

namespace icn::vc {

struct RouterParams {
  unsigned vcs = 2;
  unsigned buffer_depth = 4;
  unsigned routing_delay = 1;
  unsigned vc_alloc_delay = 1;
  unsigned sw_alloc_delay = 1;
  unsigned st_delay = 1;
  std::string vc_allocator = "islip";  // a kind of routers/common/allocator_factory.hpp
  unsigned alloc_iterations = 1;
  std::string vc_arbiter = "round_robin";  // kinds of routers/common/arbiter_factory.hpp
  std::string sw_arbiter = "round_robin";
  std::uint64_t seed = 1;  // for the routing function's random choices
};

// Input VCs (ports x VCs) of one router: its allocators arbitrate over any
// number (multi-word masks), and this bound keeps one router's VC allocator
// within 2 MB (an HPAM level-1 router with c2 = 256 links down has 526).
inline constexpr unsigned kMaxRouterInputVcs = 4096;

using FlitLink = Link<Flit>;
using CreditLink = Link<Credit>;

// Not an sc_module: the engine evaluates it (Clocked), and a 128x128 mesh
// would spend a tenth of its memory on 16,384 modules' names and bases. Its
// name is the network's plus the topology's router name, made when asked.
class VcRouter : public Clocked {
 public:
  // `network`: the name of the network that owns the router (it outlives it).
  // The router's arrays come from `arena`: the network's ElaborationArena
  // (models/arena.hpp), which keeps them next to the router object; null: the heap.
  VcRouter(const char* network, unsigned id, const VcTopology& topo, const RouterParams& params, PacketPool& pool,
           std::pmr::memory_resource* arena = nullptr);

  // Port `port`: flits arrive on `in` and leave on `out`; credits for our
  // input buffers leave on `credit_out`, credits for the downstream buffers
  // arrive on `credit_in`. `downstream_depth` is the buffer depth behind `out`.
  void connect(unsigned port, FlitLink* in, FlitLink* out, CreditLink* credit_in, CreditLink* credit_out,
               unsigned downstream_depth);

  Cycle tick(Cycle now) override;
  // Loads what a busy cycle reads: the router's own fields, its input links,
  // its credit links both ways and its blocks' arrays.
  void prefetch() const override;
  std::string name() const;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  unsigned id() const { return id_; }
  unsigned ports() const { return ports_; }
  unsigned vcs() const { return params_.vcs; }
  // Input VC (port, vc): its pipeline state and the flits it holds.
  const InputUnits::VcState& input_state(unsigned port, unsigned vc) const { return inputs_.state(port * params_.vcs + vc); }
  unsigned input_flits(unsigned port, unsigned vc) const { return inputs_.size(port * params_.vcs + vc); }
  // Credits held for the downstream VC behind output `port`.
  unsigned output_credits(unsigned port, unsigned vc) const { return outputs_.credits(port, vc); }
  // Keep each output's last switch grant, for switch_grant(): the waveform
  // asks before the run. Other runs keep nothing (16 bytes a port).
  void record_grants();
  // The switch allocator's grant for output `port` in cycle t: the input
  // port whose flit won it, plus one; 0 if none did (waveforms).
  unsigned switch_grant(unsigned port, Cycle t) const;
  const FlitLink* out_link(unsigned port) const { return links_[port].out; }
  unsigned buffered() const { return buffered_; }
  // What the router's blocks did (models/activity.hpp; docs/energy.md).
  RouterActivity activity() const {
    RouterActivity a;
    a.clocked_cycles = counts_.clocked_cycles;
    a.buffer_writes = counts_.buffer_writes;
    a.buffer_reads = counts_.buffer_reads;
    a.crossbar = counts_.crossbar;
    a.sw_input = sw_alloc_.input_activity();
    a.sw_output = sw_alloc_.output_activity();
    a.vc_input = vc_alloc_.input_activity();
    a.vc_output = vc_alloc_.output_activity();
    return a;
  }
  // Fault injection (network.failed_links): the output link of `port` never
  // carries a flit; with no credits for it, nothing is ever granted to it.
  void fail_output(unsigned port);
  bool output_failed(unsigned port) const {
    return failed_ != nullptr && ((failed_->outputs[port / 64] >> (port % 64)) & 1u) != 0;
  }
  // The input VC (port, vc) holds a packet whose next hop is a failed link.
  bool waits_on_failed(unsigned port, unsigned vc) const;
  // Packets whose route asked for the failed output `port` (as their route
  // or as an adaptive alternative): what the link would have carried.
  std::uint64_t failed_output_requests(unsigned port) const {
    return failed_ != nullptr && port < failed_->requests.size() ? failed_->requests[port] : 0;
  }
  // Heads leaving this router add their stage cycles here.
  void set_stage_log(StageLog* log) { stages_ = log; }
  void set_follower(PacketFollower* follower) { follower_ = follower; }

  // The input VC (port, vc) waits for which downstream input VC? For the
  // deadlock report: set when the packet holds an output VC and has no credit.
  bool waits_on_credit(unsigned port, unsigned vc, unsigned& out_port, unsigned& out_vc) const;
  // ... or for VC allocation, all allowed output VCs held: the input VCs
  // (port * V + vc) holding them; empty if not waiting for a VC.
  std::vector<unsigned> waits_on_vc(unsigned port, unsigned vc) const;

 private:
  // The four links of one port, together because a busy cycle reads them together.
  struct PortLinks {
    FlitLink* in = nullptr;
    FlitLink* out = nullptr;
    CreditLink* credit_in = nullptr;
    CreditLink* credit_out = nullptr;
  };

  void read_input(unsigned port, Cycle now);
  RouteChoice route(unsigned port, const Flit& head);
  // Switch traversal of the flit of input VC (port, vc) granted the switch in
  // `now`: out of its buffer (a credit upstream), a credit of the downstream
  // buffer spent, into the crossbar.
  void traverse(unsigned port, unsigned vc, Cycle now);
  void record_stages(PacketStages& st, const InputUnits::VcTimes& t, Cycle now) const;

  // What the cycle reads of RouterParams (its allocator and arbiter kinds
  // are built into the blocks at construction).
  struct Pipeline {
    unsigned vcs;
    unsigned routing_delay;
    unsigned vc_alloc_delay;
    unsigned sw_alloc_delay;
  };

  const char* network_;
  unsigned id_;
  const VcTopology& topo_;
  Pipeline params_;
  PacketPool& pool_;
  unsigned ports_;
  Rng rng_;
  // Links of latency 1 to 3 mark their port here when they carry something
  // (flits in bits 0..7, credits in bits 8..15), so idle ports are not read.
  // preset=booksim's credit links take 2 cycles (credit_delay 1), a
  // BookSim torus's 3. One longer link turns the mask off: every port is read.
  using Arrivals = ArrivalRows<4>;
  Arrivals arrivals_;
  bool use_mask_ = true;
  unsigned buffered_ = 0;       // flits in the input buffers
  struct Counts {               // what activity() reports beside the allocators' own counts
    std::uint64_t clocked_cycles = 0;
    std::uint64_t buffer_writes = 0;
    std::uint64_t buffer_reads = 0;
    std::uint64_t crossbar = 0;
  };
  Counts counts_;
  FixedArray<PortLinks> links_;
  InputUnits inputs_;
  OutputUnits outputs_;
  SwitchAllocator sw_alloc_;
  Crossbar crossbar_;
  struct Grant {                            // per output: the last cycle it was granted ...
    Cycle cycle = kNever;
    std::uint16_t input = 0;                // ... and to which input port
  };
  std::unique_ptr<Grant[]> grants_;         // null unless record_grants() was called
  VcAllocator vc_alloc_;
  StageLog* stages_ = nullptr;
  PacketFollower* follower_ = nullptr;  // outputs.trace_packet: null unless packets are followed
  struct Failures {                     // network.failed_links: only a router with a failed output has them
    std::vector<std::uint64_t> outputs;  // bit p: output p's link has failed
    std::vector<std::uint64_t> requests; // per output: packets routed to it while failed
  };
  std::unique_ptr<Failures> failed_;
  std::uint64_t all_vcs_ = 0;                  // mask of every VC
};

}  // namespace icn::vc
