// VcNic: the network interface of the virtual-channel network.
//
// Processor side: a TLM-2.0 target socket (nics/icn_extension.hpp); a write
// to address d is one packet to node d, its length in flits in the
// extension's route word. Packets wait in an injection queue of unbounded
// depth (so the offered load does not depend on the network), are written to
// it in the cycle they are created and leave it from the next cycle on.
// Network side: one flit per cycle into the router's local input port, on a
// VC chosen round-robin among those with a credit, each flit spending one
// credit; one ejection port that accepts a flit every cycle and returns its
// credit at once.
#pragma once

#include <systemc>
#include <tlm>

#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/packet_queue.hpp"
#include "routers/common/vc_buffer.hpp"
#include "routers/vc/packet_follower.hpp"
#include "routers/vc/stage_log.hpp"
#include "routers/vc/vc_router.hpp"

namespace icn::vc {

// Receives every packet whose tail reached a NIC. `at` is the node of the NIC
// that ejected it, the hardware's own answer to "where did it arrive": a sink
// checks it against the destination it meant, never against packet.dst.
class ArrivalSink {
 public:
  virtual ~ArrivalSink() = default;
  virtual void arrived(const Packet& packet, unsigned flits, Cycle tail_cycle, NodeId at) = 0;
  // Called just before arrived() when the network keeps a StageLog.
  virtual void arrived_stages(const Packet&, const PacketStages&, Cycle /*tail_cycle*/) {}
};

// A TLM-2.0 target (it implements the forward interface), but not an
// sc_module and without a socket of its own: one per node, and the module, a
// socket and their registry entries cost about 900 bytes a node on a 128x128
// mesh (docs/performance.md). An initiator that binds with a socket asks for
// one (socket()); the open-loop sources write to target() directly.
class VcNic : public Clocked, public tlm::tlm_fw_transport_if<> {
 public:
  struct Params {
    NodeId node = 0;
    NodeId nodes = 0;
    unsigned vcs = 2;
    unsigned buffer_depth = 4;   // of the router's local input VCs
    unsigned max_packet_flits = 1u << 16;
  };

  // `network`: the name of the network that owns the NIC (it outlives it).
  VcNic(const char* network, Params params, PacketPool& pool, TrafficLedger& ledger);
  ~VcNic() override;

  // The processor side: b_transport or nb_transport_fw of a message write.
  tlm::tlm_fw_transport_if<>& target() { return *this; }
  // A target socket bound to target(), for an initiator that binds with a
  // socket. Made on the first call, which must come during elaboration from
  // a module's constructor: the socket is that module's child object.
  tlm::tlm_target_socket<>& socket();
  // "<network>.nic<node>", made when a diagnostic asks.
  std::string name() const;

  void attach(FlitLink* inject, CreditLink* inject_credits, FlitLink* eject, CreditLink* eject_credits);
  void set_sink(ArrivalSink& sink) { sink_ = &sink; }
  // Address bits above the node id that the topology's routing function
  // reads as a group (e.g. HPAM's replicated messages); none by default.
  void accept_group_bits(std::uint32_t bits) { group_bits_ = bits; }
  void set_stage_log(StageLog* log) { stages_ = log; }
  void set_follower(PacketFollower* follower) { follower_ = follower; }
  // Fault injection: the injection link never carries a flit (no credits).
  void fail_injection() {
    credits_.reset(params_.vcs, 0);
    injection_failed_ = true;
  }
  bool injection_failed() const { return injection_failed_; }
  // Packets the processor handed over while the injection link was failed:
  // what it would have carried.
  std::uint64_t failed_injection_requests() const { return injection_failed_ ? packets_accepted_ : 0; }

  Cycle tick(Cycle now) override;
  void commit(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  NodeId node() const { return params_.node; }
  std::size_t queued() const { return queue_.size() + (current_ != kNoPacket ? 1 : 0); }
  std::size_t max_queue() const { return queue_.max_occupancy(); }
  std::uint64_t flits_ejected() const { return flits_ejected_; }
  const FlitLink* inject_link() const { return inject_; }

 private:
  // tlm_fw_transport_if. A write is accepted at once: nb_transport_fw
  // completes it in the call (TLM_COMPLETED at BEGIN_REQ, as the base
  // protocol allows). No direct memory access; debug transport moves nothing.
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) override {
    dmi.allow_none();
    return false;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  // A packet's tail reached this NIC: the ledger, the sink, the pool.
  void deliver(PacketId packet, unsigned flits, Cycle now);

  const char* network_;
  Params params_;
  std::unique_ptr<tlm::tlm_target_socket<>> socket_;  // null until socket() is called
  PacketPool& pool_;
  TrafficLedger& ledger_;
  ArrivalSink* sink_ = nullptr;
  std::uint32_t group_bits_ = 0;
  StageLog* stages_ = nullptr;
  PacketFollower* follower_ = nullptr;  // outputs.trace_packet
  bool injection_failed_ = false;
  std::uint64_t packets_accepted_ = 0;  // packets this NIC accepted
  FlitLink* inject_ = nullptr;
  CreditLink* inject_credits_ = nullptr;
  FlitLink* eject_ = nullptr;
  CreditLink* eject_credits_ = nullptr;
  PacketQueue queue_;
  CreditCounter credits_;
  PacketId current_ = kNoPacket;  // the packet being injected
  unsigned sent_ = 0;             // its flits sent so far
  unsigned size_ = 0;
  unsigned vc_ = 0;
  unsigned last_vc_ = 0;
  std::uint32_t eject_count_[CreditCounter::kMaxVcs] = {};  // flits received per VC for the packet on it
  std::uint64_t flits_ejected_ = 0;
  // Several threads (CycleEngine::threads() > 1): tails received this cycle,
  // delivered in commit() on the simulation thread.
  struct Tail {
    PacketId packet;
    unsigned flits;
  };
  std::vector<Tail> tails_;
};

}  // namespace icn::vc
