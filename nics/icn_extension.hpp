// The processor-side interface of every NIC: TLM-2.0 (ARCHITECTURE rule 5).
//
// A processing element sends a message with b_transport on a
// tlm_generic_payload: command WRITE, address = destination node, data = the
// message bytes (at most kMaxPayloadBytes). IcnExtension carries what a plain
// write cannot: the sender's sequence number, the broadcast flag, and a
// family-specific routing word (e.g. an iBT packet-sending pattern).
//
// Delivery back to the processing element is a callback (DeliverySink), used
// by every NIC. A callback rather than a second socket pair: a target plus an
// initiator socket cost about 4.5 KB and 25 us of elaboration per node on this
// platform (measured with 10^6 pairs), and delivery needs no timing annotation.
#pragma once

#include <tlm>

#include <cstdint>

#include "models/types.hpp"

namespace icn {

struct IcnExtension : tlm::tlm_extension<IcnExtension> {
  std::uint32_t seq = 0;
  bool broadcast = false;
  std::uint32_t route = 0;

  tlm::tlm_extension_base* clone() const override { return new IcnExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const IcnExtension&>(other);
  }
};

struct Delivery {
  NodeId src = kNoNode;
  NodeId dst = kNoNode;      // the receiving node (also for broadcasts)
  std::uint32_t seq = 0;
  bool broadcast = false;
  const std::uint8_t* payload = nullptr;
  std::size_t payload_len = 0;
  Cycle injected = 0;        // cycle of the first link transfer
  Cycle arrived = 0;         // cycle at whose end the last link transfer completed
  std::uint16_t hops = 0;
};

class DeliverySink {
 public:
  virtual ~DeliverySink() = default;
  virtual void deliver(const Delivery& delivery) = 0;
};

}  // namespace icn
