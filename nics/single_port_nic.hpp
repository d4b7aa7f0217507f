// SinglePortNic: a processor's one channel into the network (Sanders &
// Sibeyn's single-port model), for the crossbar, hierarchical crossbar and any
// other network that implements SinglePortFabric.
//
// Processor side: a TLM-2.0 target socket (icn_extension.hpp). A READ posts a
// receive (address = the sending PU, IcnExtension::seq = packet number); a
// WRITE of at most 16 bytes (address = destination PU, seq = packet number)
// starts a send; the NIC takes one send at a time.
//
// Communication is synchronous, as in the paper's model where sender and
// receiver cooperate in every transfer: a send starts only when the receiver
// has posted the matching receive (the rendezvous; the sending NIC sees the
// receiving NIC's posted receives). From then a transfer costs t + m cycles:
// the start-up occupies the NIC until the head leaves, so that the head reaches
// the receiver t cycles after the start (the fabric's pipeline latency is part
// of the start-up), and the m units follow one per cycle. The send completes in
// the cycle its tail reaches the receiving NIC, which reports the arrival back:
// both partners finish the step together. Each port therefore receives at most
// one packet per t + m cycles, and sends at most one.
//
// Several threads (run.threads, models/engine.hpp): in the network phase a
// NIC touches only its own state and reads the receiver's posted receives.
// What it does to other blocks and shared state waits for its commit, on the
// simulation thread, in the order the tick saw it: taking the posted receive,
// making the packet and handing its head to the fabric (the ledger counts it),
// and for each packet whose tail came in, the delivery to the processor and
// the report to its sender. The fabric therefore sees inject() after the
// phase of the cycle the head leaves; the head is on its first wire from the
// next cycle, as before.
//
// Duplex: a send and a receive overlap freely. Simplex: the channel carries
// one direction at a time; a packet arriving while the port transmits (or a
// transmission while it receives) is counted as a violation of the simplex
// model (a schedule error, reported as the run's problem).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/link.hpp"
#include "nics/icn_extension.hpp"
#include "nics/transfer_follower.hpp"

namespace icn {

// One packet of a pipelined message: m units, carried as one handle.
struct UnitPacket {
  NodeId src = kNoNode, dst = kNoNode;
  std::uint32_t seq = 0;
  std::uint32_t units = 1;
  std::array<std::uint32_t, 4> value{};  // the payload: a 2x2 matrix or four lanes
  Cycle head_sent = 0;
  Cycle waited = 0;  // cycles the head waited in switches
  std::uint16_t hops = 0;
  // A wormhole fabric (VcSinglePortFabric) hands the packet to the receiving
  // port only once its tail is in: the packet is complete on arrival, and the
  // port was receiving since its head reached the fabric's edge.
  bool reassembled = false;
  Cycle head_arrived = 0;
};

class UnitPacketPool {
 public:
  PacketId allocate() {
    ++live_;
    if (!free_.empty()) {
      const PacketId id = free_.back();
      free_.pop_back();
      packets_[id] = UnitPacket{};
      return id;
    }
    packets_.emplace_back();
    return static_cast<PacketId>(packets_.size() - 1);
  }
  void release(PacketId id) {
    --live_;
    free_.push_back(id);
  }
  UnitPacket& operator[](PacketId id) { return packets_[id]; }
  const UnitPacket& operator[](PacketId id) const { return packets_[id]; }
  std::size_t live() const { return live_; }

 private:
  std::vector<UnitPacket> packets_;
  std::vector<PacketId> free_;
  std::size_t live_ = 0;
};

class SinglePortNic;

// A network of single-port processors.
class SinglePortFabric {
 public:
  virtual ~SinglePortFabric() = default;
  // Connects processor x: the fabric delivers on nic.ejection().
  virtual void attach(NodeId x, SinglePortNic& nic) = 0;
  // The head of a packet leaves processor x's port in cycle `now`.
  virtual void inject(NodeId x, Cycle now, PacketId id) = 0;
  // Cycles from a head leaving a port to its arrival at the receiving port, without waiting.
  virtual unsigned pipeline_cycles() const = 0;
};

// The processor's side of a synchronous send.
class SendCompletion {
 public:
  virtual ~SendCompletion() = default;
  virtual void send_completed(Cycle now) = 0;
};

class SinglePortNic : public sc_core::sc_module, public Clocked {
 public:
  enum class Model : std::uint8_t { kDuplex, kSimplex };
  struct Params {
    NodeId node = 0;
    Cycle startup = 2;       // t
    std::uint32_t units = 1; // m: units per packet
    Model model = Model::kDuplex;
    // The port whose ejection link this NIC listens on: its own node's unless
    // a wiring fault (network.swap_ejection) crossed two of them.
    NodeId ejection_port = kNoNode;
    // The message's last packet (number packets - 1) may be shorter: it
    // carries what is left of the message (traffic.last_packet=short).
    std::uint32_t last_units = 1;
    std::uint32_t packets = 0;  // 0: no packet is the last (every one has m units)
  };

  tlm_utils::simple_target_socket<SinglePortNic> socket;

  SinglePortNic(sc_core::sc_module_name name, Params params, UnitPacketPool& pool, TrafficLedger& ledger,
                CycleEngine& engine, SinglePortFabric& fabric, const std::vector<SinglePortNic*>& directory);

  void connect_processor(DeliverySink& sink, SendCompletion& completion) {
    sink_ = &sink;
    completion_ = &completion;
  }
  Link<PacketId>& ejection() { return ejection_; }
  // outputs.trace_packet: records the followed packets' transfers (null: none).
  void set_follower(TransferFollower* follower) { follower_ = follower; }

  Cycle tick(Cycle now) override;
  void commit(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  // The receiving NIC (node `at`) reports that the tail of this NIC's packet
  // arrived; the sender compares `at` with the destination it was given.
  void tail_delivered(Cycle now, NodeId at);
  // The first of this NIC's packets received by another node than the one its
  // processor sent it to, named, or "".
  const std::string& misdelivery() const { return misdelivery_; }
  // Whether this NIC's processor posted a receive for (src, seq): a sending
  // NIC looks in the network phase (read only) ...
  bool has_posted(NodeId src, std::uint32_t seq) const;
  // ... and takes it in its commit.
  void take_posted(NodeId src, std::uint32_t seq);

  // What the port does at the end of a cycle (waveforms): the send in
  // progress, from its rendezvous until the receiver has its tail, and the
  // packet arriving (its head in, its tail not yet).
  bool sending() const { return send_.active; }
  NodeId send_destination() const { return send_.dst; }
  std::uint32_t send_packet() const { return send_.seq; }
  bool receiving() const { return !incoming_.empty(); }
  NodeId receive_source() const { return incoming_.empty() ? 0 : pool_[incoming_.front().id].src; }
  std::uint32_t receive_packet() const { return incoming_.empty() ? 0 : pool_[incoming_.front().id].seq; }

  std::uint64_t simplex_violations() const { return simplex_violations_; }
  std::uint64_t sent() const { return sent_; }
  std::uint64_t received() const { return received_; }
  std::uint64_t busy_cycles() const { return busy_cycles_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void check_direction(Cycle from, Cycle to, bool transmitting);
  std::uint32_t units_of(std::uint32_t seq) const;  // m, or the short last packet's units

  struct Send {
    bool active = false;
    bool started = false;   // the receiver is ready: the start-up runs
    bool injected = false;
    NodeId dst = kNoNode;
    std::uint32_t seq = 0;
    std::array<std::uint32_t, 4> value{};
    Cycle head_at = 0;
  };
  struct Incoming {
    PacketId id;
    Cycle tail;
  };

  Params params_;
  UnitPacketPool& pool_;
  TrafficLedger& ledger_;
  CycleEngine& engine_;
  SinglePortFabric& fabric_;
  const std::vector<SinglePortNic*>& directory_;
  DeliverySink* sink_ = nullptr;
  SendCompletion* completion_ = nullptr;
  TransferFollower* follower_ = nullptr;
  Link<PacketId> ejection_;
  Send send_;
  std::deque<Incoming> incoming_;
  // What the tick left for commit(): the rendezvous made, the head to hand
  // over, the packets whose tail is in (delivered in this order).
  bool take_due_ = false, inject_due_ = false;
  std::vector<PacketId> complete_;
  std::vector<std::pair<NodeId, std::uint32_t>> posted_;  // receives posted by the processor
  Cycle tx_from_ = kNever, tx_to_ = 0, rx_from_ = kNever, rx_to_ = 0;
  std::uint64_t simplex_violations_ = 0, sent_ = 0, received_ = 0, busy_cycles_ = 0;
  std::string misdelivery_;
};

}  // namespace icn
