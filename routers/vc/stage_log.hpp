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

#include <atomic>
#include <cstdint>
#include <memory>

#include "models/packet.hpp"
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

// Records sit in chunks of 4096 that never move, made when a record of the
// chunk is first touched. A packet made in the network phase (a copy from
// HPAM's inter-level replicator, on a worker thread, run.threads) gets its
// record from whichever router sees it first, so two workers may touch a new
// chunk at once: the chunk is published with one compare-and-swap, and the
// loser frees its own. Records of one packet are written by one block at a
// time (the one holding its head).
class StageLog {
 public:
  static constexpr unsigned kChunkBits = PacketPool::kChunkBits;
  static constexpr std::uint32_t kChunkRecords = 1u << kChunkBits;
  static constexpr std::uint32_t kMaxChunks = PacketPool::kMaxChunks;  // every id the pool hands out

  StageLog() : chunks_(new std::atomic<PacketStages*>[kMaxChunks]) {
    for (std::uint32_t c = 0; c < kMaxChunks; ++c) chunks_[c].store(nullptr, std::memory_order_relaxed);
  }
  ~StageLog() {
    for (std::uint32_t c = 0; c < kMaxChunks; ++c) delete[] chunks_[c].load(std::memory_order_relaxed);
  }
  StageLog(const StageLog&) = delete;
  StageLog& operator=(const StageLog&) = delete;

  // Makes room for packet `id` (when the packet is made).
  void reserve(PacketId id) { (*this)[id]; }
  // A packet's head enters the network in cycle `now`: a fresh record.
  void injected(PacketId id, Cycle now) {
    PacketStages& st = (*this)[id];
    st = PacketStages{};
    st.last_send = now;
  }
  // A packet that entered the routers other than through a VcNic (e.g. a copy
  // made by HPAM's inter-level replicator) gets its record when first seen.
  PacketStages& operator[](PacketId id) {
    std::atomic<PacketStages*>& slot = chunks_[id >> kChunkBits];
    PacketStages* chunk = slot.load(std::memory_order_acquire);
    if (chunk == nullptr) chunk = make_chunk(slot);
    return chunk[id & (kChunkRecords - 1)];
  }

 private:
  static PacketStages* make_chunk(std::atomic<PacketStages*>& slot) {
    auto* fresh = new PacketStages[kChunkRecords]();
    PacketStages* seen = nullptr;
    if (slot.compare_exchange_strong(seen, fresh, std::memory_order_acq_rel)) return fresh;
    delete[] fresh;  // another worker made it first
    return seen;
  }

  std::unique_ptr<std::atomic<PacketStages*>[]> chunks_;  // [kMaxChunks]
};

}  // namespace icn::vc
