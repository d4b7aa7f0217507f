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
#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace icn::hpam {

// The paper's machines with one level-1 processor have f = c2 links down from
// it (256 for a 256x256 level 2).
constexpr unsigned kMaxReplicatorBranches = 256;

// One bit per branch (bit i = branch i), as wide as the largest replicator.
// It reads like the unsigned masks it replaced: built from an integer,
// combined with & | ~ and shifts, compared with an integer, tested as a bool.
class BranchMask {
 public:
  static constexpr unsigned kWords = (kMaxReplicatorBranches + 63) / 64;
  constexpr BranchMask() = default;
  constexpr BranchMask(std::uint64_t low) : w_{low} {}  // NOLINT: implicit, like an unsigned mask
  // Branches 0 .. n-1.
  static BranchMask first(unsigned n) {
    BranchMask m;
    for (unsigned i = 0; i < n; ++i) m.set(i);
    return m;
  }
  bool test(unsigned i) const { return i < kMaxReplicatorBranches && ((w_[i / 64] >> (i % 64)) & 1u); }
  void set(unsigned i) { w_[i / 64] |= std::uint64_t{1} << (i % 64); }
  std::uint64_t word(unsigned k) const { return w_[k]; }
  void set_word(unsigned k, std::uint64_t v) { w_[k] = v; }
  bool any() const {
    for (auto x : w_)
      if (x != 0) return true;
    return false;
  }
  explicit operator bool() const { return any(); }

  friend BranchMask operator&(BranchMask a, const BranchMask& b) {
    for (unsigned k = 0; k < kWords; ++k) a.w_[k] &= b.w_[k];
    return a;
  }
  friend BranchMask operator|(BranchMask a, const BranchMask& b) {
    for (unsigned k = 0; k < kWords; ++k) a.w_[k] |= b.w_[k];
    return a;
  }
  BranchMask operator~() const {
    BranchMask m;
    for (unsigned k = 0; k < kWords; ++k) m.w_[k] = ~w_[k];
    return m;
  }
  BranchMask& operator&=(const BranchMask& b) { return *this = *this & b; }
  BranchMask& operator|=(const BranchMask& b) { return *this = *this | b; }
  BranchMask operator>>(unsigned n) const {
    BranchMask m;
    for (unsigned i = n; i < kMaxReplicatorBranches; ++i)
      if (test(i)) m.set(i - n);
    return m;
  }
  BranchMask operator<<(unsigned n) const {
    BranchMask m;
    for (unsigned i = 0; i + n < kMaxReplicatorBranches; ++i)
      if (test(i)) m.set(i + n);
    return m;
  }
  friend bool operator==(const BranchMask& a, const BranchMask& b) { return a.w_ == b.w_; }
  friend bool operator!=(const BranchMask& a, const BranchMask& b) { return !(a == b); }
  // Hexadecimal, most significant nonzero word first (in the stream's base for one word).
  friend std::ostream& operator<<(std::ostream& os, const BranchMask& m) {
    unsigned top = kWords - 1;
    while (top > 0 && m.w_[top] == 0) --top;
    for (unsigned k = top + 1; k-- > 0;) os << m.w_[k] << (k != 0 ? "_" : "");
    return os;
  }

 private:
  std::array<std::uint64_t, kWords> w_{};
};

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
  BranchMask in_mask;    // branches this flit goes to (bit i = branch i); nonzero when in_valid
  BranchMask out_ready;  // bit i: branch i's downstream takes a flit this cycle if offered
};

// Outputs of the same cycle. A flit on branch i moves when out_valid bit i and
// out_ready bit i are both set.
struct ReplicatorOutputs {
  bool in_ready = false;  // the input flit is taken this cycle
  BranchMask out_valid;   // bit i: a flit is offered on branch i
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
  // A core with signals of its own (the Verilated RTL) writes them to `path`
  // from the next cycle on, one sample per cycle at now_cycle() x
  // steps_per_cycle `unit`s (the main waveform's time base);
  // finish_waveform() closes the file ("" or one line). The behavioural core
  // has none: its state is in the SystemC waveform (InterLevelReplicator::trace).
  virtual void trace_waveform(const std::string& /*path*/, std::function<std::uint64_t()> /*now_cycle*/,
                              std::uint64_t /*steps_per_cycle*/, const std::string& /*unit*/) {}
  virtual std::string finish_waveform() { return ""; }
};

enum class ReplicatorImpl { kBehavioral, kRtl };

// Throws std::invalid_argument for branches outside 1..kMaxReplicatorBranches
// (1..rtl_replicator_branches() for kRtl), or kBuffered with depth 0. Returns
// nullptr for kRtl when this build has no Verilated replicator
// (ICNSIM_HAS_RTL_REPLICATOR unset).
// `instance` names the Verilated model (its waveform's top scope): the
// block that hosts it, e.g. "icnsim.repl_l1_r1_0.rtl".
std::unique_ptr<ReplicatorCore> make_replicator(ReplicatorImpl impl, unsigned branches, ReplicatorMode mode,
                                                unsigned depth, const std::string& instance = "replicator");
bool rtl_replicator_available();
// Branches of the verilated RTL replicator (its Branches parameter, chosen at
// configure time: -DICNSIM_RTL_REPLICATOR_BRANCHES); 0 without one.
unsigned rtl_replicator_branches();

}  // namespace icn::hpam
