#include "routers/hpam/behavioral_replicator.hpp"

#include <stdexcept>
#include <string>

namespace icn::hpam {

bool ReplicatorOutputs::operator==(const ReplicatorOutputs& o) const {
  if (in_ready != o.in_ready || out_valid != o.out_valid) return false;
  // Only offered flits are compared: what sits on an invalid output is noise.
  for (unsigned i = 0; i < kMaxReplicatorBranches; ++i)
    if ((out_valid >> i & 1u) && !(out[i] == o.out[i])) return false;
  return true;
}

BehavioralReplicator::BehavioralReplicator(unsigned branches, ReplicatorMode mode, unsigned depth)
    : branches_(branches), mode_(mode), depth_(depth) {
  if (branches < 1 || branches > kMaxReplicatorBranches)
    throw std::invalid_argument("replicator: branches must be 1.." + std::to_string(kMaxReplicatorBranches));
  if (mode == ReplicatorMode::kBuffered && depth < 1)
    throw std::invalid_argument("replicator: a buffered replicator needs depth >= 1");
  all_ = (1u << branches) - 1;
  if (mode == ReplicatorMode::kBuffered) {
    fifo_.resize(branches);
    for (auto& f : fifo_) f.slot.resize(depth);
  }
  count_.assign(branches, 0);
}

ReplicatorOutputs BehavioralReplicator::cycle(const ReplicatorInputs& in) {
  ReplicatorOutputs out;
  const std::uint32_t mask = in.in_mask & all_;
  if (mode_ == ReplicatorMode::kLockstep) {
    // No storage: the flit goes through in the cycle every masked branch is ready.
    out.in_ready = in.in_valid && mask != 0 && (in.out_ready & mask) == mask;
    if (out.in_ready) {
      out.out_valid = mask;
      for (unsigned i = 0; i < branches_; ++i)
        if (mask >> i & 1u) out.out[i] = in.in;
    }
    return out;
  }
  // Buffered: offer each FIFO's head; take the input when every masked FIFO
  // has room as registered (a pop in this cycle does not make room until the edge).
  std::uint32_t room = 0;
  for (unsigned i = 0; i < branches_; ++i) {
    if (count_[i] != 0) {
      out.out_valid |= 1u << i;
      out.out[i] = fifo_[i].slot[fifo_[i].head];
    }
    if (count_[i] < depth_) room |= 1u << i;
  }
  out.in_ready = in.in_valid && mask != 0 && (room & mask) == mask;
  // Clock edge: pops, then pushes.
  for (unsigned i = 0; i < branches_; ++i) {
    Fifo& f = fifo_[i];
    if ((out.out_valid >> i & 1u) && (in.out_ready >> i & 1u)) {
      f.head = (f.head + 1) % depth_;
      --count_[i];
    }
    if (out.in_ready && (mask >> i & 1u)) {
      f.slot[(f.head + count_[i]) % depth_] = in.in;
      ++count_[i];
    }
  }
  return out;
}

#ifdef ICNSIM_HAS_RTL_REPLICATOR
std::unique_ptr<ReplicatorCore> make_rtl_replicator(unsigned branches, ReplicatorMode mode, unsigned depth);
#endif

bool rtl_replicator_available() {
#ifdef ICNSIM_HAS_RTL_REPLICATOR
  return true;
#else
  return false;
#endif
}

std::unique_ptr<ReplicatorCore> make_replicator(ReplicatorImpl impl, unsigned branches, ReplicatorMode mode,
                                                unsigned depth) {
  if (impl == ReplicatorImpl::kBehavioral) return std::make_unique<BehavioralReplicator>(branches, mode, depth);
#ifdef ICNSIM_HAS_RTL_REPLICATOR
  return make_rtl_replicator(branches, mode, depth);
#else
  return nullptr;
#endif
}

}  // namespace icn::hpam
