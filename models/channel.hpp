// A channel: one direction of a branch, i.e. `width` parallel physical links
// with the same latency (a branch of capacity c is c full-duplex physical links,
// so two Channels of width c).
//
// The channel is a delay line indexed by cycle (ARCHITECTURE rule 3): the sender
// writes slot t + L in cycle t, the receiver reads slot t in cycle t. With L >= 1
// the two never touch the same slot in the same cycle, so sender and receiver can
// be evaluated in either order. Each write wakes the receiving block for the
// cycle the packet becomes visible, which is how idle routers stay asleep.
#pragma once

#include <cassert>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/types.hpp"

namespace icn {

class Channel {
 public:
  Channel(std::string name, unsigned width, unsigned latency)
      : name_(std::move(name)),
        width_(width),
        latency_(latency),
        mask_(ring_rows(latency) - 1),
        slots_(static_cast<std::size_t>(mask_ + 1) * width, kNoPacket),
        counts_(mask_ + 1, 0) {
    assert(width >= 1 && latency >= 1);
  }

  void connect_receiver(Clocked& receiver) { receiver_ = &receiver; }

  const std::string& name() const { return name_; }
  unsigned width() const { return width_; }
  unsigned latency() const { return latency_; }

  // A failed channel accepts nothing (fault injection; traffic behind it stalls).
  void set_failed(bool failed) { failed_ = failed; }
  bool failed() const { return failed_; }

  // Physical links still free for a transfer started in cycle t.
  unsigned free_links(Cycle t) const {
    if (failed_) return 0;
    return width_ - (send_cycle_ == t ? sent_this_cycle_ : 0);
  }

  // Starts a transfer on a free link in cycle t; visible to the receiver in t + L.
  void send(Cycle t, PacketId packet) {
    assert(free_links(t) > 0);
    if (send_cycle_ != t) {
      send_cycle_ = t;
      sent_this_cycle_ = 0;
    }
    ++sent_this_cycle_;
    const Cycle arrive = t + latency_;
    const std::size_t row = arrive & mask_;
    if (counts_[row] == width_) throw std::logic_error(name_ + ": receiver did not read its link");
    slots_[row * width_ + counts_[row]++] = packet;
    ++transfers_;
    if (receiver_ != nullptr) receiver_->engine()->wake(*receiver_, arrive);
  }

  // The packets that finish crossing the channel at the end of cycle t - 1 and
  // are seen by the receiver in cycle t, in link order; the slot is emptied.
  template <class Fn>
  void receive(Cycle t, Fn&& fn) {
    const std::size_t row = t & mask_;
    const unsigned n = counts_[row];
    counts_[row] = 0;
    for (unsigned i = 0; i < n; ++i) fn(slots_[row * width_ + i]);
  }

  // Statistics: one transfer occupies one physical link for one cycle.
  std::uint64_t transfers() const { return transfers_; }
  // Transfers started in cycle t (for waveforms).
  unsigned sent_in(Cycle t) const { return send_cycle_ == t ? sent_this_cycle_ : 0; }
  // Packets in flight on the channel (sent, not yet received).
  unsigned in_flight() const {
    unsigned n = 0;
    for (unsigned c : counts_) n += c;
    return n;
  }

 private:
  // At least latency + 1 rows, a power of two so a cycle maps to its row by a mask.
  static std::size_t ring_rows(unsigned latency) {
    std::size_t rows = 2;
    while (rows < latency + 1u) rows *= 2;
    return rows;
  }

  std::string name_;
  unsigned width_;
  unsigned latency_;
  std::size_t mask_;
  std::vector<PacketId> slots_;
  std::vector<unsigned> counts_;
  Clocked* receiver_ = nullptr;
  bool failed_ = false;
  Cycle send_cycle_ = kNever;
  unsigned sent_this_cycle_ = 0;
  std::uint64_t transfers_ = 0;
};

}  // namespace icn
