// PacketStore: the broadcast buffer of an all-port router.
//
// It holds one copy of each packet of the current broadcast that some output
// port still owes a neighbour, and the router's holdings (every packet number
// it has received, kept or not), which drive the status sideband. A copy is
// freed as soon as no port has it as a candidate any more: candidates only
// shrink (ports send, neighbours report holding it) until a new packet
// arrives, so a freed copy is never needed again.
//
// What a copy is: packet p of the broadcast (its header and payload, the same
// in every copy, are the network's one record of it: RouterShared::packet)
// and the links this copy has crossed, its own.
#pragma once

#include <cstdint>
#include <memory>

#include "models/packet.hpp"
#include "routers/ibt/holdings_register.hpp"
#include "routers/ibt/packet_bits.hpp"

namespace icn::ibt {

class PacketStore {
 public:
  // `holdings` (2W words, used when k > 64) and `stored` (W words) are owned by the router.
  void attach(Word* holdings, Word* stored, unsigned words, unsigned slots, bool track_arrival) {
    holdings_.init(words, holdings);
    stored_ = stored;
    words_ = words;
    slots_ = slots;
    track_arrival_ = track_arrival;
  }

  bool holds(unsigned p) const { return test(holdings_.current(), p); }
  const HoldingsRegister& holdings() const { return holdings_; }

  // Packet p arrived (or was injected) in cycle t; `copy` is kept if some port may send it.
  void record(unsigned p, Cycle t) {
    holdings_.set(p, t);
    if (track_arrival_) {
      if (!arrival_) arrival_ = std::make_unique<std::uint32_t[]>(slots_);
      arrival_[p] = next_arrival_++;
    }
  }
  void keep(unsigned p, std::uint16_t hops) {
    if (!hops_) hops_ = std::make_unique<std::uint16_t[]>(slots_);
    hops_[p] = hops;
    set(stored_, p);
    if (++kept_ > max_kept_) max_kept_ = kept_;
  }

  // Links the kept copy of packet p has crossed.
  std::uint16_t hops(unsigned p) const { return hops_[p]; }
  std::uint32_t arrival_rank(unsigned p) const { return arrival_[p]; }

  // Frees every kept copy that is not in `pending`; returns how many.
  unsigned release_unneeded(const Word* pending) {
    unsigned freed = 0;
    for (unsigned i = 0; i < words_; ++i) {
      freed += static_cast<unsigned>(__builtin_popcountll(stored_[i] & ~pending[i]));
      stored_[i] &= pending[i];
    }
    kept_ -= freed;
    if (kept_ == 0) hops_.reset();  // an idle router keeps no buffer memory
    return freed;
  }

  unsigned kept() const { return kept_; }
  unsigned max_kept() const { return max_kept_; }
  const Word* stored() const { return stored_; }

 private:
  HoldingsRegister holdings_;
  Word* stored_ = nullptr;
  unsigned words_ = 0;
  unsigned slots_ = 0;
  bool track_arrival_ = false;
  std::unique_ptr<std::uint16_t[]> hops_;
  std::unique_ptr<std::uint32_t[]> arrival_;
  std::uint32_t next_arrival_ = 0;
  unsigned kept_ = 0;
  unsigned max_kept_ = 0;
};

}  // namespace icn::ibt
