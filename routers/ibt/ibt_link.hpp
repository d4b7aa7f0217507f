// IbtLink: one direction of a torus or bypass link of an all-port router: one
// physical link, one cycle of latency (one step), a delay line like the
// foundation's Channel (models/channel.hpp): the sender writes slot t+1 in
// cycle t, the receiver reads slot t in cycle t, so the two never touch the
// same slot in one cycle (ARCHITECTURE rule 3).
//
// Why not Channel: at a million routers, reading six Channels per router per
// cycle (each an object plus two small heap arrays, scattered in memory) was
// about half of the simulation time, and the six million Channels took 1.1 GB.
// This link is 32 bytes with no heap storage, lives in the receiving router
// next to its other input links, and marks its port in the receiver's arrival
// mask, so a router reads only the links that carry a packet this cycle
// (docs/performance.md, "Torus and iBT").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "models/engine.hpp"
#include "models/types.hpp"

namespace icn::ibt {

// Which input ports of a router carry a packet in a cycle, by cycle parity.
struct ArrivalMask {
  std::uint32_t ports[2] = {0, 0};
};

class IbtLink {
 public:
  void connect_receiver(Clocked& receiver, ArrivalMask& arrivals, unsigned port) {
    receiver_ = &receiver;
    arrivals_ = &arrivals;
    port_bit_ = 1u << port;
  }

  // A failed link accepts nothing (fault injection; traffic behind it stalls).
  void set_failed(bool failed) { failed_ = failed; }
  bool failed() const { return failed_; }

  bool free(Cycle t) const { return !failed_ && sent_at_ != t; }

  // Starts a transfer in cycle t; the receiver sees it in cycle t + 1.
  void send(Cycle t, PacketId packet) {
    const unsigned slot = (t + 1) & 1u;
    if (slot_[slot] != kNoPacket) throw std::logic_error("link: receiver did not read its last packet");
    slot_[slot] = packet;
    sent_at_ = t;
    ++transfers_;
    arrivals_->ports[slot] |= port_bit_;
    receiver_->engine()->wake(*receiver_, t + 1);
  }

  // The packet that crossed the link in cycle t - 1 (kNoPacket if none); the slot is emptied.
  PacketId take(Cycle t) {
    const unsigned slot = t & 1u;
    const PacketId p = slot_[slot];
    slot_[slot] = kNoPacket;
    return p;
  }

  std::uint32_t transfers() const { return transfers_; }
  unsigned sent_in(Cycle t) const { return sent_at_ == t ? 1u : 0u; }

 private:
  PacketId slot_[2] = {kNoPacket, kNoPacket};
  Cycle sent_at_ = kNever;
  Clocked* receiver_ = nullptr;
  ArrivalMask* arrivals_ = nullptr;
  std::uint32_t port_bit_ = 0;
  std::uint32_t transfers_ = 0;
  bool failed_ = false;
};

}  // namespace icn::ibt
