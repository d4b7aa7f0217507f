// The input units of one virtual-channel router (docs/vc_router.md): per
// input VC a FIFO of B flits and where its current packet is in the pipeline
// (idle -> route computation -> VC allocation -> active), and the stages the
// input unit runs itself: the buffer write and route computation.
//
// Layout for speed at scale (a 256x256 mesh keeps 65,536 routers, far more
// than any cache holds): the state of all the router's ports sits in a few
// flat arrays indexed by input VC (port * V + vc), what a busy cycle reads in
// one small record and what only statistics and diagnostics read in another,
// and no ring index is ever divided.
#pragma once

#include <cstdint>
#include <memory_resource>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/arena.hpp"
#include "models/prefetch.hpp"
#include "models/types.hpp"
#include "routers/vc/flit.hpp"
#include "routers/vc/vc_topology.hpp"

namespace icn::vc {

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
  // Its arrays come from `arena` (the network's ElaborationArena; null: the heap).
  explicit InputUnits(std::pmr::memory_resource* arena = nullptr) : arena_(arena) {}
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
    // Set by route computation (the head's wait starts) and by every switch
    // traversal; until the head itself traverses, its route-computation cycle.
    Cycle waiting_since = 0;
    // The head's stage boundaries (stage_log.hpp); the cycle it may request a
    // VC follows from these two: routed(), below.
    Cycle arrived = 0;            // its buffer write
    Cycle vc_granted = 0;
  };
  // The first cycle the head of `t` could request a VC: route computation
  // started the cycle after its buffer write, or when it found its VC idle
  // (waiting_since), whichever was later. Valid until the head traverses.
  static Cycle routed(const VcTimes& t, unsigned routing_delay) {
    return (t.arrived + 1 > t.waiting_since ? t.arrived + 1 : t.waiting_since) + routing_delay;
  }

  void resize(unsigned ports, unsigned vcs, unsigned depth) {
    if (vcs < 1 || depth < 1) throw std::invalid_argument("VC buffer: at least one VC of one entry");
    if (depth > 0xffff) throw std::invalid_argument("VC buffer: at most 65535 entries per VC");
    vcs_ = vcs;
    depth_ = depth;
    // Hot before cold: from an arena, the arrays sit in this order.
    state_.assign(arena_, static_cast<std::size_t>(ports) * vcs, VcState{});
    port_flits_.assign(arena_, ports, 0);
    slots_.assign(arena_, static_cast<std::size_t>(ports) * vcs * depth, BufferedFlit{});
    times_.assign(arena_, static_cast<std::size_t>(ports) * vcs, VcTimes{});
    heads_pending_ = false;
    waiting_for_vc_ = 0;
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

  // Buffer write, the cycle a flit arrives: it may leave from now + 1.
  void write(unsigned ivc, const Flit& f, Cycle now) {
    push(ivc, BufferedFlit{f, now + 1});
    if (f.head()) heads_pending_ = true;
  }

  // Route computation, the RC stage: every idle VC whose front flit is a
  // head starts routing in the cycle after its buffer write and may request
  // a VC routing_delay cycles later. route(port, head) is the routing
  // function: the RouteChoice for a head that arrived on input `port`.
  // Runs only while a head may be waiting (heads_pending()).
  bool heads_pending() const { return heads_pending_; }
  template <class Route>
  void compute_routes(Cycle now, unsigned routing_delay, Route&& route) {
    heads_pending_ = false;
    const unsigned ports = static_cast<unsigned>(port_flits_.size());
    for (unsigned p = 0; p < ports; ++p) {
      if (port_flits_[p] == 0) continue;
      for (unsigned v = 0; v < vcs_; ++v) {
        const unsigned ivc = p * vcs_ + v;
        VcState& s = state_[ivc];
        if (s.size == 0) continue;
        if (s.stage != Stage::kIdle) {
          // A head behind the current packet's tail: look again once the VC is idle.
          if (s.size > 1) heads_pending_ = true;
          continue;
        }
        const BufferedFlit& front = this->front(ivc);
        if (!front.flit.head())
          throw std::logic_error("input VC " + std::to_string(ivc) + ": a body flit at the front without its head");
        const Cycle start = front.ready > now ? front.ready : now;
        const RouteChoice r = route(p, front.flit);
        s.out_port = static_cast<std::uint16_t>(r.port);
        s.vc_mask = r.vc_mask;
        s.has_alt = r.has_alt;
        s.alt_port = static_cast<std::uint16_t>(r.alt_port);
        s.stage = Stage::kVcAlloc;
        s.next = start + routing_delay;
        VcTimes& t = times_[ivc];
        t.arrived = front.ready - 1;
        t.waiting_since = now;  // so routed(t) == s.next
        ++waiting_for_vc_;
      }
    }
  }

  // Heads routed and waiting for VC allocation (vc_allocator.hpp runs while
  // there are any).
  unsigned waiting_for_vc() const { return waiting_for_vc_; }
  // VC allocation granted input VC `ivc` the output VC (port, vc) in `now`:
  // it may request the switch from `next`.
  void vc_granted(unsigned ivc, unsigned port, unsigned vc, Cycle now, Cycle next) {
    VcState& s = state_[ivc];
    s.out_port = static_cast<std::uint16_t>(port);  // adaptive: the port granted
    s.out_vc = static_cast<std::uint8_t>(vc);
    s.stage = Stage::kActive;
    s.next = next;
    times_[ivc].vc_granted = now;
    --waiting_for_vc_;
  }
  // The packet of `ivc` has sent its tail through the switch: the VC is idle,
  // and the next packet's head, if one is behind it, may be routed.
  void packet_left(unsigned ivc) {
    VcState& s = state_[ivc];
    s.stage = Stage::kIdle;
    if (s.size != 0) heads_pending_ = true;
  }

  // Clocked::prefetch: what a busy cycle reads (the state and the buffered
  // flits; the stage times only when a head moves on).
  void prefetch() const {
    prefetch_elements(state_);
    prefetch_elements(slots_);
  }

 private:
  unsigned vcs_ = 1;
  unsigned depth_ = 1;
  std::pmr::memory_resource* arena_;
  FixedArray<VcState> state_;
  FixedArray<std::uint16_t> port_flits_;
  FixedArray<BufferedFlit> slots_;
  FixedArray<VcTimes> times_;
  bool heads_pending_ = false;   // an idle VC may have a head at its front
  unsigned waiting_for_vc_ = 0;  // VCs in Stage::kVcAlloc
};

}  // namespace icn::vc
