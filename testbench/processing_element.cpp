#include "testbench/processing_element.hpp"

#include <cstring>
#include <stdexcept>

#include "models/packet.hpp"
#include "models/rng.hpp"

namespace icn {

std::uint64_t message_content(std::uint64_t key, NodeId src, NodeId dst, std::uint32_t seq) {
  return mix64(key, src, dst, seq);
}

ProcessingElement::ProcessingElement(sc_core::sc_module_name name, NodeId node,
                                     std::uint64_t content_key,
                                     std::unique_ptr<SendProgram> program,
                                     const ReceiptPlan& receipts)
    : sc_module(name), Clocked(Phase::kProcessor), socket("socket"), node_(node),
      key_(content_key), program_(std::move(program)), checker_(this->name(), node, content_key, receipts) {
  trans_.set_extension(&ext_);
}

void ProcessingElement::start() {
  pending_ = program_->next();
  if (pending_) engine()->wake(*this, pending_->step);
}

void ProcessingElement::send(const PlannedSend& s, Cycle now) {
  const NodeId content_dst = s.broadcast ? kBroadcastDestination : s.dst;
  store_le64(buffer_, message_content(key_, node_, content_dst, s.seq));
  prepare_message_write(trans_, ext_, s.broadcast ? 0 : s.dst, buffer_, sizeof buffer_, s.seq, s.broadcast, s.route);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(trans_, delay);
  if (trans_.is_response_error()) {
    throw std::logic_error(std::string(name()) + ": NIC refused a planned send to " +
                           std::to_string(s.dst) + ": " + trans_.get_response_string());
  }
  ++sent_;
}

Cycle ProcessingElement::tick(Cycle now) {
  while (pending_ && pending_->step <= now) {
    send(*pending_, now);
    pending_ = program_->next();
  }
  if (!pending_) return kNever;
  return pending_->step;
}

void ProcessingElement::deliver(const Delivery& d) { checker_.check(d); }

}  // namespace icn
