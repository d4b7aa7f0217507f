// BitSerialNic: the network interface of Ishii's bit-serial fat tree (1985,
// sections 3.5 and 4.4).
//
// Processor side: a TLM-2.0 target socket (icn_extension.hpp). A WRITE of
// kPayloadBytes bytes to address = destination asks for one message to be sent
// in the next delivery cycle; the NIC accepts as many as it has stream
// transmitters (one per physical path of its channel to the network) and
// answers TLM_GENERIC_ERROR_RESPONSE when all are taken. Every accepted message
// gets exactly one DeliveryReport; every message received is handed to the
// DeliverySink.
//
// Network side, per physical path:
//   StreamTransmitter  at the first clock of the delivery cycle loads its
//                      RouteStreamGenerator with (this node, destination) and
//                      from the next clock drives one bit per clock: the generator's M, routing and
//                      buffering bits, then the message bits. It then waits for
//                      the acknowledge on the path's reverse wire; none by the
//                      last clock of the delivery cycle means the stream was lost.
//   StreamReceiver     detects M on an idle incoming path, shifts in the message
//                      bits, delivers the message, and in that same clock drives
//                      the acknowledge on the path's reverse wire, which the
//                      switches carry back along the stream's own connections.
//
// Message bits, first first: the source address (H bits, most significant
// first; the routing bits are gone by the time a stream arrives, so a receiver
// learns its sender from this header), a 16-bit sequence number, then the
// 64 payload bits (byte 0 first, each byte most significant bit first).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "nics/delivery_report.hpp"
#include "nics/icn_extension.hpp"
#include "routers/fattree_bitserial/bit_channel.hpp"
#include "routers/fattree_bitserial/delivery_cycle.hpp"
#include "routers/fattree_bitserial/route_stream_generator.hpp"
#include "routers/fattree_bitserial/stream_follower.hpp"

namespace icn::bitserial {

// Counters of one delivery cycle, summed over every NIC.
struct DeliveryCycleCounts {
  std::uint64_t sent = 0;
  std::uint64_t delivered = 0;
  std::uint64_t lost = 0;
};

class BitSerialNic : public sc_core::sc_module, public Clocked {
 public:
  static constexpr unsigned kSeqBits = 16;
  static constexpr unsigned kPayloadBytes = 8;
  // Clock 0 of a delivery cycle is the generators' load edge (section 3.4: the
  // addresses are loaded, then shifted out); M is driven from clock 1. A
  // clocked generator (the Verilated RTL) cannot answer in its load clock, so
  // the behavioural one keeps the same timing and the two are interchangeable
  // cycle for cycle.
  static constexpr Cycle kFirstDrivePhase = 1;
  static constexpr unsigned kPayloadBits = 8 * kPayloadBytes;
  static unsigned message_bits(unsigned height) { return height + kSeqBits + kPayloadBits; }

  struct Params {
    NodeId node = 0;
    unsigned height = 1;
  };

  tlm_utils::simple_target_socket<BitSerialNic> socket;

  BitSerialNic(sc_core::sc_module_name name, Params params, const DeliveryCycleClock& clock,
               TrafficLedger& ledger, std::vector<DeliveryCycleCounts>& counts);

  // `up` carries our streams to the network and `up_ack` is its reverse wire;
  // `down` brings streams to us and `down_ack` is its reverse wire. One stream
  // transmitter per path of `up`, each with a generator from `make_generator`.
  void attach(BitChannel& up, BitChannel& up_ack, BitChannel& down, BitChannel& down_ack,
              const std::function<std::unique_ptr<RouteStreamGenerator>()>& make_generator);
  // Flush scheme (Ishii 2.1.1): the flush wires of the down paths; a flush
  // drops the message being received on that path (it was flushed upstream).
  void attach_flush(BitChannel& down_flush) {
    down_flush_ = &down_flush;
    down_flush.connect_receiver(*this);
  }
  void set_sink(DeliverySink& sink) { sink_ = &sink; }
  void set_report_sink(DeliveryReportSink& sink) { report_sink_ = &sink; }
  // outputs.trace_packet: report followed streams' starts, receptions and reports to it.
  void set_follower(StreamFollower* follower) { follower_ = follower; }

  Cycle tick(Cycle now) override;
  // What the cycle's streams changed outside the NIC (the per-delivery-cycle
  // counts, the ledger, the processor's deliveries and reports), in the
  // order the NIC saw it, after the network phase (run.threads).
  void commit(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  NodeId node() const { return params_.node; }
  unsigned streams_at_once() const { return static_cast<unsigned>(transmitters_.size()); }
  const DeliveryCycleClock& clock() const { return clock_; }
  const BitChannel* up() const { return up_; }
  const BitChannel* down() const { return down_; }

  // Streams in flight from this NIC (accepted, not yet reported).
  unsigned active_streams() const { return active_; }
  // Protocol faults seen here: a generator longer than any stream can be, a
  // stream cut off by the end of its delivery cycle, an acknowledge nobody waits for.
  std::uint64_t overlong_streams() const { return overlong_; }
  std::uint64_t truncated_streams() const { return truncated_; }
  std::uint64_t stray_acks() const { return stray_acks_; }
  std::uint64_t received() const { return received_; }
  // What this NIC asked of `channel`, one it drives, while it was failed:
  // streams it started up (its up channel), or acknowledges of messages it
  // received (the reverse wire of its down channel). 0 for any other channel.
  std::uint64_t failed_requests(const BitChannel& channel) const {
    return &channel == up_ ? failed_streams_ : &channel == down_ack_ ? failed_acks_ : 0;
  }
  // Receivers still in the middle of a message (a stream that never finished).
  unsigned partial_receptions() const {
    unsigned n = 0;
    for (const auto& r : receivers_) n += r.active ? 1 : 0;
    return n;
  }
  // Clocks of the delivery cycle at which the last message bit arrived / an
  // acknowledge came back, over the run (tests).
  // Receptions a flush wire cut short (flush scheme).
  std::uint64_t flushed_receptions() const { return flushed_receptions_; }
  // The most buffering bits a stream turning at height h carried: the bits
  // its generator drove beyond M and the 2h - 1 routing bits (index h; 0 if none).
  const std::vector<unsigned>& buffering_bits() const { return buffering_bits_; }
  Cycle last_arrival_phase() const { return last_arrival_phase_; }
  Cycle last_ack_phase() const { return last_ack_phase_; }

 private:
  using Bits = std::array<std::uint64_t, 3>;

  struct StreamTransmitter {
    enum State : std::uint8_t { kFree, kLoaded, kRouting, kMessage, kAwaitAck };
    std::unique_ptr<RouteStreamGenerator> generator;
    State state = kFree;
    NodeId dst = kNoNode;
    std::uint32_t seq = 0;
    std::uint64_t delivery_cycle = 0;
    unsigned route_bits = 0;
    unsigned message_pos = 0;
    Bits message{};
  };

  struct StreamReceiver {
    bool active = false;
    std::uint64_t delivery_cycle = 0;
    unsigned count = 0;
    Bits bits{};
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void transmit(StreamTransmitter& t, unsigned path, Cycle now);
  void receive_bit(unsigned path, bool bit, Cycle now);
  void finish(StreamTransmitter& t, bool delivered, Cycle now);
  void report_truncated(StreamReceiver& r);

  // One effect on shared state, kept for commit().
  struct Outcome {
    enum Kind : std::uint8_t { kStreamSent, kReported, kReceived };
    Kind kind = kStreamSent;
    DeliveryReport report;  // kStreamSent: report.delivery_cycle only
    Delivery delivery;      // kReceived; its payload points into `payload`
    std::array<unsigned char, kPayloadBytes> payload{};
  };
  Outcome& keep(Outcome::Kind kind);

  Params params_;
  const DeliveryCycleClock& clock_;
  TrafficLedger& ledger_;
  std::vector<DeliveryCycleCounts>& counts_;
  unsigned message_bits_;
  DeliveryCycleClock::Cursor cursor_;
  BitChannel* up_ = nullptr;
  BitChannel* up_ack_ = nullptr;
  BitChannel* down_ = nullptr;
  BitChannel* down_ack_ = nullptr;
  BitChannel* down_flush_ = nullptr;
  DeliverySink* sink_ = nullptr;
  DeliveryReportSink* report_sink_ = nullptr;
  std::vector<Outcome> outcomes_;  // this cycle's, for commit()
  StreamFollower* follower_ = nullptr;
  std::vector<StreamTransmitter> transmitters_;
  std::vector<StreamReceiver> receivers_;
  unsigned active_ = 0;
  std::uint64_t overlong_ = 0;
  std::uint64_t truncated_ = 0;
  std::uint64_t stray_acks_ = 0;
  std::uint64_t received_ = 0;
  std::uint64_t flushed_receptions_ = 0;
  std::vector<unsigned> buffering_bits_;
  std::uint64_t failed_streams_ = 0;  // streams started while up_ was failed
  std::uint64_t failed_acks_ = 0;     // acknowledges driven while down_ack_ was failed
  Cycle last_arrival_phase_ = 0;
  Cycle last_ack_phase_ = 0;
};

}  // namespace icn::bitserial
