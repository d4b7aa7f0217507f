// BitChannel: one direction of a bundle of bit-serial physical paths.
//
// `width` parallel paths, each carrying one bit per cycle, with latency L
// (Ishii's links: one shift per clock). It is the bit-level analogue of
// Channel and follows the same rule (ARCHITECTURE rule 3): a delay line indexed
// by cycle; the sender drives slot t + L in cycle t, the receiver reads slot t in
// cycle t, so the two can be evaluated in either order.
//
// A path that nobody drives reads as (valid = 0, bit = 0): an idle wire. A
// stream is a run of driven bits; its first bit is Ishii's message bit M = 1,
// which is how a switch detects it. `valid` is not a separate wire the switch
// decodes: it records that the upstream cell drove the path in that cycle,
// which keeps idle paths free (nothing to read, nothing to wake) and gives the
// waveform its per-path valid trace.
//
// Each row remembers the cycle it holds, so stale rows read as idle without
// anybody clearing them; the receiver is woken for the cycle a bit arrives.
// Latency is 1..3 (Ishii's paths have 1: the buffering-bit count assumes it).
#pragma once

#include <cassert>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/types.hpp"

namespace icn {

class BitChannel {
 public:
  static constexpr unsigned kMaxLatency = 3;

  struct Bit {
    std::uint32_t path;
    std::uint8_t value;
  };

  BitChannel(std::string name, unsigned width, unsigned latency = 1)
      : width_(width), latency_(latency), name_(std::move(name)) {
    if (width < 1 || latency < 1 || latency > kMaxLatency)
      throw std::invalid_argument("BitChannel " + name_ + ": width >= 1 and latency 1.." + std::to_string(kMaxLatency));
    mask_ = latency < 2 ? 1 : 3;  // rows: a power of two > latency, found with a mask
    bits_.resize(static_cast<std::size_t>(mask_ + 1) * width);
    last_drive_.assign(width, kNever);
  }

  void connect_receiver(Clocked& receiver) { receiver_ = &receiver; }

  const std::string& name() const { return name_; }
  unsigned width() const { return width_; }
  unsigned latency() const { return latency_; }

  // Drives `value` on `path` in cycle t; the receiver sees it in cycle t + L.
  void drive(Cycle t, unsigned path, bool value) {
    if (path >= width_) throw std::logic_error(name_ + ": no path " + std::to_string(path));
    if (last_drive_[path] == t)
      throw std::logic_error(name_ + ": path " + std::to_string(path) + " driven twice in cycle " + std::to_string(t));
    last_drive_[path] = t;
    const Cycle arrive = t + latency_;
    Row& row = rows_[arrive & mask_];
    if (row.cycle != arrive) {  // first bit for that cycle: start the row, wake the receiver once
      row.cycle = arrive;
      row.count = 0;
      if (receiver_ != nullptr) receiver_->engine()->wake(*receiver_, arrive);
    }
    bits_[(arrive & mask_) * width_ + row.count++] = Bit{path, static_cast<std::uint8_t>(value ? 1 : 0)};
    ++driven_;
    ones_ += value ? 1 : 0;
  }

  // The bits seen by the receiver in cycle t (driven in t - L), in drive order.
  template <class Fn>
  void receive(Cycle t, Fn&& fn) const {
    const Row& row = rows_[t & mask_];
    if (row.cycle != t) return;
    const Bit* b = &bits_[(t & mask_) * width_];
    for (std::uint32_t i = 0; i < row.count; ++i) fn(b[i].path, b[i].value != 0);
  }

  // What `path` carries in cycle t as the receiver sees it: 0 idle, 2 driven 0,
  // 3 driven 1 (bit 1 = valid, bit 0 = value). For waveforms and tests.
  unsigned seen(Cycle t, unsigned path) const {
    unsigned v = 0;
    receive(t, [&](std::uint32_t p, bool value) {
      if (p == path) v = 2u | (value ? 1u : 0u);
    });
    return v;
  }
  // What `path` was driven with in cycle t (visible at t + L), same encoding.
  unsigned driven_in(Cycle t, unsigned path) const { return seen(t + latency_, path); }

  // Statistics: bits driven (one per path per cycle of a stream) and 1-bits among them.
  std::uint64_t bits_driven() const { return driven_; }
  std::uint64_t ones_driven() const { return ones_; }

 private:
  struct Row {
    Cycle cycle = kNever;
    std::uint32_t count = 0;
  };

  // The fields a clock touches come first: an idle channel costs one cache line.
  Row rows_[kMaxLatency + 1];
  Cycle mask_ = 1;
  unsigned width_;
  unsigned latency_;
  Clocked* receiver_ = nullptr;
  std::vector<Bit> bits_;          // rows x width, allocated once
  std::vector<Cycle> last_drive_;  // per path: catches two streams on one path
  std::uint64_t driven_ = 0;
  std::uint64_t ones_ = 0;
  std::string name_;
};

}  // namespace icn
