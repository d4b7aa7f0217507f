// InterLevelReplicator: the paper's inter-level multicast support (Ben Miled
// et al., section 3.1): a switch option at a bottom-row router of level l-1
// that copies a message, flit by flit, onto all f_l links down to level l.
//
// It sits behind the router's `replicate` port: its input buffer (V VCs of B
// flits, credits back to the router) takes the packets the router routes
// there, one packet at a time in arrival order. Each cycle the front flit of
// the current packet is offered to the replicator core (replicator_core.hpp,
// behavioural or Verilated RTL) with every branch in its mask; branch i is
// ready when the level-l router below holds a credit for it. In lockstep mode
// the flit moves only when every branch is ready; in buffered mode it moves
// into per-branch FIFOs and each branch drains on its own.
//
// Copies: when the head is taken, the packet is cloned once per branch, copy
// i addressed to the same row of column col * f + i below (without the
// replicate bit); the ledger expects f deliveries instead of one; the
// original is released when its tail is taken. Each branch carries its copy
// on VC 0 of the `from_replicator` input port of the router below.
#pragma once

#include <systemc>

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/trace.hpp"
#include "routers/common/vc_buffer.hpp"
#include "routers/hpam/hpam_geometry.hpp"
#include "routers/hpam/replicator_core.hpp"
#include "routers/vc/packet_follower.hpp"
#include "routers/vc/vc_router.hpp"

namespace icn::hpam {

class InterLevelReplicator : public sc_core::sc_module, public Clocked {
 public:
  InterLevelReplicator(sc_core::sc_module_name name, std::unique_ptr<ReplicatorCore> core, const HpamGeometry& geo,
                       Position at, unsigned vcs, unsigned depth, PacketPool& pool, TrafficLedger& ledger);

  // From the router's replicate port: flits in, credits back.
  void connect_input(vc::FlitLink* in, vc::CreditLink* credit_out);
  // Branch i: flits down to the router below, its credits back.
  void connect_branch(unsigned i, vc::FlitLink* out, vc::CreditLink* credit_in, unsigned downstream_depth);

  Cycle tick(Cycle now) override;
  // Adds the deliveries its copies add to the ledger (after the network
  // phase: the ledger is shared by blocks on every worker, run.threads).
  void commit(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  unsigned branches() const { return core_->branches(); }
  const ReplicatorCore& core() const { return *core_; }
  ReplicatorCore& core() { return *core_; }
  std::uint64_t flits_in() const { return flits_in_; }
  std::uint64_t flits_out(unsigned i) const { return flits_out_[i]; }
  // Flits the core took from the input buffer (each is one read of it, and in
  // buffered mode one write into every branch FIFO); counted here, outside the
  // core, so the behavioural and the RTL core count alike (docs/energy.md).
  std::uint64_t flits_taken() const { return flits_taken_; }
  // Packets copied: one per head taken, f copies each.
  std::uint64_t packets_copied() const { return packets_copied_; }
  // Cycles in which a flit was waiting at the input and the core did not take it.
  std::uint64_t stalled_cycles() const { return stalled_; }
  unsigned max_occupancy() const { return max_occupancy_; }

  // Waveforms under <prefix>: in.flit (a flit from the router's replicate
  // port), stalled (a flit waited and the core did not take it: the
  // flow-control cost of replicating), branches_ready (branches holding a
  // credit), occupancy (the fullest branch FIFO, buffered mode) and
  // branch<i>.flit (a copy sent down branch i).
  void trace(WaveformTracer& tracer, const std::string& prefix) const;
  // outputs.trace_packet: reports the copies it makes of followed messages
  // and the cycle each copy's head leaves on its branch (null: none; then a
  // pointer test per flit taken or sent is all it costs).
  void set_follower(vc::PacketFollower* follower) { follower_ = follower; }

 private:
  struct Held {
    vc::Flit flit;
    Cycle ready;  // readable from this cycle on (buffer write takes a cycle)
  };
  struct Copies {
    std::vector<PacketId> copy;
    unsigned tails_out = 0;
  };

  std::unique_ptr<ReplicatorCore> core_;
  const HpamGeometry& geo_;
  Position at_;
  unsigned vcs_;
  PacketPool& pool_;
  TrafficLedger& ledger_;
  std::uint64_t expected_added_ = 0;  // deliveries this cycle's copies add, for commit()
  vc::FlitLink* in_ = nullptr;
  vc::CreditLink* credit_out_ = nullptr;
  std::vector<vc::FlitLink*> out_;
  std::vector<vc::CreditLink*> credit_in_;
  std::vector<unsigned> credits_;           // VC 0 of each branch's downstream port
  std::vector<std::deque<Held>> fifo_;      // per input VC
  int current_vc_ = -1;                     // the packet being taken, or -1
  std::uint64_t current_serial_ = 0;
  std::uint64_t next_serial_ = 0;
  std::map<std::uint64_t, Copies> copies_;  // per packet still leaving, by serial
  BranchMask all_branches_;
  std::vector<std::uint64_t> flits_out_;
  std::uint64_t flits_in_ = 0, stalled_ = 0;
  std::uint64_t flits_taken_ = 0, packets_copied_ = 0;
  Cycle last_stall_ = kNever;  // for the waveform: the stall bit of a cycle
  unsigned held_ = 0;          // the fullest branch FIFO after the last tick
  unsigned max_occupancy_ = 0;
  vc::PacketFollower* follower_ = nullptr;
};

}  // namespace icn::hpam
