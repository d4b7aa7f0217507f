#include "routers/hpam/hpam_nic.hpp"

#include <cmath>

#include "routers/hpam/hpam_topology.hpp"

namespace icn::hpam {

Cycle NicCosts::copy(std::uint64_t bytes) const {
  return static_cast<Cycle>(std::ceil(copy_per_byte * static_cast<double>(bytes) - 1e-9));
}

void MessageWord::store(unsigned char* out) const {
  for (unsigned i = 0; i < 8; ++i) {
    out[i] = static_cast<unsigned char>(tag >> (8 * i));
    out[8 + i] = static_cast<unsigned char>(bytes >> (8 * i));
  }
}

MessageWord MessageWord::load(const unsigned char* in) {
  MessageWord w;
  for (unsigned i = 0; i < 8; ++i) {
    w.tag |= std::uint64_t{in[i]} << (8 * i);
    w.bytes |= std::uint64_t{in[8 + i]} << (8 * i);
  }
  return w;
}

HpamNic::HpamNic(sc_core::sc_module_name name, NodeId node, const NicCosts& costs, vc::VcNic& network_side)
    : sc_module(name), Clocked(Phase::kProcessor), socket("socket"), to_network("to_network"), node_(node), costs_(costs), net_(network_side) {
  socket.register_b_transport(this, &HpamNic::b_transport);
  net_.set_sink(*this);
  to_network.bind(net_.socket());
}

void HpamNic::set_synchronous(std::function<unsigned(NodeId address)> receivers) {
  protocol_ = SendProtocol::kSynchronous;
  receivers_ = std::move(receivers);
}

void HpamNic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  IcnExtension* ext = nullptr;
  trans.get_extension(ext);
  if (const auto form = message_write_form(trans, 16, 16); form != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(form);
    return;
  }
  const MessageWord w = MessageWord::load(trans.get_data_ptr());
  const std::uint64_t flits = std::max<std::uint64_t>(1, (w.bytes + costs_.flit_bytes - 1) / costs_.flit_bytes);
  if (trans.get_address() == node_ || flits > kMaxFlits) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  sendq_.push_back({static_cast<NodeId>(trans.get_address()), w, ext != nullptr ? ext->seq : 0});
  if (sendq_.size() > 1) max_send_wait_ = std::max(max_send_wait_, sendq_.size() - 1);
  if (send_state_ == SendState::kIdle) {
    const Cycle now = engine()->now();
    start_send(now);
    if (send_done_ <= now) hand_over(now);
    else engine()->wake(*this, send_done_);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void HpamNic::start_send(Cycle now) {
  if (sendq_.empty()) {
    send_state_ = SendState::kIdle;
    return;
  }
  const Cycle cost = costs_.send_fixed + costs_.copy(sendq_.front().word.bytes);
  busy_send_ += cost;
  send_done_ = now + cost;
  send_state_ = SendState::kSoftware;
}

void HpamNic::hand_over(Cycle now) {
  const Outgoing& m = sendq_.front();
  unsigned char data[16];
  m.word.store(data);
  const std::uint64_t flits = std::max<std::uint64_t>(1, (m.word.bytes + costs_.flit_bytes - 1) / costs_.flit_bytes);
  tlm::tlm_generic_payload trans;
  IcnExtension ext;
  trans.set_extension(&ext);
  prepare_message_write(trans, ext, m.dst, data, 16, m.seq, false, static_cast<std::uint32_t>(flits));
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  to_network->b_transport(trans, delay);
  trans.clear_extension(&ext);
  if (trans.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw std::logic_error(std::string(name()) + ": the network interface refused a message");
  if (protocol_ == SendProtocol::kSynchronous) acks_awaited_ = receivers_(m.dst);
  sendq_.pop_front();
  send_state_ = SendState::kInjecting;
  // The head leaves at now + 1 at the earliest and the tail `flits` - 1 cycles
  // later: before now + flits + 1 the port cannot be free, so look from then on.
  inject_free_earliest_ = now + flits + 1;
  engine()->wake(*this, inject_free_earliest_);
  engine()->note_progress();
}

Cycle HpamNic::tick(Cycle now) {
  // Receive side: hand finished messages to the processor, in arrival order.
  while (!recvq_.empty() && recvq_.front().ready <= now) {
    Incoming& in = recvq_.front();
    if (protocol_ == SendProtocol::kSynchronous) send_ack(in.reply_to, in.d.seq);
    in.d.payload = in.payload.data();
    if (sink_) sink_->deliver(in.d);
    recvq_.pop_front();
    engine()->note_progress();
  }
  // Send side: software, then the VcNic streams the flits; one message at a
  // time. This block runs in the processor phase, so it sees the VcNic as the
  // previous cycle left it: the cycle after the last flit left, the port is free.
  if (send_state_ == SendState::kInjecting && net_.queued() == 0) send_state_ = SendState::kAwaitingAcks;
  if (send_state_ == SendState::kAwaitingAcks && acks_awaited_ == 0) start_send(now);
  if (send_state_ == SendState::kSoftware && send_done_ <= now) hand_over(now);
  Cycle next = kNever;
  if (send_state_ == SendState::kSoftware) next = send_done_;
  if (send_state_ == SendState::kInjecting) next = std::max(now + 1, inject_free_earliest_);  // watch the tail leave
  // kAwaitingAcks: arrived() wakes this block when the last acknowledgement is in.
  if (!recvq_.empty()) next = std::min(next, std::max(recvq_.front().ready, now + 1));
  return next;
}

void HpamNic::send_ack(NodeId to, std::uint32_t seq) {
  // Sent before the message goes to the processor, so the acknowledgement is
  // in the network (and the packet pool) by the time the message is counted.
  unsigned char data[8];
  for (unsigned i = 0; i < 4; ++i) data[i] = static_cast<unsigned char>(seq >> (8 * i));
  for (unsigned i = 4; i < 8; ++i) data[i] = 0;
  tlm::tlm_generic_payload trans;
  IcnExtension ext;
  trans.set_extension(&ext);
  prepare_message_write(trans, ext, to, data, 8, ack_seq_++, false, 1);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  to_network->b_transport(trans, delay);
  trans.clear_extension(&ext);
  if (trans.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw std::logic_error(std::string(name()) + ": the network interface refused an acknowledgement");
  ++acks_sent_;
}

void HpamNic::arrived(const Packet& packet, unsigned, Cycle tail_cycle, NodeId) {
  if (packet.payload_len == 8) {  // an acknowledgement of one of this NIC's messages
    if (acks_awaited_ == 0)
      throw std::logic_error(std::string(name()) + ": an acknowledgement from " + std::to_string(packet.src) +
                             " that no message awaits");
    --acks_awaited_;
    ++acks_received_;
    if (acks_awaited_ == 0) engine()->wake(*this, tail_cycle + 1);
    return;
  }
  const MessageWord w = MessageWord::load(packet.payload.data());
  Incoming in;
  in.d.src = packet.src;
  in.d.dst = node_;
  in.d.seq = packet.seq;
  in.d.payload_len = 16;
  in.d.injected = packet.injected;
  in.d.arrived = tail_cycle;
  in.d.hops = packet.hops;
  // A combined message (its destination keeps the combine bit) comes from a
  // group of senders: one replicated acknowledgement reaches all of them.
  in.reply_to = (packet.dst & HpamTopology::kCombineBit) != 0 ? packet.src | HpamTopology::kReplicateBit : packet.src;
  std::copy(packet.payload.begin(), packet.payload.end(), in.payload.begin());
  const Cycle cost = costs_.recv_fixed + costs_.copy(w.bytes);
  busy_recv_ += cost;
  if (cost == 0 && recvq_.empty() && recv_free_ <= tail_cycle && protocol_ == SendProtocol::kEager) {  // no software: straight to the processor
    in.d.payload = in.payload.data();
    if (sink_) sink_->deliver(in.d);
    return;
  }
  // The receive software starts when the previous message's has finished.
  recv_free_ = std::max(recv_free_, tail_cycle) + cost;
  in.ready = recv_free_;
  if (!recvq_.empty()) max_recv_wait_ = std::max(max_recv_wait_, recvq_.size());
  recvq_.push_back(in);
  engine()->wake(*this, std::max(in.ready, tail_cycle + 1));
}

void HpamNic::report_held(std::vector<HeldTraffic>& out) const {
  if (!sendq_.empty())
    out.push_back({std::string(name()) + " send queue", sendq_.size(),
                   "message " + std::to_string(node_) + " -> " + std::to_string(sendq_.front().dst), 0});
  if (acks_awaited_ > 0)
    out.push_back({std::string(name()) + " send side", acks_awaited_, "awaiting acknowledgements", 0});
  if (!recvq_.empty())
    out.push_back({std::string(name()) + " receive software", recvq_.size(),
                   "message from " + std::to_string(recvq_.front().d.src), recvq_.front().d.arrived});
}

}  // namespace icn::hpam
