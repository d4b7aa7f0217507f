// splits_within against brute force: every vector of `colours` parts in
// 0..k summing to k whose largest and smallest parts differ by at most the
// tolerance, in lexicographic order (the order the experiment tries them).
#include <gtest/gtest.h>

#include <algorithm>

#include "testbench/ibt_broadcast.hpp"

namespace icn {

namespace {

std::vector<std::vector<unsigned>> brute_force(unsigned k, unsigned colours, unsigned tolerance) {
  std::vector<std::vector<unsigned>> out;
  std::vector<unsigned> v(colours, 0);
  for (;;) {
    unsigned sum = 0;
    for (unsigned x : v) sum += x;
    const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
    if (sum == k && *mx - *mn <= tolerance) out.push_back(v);
    unsigned i = colours;
    while (i > 0 && v[i - 1] == k) v[--i] = 0;
    if (i == 0) return out;
    ++v[i - 1];
  }
}

}  // namespace

TEST(IbtSplits, MatchBruteForce) {
  for (unsigned k = 1; k <= 10; ++k)
    for (unsigned colours = 1; colours <= 4; ++colours)
      for (unsigned tolerance = 0; tolerance <= 4; ++tolerance)
        EXPECT_EQ(splits_within(k, colours, tolerance), brute_force(k, colours, tolerance))
            << "k=" << k << " colours=" << colours << " tolerance=" << tolerance;
}

// The limit stops the enumeration: 8 colours, k = 4096 and any spread have
// astronomically many splits; asking for at most 256 returns 257 at once.
TEST(IbtSplits, StopPastTheLimit) {
  EXPECT_EQ(splits_within(4096, 8, 4096, 256).size(), 257u);
  EXPECT_EQ(splits_within(10, 3, 2, 3).size(), 4u);
  EXPECT_EQ(splits_within(10, 3, 2, 1000), brute_force(10, 3, 2));
}

}  // namespace icn
