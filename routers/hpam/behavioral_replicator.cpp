#include "routers/hpam/behavioral_replicator.hpp"

#include <stdexcept>
#include <string>

namespace icn::hpam {

bool ReplicatorOutputs::operator==(const ReplicatorOutputs& o) const {
  if (in_ready != o.in_ready || out_valid != o.out_valid) return false;
  // Only offered flits are compared: what sits on an invalid output is noise.
  for (unsigned i = 0; i < kMaxReplicatorBranches; ++i)
    if (out_valid.test(i) && !(out[i] == o.out[i])) return false;
  return true;
}

BehavioralReplicator::BehavioralReplicator(unsigned branches, ReplicatorMode mode, unsigned depth)
    : branches_(branches), mode_(mode), depth_(depth) {
  if (branches < 1 || branches > kMaxReplicatorBranches)
    throw std::invalid_argument("replicator: branches must be 1.." + std::to_string(kMaxReplicatorBranches));
  if (mode == ReplicatorMode::kBuffered && depth < 1)
    throw std::invalid_argument("replicator: a buffered replicator needs depth >= 1");
  all_ = BranchMask::first(branches);
  if (mode == ReplicatorMode::kBuffered) {
    fifo_.resize(branches);
    for (auto& f : fifo_) f.slot.resize(depth);
  }
  count_.assign(branches, 0);
}

ReplicatorOutputs BehavioralReplicator::cycle(const ReplicatorInputs& in) {
  ReplicatorOutputs out;
  const BranchMask mask = in.in_mask & all_;
  if (mode_ == ReplicatorMode::kLockstep) {
    // No storage: the flit goes through in the cycle every masked branch is ready.
    out.in_ready = in.in_valid && mask.any() && (in.out_ready & mask) == mask;
    if (out.in_ready) {
      out.out_valid = mask;
      for (unsigned i = 0; i < branches_; ++i)
        if (mask.test(i)) out.out[i] = in.in;
    }
    return out;
  }
  // Buffered: offer each FIFO's head; take the input when every masked FIFO
  // has room as registered (a pop in this cycle does not make room until the edge).
  BranchMask room;
  for (unsigned i = 0; i < branches_; ++i) {
    if (count_[i] != 0) {
      out.out_valid.set(i);
      out.out[i] = fifo_[i].slot[fifo_[i].head];
    }
    if (count_[i] < depth_) room.set(i);
  }
  out.in_ready = in.in_valid && mask.any() && (room & mask) == mask;
  // Clock edge: pops, then pushes.
  for (unsigned i = 0; i < branches_; ++i) {
    Fifo& f = fifo_[i];
    if (out.out_valid.test(i) && in.out_ready.test(i)) {
      f.head = f.head + 1 == depth_ ? 0 : f.head + 1;
      --count_[i];
    }
    if (out.in_ready && mask.test(i)) {
      unsigned at = f.head + count_[i];
      if (at >= depth_) at -= depth_;
      f.slot[at] = in.in;
      ++count_[i];
    }
  }
  return out;
}

#ifdef ICNSIM_HAS_RTL_REPLICATOR
std::unique_ptr<ReplicatorCore> make_rtl_replicator(unsigned branches, ReplicatorMode mode, unsigned depth,
                                                    const std::string& instance);
#endif

bool rtl_replicator_available() {
#ifdef ICNSIM_HAS_RTL_REPLICATOR
  return true;
#else
  return false;
#endif
}

#ifdef ICNSIM_HAS_RTL_REPLICATOR
unsigned rtl_replicator_max_branches();
#endif

unsigned rtl_replicator_branches() {
#ifdef ICNSIM_HAS_RTL_REPLICATOR
  return rtl_replicator_max_branches();
#else
  return 0;
#endif
}

std::unique_ptr<ReplicatorCore> make_replicator(ReplicatorImpl impl, unsigned branches, ReplicatorMode mode,
                                                unsigned depth, [[maybe_unused]] const std::string& instance) {
  if (impl == ReplicatorImpl::kBehavioral) return std::make_unique<BehavioralReplicator>(branches, mode, depth);
#ifdef ICNSIM_HAS_RTL_REPLICATOR
  return make_rtl_replicator(branches, mode, depth, instance);
#else
  return nullptr;
#endif
}

}  // namespace icn::hpam
