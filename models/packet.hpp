// Packets and the pool that owns them.
//
// A packet in flight is a 32-bit handle; queues and links move handles, never
// Packet objects (ARCHITECTURE rule 6). A router that replicates a broadcast
// packet clones it into a new handle that shares the message id, so every copy
// is accounted for separately until it is delivered or dropped.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
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

// The pool: packets in chunks of 4096 that never move, so a packet's address
// stays put while the pool grows, and free lists per worker thread.
//
// Network-phase blocks on worker threads (run.threads, models/engine.hpp) may
// allocate, clone and release with their worker's index (Clocked::owner()):
// each worker has its own free list and its own chunk of fresh ids, so no two
// threads touch one list, and a chunk is claimed with one atomic add. The
// calls without a worker are for one thread at a time (the processor phase,
// commits, set-up): they take from the longest free list and give back to the
// shortest, which keeps the lists even however the workers' clones and the
// simulation thread's releases are spread. Ids are handles, never results:
// which id a packet gets may differ with the thread count, nothing else does.
class PacketPool {
 public:
  static constexpr unsigned kMaxWorkers = 64;  // run.threads' maximum
  static constexpr unsigned kChunkBits = 12;
  static constexpr std::uint32_t kChunkPackets = 1u << kChunkBits;
  static constexpr std::uint32_t kMaxChunks = 1u << 16;  // 2^28 packets

  PacketPool() : chunks_(static_cast<Packet**>(std::calloc(kMaxChunks, sizeof(Packet*)))) {
    if (chunks_ == nullptr) throw std::bad_alloc();
  }
  ~PacketPool() {
    const std::uint32_t used = std::min(chunks_used_.load(std::memory_order_relaxed), kMaxChunks);
    for (std::uint32_t c = 0; c < used; ++c) delete[] chunks_[c];
    std::free(chunks_);
  }
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;

  // How many workers may call with their index (engine.threads()); 1 by
  // default. Set before the first cycle.
  void set_workers(unsigned workers) {
    if (workers == 0 || workers > kMaxWorkers) throw std::invalid_argument("packet pool: 1.." + std::to_string(kMaxWorkers) + " workers");
    workers_ = workers;
  }

  // One thread at a time (not while workers run).
  PacketId allocate() { return allocate_from(fullest()); }
  PacketId clone(PacketId original) { return clone_into(fullest(), original); }
  void release(PacketId id) { release_to(emptiest(), id); }

  // From a network-phase block owned by `worker`.
  PacketId allocate(unsigned worker) { return allocate_from(workers_state(worker)); }
  PacketId clone(PacketId original, unsigned worker) { return clone_into(workers_state(worker), original); }
  void release(PacketId id, unsigned worker) { release_to(workers_state(worker), id); }

  Packet& operator[](PacketId id) { return chunks_[id >> kChunkBits][id & (kChunkPackets - 1)]; }
  const Packet& operator[](PacketId id) const { return chunks_[id >> kChunkBits][id & (kChunkPackets - 1)]; }

  // Packets allocated and not yet released: zero at the end of a clean run.
  // One thread at a time.
  std::size_t live() const {
    std::int64_t n = 0;
    for (unsigned w = 0; w < workers_; ++w) n += lists_[w].live;
    return static_cast<std::size_t>(n);
  }
  // Packets it has storage for (whole chunks).
  std::size_t capacity() const {
    return std::size_t{std::min(chunks_used_.load(std::memory_order_relaxed), kMaxChunks)} * kChunkPackets;
  }

 private:
  struct alignas(64) WorkerLists {
    std::vector<PacketId> free;
    PacketId next = 0, end = 0;  // the fresh ids left in its chunk: [next, end)
    std::int64_t live = 0;       // allocated minus released through this list
  };

  WorkerLists& workers_state(unsigned worker) { return lists_[worker]; }
  WorkerLists& fullest() {
    WorkerLists* best = &lists_[0];
    for (unsigned w = 1; w < workers_; ++w)
      if (lists_[w].free.size() > best->free.size()) best = &lists_[w];
    return *best;
  }
  WorkerLists& emptiest() {
    WorkerLists* best = &lists_[0];
    for (unsigned w = 1; w < workers_; ++w)
      if (lists_[w].free.size() < best->free.size()) best = &lists_[w];
    return *best;
  }

  PacketId allocate_from(WorkerLists& l) {
    PacketId id;
    if (!l.free.empty()) {
      id = l.free.back();
      l.free.pop_back();
    } else {
      if (l.next == l.end) take_chunk(l);
      id = l.next++;
    }
    ++l.live;
    (*this)[id] = Packet{};
    return id;
  }
  PacketId clone_into(WorkerLists& l, PacketId original) {
    const PacketId id = allocate_from(l);
    (*this)[id] = (*this)[original];  // chunks never move: the original's address holds
    return id;
  }
  void release_to(WorkerLists& l, PacketId id) {
    l.free.push_back(id);
    --l.live;
  }
  void take_chunk(WorkerLists& l) {
    const std::uint32_t c = chunks_used_.fetch_add(1, std::memory_order_relaxed);
    if (c >= kMaxChunks) throw std::length_error("packet pool exhausted");
    chunks_[c] = new Packet[kChunkPackets];  // its own slot: other threads read it only after a barrier
    l.next = c << kChunkBits;
    l.end = l.next + kChunkPackets;
  }

  Packet** chunks_;  // [kMaxChunks], zero-filled lazily by calloc
  std::atomic<std::uint32_t> chunks_used_{0};
  unsigned workers_ = 1;
  std::array<WorkerLists, kMaxWorkers> lists_;
};

}  // namespace icn
