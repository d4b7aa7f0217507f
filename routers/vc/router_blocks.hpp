// The blocks of one virtual-channel router, each a small class: input units,
// output units, VC allocator, switch allocator, crossbar. VcRouter wires them
// and runs them once per cycle (docs/vc_router.md narrates the cycle).
//
// Layout for speed at scale (a 256x256 mesh keeps 65,536 routers, far more
// than any cache holds): each block keeps the state of all the router's ports
// in a few flat arrays indexed by input VC (port * V + vc) or port, the state a
// busy cycle reads in one small record and what only statistics and
// diagnostics read in another, and no ring index is ever divided.
// The allocators arbitrate over any number of ports and VCs (multi-word masks,
// routers/common/arbiter.hpp).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
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

// Input units of every port: per input VC a FIFO of B flits and where its
// current packet is in the pipeline (idle -> route computation -> VC
// allocation -> active).
class InputUnits {
 public:
  enum class Stage : std::uint8_t { kIdle, kRouting, kVcAlloc, kActive };
  // The stages by name, in the enum's order (the waveform's vc_state filter).
  static constexpr const char* kStageNames[] = {"idle", "routing", "waiting_for_vc", "active"};
  // What the pipeline stages read every busy cycle: 32 bytes.
  struct VcState {
    Stage stage = Stage::kIdle;
    std::uint8_t out_vc = 0;
    bool has_alt = false;         // adaptive: a second productive port
    std::uint16_t out_port = 0;
    std::uint16_t alt_port = 0;
    std::uint16_t head = 0;       // the FIFO: front slot and flits held
    std::uint16_t size = 0;
    Cycle next = 0;               // first cycle the next stage may act
    std::uint64_t vc_mask = 0;    // output VCs the routing function allows
  };
  // What only the watchdog and result.latency.stages read.
  struct VcTimes {
    Cycle waiting_since = 0;
    // The head's stage boundaries (stage_log.hpp).
    Cycle arrived = 0;            // its buffer write
    Cycle routed = 0;             // first cycle it may request a VC
    Cycle vc_granted = 0;
  };

  void resize(unsigned ports, unsigned vcs, unsigned depth) {
    if (vcs < 1 || depth < 1) throw std::invalid_argument("VC buffer: at least one VC of one entry");
    if (depth > 0xffff) throw std::invalid_argument("VC buffer: at most 65535 entries per VC");
    vcs_ = vcs;
    depth_ = depth;
    state_.assign(static_cast<std::size_t>(ports) * vcs, VcState{});
    times_.assign(static_cast<std::size_t>(ports) * vcs, VcTimes{});
    slots_.assign(static_cast<std::size_t>(ports) * vcs * depth, BufferedFlit{});
    port_flits_.assign(ports, 0);
  }

  unsigned vcs() const { return vcs_; }
  unsigned depth() const { return depth_; }
  VcState& state(unsigned ivc) { return state_[ivc]; }
  const VcState& state(unsigned ivc) const { return state_[ivc]; }
  VcTimes& times(unsigned ivc) { return times_[ivc]; }
  const VcTimes& times(unsigned ivc) const { return times_[ivc]; }
  // Flits held by all the VCs of `port`.
  unsigned port_flits(unsigned port) const { return port_flits_[port]; }

  unsigned size(unsigned ivc) const { return state_[ivc].size; }
  bool empty(unsigned ivc) const { return state_[ivc].size == 0; }
  void push(unsigned ivc, const BufferedFlit& item) {
    VcState& s = state_[ivc];
    if (s.size == depth_)
      throw std::logic_error("VC buffer overflow on VC " + std::to_string(ivc % vcs_) + " (a flit sent without a credit)");
    unsigned at = s.head + s.size;
    if (at >= depth_) at -= depth_;
    slots_[static_cast<std::size_t>(ivc) * depth_ + at] = item;
    ++s.size;
    ++port_flits_[ivc / vcs_];
  }
  const BufferedFlit& front(unsigned ivc) const { return slots_[static_cast<std::size_t>(ivc) * depth_ + state_[ivc].head]; }
  BufferedFlit pop(unsigned ivc) {
    VcState& s = state_[ivc];
    if (s.size == 0) throw std::logic_error("VC buffer underflow on VC " + std::to_string(ivc % vcs_));
    const BufferedFlit item = slots_[static_cast<std::size_t>(ivc) * depth_ + s.head];
    s.head = static_cast<std::uint16_t>(s.head + 1u == depth_ ? 0u : s.head + 1u);
    --s.size;
    --port_flits_[ivc / vcs_];
    return item;
  }

 private:
  unsigned vcs_ = 1;
  unsigned depth_ = 1;
  std::vector<VcState> state_;
  std::vector<VcTimes> times_;
  std::vector<BufferedFlit> slots_;
  std::vector<std::uint16_t> port_flits_;
};

// Output units of every port: who owns each downstream VC (the input VC whose
// packet holds it until its tail has left), which are free, and the credits
// for the downstream buffers.
class OutputUnits {
 public:
  void resize(unsigned ports, unsigned vcs, unsigned depth) {
    if (vcs > 64) throw std::invalid_argument("output unit: at most 64 VCs per port");
    vcs_ = vcs;
    owner_.assign(static_cast<std::size_t>(ports) * vcs, kFree);
    credits_.assign(static_cast<std::size_t>(ports) * vcs, depth);
    depth_.assign(ports, depth);
    const std::uint64_t all = vcs == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << vcs) - 1;
    free_.assign(ports, all);
  }
  // The downstream buffers of `port` hold `depth` flits per VC (all credits back).
  void reset_credits(unsigned port, unsigned depth) {
    depth_[port] = depth;
    for (unsigned v = 0; v < vcs_; ++v) credits_[port * vcs_ + v] = depth;
  }
  std::uint64_t free_vcs(unsigned port) const { return free_[port]; }
  std::uint16_t owner(unsigned port, unsigned vc) const { return owner_[port * vcs_ + vc]; }
  void claim(unsigned port, unsigned vc, unsigned input_vc) {
    owner_[port * vcs_ + vc] = static_cast<std::uint16_t>(input_vc);
    free_[port] &= ~(std::uint64_t{1} << vc);
  }
  void release(unsigned port, unsigned vc) {
    owner_[port * vcs_ + vc] = kFree;
    free_[port] |= std::uint64_t{1} << vc;
  }
  unsigned credits(unsigned port, unsigned vc) const { return credits_[port * vcs_ + vc]; }
  unsigned depth(unsigned port) const { return depth_[port]; }
  void consume(unsigned port, unsigned vc) {
    std::uint32_t& c = credits_[port * vcs_ + vc];
    if (c == 0) throw std::logic_error("credit underflow on VC " + std::to_string(vc));
    --c;
  }
  void restore(unsigned port, unsigned vc) {
    std::uint32_t& c = credits_[port * vcs_ + vc];
    if (c == depth_[port]) throw std::logic_error("credit overflow on VC " + std::to_string(vc));
    ++c;
  }

 private:
  unsigned vcs_ = 1;
  std::vector<std::uint16_t> owner_;   // input VC (port * V + vc) or kFree
  std::vector<std::uint32_t> credits_;
  std::vector<std::uint32_t> depth_;
  std::vector<std::uint64_t> free_;    // per port: bit v = output VC v has no owner
};

// VC allocator: input VCs (port * V + vc) request free output VCs
// (port * V + vc) of their routed port; separable input-first. Each input
// VC's request is request_words() words.
class VcAllocator {
 public:
  void resize(unsigned ports, unsigned vcs, SeparableAllocator::Options o) {
    alloc_.resize(ports * vcs, ports * vcs, o);
    words_ = alloc_.request_words();
    requests.assign(static_cast<std::size_t>(ports) * vcs * words_, 0);
    grants.assign(static_cast<std::size_t>(ports) * vcs, -1);
  }
  unsigned request_words() const { return words_; }
  std::uint64_t* request(unsigned ivc) { return &requests[static_cast<std::size_t>(ivc) * words_]; }
  unsigned run() { return alloc_.allocate(requests.data(), grants.data()); }
  const ArbiterActivity& input_activity() const { return alloc_.input_activity(); }
  ArbiterActivity output_activity() const { return alloc_.output_activity(); }
  std::vector<std::uint64_t> requests;
  std::vector<int> grants;

 private:
  SeparableAllocator alloc_;
  unsigned words_ = 1;
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
    words_ = mask_words(ports);
    wanted_by_.assign(static_cast<std::size_t>(ports) * words_, 0);
    wanted_.assign(words_, 0);
  }
  // ready[p]: VCs of input p that may traverse; out_of(p, vc) their output.
  // grant[p] receives the winning VC of input p, or -1.
  template <class OutOf>
  void run(const std::uint64_t* ready, OutOf out_of, int* grant) {
    const unsigned n = static_cast<unsigned>(vc_arb_.size());
    for (unsigned p = 0; p < n; ++p) {
      grant[p] = -1;
      picked_[p] = ready[p] ? vc_arb_[p].arbitrate(ready[p]) : -1;
      if (picked_[p] < 0) continue;
      input_activity_.record(static_cast<unsigned>(__builtin_popcountll(ready[p])));
      const unsigned o = out_of(p, picked_[p]);
      wanted_by_[static_cast<std::size_t>(o) * words_ + p / 64] |= std::uint64_t{1} << (p % 64);
      wanted_[o / 64] |= std::uint64_t{1} << (o % 64);
    }
    // Outputs in ascending order, each served once; their masks are cleared
    // for the next cycle as they are read.
    for (unsigned w = 0; w < words_; ++w) {
      for (std::uint64_t m = wanted_[w]; m != 0; m &= m - 1) {
        const unsigned o = w * 64 + static_cast<unsigned>(__builtin_ctzll(m));
        std::uint64_t* by = &wanted_by_[static_cast<std::size_t>(o) * words_];
        ++output_decisions_;
        const int p = words_ == 1 ? port_arb_[o].arbitrate(by[0]) : port_arb_[o].arbitrate_words(by);
        for (unsigned k = 0; k < words_; ++k) by[k] = 0;
        port_arb_[o].update(p);
        vc_arb_[p].update(picked_[p]);
        grant[p] = picked_[p];
      }
      wanted_[w] = 0;
    }
  }

  // Decisions of the input ports' and the output ports' arbiters, and their
  // requests: each input port's decision is one request to an output port.
  const ArbiterActivity& input_activity() const { return input_activity_; }
  ArbiterActivity output_activity() const { return {output_decisions_, input_activity_.decisions}; }

 private:
  ArbiterActivity input_activity_;
  std::uint64_t output_decisions_ = 0;
  std::vector<RoundRobinArbiter> vc_arb_;
  std::vector<RoundRobinArbiter> port_arb_;
  std::vector<int> picked_;
  unsigned words_ = 1;
  std::vector<std::uint64_t> wanted_by_;  // per output: the input ports whose pick it is
  std::vector<std::uint64_t> wanted_;     // outputs some input picked
};

// Crossbar: a flit granted the switch in cycle t reaches its output link in
// cycle t + sw_alloc_delay - 1 + st_delay (switch traversal). One flit per
// output per cycle, so a ring of a power of two > delay slots per output
// suffices (a cycle finds its slot by a mask).
class Crossbar {
 public:
  void resize(unsigned ports, unsigned delay) {
    delay_ = delay;
    slots_ = 2;
    while (slots_ < delay + 1) slots_ *= 2;
    ports_ = ports;
    ring_.assign(static_cast<std::size_t>(ports) * slots_, Slot{});
    pending_ = 0;
  }
  unsigned delay() const { return delay_; }
  void traverse(unsigned out, Cycle granted, const Flit& f) {
    const Cycle due = granted + delay_;
    Slot& s = ring_[static_cast<std::size_t>(out) * slots_ + (due & (slots_ - 1))];
    s.due = due;
    s.flit = f;
    ++pending_;
  }
  // Calls send(out, flit) for every flit leaving in cycle `now`, by output.
  template <class Send>
  void leave(Cycle now, Send&& send) {
    if (pending_ == 0) return;
    const unsigned slot = static_cast<unsigned>(now & (slots_ - 1));
    for (unsigned out = 0; out < ports_; ++out) {
      const Slot& s = ring_[static_cast<std::size_t>(out) * slots_ + slot];
      if (s.due != now) continue;
      --pending_;
      send(out, s.flit);
      if (pending_ == 0) return;
    }
  }
  // Flits granted the switch that have not left yet.
  bool busy() const { return pending_ != 0; }

 private:
  struct Slot {
    Cycle due = kNever;
    Flit flit;
  };
  unsigned delay_ = 1;
  unsigned slots_ = 2;
  unsigned ports_ = 0;
  unsigned pending_ = 0;
  std::vector<Slot> ring_;
};

}  // namespace icn::vc
