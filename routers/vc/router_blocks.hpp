// The blocks of one virtual-channel router, each a small class: input unit,
// output unit, VC allocator, switch allocator, crossbar. VcRouter wires them
// and runs them once per cycle (docs/vc_router.md narrates the cycle).
#pragma once

#include <cstdint>
#include <vector>

#include "routers/common/arbiter.hpp"
#include "routers/common/separable_allocator.hpp"
#include "routers/common/vc_buffer.hpp"
#include "routers/vc/flit.hpp"

namespace icn::vc {

inline constexpr std::uint16_t kFree = 0xffff;

// A flit waiting in an input buffer, with the first cycle it may leave (the
// cycle after the buffer write).
struct BufferedFlit {
  Flit flit;
  Cycle ready = 0;
};

// Input unit: one port's VC buffers and, per VC, where its current packet is
// in the pipeline (idle -> route computation -> VC allocation -> active).
class InputUnit {
 public:
  enum class Stage : std::uint8_t { kIdle, kRouting, kVcAlloc, kActive };
  struct VcState {
    Stage stage = Stage::kIdle;
    std::uint8_t out_port = 0;
    std::uint8_t out_vc = 0;
    std::uint8_t alt_port = 0;    // adaptive: the other productive port
    bool has_alt = false;
    Cycle next = 0;               // first cycle the next stage may act
    std::uint64_t vc_mask = 0;    // output VCs the routing function allows
    Cycle waiting_since = 0;      // for the watchdog
    // The head's stage boundaries, for result.latency.stages (stage_log.hpp).
    Cycle arrived = 0;            // its buffer write
    Cycle routed = 0;             // first cycle it may request a VC
    Cycle vc_granted = 0;
  };

  void resize(unsigned vcs, unsigned depth) {
    buffer.resize(vcs, depth);
    state.assign(vcs, VcState{});
  }
  unsigned occupancy() const {
    unsigned n = 0;
    for (unsigned v = 0; v < buffer.vcs(); ++v) n += buffer.size(v);
    return n;
  }

  VcBuffer<BufferedFlit> buffer;
  std::vector<VcState> state;
};

// Output unit: who owns each downstream VC (the input VC whose packet holds
// it until its tail has left) and the credits for the downstream buffers.
class OutputUnit {
 public:
  void resize(unsigned vcs, unsigned depth) {
    owner.assign(vcs, kFree);
    credits.reset(vcs, depth);
  }
  std::uint64_t free_vcs() const {
    std::uint64_t m = 0;
    for (unsigned v = 0; v < owner.size(); ++v)
      if (owner[v] == kFree) m |= std::uint64_t{1} << v;
    return m;
  }
  std::vector<std::uint16_t> owner;  // input VC (port * V + vc) or kFree
  CreditCounter credits;
};

// VC allocator: input VCs (port * V + vc) request free output VCs
// (port * V + vc) of their routed port; separable input-first.
class VcAllocator {
 public:
  void resize(unsigned ports, unsigned vcs, SeparableAllocator::Options o) {
    alloc_.resize(ports * vcs, ports * vcs, o);
    requests.assign(ports * vcs, 0);
    grants.assign(ports * vcs, -1);
  }
  unsigned run() { return alloc_.allocate(requests.data(), grants.data()); }
  std::vector<std::uint64_t> requests;
  std::vector<int> grants;

 private:
  SeparableAllocator alloc_;
};

// Switch allocator: separable input-first at port level. Each input port's
// arbiter picks one of its VCs that has a flit ready and a credit; each
// output port's arbiter picks one of the input ports that picked it.
// Pointers move only on final grants (iSLIP's rule; one iteration).
class SwitchAllocator {
 public:
  void resize(unsigned ports, unsigned vcs) {
    vc_arb_.assign(ports, RoundRobinArbiter(vcs));
    port_arb_.assign(ports, RoundRobinArbiter(ports));
    picked_.assign(ports, -1);
    wanted_by_.assign(ports, 0);
  }
  // ready[p]: VCs of input p that may traverse; out_of(p, vc) their output.
  // grant[p] receives the winning VC of input p, or -1.
  template <class OutOf>
  void run(const std::uint64_t* ready, OutOf out_of, int* grant) {
    const unsigned n = static_cast<unsigned>(vc_arb_.size());
    for (unsigned o = 0; o < n; ++o) wanted_by_[o] = 0;
    for (unsigned p = 0; p < n; ++p) {
      grant[p] = -1;
      picked_[p] = ready[p] ? vc_arb_[p].arbitrate(ready[p]) : -1;
      if (picked_[p] >= 0) wanted_by_[out_of(p, picked_[p])] |= std::uint64_t{1} << p;
    }
    for (unsigned o = 0; o < n; ++o) {
      if (wanted_by_[o] == 0) continue;
      const int p = port_arb_[o].arbitrate(wanted_by_[o]);
      port_arb_[o].update(p);
      vc_arb_[p].update(picked_[p]);
      grant[p] = picked_[p];
    }
  }

 private:
  std::vector<RoundRobinArbiter> vc_arb_;
  std::vector<RoundRobinArbiter> port_arb_;
  std::vector<int> picked_;
  std::vector<std::uint64_t> wanted_by_;
};

// Crossbar: a flit granted the switch in cycle t reaches its output link in
// cycle t + sw_alloc_delay - 1 + st_delay (switch traversal). One flit per
// output per cycle, so a ring of (delay + 1) slots per output suffices.
class Crossbar {
 public:
  void resize(unsigned ports, unsigned delay) {
    delay_ = delay;
    slots_ = delay + 1;
    ports_ = ports;
    due_.assign(ports * slots_, kNever);
    flit_.assign(ports * slots_, Flit{});
    pending_ = 0;
  }
  unsigned delay() const { return delay_; }
  void traverse(unsigned out, Cycle granted, const Flit& f) {
    const Cycle due = granted + delay_;
    const unsigned i = out * slots_ + static_cast<unsigned>(due % slots_);
    due_[i] = due;
    flit_[i] = f;
    ++pending_;
  }
  // Calls send(out, flit) for every flit leaving in cycle `now`.
  template <class Send>
  void leave(Cycle now, Send&& send) {
    if (pending_ == 0) return;
    const unsigned slot = static_cast<unsigned>(now % slots_);
    for (unsigned out = 0; out < ports_; ++out) {
      const unsigned i = out * slots_ + slot;
      if (due_[i] != now) continue;
      --pending_;
      send(out, flit_[i]);
    }
  }
  // Flits granted the switch that have not left yet.
  bool busy() const { return pending_ != 0; }

 private:
  unsigned delay_ = 1;
  unsigned slots_ = 2;
  unsigned ports_ = 0;
  unsigned pending_ = 0;
  std::vector<Cycle> due_;
  std::vector<Flit> flit_;
};

}  // namespace icn::vc
