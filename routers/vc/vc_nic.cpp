#include "routers/vc/vc_nic.hpp"

#include "nics/icn_extension.hpp"

#include <cstring>

namespace icn::vc {

VcNic::VcNic(const char* network, Params params, PacketPool& pool, TrafficLedger& ledger)
    : Clocked(Phase::kNetwork), network_(network), params_(params), pool_(pool), ledger_(ledger),
      credits_(params.vcs, params.buffer_depth) {
  last_vc_ = params.vcs - 1;
}

VcNic::~VcNic() = default;

tlm::tlm_target_socket<>& VcNic::socket() {
  if (!socket_) {
    const std::string base = "nic" + std::to_string(params_.node) + "_socket";
    socket_ = std::make_unique<tlm::tlm_target_socket<>>(sc_core::sc_gen_unique_name(base.c_str()));
    socket_->bind(*this);
  }
  return *socket_;
}

std::string VcNic::name() const { return std::string(network_) + ".nic" + std::to_string(params_.node); }

void VcNic::attach(FlitLink* inject, CreditLink* inject_credits, FlitLink* eject, CreditLink* eject_credits) {
  inject_ = inject;
  inject_credits_ = inject_credits;
  eject_ = eject;
  eject_credits_ = eject_credits;
  inject_credits->connect_receiver(*this);
  eject->connect_receiver(*this);
}

void VcNic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
  IcnExtension* ext = nullptr;
  trans.get_extension(ext);
  if (const auto form = message_write_form(trans, 0, kMaxPayloadBytes); form != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(form);
    return;
  }
  const unsigned flits = ext != nullptr ? ext->route : 1;
  if ((trans.get_address() & ~std::uint64_t{group_bits_}) >= params_.nodes || flits < 1 || flits > params_.max_packet_flits) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const Cycle now = engine()->now();
  const PacketId id = pool_.allocate();
  Packet& p = pool_[id];
  p.src = params_.node;
  p.dst = static_cast<NodeId>(trans.get_address());
  p.seq = ext != nullptr ? ext->seq : 0;
  p.route = flits;  // the packet's length in flits
  p.payload_len = static_cast<std::uint8_t>(trans.get_data_length());  // carried to the destination's sink
  if (p.payload_len != 0) std::memcpy(p.payload.data(), trans.get_data_ptr(), p.payload_len);
  p.created = now;
  if (stages_) stages_->reserve(id);  // routers on worker threads must not grow the log
  p.message = static_cast<std::uint32_t>(ledger_.injected);
  ++ledger_.injected;
  ++ledger_.deliveries_expected;
  ++packets_accepted_;
  queue_.push(id, now);
  queue_.sample();
  engine()->wake(*this, now + 1);  // written into the queue this cycle, readable the next
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum VcNic::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                          sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  b_transport(trans, delay);
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

Cycle VcNic::tick(Cycle now) {
  inject_credits_->receive(now, [&](const Credit& c) { credits_.restore(c.vc); });
  eject_->receive(now, [&](const Flit& f) {
    eject_credits_->send(now, Credit{f.vc});  // the ejection buffer empties at once
    ++flits_ejected_;
    ++eject_count_[f.vc];
    if (stages_ && f.head()) {
      PacketStages& st = (*stages_)[f.packet];
      st.links += static_cast<std::uint32_t>(now - st.last_send);  // the ejection link
      st.head_ejected = now;
    }
    if (follower_ != nullptr)
      if (PacketFollower::Copy* copy = follower_->copy(pool_[f.packet].message, f.packet)) {
        if (f.head()) copy->head_ejected = now;
        if (f.tail()) {
          copy->tail_ejected = now;
          copy->live = false;  // its packet is released below
        }
      }
    if (!f.tail()) return;
    const unsigned flits = eject_count_[f.vc];
    eject_count_[f.vc] = 0;
    engine()->note_progress();
    if (engine()->threads() == 1) {
      deliver(f.packet, flits, now);
      return;
    }
    if (tails_.empty()) engine()->request_commit(*this);
    tails_.push_back({f.packet, flits});
  });

  if (current_ == kNoPacket && !queue_.empty() && pool_[queue_.front()].created < now) {
    // A new packet: the next VC (round-robin) with room for its head.
    for (unsigned i = 1; i <= params_.vcs; ++i) {
      const unsigned v = (last_vc_ + i) % params_.vcs;
      if (credits_.available(v) == 0) continue;
      current_ = queue_.pop();
      sent_ = 0;
      size_ = pool_[current_].route;
      vc_ = last_vc_ = v;
      break;
    }
  }
  if (current_ != kNoPacket && credits_.available(vc_) != 0) {
    Flit f;
    f.packet = current_;
    f.vc = static_cast<std::uint8_t>(vc_);
    f.bits = static_cast<std::uint8_t>((sent_ == 0 ? Flit::kHead : 0) | (sent_ + 1 == size_ ? Flit::kTail : 0));
    if (sent_ == 0) {
      pool_[current_].injected = now;
      if (stages_) stages_->injected(current_, now);
      if (follower_ != nullptr) {
        const Packet& p = pool_[current_];
        follower_->injected(p.message, current_, p.src, p.dst & ~group_bits_, vc_, now);
      }
    }
    credits_.consume(vc_);
    inject_->send(now, f);
    engine()->note_progress();
    if (++sent_ == size_) current_ = kNoPacket;
  }
  if (current_ != kNoPacket) return credits_.available(vc_) != 0 ? now + 1 : kNever;  // a credit wakes us
  if (queue_.empty()) return kNever;
  for (unsigned v = 0; v < params_.vcs; ++v)
    if (credits_.available(v) != 0) return now + 1;
  return kNever;
}

void VcNic::deliver(PacketId packet, unsigned flits, Cycle now) {
  const Packet& p = pool_[packet];
  ++ledger_.delivered;
  if (sink_ && stages_) sink_->arrived_stages(p, (*stages_)[packet], now);
  if (sink_) sink_->arrived(p, flits, now, params_.node);
  pool_.release(packet);
}

void VcNic::commit(Cycle now) {
  for (const Tail& t : tails_) deliver(t.packet, t.flits, now);
  tails_.clear();
}

void VcNic::report_held(std::vector<HeldTraffic>& out) const {
  if (queued() == 0) return;
  const PacketId head = current_ != kNoPacket ? current_ : queue_.front();
  const Packet& p = pool_[head];
  out.push_back({name() + " injection queue", queued(),
                 "packet " + std::to_string(p.src) + " -> " + std::to_string(p.dst) +
                     (injection_failed_ ? " behind the failed injection link" : ""),
                 p.created});
}

}  // namespace icn::vc
