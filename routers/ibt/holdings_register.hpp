// HoldingsRegister: the status sideband of an all-port broadcast router.
//
// A router tells its neighbours which packets of the current broadcast it
// holds, so an output port sends only packets "to its nearest neighbours that
// have not received it yet" (Zhang & Deng, section 4.1). In hardware this is a
// k-bit status vector per link, driven from a register: a neighbour sees in
// cycle t what the router held at the end of cycle t-1 (packets that crossed
// the link by then). The register double-buffers the holdings so that a
// neighbour reads the same value whether it is evaluated before or after this
// router in cycle t (ARCHITECTURE rule 3).
#pragma once

#include <algorithm>

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
    if (words == 1) {
      current_ = &inline_[0];
      previous_ = &inline_[1];
    } else {
      current_ = external;
      previous_ = external + words;
    }
  }

  // Records that the router holds packet p from cycle t on.
  void set(unsigned p, Cycle t) {
    if (stamp_ != t) {
      std::copy(current_, current_ + words_, previous_);
      stamp_ = t;
    }
    ibt::set(current_, p);
  }

  // What a neighbour sees in cycle t: the holdings at the end of cycle t-1.
  const Word* visible(Cycle t) const { return stamp_ == t ? previous_ : current_; }

  const Word* current() const { return current_; }

 private:
  Cycle stamp_ = kNever;
  Word inline_[2] = {0, 0};
  Word* current_ = nullptr;
  Word* previous_ = nullptr;
  unsigned words_ = 0;
};

}  // namespace icn::ibt
