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
  // `current` is the router's own holdings (it updates them through set()),
  // `previous` a scratch copy of the same size.
  void attach(Word* current, Word* previous, unsigned words) {
    current_ = current;
    previous_ = previous;
    words_ = words;
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
  Word* current_ = nullptr;
  Word* previous_ = nullptr;
  unsigned words_ = 0;
  Cycle stamp_ = kNever;
};

}  // namespace icn::ibt
