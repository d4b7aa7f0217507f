#include "routers/fattree_packet/packet_nic.hpp"

#include <cstring>

namespace icn {

PacketNic::PacketNic(sc_core::sc_module_name name, Params params, PacketPool& pool,
                     TrafficLedger& ledger)
    : sc_module(name), Clocked(Phase::kNetwork), socket("socket"), params_(params),
      pool_(pool), ledger_(ledger) {
  socket.register_b_transport(this, &PacketNic::b_transport);
}

void PacketNic::attach(Channel& to_network, Channel& from_network) {
  to_network_ = &to_network;
  from_network_ = &from_network;
  from_network.connect_receiver(*this);
}

void PacketNic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  IcnExtension* ext = nullptr;
  trans.get_extension(ext);
  const bool broadcast = ext != nullptr && ext->broadcast;
  if (const auto form = message_write_form(trans, 0, kMaxPayloadBytes); form != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(form);
    return;
  }
  if (!broadcast && (trans.get_address() >= params_.nodes || trans.get_address() == params_.node)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const PacketId id = pool_.allocate();
  Packet& p = pool_[id];
  p.src = params_.node;
  p.dst = broadcast ? kBroadcastDestination : static_cast<NodeId>(trans.get_address());
  p.seq = ext != nullptr ? ext->seq : 0;
  p.route = ext != nullptr ? ext->route : 0;
  p.flags = broadcast ? Packet::kBroadcast : 0;
  p.message = static_cast<std::uint32_t>(ledger_.injected);
  p.payload_len = static_cast<std::uint8_t>(trans.get_data_length());
  std::memcpy(p.payload.data(), trans.get_data_ptr(), p.payload_len);

  ++ledger_.injected;
  ledger_.deliveries_expected += broadcast ? params_.broadcast_fanout : 1;
  if (to_network_->failed()) ++failed_requests_;
  const Cycle now = engine()->now();
  p.created = now;
  injection_.push(id, now);
  if (follower_ != nullptr) follower_->accepted(p, to_network_, now);
  engine()->wake(*this, now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

Cycle PacketNic::tick(Cycle now) {
  // What arrived is handed to the processor after the network phase
  // (commit), in node order, on the simulation thread (run.threads).
  from_network_->receive(now, [&](PacketId id) {
    if (follower_ != nullptr) follower_->ejected(pool_[id], params_.node, now - 1);
    engine()->note_progress();
    if (arrived_.empty()) engine()->request_commit(*this);
    arrived_.push_back(id);
  });
  for (unsigned free = to_network_->free_links(now); free > 0 && !injection_.empty(); --free) {
    const PacketId id = injection_.pop();
    Packet& p = pool_[id];
    p.injected = now;
    p.hops = 1;
    to_network_->send(now, id);
    if (follower_ != nullptr) follower_->sent(p, to_network_, to_network_->sent_in(now) - 1, now);
    engine()->note_progress();
  }
  injection_.sample();
  return injection_.empty() ? kNever : now + 1;
}

void PacketNic::commit(Cycle now) {
  for (const PacketId id : arrived_) {
    const Packet& p = pool_[id];
    Delivery d;
    d.src = p.src;
    d.dst = params_.node;
    d.seq = p.seq;
    d.broadcast = p.broadcast();
    d.payload = p.payload.data();
    d.payload_len = p.payload_len;
    d.injected = p.injected;
    d.arrived = now - 1;
    d.hops = p.hops;
    d.message = p.message;
    d.created = p.created;
    ++delivered_;
    ++ledger_.delivered;
    if (sink_ != nullptr) sink_->deliver(d);
    pool_.release(id);
  }
  arrived_.clear();
}

void PacketNic::report_held(std::vector<HeldTraffic>& out) const {
  if (injection_.empty()) return;
  out.push_back(HeldTraffic{std::string(name()) + " injection queue", injection_.size(),
                            describe_packet(pool_[injection_.front()]), injection_.front_since()});
}

}  // namespace icn
