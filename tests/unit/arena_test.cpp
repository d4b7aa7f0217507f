// The elaboration arena (models/arena.hpp): arrays built one after another
// lie together, objects are destroyed by their owners, and nothing may be
// taken from it once the network is built.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory_resource>
#include <stdexcept>
#include <vector>

#include "models/arena.hpp"

namespace icn {

namespace {
struct Counted {
  explicit Counted(int& alive) : alive_(alive) { ++alive_; }
  ~Counted() { --alive_; }
  int& alive_;
  std::uint64_t payload[10] = {};
};
}  // namespace

TEST(ElaborationArena, ArraysBuiltOneAfterAnotherLieTogether) {
  ElaborationArena arena(4096);
  std::pmr::vector<std::uint64_t> a(&arena), b(&arena);
  std::pmr::vector<std::uint16_t> c(&arena);
  a.assign(10, 1);
  c.assign(3, 2);
  b.assign(5, 3);
  const auto at = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  // In building order, each right after the one before (up to alignment).
  EXPECT_EQ(at(c.data()), at(a.data() + 10));
  EXPECT_GE(at(b.data()), at(c.data() + 3));
  EXPECT_LT(at(b.data()), at(c.data() + 3) + alignof(std::uint64_t));
  EXPECT_EQ(arena.bytes(), 10 * 8 + 3 * 2 + 5 * 8u);
  // Larger than a chunk: still served, and intact.
  std::pmr::vector<std::uint64_t> big(&arena);
  big.assign(10000, 7);
  for (std::uint64_t v : big) ASSERT_EQ(v, 7u);
  EXPECT_EQ(a[9] + c[2] + b[4], 1u + 2u + 3u);
}

// A fixed array from an arena takes its elements there, one after another;
// without one it owns heap memory (the sanitizers check it is freed).
TEST(ElaborationArena, FixedArraysTakeTheirElementsFromTheArenaOrTheHeap) {
  ElaborationArena arena;
  FixedArray<std::uint32_t> a, b, heap;
  a.assign(&arena, 5, 7);
  b.assign(&arena, 3, 9);
  heap.assign(nullptr, 1000, 4);
  EXPECT_EQ(sizeof(a), 16u);
  EXPECT_EQ(a.size(), 5u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()), reinterpret_cast<std::uintptr_t>(a.data() + 5));
  EXPECT_EQ(arena.bytes(), 8 * sizeof(std::uint32_t));
  std::uint32_t sum = 0;
  for (std::uint32_t v : a) sum += v;
  for (std::uint32_t v : b) sum += v;
  for (std::uint32_t v : heap) sum += v;
  EXPECT_EQ(sum, 5 * 7 + 3 * 9 + 1000 * 4u);
  heap.assign(nullptr, 2, 1);  // the old heap block is freed
  EXPECT_EQ(heap.size(), 2u);
  EXPECT_EQ(heap[0] + heap[1], 2u);
  FixedArray<std::uint64_t> none;
  none.assign(&arena, 0, 0);
  EXPECT_TRUE(none.empty());
}

TEST(ElaborationArena, OwnersDestroyTheirObjects) {
  int alive = 0;
  {
    ElaborationArena arena;
    std::vector<ArenaPtr<Counted>> objects;
    for (int i = 0; i < 5; ++i) objects.emplace_back(arena.make<Counted>(alive));
    EXPECT_EQ(alive, 5);
    objects.pop_back();
    EXPECT_EQ(alive, 4);
  }
  EXPECT_EQ(alive, 0);
}

TEST(ElaborationArena, NothingIsTakenOnceSealed) {
  ElaborationArena arena;
  std::pmr::vector<int> grows(&arena);
  grows.assign(4, 0);
  arena.seal();
  EXPECT_TRUE(arena.sealed());
  // An array that grows during the run would race between worker threads.
  try {
    grows.push_back(1);
    ADD_FAILURE() << "an allocation after seal() was served";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("after elaboration"), std::string::npos) << e.what();
  }
  int alive = 0;
  EXPECT_THROW(arena.make<Counted>(alive), std::logic_error);
  EXPECT_EQ(alive, 0);
}

}  // namespace icn
