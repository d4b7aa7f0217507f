// PacketPool (models/packet.hpp): packets that stay where they are while the
// pool grows, and free lists per worker thread (run.threads).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>
#include <vector>

#include "models/packet.hpp"
#include "routers/vc/stage_log.hpp"

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

// The VC routers' stage log is indexed by packet id. A copy HPAM's replicator
// makes on a worker gets its record from the first router that sees it,
// while other workers use theirs: records must stay where they are when a new
// one is made, and two workers making records of one new chunk at once must
// end up with one chunk holding both.
TEST(StageLog, RecordsStayWhereTheyAreAndWorkersShareANewChunk) {
  vc::StageLog log;
  log.injected(3, 10);
  const vc::PacketStages* where = &log[3];
  log[5 * PacketPool::kChunkPackets + 1].links = 9;  // a record far beyond: a new chunk
  EXPECT_EQ(&log[3], where);
  EXPECT_EQ(log[3].last_send, 10u);
  EXPECT_EQ(log[5 * PacketPool::kChunkPackets + 1].links, 9u);
  EXPECT_EQ(log[5 * PacketPool::kChunkPackets + 2].links, 0u) << "a new record starts empty";

  for (std::uint32_t chunk = 7; chunk < 47; ++chunk) {  // each round a chunk nobody touched yet
    const PacketId base = chunk * PacketPool::kChunkPackets;
    std::thread other([&] { log[base + 1].routing = 11; });
    log[base].routing = 22;
    other.join();
    EXPECT_EQ(log[base + 1].routing, 11u) << "chunk " << chunk;
    EXPECT_EQ(log[base].routing, 22u) << "chunk " << chunk;
  }
}

TEST(PacketPool, WorkersBeyondTheMaximumAreRefused) {
  PacketPool pool;
  EXPECT_THROW(pool.set_workers(0), std::invalid_argument);
  EXPECT_THROW(pool.set_workers(PacketPool::kMaxWorkers + 1), std::invalid_argument);
  pool.set_workers(PacketPool::kMaxWorkers);
}

}  // namespace
}  // namespace icn
