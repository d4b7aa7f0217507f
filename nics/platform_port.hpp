// PlatformPort: one node's TLM-2.0 sockets for a user's own SystemC platform
// (docs/library.md). The user's initiator sends messages into `inject`; the
// messages that arrive at the node leave through `deliver` into the user's
// target.
//
// inject (target socket): a generic-payload WRITE, address = destination
//   node, data = the message bytes (at most kMaxPayloadBytes), optional
//   IcnExtension (route = the packet's length in flits, seq = the sender's
//   sequence number). LT b_transport, or the AT base protocol through the
//   socket's own nb-to-b conversion. A write is checked at once (the
//   response status says what is wrong) and queued; the NIC registers it at
//   the first clock edge strictly after its time (the caller's time plus the
//   annotated delay), in the cycle's processor phase. Strictly after: a
//   request timed on an edge cannot race the engine's evaluation of that edge.
//   The NIC's queue is unbounded: a write never blocks and never waits.
// deliver (initiator socket): per arriving message one WRITE, address = the
//   sending node, data = its bytes, with a DeliveryExtension giving the
//   network's own cycles; sent at the time of the cycle whose end the tail
//   reached the NIC, from a thread of the port (the user's target may wait).
//   LT (b_transport) or the AT base protocol (BEGIN_REQ ... END_RESP) as the
//   port was built; AT payloads come from the port's memory manager.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "models/packet.hpp"
#include "models/types.hpp"

namespace icn {

// What a delivered message's payload carries besides its bytes.
struct DeliveryExtension : tlm::tlm_extension<DeliveryExtension> {
  NodeId src = kNoNode;     // the sender (also the payload's address)
  NodeId dst = kNoNode;     // the node whose NIC ejected it
  std::uint32_t message = 0;  // the network's message id (the JSON's and the waveform's)
  std::uint32_t seq = 0;    // the sender's IcnExtension::seq
  unsigned flits = 0;       // its length as the network carried it
  Cycle created = 0;        // the cycle its NIC registered it
  Cycle injected = 0;       // the cycle its head left the NIC
  Cycle arrived = 0;        // the cycle at whose end its tail reached the destination NIC
  unsigned hops = 0;        // router-to-router links crossed

  Cycle latency() const { return arrived - created; }  // as icnsim run's result.latency.packet
  tlm::tlm_extension_base* clone() const override { return new DeliveryExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const DeliveryExtension&>(other);
  }
};

enum class DeliveryProtocol { kLooselyTimed, kApproximatelyTimed };

class PlatformPort : public sc_core::sc_module {
 public:
  // A message the user sent, waiting for its clock edge.
  struct Request {
    sc_core::sc_time at;  // caller's time plus the annotated delay
    NodeId dst = kNoNode;
    unsigned flits = 1;
    std::uint32_t seq = 0;
    std::vector<std::uint8_t> bytes;
  };

  tlm_utils::simple_target_socket<PlatformPort> inject;
  tlm_utils::simple_initiator_socket<PlatformPort> deliver;
  // Inside the network: bound to the node's NIC, which the network hands
  // each request at its clock edge (through the NIC's own target socket).
  tlm_utils::simple_initiator_socket<PlatformPort> to_nic;

  // `accept` checks a destination and length (the network's rules: "" if
  // valid); `queued` tells the owner this port has a request waiting.
  PlatformPort(sc_core::sc_module_name name, NodeId node, DeliveryProtocol protocol,
               std::function<tlm::tlm_response_status(NodeId dst, unsigned flits)> accept, std::function<void()> queued);
  ~PlatformPort() override;

  NodeId node() const { return node_; }
  // The requests timed before `edge`, oldest first, removed from the port.
  template <typename F>
  void take_before(const sc_core::sc_time& edge, F&& each) {
    while (!requests_.empty() && requests_.front().at < edge) {
      each(requests_.front());
      requests_.pop_front();
    }
  }
  bool has_requests() const { return !requests_.empty(); }

  // Called by the network when a message reached this node's NIC.
  void arrived(const DeliveryExtension& what, const std::uint8_t* bytes, std::size_t length);

 private:
  struct Arrival {
    DeliveryExtension ext;
    std::vector<std::uint8_t> bytes;
  };
  class PayloadPool;

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void deliver_loop();
  void deliver_at(tlm::tlm_generic_payload& trans);

  NodeId node_;
  DeliveryProtocol protocol_;
  std::function<tlm::tlm_response_status(NodeId, unsigned)> accept_;
  std::function<void()> queued_;
  std::deque<Request> requests_;
  std::deque<Arrival> arrivals_;
  sc_core::sc_event arrival_event_;
  sc_core::sc_event phase_event_;  // AT: the target's END_REQ or BEGIN_RESP came back
  tlm::tlm_phase bw_phase_ = tlm::UNINITIALIZED_PHASE;
  PayloadPool* payloads_ = nullptr;
};

}  // namespace icn
