#include "routers/hpam/inter_level_combiner.hpp"

#include "routers/hpam/hpam_nic.hpp"
#include "routers/hpam/hpam_topology.hpp"

namespace icn::hpam {

InterLevelCombiner::InterLevelCombiner(sc_core::sc_module_name name, const HpamGeometry& geo, Position at,
                                       unsigned branches, unsigned vcs, PacketPool& pool, TrafficLedger& ledger)
    : sc_module(name), Clocked(Phase::kNetwork), geo_(geo), at_(at), branches_(branches), pool_(pool),
      ledger_(ledger), flits_on_vc_(vcs, 0) {}

void InterLevelCombiner::commit(Cycle) {
  ledger_.deliveries_expected -= expected_saved_;
  expected_saved_ = 0;
}

void InterLevelCombiner::connect_input(vc::FlitLink* in, vc::CreditLink* credit_out) {
  in_ = in;
  credit_out_ = credit_out;
  in->connect_receiver(*this);
}

void InterLevelCombiner::connect_output(vc::FlitLink* out, vc::CreditLink* credit_in, unsigned downstream_depth) {
  out_ = out;
  credit_in_ = credit_in;
  credits_ = downstream_depth;
  credit_in->connect_receiver(*this);
}

Cycle InterLevelCombiner::tick(Cycle now) {
  credit_in_->receive(now, [&](const vc::Credit&) { ++credits_; });
  in_->receive(now, [&](const vc::Flit& f) {
    // Store and forward: every flit is stored, its buffer entry freed at once.
    credit_out_->send(now, vc::Credit{f.vc});
    ++flits_on_vc_[f.vc];
    ++stored_;
    max_stored_ = std::max(max_stored_, stored_);
    engine()->note_progress();
    if (!f.tail()) return;
    const Packet& p = pool_[f.packet];
    const MessageWord w = MessageWord::load(p.payload.data());
    const unsigned key = geo_.position(p.src).row;
    Group& g = groups_[key];
    ++g.arrived;
    g.tag ^= w.tag;
    g.bytes += w.bytes;
    g.flits += flits_on_vc_[f.vc];
    // The merged message keeps the combine bit, so that its receiver knows it
    // speaks for a group (see the header: acknowledgements).
    g.dst = (p.dst & ~HpamTopology::kGroupBits) | HpamTopology::kCombineBit;
    flits_on_vc_[f.vc] = 0;
    ++messages_in_;
    if (follower_ != nullptr)
      if (vc::PacketFollower::Copy* copy = follower_->copy(p.message, f.packet)) {
        copy->absorbed = now;
        copy->live = false;  // released: its handle may come back as the combined message
      }
    pool_.release(f.packet, owner());  // owner(): this worker's free list
    if (g.arrived < branches_) return;
    // Every branch has delivered: one combined message from this router's node.
    const PacketId id = pool_.allocate(owner());
    Packet& c = pool_[id];
    // From the group: the senders' row of the first column below, the address
    // a replicated message to the same group is written to.
    const Position first = geo_.below(at_, 0);
    c.src = geo_.node({first.level, key, first.col});
    c.dst = g.dst;
    c.created = c.injected = now;
    c.route = static_cast<std::uint32_t>(g.flits);
    c.payload_len = 16;
    MessageWord{g.tag, g.bytes}.store(c.payload.data());
    if (expected_saved_ == 0) engine()->request_commit(*this);
    expected_saved_ += branches_ - 1;
    outq_.push_back({id, g.flits, 0});
    groups_.erase(key);  // (p is released by now: the key was read before)
    ++messages_out_;
  });
  if (!outq_.empty() && credits_ > 0) {
    Outgoing& o = outq_.front();
    vc::Flit f;
    f.packet = o.packet;
    f.vc = 0;
    f.bits = static_cast<std::uint8_t>((o.sent == 0 ? vc::Flit::kHead : 0) | (o.sent + 1 == o.flits ? vc::Flit::kTail : 0));
    out_->send(now, f);
    --credits_;
    --stored_;
    engine()->note_progress();
    if (++o.sent == o.flits) outq_.pop_front();
  }
  return outq_.empty() ? kNever : (credits_ > 0 ? now + 1 : kNever);
}

void InterLevelCombiner::report_held(std::vector<HeldTraffic>& out) const {
  if (stored_ != 0) out.push_back({std::string(name()) + " combining buffer", outq_.size() + groups_.size(),
                                   std::to_string(stored_) + " flits stored", 0});
}

}  // namespace icn::hpam
