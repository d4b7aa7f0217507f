// Where a packet's head spent its cycles, stage by stage, as the routers and
// NICs observe it (result.latency.stages). Kept beside the packet pool, indexed
// by packet handle, so the shared Packet stays the same for every family.
//
// Per router a head arriving in cycle a (its buffer write) and leaving on the
// output link in cycle x splits x - a into
//   routing   route computation, from the cycle after the write (includes
//             waiting behind the previous packet of the same input VC)
//   vc_alloc  from the end of routing to vc_alloc_delay after the VC grant
//   sw_alloc  from there to sw_alloc_delay after the switch grant
//   traversal the switch traversal cycles, ending with the link send
// and each link adds (arrival - send). With the tail's lag behind the head at
// the destination (serialization) they sum to the network latency exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "models/types.hpp"

namespace icn::vc {

struct PacketStages {
  Cycle last_send = 0;      // the cycle the head last left on a link
  Cycle head_ejected = 0;   // the cycle the head reached the destination NIC
  std::uint32_t links = 0;
  std::uint32_t routing = 0;
  std::uint32_t vc_alloc = 0;
  std::uint32_t sw_alloc = 0;
  std::uint32_t traversal = 0;
};

class StageLog {
 public:
  // Grows the log to hold packet `id` (when the packet is made, on the
  // simulation thread: with several threads the routers only index it).
  void reserve(PacketId id) {
    if (id >= log_.size()) log_.resize(static_cast<std::size_t>(id) + 1 + log_.size() / 2);
  }
  // A packet's head enters the network in cycle `now`: a fresh record.
  void injected(PacketId id, Cycle now) {
    reserve(id);
    log_[id] = PacketStages{};
    log_[id].last_send = now;
  }
  // A packet that entered the routers other than through a VcNic (e.g. a copy
  // made by HPAM's inter-level replicator) gets its record when first seen.
  PacketStages& operator[](PacketId id) {
    if (id >= log_.size()) log_.resize(static_cast<std::size_t>(id) + 1 + log_.size() / 2);
    return log_[id];
  }
  const PacketStages& operator[](PacketId id) const { return log_[id]; }

 private:
  std::vector<PacketStages> log_;
};

}  // namespace icn::vc
