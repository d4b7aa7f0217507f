// PacketPool (models/packet.hpp): packets that stay where they are while the
// pool grows, and free lists per worker thread (run.threads).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>
#include <vector>

#include "models/packet.hpp"

namespace icn {
namespace {

// A clone is written from its original after the new packet is allocated;
// a router holds references into the pool across allocations. Both need
// the packets to stay where they are however much the pool grows.
TEST(PacketPool, PacketsStayWhereTheyAreWhileThePoolGrows) {
  PacketPool pool;
  const PacketId first = pool.allocate();
  pool[first].src = 7;
  pool[first].seq = 42;
  const Packet* where = &pool[first];
  std::vector<PacketId> clones;
  for (int i = 0; i < 3 * static_cast<int>(PacketPool::kChunkPackets); ++i) clones.push_back(pool.clone(first));
  EXPECT_EQ(&pool[first], where);
  EXPECT_GE(pool.capacity(), clones.size() + 1);
  for (PacketId c : clones) {
    ASSERT_NE(c, first);
    EXPECT_EQ(pool[c].src, 7u);
    EXPECT_EQ(pool[c].seq, 42u);
  }
  EXPECT_EQ(pool.live(), clones.size() + 1);
  for (PacketId c : clones) pool.release(c);
  pool.release(first);
  EXPECT_EQ(pool.live(), 0u);
}

// Two workers allocate and release at once, each with its own index: no id
// is handed out twice, and each packet keeps what its worker wrote.
TEST(PacketPool, TwoWorkersAllocatingAtOnceGetDistinctPackets) {
  PacketPool pool;
  pool.set_workers(2);
  constexpr std::uint32_t kEach = 3 * PacketPool::kChunkPackets + 17;
  std::vector<PacketId> got[2];
  auto work = [&](unsigned w) {
    for (std::uint32_t i = 0; i < kEach; ++i) {
      const PacketId id = pool.allocate(w);
      pool[id].src = w;
      pool[id].seq = i;
      got[w].push_back(id);
      if (i % 3 == 2) {  // give one back now and then: it comes back from this worker's list
        const PacketId back = got[w][i - 1];
        pool.release(back, w);
        got[w][i - 1] = kNoPacket;
      }
    }
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  std::set<PacketId> all;
  std::size_t held = 0;
  for (unsigned w = 0; w < 2; ++w)
    for (std::uint32_t i = 0; i < kEach; ++i) {
      const PacketId id = got[w][i];
      if (id == kNoPacket) continue;
      ++held;
      EXPECT_TRUE(all.insert(id).second) << "id " << id << " handed out twice";
      EXPECT_EQ(pool[id].src, w);
      EXPECT_EQ(pool[id].seq, i);
    }
  EXPECT_EQ(pool.live(), held);
}

// The simulation thread releases what the workers cloned (a NIC delivers a
// router's copy in its commit). It gives each back to the shortest free list,
// so a worker that clones every cycle finds ids there again and the pool
// stops growing: here at twice the clones of one round. Were the releases all
// kept by one worker, the other would take new storage every round.
TEST(PacketPool, ReleasesFromTheSimulationThreadRefillTheWorkersThatClone) {
  PacketPool pool;
  pool.set_workers(2);
  const PacketId original = pool.allocate();
  constexpr std::uint32_t kRound = 2 * PacketPool::kChunkPackets;
  std::vector<PacketId> copies;
  for (int round = 0; round < 20; ++round) {
    for (std::uint32_t i = 0; i < kRound; ++i) copies.push_back(pool.clone(original, 1));
    for (PacketId c : copies) pool.release(c);
    copies.clear();
  }
  EXPECT_EQ(pool.live(), 1u);
  EXPECT_LE(pool.capacity(), 2 * kRound + 2 * PacketPool::kChunkPackets);
  // And an allocation without a worker takes from the longest list: the
  // simulation thread's NICs do not take new storage either.
  const std::size_t capacity = pool.capacity();
  for (std::uint32_t i = 0; i < kRound; ++i) copies.push_back(pool.allocate());
  EXPECT_EQ(pool.capacity(), capacity);
}

TEST(PacketPool, WorkersBeyondTheMaximumAreRefused) {
  PacketPool pool;
  EXPECT_THROW(pool.set_workers(0), std::invalid_argument);
  EXPECT_THROW(pool.set_workers(PacketPool::kMaxWorkers + 1), std::invalid_argument);
  pool.set_workers(PacketPool::kMaxWorkers);
}

}  // namespace
}  // namespace icn
