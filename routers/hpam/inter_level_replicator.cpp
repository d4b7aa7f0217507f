#include "routers/hpam/inter_level_replicator.hpp"

#include "routers/hpam/hpam_topology.hpp"

namespace icn::hpam {

InterLevelReplicator::InterLevelReplicator(sc_core::sc_module_name name, std::unique_ptr<ReplicatorCore> core,
                                           const HpamGeometry& geo, Position at, unsigned vcs, unsigned,
                                           PacketPool& pool, TrafficLedger& ledger)
    : sc_module(name), Clocked(Phase::kNetwork), core_(std::move(core)), geo_(geo), at_(at), vcs_(vcs), pool_(pool),
      ledger_(ledger) {
  const unsigned f = core_->branches();
  out_.assign(f, nullptr);
  credit_in_.assign(f, nullptr);
  credits_.assign(f, 0);
  flits_out_.assign(f, 0);
  fifo_.resize(vcs);
  all_branches_ = BranchMask::first(f);
}

void InterLevelReplicator::connect_input(vc::FlitLink* in, vc::CreditLink* credit_out) {
  in_ = in;
  credit_out_ = credit_out;
  in->connect_receiver(*this);
}

void InterLevelReplicator::connect_branch(unsigned i, vc::FlitLink* out, vc::CreditLink* credit_in,
                                          unsigned downstream_depth) {
  out_[i] = out;
  credit_in_[i] = credit_in;
  credits_[i] = downstream_depth;
  credit_in->connect_receiver(*this);
}

Cycle InterLevelReplicator::tick(Cycle now) {
  const unsigned f = core_->branches();
  for (unsigned i = 0; i < f; ++i)
    credit_in_[i]->receive(now, [&](const vc::Credit&) { ++credits_[i]; });
  in_->receive(now, [&](const vc::Flit& fl) {
    fifo_[fl.vc].push_back({fl, now + 1});
    ++flits_in_;
  });
  // The next packet: the input VC whose front flit is a head, lowest VC first
  // (the router sends one packet per VC; they are taken whole, one at a time).
  if (current_vc_ < 0)
    for (unsigned v = 0; v < vcs_; ++v)
      if (!fifo_[v].empty() && fifo_[v].front().flit.head() && fifo_[v].front().ready <= now) {
        current_vc_ = static_cast<int>(v);
        current_serial_ = next_serial_++;
        break;
      }
  ReplicatorInputs in;
  const Held* front = nullptr;
  if (current_vc_ >= 0 && !fifo_[current_vc_].empty() && fifo_[current_vc_].front().ready <= now) {
    front = &fifo_[current_vc_].front();
    in.in_valid = true;
    in.in.data = current_serial_ << 1 | (front->flit.head() ? 1u : 0u);
    in.in.last = front->flit.tail();
    in.in_mask = all_branches_;
  }
  for (unsigned i = 0; i < f; ++i)
    if (credits_[i] > 0) in.out_ready.set(i);
  const ReplicatorOutputs out = core_->cycle(in);

  if (out.in_ready) {
    const vc::Flit fl = front->flit;
    if (fl.head()) {
      // One copy per branch, addressed to the same row of each column below.
      const Packet& orig = pool_[fl.packet];
      const Position dst = geo_.position(orig.dst & ~HpamTopology::kReplicateBit);
      Copies& c = copies_[current_serial_];
      for (unsigned i = 0; i < f; ++i) {
        const PacketId id = pool_.clone(fl.packet);
        const Position below = geo_.below(at_, i);
        pool_[id].dst = geo_.node({below.level, dst.row, below.col});
        c.copy.push_back(id);
      }
      ledger_.deliveries_expected += f - 1;
    }
    if (fl.tail()) {
      pool_.release(fl.packet);
      current_vc_ = -1;
    }
    credit_out_->send(now, vc::Credit{fl.vc});
    fifo_[fl.vc].pop_front();
    engine()->note_progress();
  } else if (in.in_valid) {
    ++stalled_;
    last_stall_ = now;
  }
  for (unsigned i = 0; i < f; ++i) {
    if (!out.out_valid.test(i) || !in.out_ready.test(i)) continue;
    const std::uint64_t serial = out.out[i].data >> 1;
    Copies& c = copies_.at(serial);
    vc::Flit fl;
    fl.packet = c.copy[i];
    fl.vc = 0;
    fl.bits = static_cast<std::uint8_t>(((out.out[i].data & 1u) ? vc::Flit::kHead : 0) |
                                        (out.out[i].last ? vc::Flit::kTail : 0));
    out_[i]->send(now, fl);
    --credits_[i];
    ++flits_out_[i];
    engine()->note_progress();
    if (fl.tail() && ++c.tails_out == f) copies_.erase(serial);
  }
  unsigned held = 0;
  for (unsigned i = 0; i < f; ++i) held = std::max(held, core_->occupancy(i));
  max_occupancy_ = std::max(max_occupancy_, held);
  held_ = held;
  bool busy = held != 0;
  for (const auto& q : fifo_) busy = busy || !q.empty();
  return busy ? now + 1 : kNever;
}

void InterLevelReplicator::trace(WaveformTracer& tracer, const std::string& prefix) const {
  const unsigned f = core_->branches();
  tracer.add(prefix + ".in.flit", 1, [this](Cycle t) { return in_->sent_in(t); });
  tracer.add(prefix + ".stalled", 1, [this](Cycle t) { return last_stall_ == t ? 1u : 0u; });
  tracer.add(prefix + ".branches_ready", bits_for(f), [this, f](Cycle) {
    unsigned ready = 0;
    for (unsigned i = 0; i < f; ++i) ready += credits_[i] > 0 ? 1u : 0u;
    return ready;
  });
  tracer.add(prefix + ".occupancy", bits_for(std::max(1u, core_->depth())), [this](Cycle) { return held_; });
  for (unsigned i = 0; i < f; ++i)
    tracer.add(prefix + ".branch" + std::to_string(i) + ".flit", 1, [this, i](Cycle t) { return out_[i]->sent_in(t); });
}

void InterLevelReplicator::report_held(std::vector<HeldTraffic>& out) const {
  std::size_t flits = 0;
  for (const auto& q : fifo_) flits += q.size();
  for (unsigned i = 0; i < core_->branches(); ++i) flits += core_->occupancy(i);
  if (flits != 0) out.push_back({std::string(name()) + " replicator", flits, "flits of a replicated message", 0});
}

}  // namespace icn::hpam
