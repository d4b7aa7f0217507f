// The processor-side interface of every NIC: TLM-2.0 (ARCHITECTURE rule 5).
//
// A processing element sends a message with b_transport on a
// tlm_generic_payload: command WRITE, address = destination node, data = the
// message bytes (at most kMaxPayloadBytes). IcnExtension carries what a plain
// write cannot: the sender's sequence number, the broadcast flag, a
// family-specific routing word (e.g. an iBT packet-sending pattern) and, for a
// multicast, its destination set (models/destination_set.hpp).
//
// Delivery back to the processing element is a callback (DeliverySink), used
// by every NIC. A callback rather than a second socket pair: a target plus an
// initiator socket cost about 4.5 KB and 25 us of elaboration per node on this
// platform (measured with 10^6 pairs), and delivery needs no timing annotation.
#pragma once

#include <tlm>

#include <cstdint>

#include "models/destination_set.hpp"
#include "models/types.hpp"

namespace icn {

struct IcnExtension : tlm::tlm_extension<IcnExtension> {
  std::uint32_t seq = 0;
  bool broadcast = false;
  std::uint32_t route = 0;
  // A multicast's destinations (owned by the sender, valid during b_transport);
  // nullptr for unicast, and for a broadcast to the NIC's whole group.
  const DestinationSet* destinations = nullptr;

  tlm::tlm_extension_base* clone() const override { return new IcnExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const IcnExtension&>(other);
  }
};

// Processor side: fills `trans` (which carries `ext`) for one message write.
inline void prepare_message_write(tlm::tlm_generic_payload& trans, IcnExtension& ext, std::uint64_t address,
                                  unsigned char* data, unsigned length, std::uint32_t seq, bool broadcast = false,
                                  std::uint32_t route = 0) {
  trans.set_command(tlm::TLM_WRITE_COMMAND);
  trans.set_address(address);
  trans.set_data_ptr(data);
  trans.set_data_length(length);
  trans.set_streaming_width(length);
  trans.set_byte_enable_ptr(nullptr);
  trans.set_dmi_allowed(false);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  ext.seq = seq;
  ext.broadcast = broadcast;
  ext.route = route;
  ext.destinations = nullptr;
}

// NIC side: whether a transaction has the form of a message write —
// COMMAND_ERROR for anything but a write, BURST_ERROR for byte enables, a
// streaming width shorter than the data, or a length outside
// [min_length, max_length]; OK otherwise. Addresses are each NIC's to check.
inline tlm::tlm_response_status message_write_form(const tlm::tlm_generic_payload& trans, unsigned min_length,
                                                   unsigned max_length) {
  if (trans.get_command() != tlm::TLM_WRITE_COMMAND) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  const unsigned length = trans.get_data_length();
  if (trans.get_byte_enable_ptr() != nullptr || length < min_length || length > max_length ||
      trans.get_streaming_width() < length)
    return tlm::TLM_BURST_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

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
  std::uint32_t message = 0;  // the id the source NIC gave it (its order of injection)
  Cycle created = 0;          // the cycle the source NIC accepted it
};

class DeliverySink {
 public:
  virtual ~DeliverySink() = default;
  virtual void deliver(const Delivery& delivery) = 0;
};

}  // namespace icn
