// The inter-level replication hardware of HPAM (Ben Miled et al., the paper's
// multicast support): one input stream of flits in, F branch outputs, every
// flit of a packet copied onto each branch of the packet's branch mask.
//
// This header is the contract shared by the behavioural model
// (BehavioralReplicator) and the Verilated RTL (rtl/replicator/): both are
// driven one clock cycle at a time through cycle(), and both must give
// identical outputs for identical inputs.
//
// Flow control is valid/ready per branch. What "ready" means is the caller's:
// the HPAM router sets out_ready[i] when branch i's downstream input VC has a
// credit. The two modes make the flow-control consequence of replication
// explicit:
// - kLockstep: no storage. A flit is taken only in a cycle in which every
//   branch of its mask is ready, and then leaves on all of them at once
//   (combinational: in_ready = AND of out_ready over the mask). One slow
//   branch stalls them all.
// - kBuffered: a FIFO of `depth` flits per branch. A flit is taken when every
//   masked FIFO has room (registered: in_ready does not look at out_ready);
//   each branch drains on its own. Back-pressure reaches the input only when a
//   branch falls `depth` flits behind.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

namespace icn::hpam {

constexpr unsigned kMaxReplicatorBranches = 16;

// One flit as the replicator sees it: an opaque 64-bit word (the router packs
// its flit into it) and the packet's last-flit bit.
struct ReplicatorFlit {
  std::uint64_t data = 0;
  bool last = false;
  bool operator==(const ReplicatorFlit& o) const { return data == o.data && last == o.last; }
};

enum class ReplicatorMode { kLockstep, kBuffered };

// Inputs sampled in one cycle.
struct ReplicatorInputs {
  bool in_valid = false;
  ReplicatorFlit in;
  std::uint32_t in_mask = 0;    // branches this flit goes to (bit i = branch i); nonzero when in_valid
  std::uint32_t out_ready = 0;  // bit i: branch i's downstream takes a flit this cycle if offered
};

// Outputs of the same cycle. A flit on branch i moves when out_valid bit i and
// out_ready bit i are both set.
struct ReplicatorOutputs {
  bool in_ready = false;        // the input flit is taken this cycle
  std::uint32_t out_valid = 0;  // bit i: a flit is offered on branch i
  std::array<ReplicatorFlit, kMaxReplicatorBranches> out{};
  bool operator==(const ReplicatorOutputs& o) const;
};

class ReplicatorCore {
 public:
  virtual ~ReplicatorCore() = default;
  virtual unsigned branches() const = 0;
  virtual ReplicatorMode mode() const = 0;
  virtual unsigned depth() const = 0;  // flits per branch FIFO (kBuffered); 0 in kLockstep
  // One clock cycle: the outputs follow from `in` and the state registered at
  // the previous edge; then the clock edge updates the state (pushes and pops).
  virtual ReplicatorOutputs cycle(const ReplicatorInputs& in) = 0;
  // Flits held for branch i (always 0 in kLockstep).
  virtual unsigned occupancy(unsigned branch) const = 0;
};

enum class ReplicatorImpl { kBehavioral, kRtl };

// Throws std::invalid_argument for branches outside 1..kMaxReplicatorBranches,
// or kBuffered with depth 0. Returns nullptr for kRtl when this build has no
// Verilated replicator (ICNSIM_HAS_RTL_REPLICATOR unset).
std::unique_ptr<ReplicatorCore> make_replicator(ReplicatorImpl impl, unsigned branches, ReplicatorMode mode,
                                                unsigned depth);
bool rtl_replicator_available();

}  // namespace icn::hpam
