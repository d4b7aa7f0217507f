// BroadcastPortArbiter: one outgoing link of an all-port broadcast router and the
// arbiter that picks, each cycle, the one packet it sends.
//
// The port has two sets of packet numbers: `eligible` (held by this router
// and of a colour this port may carry) and `sent` (already put on the link).
// They live in the router's arena with its other sets; the router passes
// them in (PortSets), which keeps a million routers' ports 16 bytes smaller
// each than if every port pointed at its own.
// In cycle t its candidates are eligible - sent - what the neighbour is known
// to hold (its HoldingsRegister, one cycle late). It sends one candidate per
// cycle, chosen by the port's order:
//   ascending   lowest packet number first (pkt(1) first: "in order")
//   descending  highest first ("reverse order")
//   arrival     the packet that reached this router first (FIFO), then lowest
// The candidates left after the send are the port's queue: the packets it
// still owes its neighbour.
#pragma once

#include <cstdint>

#include "routers/ibt/ibt_link.hpp"
#include "routers/ibt/holdings_register.hpp"
#include "routers/ibt/packet_bits.hpp"

namespace icn::ibt {

enum class PortOrder : std::uint8_t { kAscending, kDescending, kArrival };

struct PortSets {
  Word* eligible;
  Word* sent;
};

class BroadcastPortArbiter {
 public:
  void connect(IbtLink& out, const HoldingsRegister& neighbour) {
    out_ = &out;
    neighbour_ = &neighbour;
  }
  bool connected() const { return out_ != nullptr; }
  IbtLink* link() const { return out_; }
  // A hint: if the port has eligible packets it has not sent, candidates()
  // will read the neighbour's holdings register; start loading it.
  void prefetch_neighbour(PortSets sets, unsigned words) const {
    if (any_unsent(sets, words) && neighbour_ != nullptr) __builtin_prefetch(neighbour_);
  }

  static void make_eligible(PortSets sets, unsigned p) { set(sets.eligible, p); }

  // Candidates for cycle t into `out` (W words); false if there are none. The
  // neighbour's status is read only when something is eligible and unsent.
  static bool any_unsent(PortSets sets, unsigned words) {
    Word unsent = 0;
    for (unsigned i = 0; i < words; ++i) unsent |= sets.eligible[i] & ~sets.sent[i];
    return unsent != 0;
  }
  bool candidates(PortSets sets, Cycle t, unsigned words, Word* out) const {
    Word unsent = 0;
    for (unsigned i = 0; i < words; ++i) unsent |= out[i] = sets.eligible[i] & ~sets.sent[i];
    if (unsent == 0) return false;
    const Word* held = neighbour_->visible(t);
    Word left = 0;
    for (unsigned i = 0; i < words; ++i) left |= out[i] &= ~held[i];
    return left != 0;
  }

  // The neighbour holds packet p, as its status shows in cycle t.
  bool neighbour_holds(Cycle t, unsigned p) const { return test(neighbour_->visible(t), p); }
  // A packet this port owes its neighbour while its link has failed.
  void note_failed_request() { ++failed_requests_; }
  std::uint32_t failed_requests() const { return failed_requests_; }

  void mark_sent(PortSets sets, unsigned p) {
    set(sets.sent, p);
    ++transfers_;
  }

  void note_backlog(unsigned backlog) {
    if (backlog > max_backlog_) max_backlog_ = backlog;
    backlog_ = backlog;
  }

  std::uint32_t transfers() const { return transfers_; }
  std::uint32_t max_backlog() const { return max_backlog_; }
  std::uint32_t backlog() const { return backlog_; }  // after the last cycle it was evaluated

 private:
  IbtLink* out_ = nullptr;
  const HoldingsRegister* neighbour_ = nullptr;
  std::uint32_t transfers_ = 0;
  std::uint32_t max_backlog_ = 0;
  std::uint32_t backlog_ = 0;
  std::uint32_t failed_requests_ = 0;  // packets owed while the link was failed (at most k)
};

}  // namespace icn::ibt
