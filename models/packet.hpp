// Packets and the pool that owns them.
//
// A packet in flight is a 32-bit handle; queues and links move handles, never
// Packet objects (ARCHITECTURE rule 6). A router that replicates a broadcast
// packet clones it into a new handle that shares the message id, so every copy
// is accounted for separately until it is delivered or dropped.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn {

inline constexpr NodeId kBroadcastDestination = kNoNode - 1;
inline constexpr std::size_t kMaxPayloadBytes = 16;

struct Packet {
  enum Flags : std::uint8_t { kBroadcast = 1u << 0 };

  NodeId src = kNoNode;
  NodeId dst = kNoNode;           // kBroadcastDestination for a broadcast
  std::uint32_t seq = 0;          // sender's sequence number for this (src, dst)
  std::uint32_t message = 0;      // ledger id; copies of a broadcast share it
  Cycle injected = 0;             // cycle the NIC put it on the first link
  Cycle created = 0;              // cycle its source created it (open-loop traffic)
  std::uint32_t route = 0;        // family-specific routing state (e.g. iBT pattern)
  std::uint16_t hops = 0;         // links traversed so far
  std::uint8_t flags = 0;
  std::uint8_t payload_len = 0;
  std::array<std::uint8_t, kMaxPayloadBytes> payload{};

  bool broadcast() const { return (flags & kBroadcast) != 0; }
};

// "packet 3 -> 12 seq 0" (or "-> all") for diagnostics.
inline std::string describe_packet(const Packet& p) {
  std::string s = "packet " + std::to_string(p.src) + " -> ";
  s += p.broadcast() ? std::string("all") : std::to_string(p.dst);
  s += " seq " + std::to_string(p.seq);
  return s;
}

class PacketPool {
 public:
  PacketId allocate() {
    PacketId id;
    if (!free_.empty()) {
      id = free_.back();
      free_.pop_back();
      packets_[id] = Packet{};
    } else {
      if (packets_.size() >= kNoPacket - 1) throw std::length_error("packet pool exhausted");
      id = static_cast<PacketId>(packets_.size());
      packets_.emplace_back();
    }
    ++live_;
    if (live_ > peak_live_) peak_live_ = live_;
    return id;
  }

  PacketId clone(PacketId original) {
    const PacketId id = allocate();
    packets_[id] = packets_[original];  // allocate() may have grown the vector
    return id;
  }

  void release(PacketId id) {
    free_.push_back(id);
    --live_;
  }

  Packet& operator[](PacketId id) { return packets_[id]; }
  const Packet& operator[](PacketId id) const { return packets_[id]; }

  // Packets allocated and not yet released: zero at the end of a clean run.
  std::size_t live() const { return live_; }
  std::size_t peak_live() const { return peak_live_; }

 private:
  std::vector<Packet> packets_;
  std::vector<PacketId> free_;
  std::size_t live_ = 0;
  std::size_t peak_live_ = 0;
};

}  // namespace icn
