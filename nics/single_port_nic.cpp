#include "nics/single_port_nic.hpp"

#include <algorithm>
#include <cstring>

namespace icn {

SinglePortNic::SinglePortNic(sc_core::sc_module_name name, Params params, UnitPacketPool& pool, TrafficLedger& ledger,
                             CycleEngine& engine, SinglePortFabric& fabric,
                             const std::vector<SinglePortNic*>& directory)
    : sc_module(name),
      Clocked(Phase::kNetwork),
      socket("socket"),
      params_(params),
      pool_(pool),
      ledger_(ledger),
      engine_(engine),
      fabric_(fabric),
      directory_(directory) {
  socket.register_b_transport(this, &SinglePortNic::b_transport);
  engine.add(*this);
  fabric.attach(params.ejection_port == kNoNode ? params.node : params.ejection_port, *this);
}

void SinglePortNic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  IcnExtension* ext = nullptr;
  trans.get_extension(ext);
  if (trans.get_command() == tlm::TLM_READ_COMMAND) {  // post a receive
    if (ext == nullptr || trans.get_address() >= directory_.size() || trans.get_address() == params_.node) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    const auto src = static_cast<NodeId>(trans.get_address());
    posted_.push_back({src, ext->seq});
    engine_.wake(*directory_[src], engine_.now());  // a sender waiting for this receive may start
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (const auto form = message_write_form(trans, 1, sizeof(Send::value)); form != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(form);
    return;
  }
  if (ext == nullptr || trans.get_address() >= directory_.size() || trans.get_address() == params_.node) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (send_.active) {  // one send at a time: the port is still busy
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const Cycle now = engine_.now();
  send_ = Send{};
  send_.active = true;
  send_.dst = static_cast<NodeId>(trans.get_address());
  send_.seq = ext->seq;
  std::memcpy(send_.value.data(), trans.get_data_ptr(), trans.get_data_length());
  if (follower_ != nullptr) follower_->sent(params_.node, send_.dst, send_.seq, now);
  engine_.wake(*this, now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void SinglePortNic::check_direction(Cycle from, Cycle to, bool transmitting) {
  if (transmitting) {
    tx_from_ = from;
    tx_to_ = to;
  } else {
    rx_from_ = from;
    rx_to_ = to;
  }
  if (params_.model != Model::kSimplex) return;
  if (tx_from_ != kNever && rx_from_ != kNever && tx_from_ <= rx_to_ && rx_from_ <= tx_to_) ++simplex_violations_;
}

bool SinglePortNic::has_posted(NodeId src, std::uint32_t seq) const {
  return std::find(posted_.begin(), posted_.end(), std::pair<NodeId, std::uint32_t>{src, seq}) != posted_.end();
}

void SinglePortNic::take_posted(NodeId src, std::uint32_t seq) {
  const auto it = std::find(posted_.begin(), posted_.end(), std::pair<NodeId, std::uint32_t>{src, seq});
  if (it != posted_.end()) posted_.erase(it);
}

std::uint32_t SinglePortNic::units_of(std::uint32_t seq) const {
  return params_.packets != 0 && seq == params_.packets - 1 ? params_.last_units : params_.units;
}

Cycle SinglePortNic::tick(Cycle now) {
  if (send_.active && !send_.started && directory_[send_.dst]->has_posted(params_.node, send_.seq)) {
    // The start-up: the head reaches the receiver t cycles from now.
    send_.started = true;
    send_.head_at = now + params_.startup - fabric_.pipeline_cycles();
    take_due_ = true;
  }
  if (send_.started && !send_.injected && now >= send_.head_at) {
    const std::uint32_t units = units_of(send_.seq);
    ++sent_;
    busy_cycles_ += params_.startup + units;
    send_.injected = true;
    check_direction(now, now + units - 1, true);
    inject_due_ = true;
    engine_.note_progress();
  }
  ejection_.receive(now, [&](PacketId id) {
    const UnitPacket& p = pool_[id];
    const Cycle tail = p.reassembled ? now : now + p.units - 1;
    incoming_.push_back({id, tail});
    check_direction(p.reassembled ? std::min(p.head_arrived, now) : now, tail, false);
  });
  while (!incoming_.empty() && incoming_.front().tail <= now) {
    complete_.push_back(incoming_.front().id);
    incoming_.pop_front();
    ++received_;
    engine_.note_progress();
  }
  if (take_due_ || inject_due_ || !complete_.empty()) engine_.request_commit(*this);
  Cycle next = kNever;
  if (send_.started && !send_.injected) next = std::max(send_.head_at, now + 1);
  if (!incoming_.empty()) next = std::min(next, incoming_.front().tail);
  return next;
}

void SinglePortNic::commit(Cycle now) {
  if (take_due_) {
    directory_[send_.dst]->take_posted(params_.node, send_.seq);
    take_due_ = false;
  }
  if (inject_due_) {
    const PacketId id = pool_.allocate();
    UnitPacket& p = pool_[id];
    p.src = params_.node;
    p.dst = send_.dst;
    p.seq = send_.seq;
    p.units = units_of(send_.seq);
    p.value = send_.value;
    p.head_sent = now;
    ++ledger_.injected;
    ++ledger_.deliveries_expected;
    fabric_.inject(params_.node, now, id);
    inject_due_ = false;
  }
  for (const PacketId id : complete_) {
    const UnitPacket& p = pool_[id];
    Delivery d;
    d.src = p.src;
    d.dst = params_.node;  // where it arrived; the processor and the sender check it
    d.seq = p.seq;
    d.payload = reinterpret_cast<const std::uint8_t*>(p.value.data());
    d.payload_len = sizeof(p.value);
    d.injected = p.head_sent;
    d.arrived = now;
    d.hops = p.hops;
    ++ledger_.delivered;
    if (follower_ != nullptr) follower_->received(p.src, params_.node, p.seq, now);
    if (sink_ != nullptr) sink_->deliver(d);
    directory_[p.src]->tail_delivered(now, params_.node);
    pool_.release(id);
  }
  complete_.clear();
}

void SinglePortNic::tail_delivered(Cycle now, NodeId at) {
  if (at != send_.dst && misdelivery_.empty())
    misdelivery_ = "packet " + std::to_string(send_.seq) + " of node " + std::to_string(params_.node) +
                   " was meant for node " + std::to_string(send_.dst) + " and received by node " + std::to_string(at);
  send_.active = false;
  if (completion_ != nullptr) completion_->send_completed(now);
}

void SinglePortNic::report_held(std::vector<HeldTraffic>& out) const {
  if (!incoming_.empty()) {
    const UnitPacket& p = pool_[incoming_.front().id];
    out.push_back({std::string(name()) + " receiving", incoming_.size(),
                   "packet " + std::to_string(p.seq) + " " + std::to_string(p.src) + " -> " + std::to_string(p.dst),
                   incoming_.front().tail - p.units + 1});
  }
}

}  // namespace icn
