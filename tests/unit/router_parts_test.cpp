// Shared router parts: arbiters, the separable allocator, VC buffers and
// credit counters. Expected values come from the definitions (round-robin
// order, least-recently-served, maximal matching), computed here.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <thread>
#include <string>
#include <vector>

#include "models/rng.hpp"
#include "routers/common/allocator_factory.hpp"
#include "routers/common/arbiter.hpp"
#include "routers/common/arbiter_factory.hpp"
#include "routers/common/separable_allocator.hpp"
#include "routers/common/vc_buffer.hpp"
#include "routers/vc/switch_allocator.hpp"

namespace icn {

TEST(RoundRobinArbiter, ServesEveryPersistentRequesterInTurn) {
  RoundRobinArbiter arb(5);
  const std::uint64_t all = 0b10110;  // requesters 1, 2, 4
  std::vector<int> order;
  for (int k = 0; k < 6; ++k) {
    const int w = arb.arbitrate(all);
    order.push_back(w);
    arb.update(w);
  }
  EXPECT_EQ(order, (std::vector<int>{1, 2, 4, 1, 2, 4}));
  EXPECT_EQ(arb.arbitrate(0), -1);
}

TEST(RoundRobinArbiter, WithoutUpdateThePriorityStays) {
  RoundRobinArbiter arb(4);
  arb.update(1);  // pointer at 2
  EXPECT_EQ(arb.arbitrate(0b1011), 3);
  EXPECT_EQ(arb.arbitrate(0b1011), 3);
  EXPECT_EQ(arb.arbitrate(0b0011), 0);  // wraps around
}

TEST(MatrixArbiter, GrantsTheLeastRecentlyServed) {
  MatrixArbiter arb(4);
  // Serve 2, then 0: the least recently served of {0,1,2,3} is now 1, then 3.
  arb.update(2);
  arb.update(0);
  EXPECT_EQ(arb.arbitrate(0b1111), 1);
  EXPECT_EQ(arb.arbitrate(0b1101), 3);
  EXPECT_EQ(arb.arbitrate(0b0101), 2);
  // Fair under persistent requests: each of n requesters wins once every n grants.
  std::map<int, int> wins;
  for (int k = 0; k < 40; ++k) {
    const int w = arb.arbitrate(0b1111);
    ++wins[w];
    arb.update(w);
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(wins[i], 10);
}

TEST(RandomArbiter, PicksOnlyRequestersAndAllOfThem) {
  RandomArbiter arb(8, 7, 1);
  std::map<int, int> wins;
  for (int k = 0; k < 3000; ++k) {
    const int w = arb.arbitrate(0b10100100);
    ASSERT_TRUE(w == 2 || w == 5 || w == 7);
    ++wins[w];
  }
  for (int i : {2, 5, 7}) EXPECT_NEAR(wins[i], 1000, 150);
  RandomArbiter again(8, 7, 1);
  RandomArbiter other(8, 7, 1);
  for (int k = 0; k < 100; ++k) EXPECT_EQ(again.arbitrate(0xff), other.arbitrate(0xff));
}

// Every grant is a requested pair, no output twice, and the matching is
// maximal when iSLIP runs enough iterations.
void check_matching(const std::vector<std::uint64_t>& req, const std::vector<int>& grant, bool maximal) {
  std::uint64_t used = 0;
  for (std::size_t i = 0; i < req.size(); ++i) {
    if (grant[i] < 0) continue;
    ASSERT_TRUE((req[i] >> grant[i]) & 1u) << "input " << i << " got an output it did not ask for";
    ASSERT_FALSE((used >> grant[i]) & 1u) << "output " << grant[i] << " granted twice";
    used |= std::uint64_t{1} << grant[i];
  }
  if (!maximal) return;
  for (std::size_t i = 0; i < req.size(); ++i) {
    if (grant[i] < 0) {
      EXPECT_EQ(req[i] & ~used, 0u) << "input " << i << " could still be matched";
    }
  }
}

TEST(SeparableAllocator, GrantsAreAMatchingAndISlipIterationsMakeItMaximal) {
  Rng rng(3, 9);
  SeparableAllocator one(6, 5, {true, 1});
  SeparableAllocator many(6, 5, {true, 6});
  SeparableAllocator rr(6, 5, {false, 1});
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<std::uint64_t> req(6);
    for (auto& r : req) r = rng.below(32);
    std::vector<int> g(6);
    one.allocate(req.data(), g.data());
    check_matching(req, g, false);
    many.allocate(req.data(), g.data());
    check_matching(req, g, true);
    rr.allocate(req.data(), g.data());
    check_matching(req, g, false);
  }
}

// The allocators' wires (routers/common/allocation_scratch.hpp) are one set
// per thread, shared by every allocator the thread runs. A wide separable
// allocator (70 x 70: two-word masks, three iSLIP rounds) and a switch
// allocator (5 ports x 2 VCs) taking turns in one thread must decide exactly
// as each does alone in a thread of its own, from the same requests.
TEST(SeparableAllocator, AllocatorsSharingAThreadsWiresDecideAsIfAlone) {
  constexpr unsigned kWide = 70, kPorts = 5, kRounds = 300;
  struct Pair {
    SeparableAllocator wide{kWide, kWide, {true, 3}};
    vc::SwitchAllocator sw;
    Pair() { sw.resize(kPorts, 2); }
  };
  // Round r's requests, the same in every thread.
  auto wide_requests = [](unsigned r) {
    Rng rng(7, r);
    std::vector<std::uint64_t> req(kWide * 2, 0);
    for (unsigned i = 0; i < kWide; ++i)
      for (unsigned o = 0; o < kWide; ++o)
        if (rng.uniform() < 0.05) req[i * 2 + o / 64] |= std::uint64_t{1} << (o % 64);
    return req;
  };
  auto switch_ready = [](unsigned r, std::uint64_t* ready) {
    Rng rng(11, r);
    for (unsigned p = 0; p < kPorts; ++p) ready[p] = rng.next() & 3u;
  };
  auto out_of = [](unsigned p, int v) { return (p * 3 + static_cast<unsigned>(v)) % kPorts; };
  // Runs the wide allocator, the switch allocator or both in turn, each in a
  // fresh thread; returns every grant in order.
  auto run = [&](bool wide, bool sw) {
    std::vector<int> grants;
    std::thread t([&] {
      Pair x;
      for (unsigned r = 0; r < kRounds; ++r) {
        if (wide) {
          std::vector<int> g(kWide);
          x.wide.allocate(wide_requests(r).data(), g.data());
          grants.insert(grants.end(), g.begin(), g.end());
        }
        if (sw) {
          std::uint64_t ready[kPorts];
          int g[kPorts];
          switch_ready(r, ready);
          x.sw.run(ready, out_of, g);
          grants.insert(grants.end(), g, g + kPorts);
        }
      }
    });
    t.join();
    return grants;
  };
  const std::vector<int> wide_alone = run(true, false), switch_alone = run(false, true), both = run(true, true);
  ASSERT_EQ(both.size(), wide_alone.size() + switch_alone.size());
  std::size_t w = 0, s = 0, granted = 0;
  for (unsigned r = 0; r < kRounds; ++r) {
    for (unsigned i = 0; i < kWide; ++i, ++w) {
      ASSERT_EQ(both[w + s], wide_alone[w]) << "round " << r << ", wide input " << i;
      granted += wide_alone[w] >= 0;
    }
    for (unsigned p = 0; p < kPorts; ++p, ++s) ASSERT_EQ(both[w + s], switch_alone[s]) << "round " << r << ", port " << p;
  }
  EXPECT_GT(granted, kRounds * 20u);  // the wide allocator was busy: nearly every input asks each round
}

TEST(SeparableAllocator, ContendingInputsShareAnOutputFairly) {
  // Three inputs all want output 2 every cycle: each is granted once every 3.
  SeparableAllocator alloc(3, 4, {true, 1});
  std::vector<std::uint64_t> req(3, 0b0100);
  std::map<int, int> wins;
  for (int k = 0; k < 30; ++k) {
    std::vector<int> g(3);
    EXPECT_EQ(alloc.allocate(req.data(), g.data()), 1u);
    for (int i = 0; i < 3; ++i)
      if (g[i] >= 0) ++wins[i];
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(wins[i], 10);
}

TEST(SeparableAllocator, ISlipDesynchronisesUnderUniformRequests) {
  // All 4 inputs request all 4 outputs: after the first cycles iSLIP reaches
  // a full matching every cycle (the classic iSLIP result), 4 grants.
  SeparableAllocator alloc(4, 4, {true, 1});
  std::vector<std::uint64_t> req(4, 0b1111);
  std::vector<int> g(4);
  unsigned last = 0;
  for (int k = 0; k < 8; ++k) last = alloc.allocate(req.data(), g.data());
  EXPECT_EQ(last, 4u);
}

TEST(SeparableAllocator, PlainRoundRobinKeepsThePointersInStep) {
  // Plain round-robin moves a losing input's pointer past its pick as well as
  // the winner's (router.vc_allocator=round_robin). With all 4 inputs
  // requesting all 4 outputs, cycle 1: every input picks output 0, input 0
  // wins, and every pointer moves to 1; cycle 2: all pick output 1, and so on
  // - the pointers stay in step and one grant is made per cycle, the
  // synchronisation iSLIP was designed to break (the test above). Output o
  // grants the first input at or after its own pointer, which moves past the
  // winner only when o grants: outputs 0-3 all grant input 0 in cycles 1-4,
  // then input 1 in cycles 5-8.
  SeparableAllocator alloc(4, 4, {false, 1});
  std::vector<std::uint64_t> req(4, 0b1111);
  std::vector<int> g(4);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(alloc.allocate(req.data(), g.data()), 1u) << "cycle " << k + 1;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(g[i], i == k / 4 ? k % 4 : -1) << "cycle " << k + 1 << ", input " << i;
  }
}

TEST(AllocatorFactory, EachKindIsTheAllocatorItsNameSays) {
  // router.vc_allocator's values made by name, on the requests of the two
  // tests above (all 4 inputs request all 4 outputs), against what each
  // definition gives there: round_robin keeps the pointers in step (one grant
  // a cycle, outputs 0-3 to input 0, then to input 1); islip with one round
  // reaches a full matching within 8 cycles; islip with 4 rounds finds a
  // maximal matching - 4 grants - from the first cycle (each round matches one
  // more input to one more output).
  std::vector<std::uint64_t> req(4, 0b1111);
  std::vector<int> g(4);
  auto rr = make_allocator("round_robin", 4, 4, AllocatorOptions{});
  for (int k = 0; k < 8; ++k) {
    ASSERT_EQ(rr->allocate(req.data(), g.data()), 1u) << "cycle " << k + 1;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(g[i], i == k / 4 ? k % 4 : -1) << "cycle " << k + 1 << ", input " << i;
  }
  auto islip = make_allocator("islip", 4, 4, AllocatorOptions{1});
  unsigned last = 0;
  EXPECT_EQ(islip->allocate(req.data(), g.data()), 1u);  // cycle 1: every input picks output 0
  for (int k = 1; k < 8; ++k) last = islip->allocate(req.data(), g.data());
  EXPECT_EQ(last, 4u);
  auto four = make_allocator("islip", 4, 4, AllocatorOptions{4});
  EXPECT_EQ(four->allocate(req.data(), g.data()), 4u);
  EXPECT_EQ(four->inputs(), 4u);
  EXPECT_EQ(four->request_words(), 1u);
  // The names are the key's allowed values; an unknown one names them.
  EXPECT_EQ(allocator_names(), (std::vector<std::string>{"islip", "round_robin"}));
  try {
    make_allocator("wavefront", 4, 4, AllocatorOptions{});
    FAIL() << "an unknown kind was made";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'wavefront' (allowed: islip, round_robin)"), std::string::npos) << e.what();
  }
}

// Requests on which a round-robin and a matrix arbiter of three requesters
// part: all three, then requester 2 alone, then all three again. Round-robin:
// 0 wins (pointer at 0), 2 wins (the pointer wraps past 2 to 0), 0 wins again.
// Matrix (least recently served first, lower index first at the start): 0,
// then 2, then 1, which has waited longest.
const std::vector<std::uint64_t> kArbiterRounds{0b111, 0b100, 0b111};
const std::vector<int> kRoundRobinWinners{0, 2, 0};
const std::vector<int> kMatrixWinners{0, 2, 1};

TEST(ArbiterFactory, EachKindIsTheArbiterItsNameSays) {
  EXPECT_EQ(arbiter_names(), (std::vector<std::string>{"round_robin", "matrix"}));
  for (const auto& [kind, winners] : {std::pair{"round_robin", kRoundRobinWinners}, std::pair{"matrix", kMatrixWinners}}) {
    SCOPED_TRACE(kind);
    ArbiterBank bank = make_arbiters(kind, 2, 3);
    EXPECT_EQ(bank_size(bank), 2u);
    std::visit(
        [&, w = winners](auto& arbiters) {
          for (std::size_t r = 0; r < kArbiterRounds.size(); ++r) {
            const int got = arbiters[1].arbitrate(kArbiterRounds[r]);
            EXPECT_EQ(got, w[r]) << "round " << r;
            arbiters[1].update(got);
          }
          EXPECT_EQ(arbiters[0].arbitrate(0b111), 0);  // the bank's arbiters are independent
        },
        bank);
  }
  try {
    make_arbiters("lottery", 1, 4);
    FAIL() << "an unknown kind was made";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'lottery' (allowed: round_robin, matrix)"), std::string::npos) << e.what();
  }
}

// router.vc_arbiter: the VC allocator's output stage picks among the inputs
// that want one output with the arbiters named (three inputs, one output).
TEST(ArbiterFactory, TheVcAllocatorUsesTheArbitersItIsGiven) {
  for (const char* allocator : {"islip", "round_robin"})
    for (const auto& [kind, winners] : {std::pair{"round_robin", kRoundRobinWinners}, std::pair{"matrix", kMatrixWinners}}) {
      SCOPED_TRACE(std::string(allocator) + " with " + kind);
      auto alloc = make_allocator(allocator, 3, 1, AllocatorOptions{1, kind});
      std::vector<int> g(3);
      for (std::size_t r = 0; r < kArbiterRounds.size(); ++r) {
        std::vector<std::uint64_t> req(3);
        for (unsigned i = 0; i < 3; ++i) req[i] = (kArbiterRounds[r] >> i) & 1;
        ASSERT_EQ(alloc->allocate(req.data(), g.data()), 1u);
        for (int i = 0; i < 3; ++i) EXPECT_EQ(g[i], i == winners[r] ? 0 : -1) << "round " << r << ", input " << i;
      }
    }
}

// router.sw_arbiter: the switch allocator's output arbiters pick among the
// input ports (three ports of one VC, all for output 0), and each input
// port's arbiter among its VCs (one port of three VCs, all for output 0).
TEST(ArbiterFactory, TheSwitchAllocatorUsesTheArbitersItIsGiven) {
  for (const auto& [kind, winners] : {std::pair{"round_robin", kRoundRobinWinners}, std::pair{"matrix", kMatrixWinners}}) {
    SCOPED_TRACE(kind);
    vc::SwitchAllocator ports;
    ports.resize(3, 1, kind);
    vc::SwitchAllocator vcs;
    vcs.resize(3, 3, kind);
    for (std::size_t r = 0; r < kArbiterRounds.size(); ++r) {
      std::uint64_t ready[3];
      int grant[3];
      for (unsigned p = 0; p < 3; ++p) ready[p] = (kArbiterRounds[r] >> p) & 1;
      ports.run(ready, [](unsigned, int) { return 0u; }, grant);
      for (int p = 0; p < 3; ++p) EXPECT_EQ(grant[p], p == winners[r] ? 0 : -1) << "round " << r << ", port " << p;
      const std::uint64_t one_port[3] = {kArbiterRounds[r], 0, 0};
      vcs.run(one_port, [](unsigned, int) { return 0u; }, grant);
      EXPECT_EQ(grant[0], winners[r]) << "round " << r;
    }
  }
}

TEST(VcBuffer, VirtualChannelsAreIndependentFifos) {
  VcBuffer<int> buf(3, 2);
  buf.push(0, 10);
  buf.push(2, 30);
  buf.push(0, 11);
  EXPECT_TRUE(buf.full(0));
  EXPECT_THROW(buf.push(0, 12), std::logic_error);
  EXPECT_TRUE(buf.empty(1));
  EXPECT_EQ(buf.front(0), 10);
  EXPECT_EQ(buf.pop(0), 10);
  buf.push(0, 12);  // wraps around inside VC 0's ring
  EXPECT_EQ(buf.pop(0), 11);
  EXPECT_EQ(buf.pop(0), 12);
  EXPECT_EQ(buf.pop(2), 30);
  EXPECT_THROW(buf.pop(1), std::logic_error);
  EXPECT_THROW(VcBuffer<int>(0, 4), std::invalid_argument);
  EXPECT_THROW(VcBuffer<int>(2, 0), std::invalid_argument);
}

TEST(CreditCounter, CreditsMirrorTheDownstreamBuffer) {
  // Random sends and returns: the upstream count always equals depth minus
  // the downstream occupancy, and a send without credit is refused.
  VcBuffer<int> down(2, 4);
  CreditCounter up(2, 4);
  Rng rng(5, 5);
  for (int k = 0; k < 2000; ++k) {
    const unsigned vc = static_cast<unsigned>(rng.below(2));
    if (rng.below(2) == 0) {
      if (up.available(vc) > 0) {
        up.consume(vc);
        down.push(vc, k);
      } else {
        EXPECT_TRUE(down.full(vc));
        EXPECT_THROW(up.consume(vc), std::logic_error);
      }
    } else if (!down.empty(vc)) {
      down.pop(vc);
      up.restore(vc);
    }
    EXPECT_EQ(up.available(vc), 4u - down.size(vc));
  }
  CreditCounter c(1, 2);
  EXPECT_THROW(c.restore(0), std::logic_error);
}

}  // namespace icn

namespace icn {

// Every subset of the requested size is granted equally often (a chi-square
// style bound on 6 requests, 2 winners: 15 subsets), and never more winners
// than asked.
TEST(RandomSubsetGrant, EverySubsetEquallyLikely) {
  Rng rng(3, "subset");
  std::map<std::pair<int, int>, int> seen;
  const int trials = 15000;
  for (int t = 0; t < trials; ++t) {
    std::vector<int> req{0, 1, 2, 3, 4, 5};
    grant_random_subset(req, 2, rng);
    seen[{std::min(req[0], req[1]), std::max(req[0], req[1])}]++;
  }
  EXPECT_EQ(seen.size(), 15u);
  for (const auto& [pair, n] : seen) EXPECT_NEAR(n, trials / 15, 150) << pair.first << "," << pair.second;
  std::vector<int> few{7, 8};
  grant_random_subset(few, 5, rng);  // more paths than requests: everyone wins, order kept
  EXPECT_EQ(few, (std::vector<int>{7, 8}));
}

}  // namespace icn
