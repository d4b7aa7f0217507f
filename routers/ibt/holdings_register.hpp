// HoldingsRegister: the status sideband of an all-port broadcast router.
//
// A router tells its neighbours which packets of the current broadcast it
// holds, so an output port sends only packets "to its nearest neighbours that
// have not received it yet" (Zhang & Deng, section 4.1). In hardware this is a
// k-bit status vector per link, driven from a register: a neighbour sees in
// cycle t what the router held at the end of cycle t-1 (packets that crossed
// the link by then). The register double-buffers the holdings so that a
// neighbour reads the same value whether it is evaluated before or after this
// router in cycle t (ARCHITECTURE rule 3), and on another worker thread while
// the owner changes it (run.threads): the owner's first change in cycle t
// copies the holdings into the other buffer and changes only that one, so the
// buffer neighbours read in cycle t is never written in cycle t. One word
// (the cycle stamp and which buffer is current) tells a reader which is which.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "models/types.hpp"
#include "routers/ibt/packet_bits.hpp"

namespace icn::ibt {

class HoldingsRegister {
 public:
  HoldingsRegister() = default;
  HoldingsRegister(const HoldingsRegister&) = delete;  // it may point into itself
  HoldingsRegister& operator=(const HoldingsRegister&) = delete;

  // Sizes the register for `words` words. Up to 64 packets the holdings live
  // in the register itself, next to its cycle stamp, so a neighbour's read
  // touches one cache line; larger sets use `external` (2 * words words).
  void init(unsigned words, Word* external) {
    words_ = words;
    buffer_[0] = words == 1 ? &inline_[0] : external;
    buffer_[1] = words == 1 ? &inline_[1] : external + words;
  }

  // Records that the router holds packet p from cycle t on (owner only).
  void set(unsigned p, Cycle t) {
    std::uint64_t state = state_.load(std::memory_order_relaxed);
    unsigned now = state & 1u;
    if ((state >> 1) != t) {
      // First change in cycle t: what neighbours see this cycle stays in
      // buffer `now`; the change goes into a copy in the other one.
      std::copy(buffer_[now], buffer_[now] + words_, buffer_[now ^ 1u]);
      now ^= 1u;
      state_.store((static_cast<std::uint64_t>(t) << 1) | now, std::memory_order_relaxed);
    }
    ibt::set(buffer_[now], p);
  }

  // What a neighbour sees in cycle t: the holdings at the end of cycle t-1.
  const Word* visible(Cycle t) const {
    const std::uint64_t state = state_.load(std::memory_order_relaxed);
    return buffer_[(state & 1u) ^ ((state >> 1) == t ? 1u : 0u)];
  }

  // What the router holds now (owner, or after the phase).
  const Word* current() const { return buffer_[state_.load(std::memory_order_relaxed) & 1u]; }

 private:
  // (last cycle changed << 1) | current buffer; "never changed" at first.
  std::atomic<std::uint64_t> state_{~std::uint64_t{1}};
  Word inline_[2] = {0, 0};
  Word* buffer_[2] = {nullptr, nullptr};
  unsigned words_ = 0;
};

}  // namespace icn::ibt
