#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "models/rng.hpp"

namespace icn {

TEST(Rng, SameSeedAndStreamGiveTheSameSequence) {
  Rng a(42, "router.r1_0"), b(42, "router.r1_0");
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.next(), b.next());
}

TEST(Rng, DifferentStreamsDiffer) {
  Rng a(42, "r1_0"), b(42, "r1_1");
  int same = 0;
  for (int i = 0; i < 1000; ++i) same += a.next() == b.next();
  EXPECT_EQ(same, 0);
}

// The generator is specified bit for bit, so its first output is a constant:
// xoshiro256** seeded by SplitMix64 as in rng.hpp, computed independently with
// Python (s = seed ^ stream*0xd1342543de82ef95, then splitmix64 four times).
TEST(Rng, FirstOutputIsPlatformIndependent) {
  Rng r(0, std::uint64_t{0});
  // splitmix64 from state 0: e220a8397b1dcdaf, 6e789e6aa1b965f4, 06c45d188009454f, f88bb8a8724c81ec
  // xoshiro256** output = rotl(s1 * 5, 7) * 9 with s1 = 0x6e789e6aa1b965f4.
  const std::uint64_t s1 = 0x6e789e6aa1b965f4ULL;
  const std::uint64_t x = s1 * 5;
  const std::uint64_t expected = ((x << 7) | (x >> 57)) * 9;
  EXPECT_EQ(r.next(), expected);
}

TEST(Rng, BelowStaysInRangeAndIsRoughlyUniform) {
  Rng r(7, "uniform");
  std::vector<int> counts(6, 0);
  const int draws = 60000;
  for (int i = 0; i < draws; ++i) {
    const auto v = r.below(6);
    ASSERT_LT(v, 6u);
    ++counts[v];
  }
  // Each bucket expects 10000; 5 sigma is about 456.
  for (int c : counts) EXPECT_NEAR(c, 10000, 500);
}

TEST(Rng, ShuffleIsAPermutation) {
  Rng r(3, "shuffle");
  std::vector<int> v(100);
  std::iota(v.begin(), v.end(), 0);
  r.shuffle(v);
  std::vector<int> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 100; ++i) EXPECT_EQ(sorted[i], i);
  EXPECT_NE(v, sorted);
}

}  // namespace icn
