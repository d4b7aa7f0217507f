#include "testbench/greedy_processor.hpp"

#include <algorithm>
#include <stdexcept>

namespace icn {

GreedyProcessor::GreedyProcessor(sc_core::sc_module_name name, Params params, std::vector<Message> outgoing,
                                 const ReceiptPlan& receipts, const DeliveryCycleClock& clock, Rng rng,
                                 TrafficLedger& ledger)
    : sc_module(name), Clocked(Phase::kProcessor), socket("socket"), params_(params),
      checker_(this->name(), params.node, params.content_key, receipts), clock_(clock), rng_(rng), ledger_(ledger) {
  for (const Message& m : outgoing) {
    unsent_.push_back(messages_.size());
    messages_.push_back(Outgoing{m, 0});
  }
  trans_.set_extension(&ext_);
}

void GreedyProcessor::start() {
  if (!unsent_.empty()) {
    first_waiting_ = clock_.start(0);
    engine()->wake(*this, clock_.start(0));
  }
}

void GreedyProcessor::send(std::size_t index) {
  Outgoing& o = messages_[index];
  store_le64(buffer_, message_content(params_.content_key, params_.node, o.message.dst, o.message.seq));
  prepare_message_write(trans_, ext_, o.message.dst, buffer_, sizeof buffer_, o.message.seq);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(trans_, delay);
  if (trans_.is_response_error()) {
    throw std::logic_error(std::string(name()) + ": NIC refused message to " + std::to_string(o.message.dst) +
                           ": " + trans_.get_response_string());
  }
  if (o.attempts > 0) ++ledger_.retried;
  ++o.attempts;
  ++attempts_;
}

Cycle GreedyProcessor::tick(Cycle now) {
  if (unsent_.empty() || !in_flight_.empty() || now != clock_.next_start(now)) return kNever;
  // A uniformly random subset of the unsent messages (partial Fisher-Yates).
  const std::size_t k = std::min<std::size_t>(params_.sends_at_once, unsent_.size());
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(rng_.below(unsent_.size() - i));
    std::swap(unsent_[i], unsent_[j]);
  }
  in_flight_.assign(unsent_.begin(), unsent_.begin() + static_cast<std::ptrdiff_t>(k));
  unsent_.erase(unsent_.begin(), unsent_.begin() + static_cast<std::ptrdiff_t>(k));
  for (std::size_t index : in_flight_) send(index);
  return kNever;  // the delivery reports wake us for the next delivery cycle
}

void GreedyProcessor::report(const DeliveryReport& r) {
  const auto it = std::find_if(in_flight_.begin(), in_flight_.end(), [&](std::size_t i) {
    return messages_[i].message.dst == r.dst && messages_[i].message.seq == r.seq;
  });
  if (it == in_flight_.end()) {
    ++bad_reports_;
    return;
  }
  const std::size_t index = *it;
  in_flight_.erase(it);
  if (!r.delivered) unsent_.push_back(index);  // lost: stays in the unsent set
  else if (outstanding_ != nullptr) --*outstanding_;
  if (in_flight_.empty() && !unsent_.empty()) engine()->wake(*this, clock_.next_start(r.cycle + 1));
  if (unsent_.empty() && in_flight_.empty()) first_waiting_ = kNever;
}

void GreedyProcessor::report_held(std::vector<HeldTraffic>& out) const {
  if (unsent_.empty() && in_flight_.empty()) return;
  const Message& m = messages_[unsent_.empty() ? in_flight_.front() : unsent_.front()].message;
  out.push_back(HeldTraffic{std::string(name()) + " unsent messages", unsent_.size() + in_flight_.size(),
                            "message " + std::to_string(m.src) + " -> " + std::to_string(m.dst) + " seq " +
                                std::to_string(m.seq),
                            first_waiting_});
}

}  // namespace icn
