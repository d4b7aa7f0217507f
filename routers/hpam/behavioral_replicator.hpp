// BehavioralReplicator: the C++ model of the inter-level replicator
// (replicator_core.hpp states the contract and the two modes).
#pragma once

#include <vector>

#include "routers/hpam/replicator_core.hpp"

namespace icn::hpam {

class BehavioralReplicator : public ReplicatorCore {
 public:
  BehavioralReplicator(unsigned branches, ReplicatorMode mode, unsigned depth);

  unsigned branches() const override { return branches_; }
  ReplicatorMode mode() const override { return mode_; }
  unsigned depth() const override { return mode_ == ReplicatorMode::kBuffered ? depth_ : 0; }
  ReplicatorOutputs cycle(const ReplicatorInputs& in) override;
  unsigned occupancy(unsigned branch) const override { return branch < branches_ ? count_[branch] : 0; }

 private:
  // One ring buffer per branch: the shape of the RTL's FIFOs.
  struct Fifo {
    std::vector<ReplicatorFlit> slot;
    unsigned head = 0;
  };
  unsigned branches_;
  ReplicatorMode mode_;
  unsigned depth_;
  BranchMask all_;
  std::vector<Fifo> fifo_;
  std::vector<unsigned> count_;
};

}  // namespace icn::hpam
