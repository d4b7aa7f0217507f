// HpamNic: the uni-port processor interface of HPAM (Ben Miled et al., 2.1
// and 2.4), wrapped around the shared VcNic.
//
// Uni-port: two unidirectional channels to the processor, so a processor
// sends one message at a time and receives one message at a time. The send
// side runs the send software (C_send^l + copy cost x S cycles) for the
// message at the head of its queue, hands it to the VcNic and starts the next
// message's software only once the last flit of this one has left the NIC. The
// receive side takes a message whose tail has arrived, runs the receive
// software (C_recv^l + copy cost x S cycles) and then hands it to the
// processor; messages that arrive meanwhile wait in arrival order.
//
// Processor side: a TLM-2.0 target socket. A write to address d is one message
// to node d; its 16 data bytes are an 8-byte content tag (checked by the
// receiving processor) and the message length S in bytes (little endian), which
// the NIC cuts into ceil(S / W_l) flits of W_l bytes (at least one flit, the
// header). Delivery to the processor: DeliverySink, payload = the same 16 bytes.
//
// Send protocol. Eager (the default): the send side is free once the tail has
// left. Synchronous (a rendezvous, the accounting of the paper's eq. 5): the
// send side stays busy until every receiver of the message has acknowledged
// it; a receiving NIC sends the acknowledgement, a one-flit packet through the
// network, when its receive software for the message finishes. An
// acknowledgement is an 8-byte write (data messages are 16 bytes): the NIC
// absorbs it and never hands it to the processor. A message merged by a
// combining router (InterLevelCombiner) is acknowledged to its group: one
// acknowledgement with the replicate bit, which the replicator below the
// combining router copies to every sender.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "nics/icn_extension.hpp"
#include "routers/vc/vc_nic.hpp"

namespace icn::hpam {

// The software costs of one level, already in cycles (Table 1 with Q).
struct NicCosts {
  Cycle send_fixed = 0;          // C_send^l
  Cycle recv_fixed = 0;          // C_recv^l
  double copy_per_byte = 0;      // lambda'_l / W_l, cycles per byte
  unsigned flit_bytes = 8;       // W_l
  Cycle copy(std::uint64_t bytes) const;
};

// The 16 bytes of an HPAM message write.
struct MessageWord {
  std::uint64_t tag = 0;
  std::uint64_t bytes = 0;
  void store(unsigned char* out) const;
  static MessageWord load(const unsigned char* in);
};

enum class SendProtocol { kEager, kSynchronous };

class HpamNic : public sc_core::sc_module, public Clocked, public vc::ArrivalSink {
 public:
  static constexpr std::uint64_t kMaxFlits = std::uint64_t{1} << 31;

  tlm_utils::simple_target_socket<HpamNic> socket;          // from the processor
  tlm_utils::simple_initiator_socket<HpamNic> to_network;    // into the VcNic

  HpamNic(sc_core::sc_module_name name, NodeId node, const NicCosts& costs, vc::VcNic& network_side);

  void set_sink(DeliverySink& sink) { sink_ = &sink; }
  // Synchronous sends: `receivers(address)` is how many processors a message
  // written to `address` reaches (1, or the replicator's fan-out), the number
  // of acknowledgements the send side waits for.
  void set_synchronous(std::function<unsigned(NodeId address)> receivers);

  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;
  void arrived(const Packet& packet, unsigned flits, Cycle tail_cycle, NodeId at) override;

  NodeId node() const { return node_; }
  // Messages accepted from the processor and not yet fully handed to the network.
  std::size_t sends_pending() const { return sendq_.size(); }
  // The largest number of messages that ever waited behind the one being sent.
  std::size_t max_send_wait() const { return max_send_wait_; }
  std::size_t max_recv_wait() const { return max_recv_wait_; }
  std::uint64_t busy_send_cycles() const { return busy_send_; }
  std::uint64_t busy_recv_cycles() const { return busy_recv_; }
  // Acknowledgements the send side still waits for (synchronous sends).
  unsigned acks_awaited() const { return acks_awaited_; }
  std::uint64_t acks_sent() const { return acks_sent_; }
  std::uint64_t acks_received() const { return acks_received_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void start_send(Cycle now);
  void hand_over(Cycle now);  // the message at the head of the queue goes to the VcNic
  void send_ack(NodeId to, std::uint32_t seq);

  struct Outgoing {
    NodeId dst;
    MessageWord word;
    std::uint32_t seq;
  };
  struct Incoming {
    Delivery d;
    std::array<std::uint8_t, 16> payload;
    Cycle ready;  // the receive software finishes at the end of this cycle
    NodeId reply_to;  // where the acknowledgement goes (synchronous sends)
  };
  enum class SendState { kIdle, kSoftware, kInjecting, kAwaitingAcks };

  NodeId node_;
  NicCosts costs_;
  vc::VcNic& net_;
  DeliverySink* sink_ = nullptr;
  SendProtocol protocol_ = SendProtocol::kEager;
  std::function<unsigned(NodeId)> receivers_;
  unsigned acks_awaited_ = 0;
  std::uint64_t acks_sent_ = 0, acks_received_ = 0;
  std::uint32_t ack_seq_ = 0;
  std::deque<Outgoing> sendq_;
  SendState send_state_ = SendState::kIdle;
  Cycle send_done_ = 0;
  Cycle inject_free_earliest_ = 0;
  std::deque<Incoming> recvq_;
  Cycle recv_free_ = 0;  // the receive software is busy until the end of this cycle
  std::size_t max_send_wait_ = 0, max_recv_wait_ = 0;
  std::uint64_t busy_send_ = 0, busy_recv_ = 0;
};

}  // namespace icn::hpam
