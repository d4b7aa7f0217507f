// The crossbar of one virtual-channel router (docs/vc_router.md), with its
// switch-traversal pipeline register(s).
#pragma once

#include <cstdint>
#include <vector>

#include "models/prefetch.hpp"
#include "models/types.hpp"
#include "routers/vc/flit.hpp"

namespace icn::vc {

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
 public:
  void prefetch() const { prefetch_elements(ring_); }  // Clocked::prefetch

 private:
  unsigned delay_ = 1;
  unsigned slots_ = 2;
  unsigned ports_ = 0;
  unsigned pending_ = 0;
  std::vector<Slot> ring_;
};

}  // namespace icn::vc
