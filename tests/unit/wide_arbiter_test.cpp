// Arbiters and the separable allocator over more than 64 requesters (the
// multi-word masks an HPAM level-1 router with hundreds of input VCs needs),
// each checked cycle by cycle against an independent model written here from
// the arbiter's definition, on random request patterns.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "routers/common/arbiter.hpp"
#include "routers/common/separable_allocator.hpp"

namespace icn {
namespace {

std::vector<std::uint64_t> to_words(const std::vector<bool>& req) {
  std::vector<std::uint64_t> w(mask_words(static_cast<unsigned>(req.size())), 0);
  for (std::size_t i = 0; i < req.size(); ++i)
    if (req[i]) w[i / 64] |= std::uint64_t{1} << (i % 64);
  return w;
}

// Each requester asks with probability p (sparse, dense, and all in between).
std::vector<bool> random_requests(std::mt19937& gen, unsigned n, double p) {
  std::bernoulli_distribution ask(p);
  std::vector<bool> r(n);
  for (unsigned i = 0; i < n; ++i) r[i] = ask(gen);
  return r;
}

class WideArbiter : public testing::TestWithParam<unsigned> {};

TEST_P(WideArbiter, RoundRobinGrantsTheFirstRequesterAtOrAfterThePointer) {
  const unsigned n = GetParam();
  RoundRobinArbiter arb(n);
  unsigned pointer = 0;  // the model: a pointer that moves past each winner
  std::mt19937 gen(n);
  for (unsigned t = 0; t < 5000; ++t) {
    const double p = t % 3 == 0 ? 0.01 : t % 3 == 1 ? 0.3 : 0.95;
    const std::vector<bool> req = random_requests(gen, n, p);
    int expect = -1;
    for (unsigned k = 0; k < n && expect < 0; ++k)
      if (req[(pointer + k) % n]) expect = static_cast<int>((pointer + k) % n);
    const auto words = to_words(req);
    const int got = arb.arbitrate_words(words.data());
    ASSERT_EQ(got, expect) << "n " << n << " step " << t << " pointer " << pointer;
    if (got >= 0 && t % 5 != 4) {  // sometimes the grant is not accepted: no update
      arb.update(got);
      pointer = (static_cast<unsigned>(got) + 1) % n;
    }
    ASSERT_EQ(arb.pointer(), pointer);
  }
}

TEST_P(WideArbiter, RoundRobinServesEveryPersistentRequesterOnceInTurn) {
  const unsigned n = GetParam();
  RoundRobinArbiter arb(n);
  const std::vector<bool> all(n, true);
  const auto words = to_words(all);
  for (unsigned round = 0; round < 3; ++round)
    for (unsigned i = 0; i < n; ++i) {
      const int w = arb.arbitrate_words(words.data());
      ASSERT_EQ(w, static_cast<int>(i));
      arb.update(w);
    }
}

TEST_P(WideArbiter, MatrixGrantsTheLeastRecentlyServed) {
  const unsigned n = GetParam();
  MatrixArbiter arb(n);
  std::vector<unsigned> order(n);  // the model: most deserving first
  for (unsigned i = 0; i < n; ++i) order[i] = i;
  std::mt19937 gen(n + 1);
  for (unsigned t = 0; t < 1500; ++t) {
    const std::vector<bool> req = random_requests(gen, n, t % 2 ? 0.05 : 0.6);
    int expect = -1;
    for (unsigned i : order)
      if (req[i]) {
        expect = static_cast<int>(i);
        break;
      }
    const auto words = to_words(req);
    const int got = arb.arbitrate_words(words.data());
    ASSERT_EQ(got, expect) << "n " << n << " step " << t;
    if (got >= 0) {
      arb.update(got);
      order.erase(std::find(order.begin(), order.end(), static_cast<unsigned>(got)));
      order.push_back(static_cast<unsigned>(got));
    }
  }
}

TEST_P(WideArbiter, RandomPicksOnlyRequestersAndEachAboutEquallyOften) {
  const unsigned n = GetParam();
  RandomArbiter arb(n, 7, 3), again(n, 7, 3);
  std::vector<bool> req(n, false);
  for (unsigned i = 0; i < n; i += 3) req[i] = true;  // requesters in every word
  const auto words = to_words(req);
  const unsigned requesters = (n + 2) / 3;
  std::vector<unsigned> wins(n, 0);
  const unsigned draws = 400 * requesters;
  for (unsigned t = 0; t < draws; ++t) {
    const int w = arb.arbitrate_words(words.data());
    ASSERT_EQ(w, again.arbitrate_words(words.data()));  // same seed, same choices
    ASSERT_TRUE(w >= 0 && req[static_cast<unsigned>(w)]);
    ++wins[static_cast<unsigned>(w)];
  }
  for (unsigned i = 0; i < n; ++i)
    if (req[i]) {  // 400 expected; 6 standard deviations is about 120
      EXPECT_GT(wins[i], 280u) << i;
      EXPECT_LT(wins[i], 520u) << i;
    }
}

TEST_P(WideArbiter, SeparableAllocatorGrantsAMatchingThatIterationsMakeMaximal) {
  const unsigned n = GetParam();
  const unsigned outputs = n / 2 + 3;
  SeparableAllocator one(n, outputs, {true, 1}), many(n, outputs, {true, n}), rr(n, outputs, {false, 1});
  const unsigned words = one.request_words();
  ASSERT_EQ(words, mask_words(outputs));
  std::mt19937 gen(n + 2);
  std::vector<int> grant(n);
  for (unsigned t = 0; t < 200; ++t) {
    std::vector<std::vector<bool>> req(n);
    std::vector<std::uint64_t> flat;
    for (unsigned i = 0; i < n; ++i) {
      req[i] = random_requests(gen, outputs, t % 2 ? 0.02 : 0.2);
      const auto w = to_words(req[i]);
      flat.insert(flat.end(), w.begin(), w.end());
    }
    for (SeparableAllocator* a : {&one, &many, &rr}) {
      const unsigned grants = a->allocate(flat.data(), grant.data());
      std::vector<bool> out_used(outputs, false);
      unsigned count = 0;
      for (unsigned i = 0; i < n; ++i) {
        if (grant[i] < 0) continue;
        const unsigned o = static_cast<unsigned>(grant[i]);
        ASSERT_LT(o, outputs);
        ASSERT_TRUE(req[i][o]) << "input " << i << " granted output " << o << " it did not ask for";
        ASSERT_FALSE(out_used[o]) << "output " << o << " granted twice";
        out_used[o] = true;
        ++count;
      }
      ASSERT_EQ(count, grants);
      if (a != &many) continue;
      // n iterations: no unmatched input asks for an unmatched output.
      for (unsigned i = 0; i < n; ++i) {
        if (grant[i] >= 0) continue;
        for (unsigned o = 0; o < outputs; ++o) ASSERT_FALSE(req[i][o] && !out_used[o]) << i << " " << o;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, WideArbiter, testing::Values(65u, 130u, 300u));

// The largest arbiter check_arbiter_size allows (2^16 requesters; the
// round-robin arbiter keeps n - 1 and its pointer in 16 bits each): the
// last requester is served, then the pointer wraps to the first.
TEST(WideArbiter, RoundRobinOfTheLargestSizeWrapsAtItsLastRequester) {
  const unsigned n = kMaxArbiterInputs;
  RoundRobinArbiter arb(n);
  EXPECT_EQ(arb.size(), 65536u);
  std::vector<bool> req(n, false);
  req[0] = req[n - 2] = req[n - 1] = true;
  auto words = to_words(req);
  EXPECT_EQ(arb.arbitrate_words(words.data()), 0);
  arb.update(n - 2);
  EXPECT_EQ(arb.pointer(), n - 1);
  EXPECT_EQ(arb.arbitrate_words(words.data()), static_cast<int>(n - 1));
  arb.update(n - 1);
  EXPECT_EQ(arb.pointer(), 0u);
  EXPECT_EQ(arb.arbitrate_words(words.data()), 0);
  EXPECT_THROW(RoundRobinArbiter(n + 1), std::invalid_argument);
}

TEST(WideArbiter, OneWordAndMultiWordPathsAgreeUpTo64) {
  for (unsigned n : {1u, 5u, 63u, 64u}) {
    RoundRobinArbiter a(n), b(n);
    std::mt19937 gen(n);
    for (unsigned t = 0; t < 500; ++t) {
      const auto req = random_requests(gen, n, 0.3);
      const auto words = to_words(req);
      const int x = a.arbitrate(words[0]);
      ASSERT_EQ(x, b.arbitrate_words(words.data()));
      if (x >= 0) a.update(x), b.update(x);
    }
  }
}

TEST(WideArbiter, SizesBeyondTheBoundAreRefused) {
  EXPECT_THROW(RoundRobinArbiter(0), std::invalid_argument);
  EXPECT_THROW(RoundRobinArbiter(kMaxArbiterInputs + 1), std::invalid_argument);
  EXPECT_NO_THROW(RoundRobinArbiter(1000));
}

}  // namespace
}  // namespace icn
