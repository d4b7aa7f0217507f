// The crossbar of one virtual-channel router (docs/vc_router.md), with its
// switch-traversal pipeline register(s).
#pragma once

#include <cstdint>
#include <memory_resource>
#include <stdexcept>
#include <vector>

#include "models/arena.hpp"
#include "models/prefetch.hpp"
#include "models/types.hpp"
#include "routers/vc/flit.hpp"

namespace icn::vc {

// Crossbar: a flit granted the switch in cycle t reaches its output link in
// cycle t + sw_alloc_delay - 1 + st_delay (switch traversal). One flit per
// output per cycle, so a ring of a power of two > delay slots per output
// suffices (a cycle finds its slot by a mask). A slot holds its flit and a
// full bit, not the cycle it is due: the router is evaluated in every cycle
// while a flit is in the crossbar (busy()), so each flit leaves, and empties
// its slot, in its due cycle, and a full slot in the slot of `now` is due now
// (the slots of the cycles now .. now + delay are all distinct).
class Crossbar {
 public:
  // Its ring comes from `arena` (the network's ElaborationArena; null: the heap).
  explicit Crossbar(std::pmr::memory_resource* arena = nullptr) : arena_(arena) {}
  void resize(unsigned ports, unsigned delay) {
    delay_ = delay;
    slots_ = 2;
    while (slots_ < delay + 1) slots_ *= 2;
    ports_ = ports;
    ring_.assign(arena_, static_cast<std::size_t>(ports) * slots_, Slot{});
    pending_ = 0;
  }
  unsigned delay() const { return delay_; }
  void traverse(unsigned out, Cycle granted, const Flit& f) {
    const Cycle due = granted + delay_;
    Slot& s = ring_[static_cast<std::size_t>(out) * slots_ + (due & (slots_ - 1))];
    if (s.full) throw std::logic_error("crossbar: two flits for one output in one cycle");
    s.packet = f.packet;
    s.vc = f.vc;
    s.bits = f.bits;
    s.full = true;
    ++pending_;
  }
  // Calls send(out, flit) for every flit leaving in cycle `now`, by output.
  template <class Send>
  void leave(Cycle now, Send&& send) {
    if (pending_ == 0) return;
    const unsigned slot = static_cast<unsigned>(now & (slots_ - 1));
    for (unsigned out = 0; out < ports_; ++out) {
      Slot& s = ring_[static_cast<std::size_t>(out) * slots_ + slot];
      if (!s.full) continue;
      s.full = false;
      --pending_;
      Flit f;
      f.packet = s.packet;
      f.vc = s.vc;
      f.bits = s.bits;
      send(out, f);
      if (pending_ == 0) return;
    }
  }
  // Flits granted the switch that have not left yet.
  bool busy() const { return pending_ != 0; }

 private:
  struct Slot {  // a flit's fields and, in its spare byte, the full bit
    PacketId packet = kNoPacket;
    std::uint8_t vc = 0;
    std::uint8_t bits = 0;
    bool full = false;
  };
  static_assert(sizeof(Slot) == sizeof(Flit) && sizeof(Flit) == sizeof(PacketId) + 4,
                "a crossbar slot copies a flit's packet, vc and bits: copy any new field of Flit too");
 public:
  void prefetch() const { prefetch_elements(ring_); }  // Clocked::prefetch

 private:
  unsigned delay_ = 1;
  unsigned slots_ = 2;
  unsigned ports_ = 0;
  unsigned pending_ = 0;
  std::pmr::memory_resource* arena_;
  FixedArray<Slot> ring_;
};

}  // namespace icn::vc
