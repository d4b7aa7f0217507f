#include "routers/hpam/inter_level_replicator.hpp"

#include "routers/hpam/hpam_topology.hpp"
#include "routers/vc/vc_network.hpp"

#include <algorithm>

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

void InterLevelReplicator::commit(Cycle) {
  ledger_.deliveries_expected += expected_added_;
  expected_added_ = 0;
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
    ++flits_taken_;
    if (fl.head()) {
      ++packets_copied_;
      // One copy per branch, addressed to the same row of each column below.
      const Packet& orig = pool_[fl.packet];
      const Position dst = geo_.position(orig.dst & ~HpamTopology::kReplicateBit);
      Copies& c = copies_[current_serial_];
      for (unsigned i = 0; i < f; ++i) {
        const PacketId id = pool_.clone(fl.packet, owner());  // owner(): this worker's free list
        const Position below = geo_.below(at_, i);
        pool_[id].dst = geo_.node({below.level, dst.row, below.col});
        c.copy.push_back(id);
      }
      if (expected_added_ == 0) engine()->request_commit(*this);
      expected_added_ += f - 1;
      if (follower_ != nullptr) {
        std::vector<NodeId> dsts;
        for (PacketId id : c.copy) dsts.push_back(pool_[id].dst);
        follower_->replicated(pool_[fl.packet].message, fl.packet, basename(), c.copy, dsts, now);
      }
    }
    if (fl.tail()) {
      if (follower_ != nullptr)
        if (vc::PacketFollower::Copy* copy = follower_->copy(pool_[fl.packet].message, fl.packet)) copy->live = false;
      pool_.release(fl.packet, owner());
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
    if (follower_ != nullptr && fl.head())
      if (vc::PacketFollower::Copy* copy = follower_->copy(pool_[fl.packet].message, fl.packet)) copy->branch_sent = now;
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

// Which message is being copied (the input's flit bus) and where each copy
// goes (one flit bus per branch: the copy's message, source and destination),
// the branches that sent a flit in the cycle as a mask, the stall bit,
// branches with a credit, and the fullest branch FIFO.
void InterLevelReplicator::trace(WaveformTracer& tracer, const std::string& prefix) const {
  const unsigned f = core_->branches();
  const std::string label = prefix.substr(prefix.find_last_of('.') + 1);  // repl_l1_r1_0
  vc::trace_flit_bus(tracer, prefix + ".in", label + "/in", in_, pool_, vcs_, geo_.nodes());
  for (unsigned i = 0; i < f; ++i)
    vc::trace_flit_bus(tracer, prefix + ".branch" + std::to_string(i), label + "/branch" + std::to_string(i), out_[i],
                       pool_, vcs_, geo_.nodes());
  tracer.add(prefix + ".sent_mask", static_cast<int>(std::min(f, 32u)), [this, f](Cycle t) {
    std::uint32_t mask = 0;
    for (unsigned i = 0; i < f && i < 32; ++i) mask |= (out_[i]->sent_in(t) != 0 ? 1u : 0u) << i;
    return mask;
  }, {prefix, label + "/sent_mask (bit i: branch i sent)", TraceRow::Radix::kBinary, ""});
  tracer.add(prefix + ".stalled", 1, [this](Cycle t) { return last_stall_ == t ? 1u : 0u; },
             {prefix, label + "/stalled", TraceRow::Radix::kBinary, ""});
  tracer.add(prefix + ".branches_ready", bits_for(f), [this, f](Cycle) {
    unsigned ready = 0;
    for (unsigned i = 0; i < f; ++i) ready += credits_[i] > 0 ? 1u : 0u;
    return ready;
  }, {prefix, label + "/branches_ready", TraceRow::Radix::kDecimal, ""});
  tracer.add(prefix + ".occupancy", bits_for(std::max(1u, core_->depth())), [this](Cycle) { return held_; },
             {prefix, label + "/occupancy (fullest branch FIFO)", TraceRow::Radix::kDecimal, ""});
}

void InterLevelReplicator::report_held(std::vector<HeldTraffic>& out) const {
  std::size_t flits = 0;
  for (const auto& q : fifo_) flits += q.size();
  for (unsigned i = 0; i < core_->branches(); ++i) flits += core_->occupancy(i);
  if (flits != 0) out.push_back({std::string(name()) + " replicator", flits, "flits of a replicated message", 0});
}

}  // namespace icn::hpam
