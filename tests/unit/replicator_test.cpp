// The inter-level replicator's contract (routers/hpam/replicator_core.hpp),
// checked with a scoreboard kept by the test: every branch of a flit's mask
// receives every flit, in order, exactly once; nothing reaches other branches;
// lockstep never stores a flit and stalls on the slowest branch; buffered
// stalls only when a masked FIFO is full. Every test runs on both
// implementations (the behavioural model and the Verilated RTL, when built).
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

#include "routers/hpam/behavioral_replicator.hpp"
#include "routers/hpam/replicator_core.hpp"

namespace icn::hpam {
namespace {

struct Scoreboard {
  explicit Scoreboard(unsigned f) : expect(f) {}
  std::vector<std::deque<ReplicatorFlit>> expect;
  std::uint64_t delivered = 0;
};

// Drives `cycles` cycles of random traffic (random packet masks, random
// readiness with per-branch probabilities) and checks every delivered flit.
void drive(ReplicatorCore& rep, unsigned cycles, std::vector<double> ready_p, std::uint32_t seed, Scoreboard& sb) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const unsigned F = rep.branches();
  std::uint64_t next_word = 1;
  BranchMask mask = 0;
  unsigned left = 0;  // flits left in the current packet
  for (unsigned t = 0; t < cycles; ++t) {
    ReplicatorInputs in;
    if (left == 0 && u(gen) < 0.7) {
      mask = std::uniform_int_distribution<std::uint32_t>(1, (1u << F) - 1)(gen);  // F <= 8 here
      left = std::uniform_int_distribution<unsigned>(1, 5)(gen);
    }
    if (left != 0) {
      in.in_valid = true;
      in.in_mask = mask;
      in.in = {next_word, left == 1};
    }
    for (unsigned i = 0; i < F; ++i)
      if (u(gen) < ready_p[i]) in.out_ready.set(i);
    const ReplicatorOutputs out = rep.cycle(in);
    if (rep.mode() == ReplicatorMode::kLockstep) {
      // Lockstep: taken exactly when every masked branch is ready, and then on all of them now.
      const bool all_ready = in.in_valid && (in.out_ready & mask) == mask;
      ASSERT_EQ(out.in_ready, all_ready) << "cycle " << t;
      ASSERT_EQ(out.out_valid, all_ready ? mask : BranchMask(0)) << "cycle " << t;
    }
    ASSERT_FALSE(out.in_ready && !in.in_valid);
    // A flit is offered only on a branch with something owed to it (for
    // lockstep, what is taken this very cycle).
    if (out.in_ready)
      for (unsigned i = 0; i < F; ++i)
        if (mask.test(i)) sb.expect[i].push_back(in.in);
    for (unsigned i = 0; i < F; ++i) {
      if (!out.out_valid.test(i)) continue;
      ASSERT_FALSE(sb.expect[i].empty()) << "branch " << i << " offered a flit nobody sent, cycle " << t;
      ASSERT_EQ(out.out[i].data, sb.expect[i].front().data) << "branch " << i << " cycle " << t;
      ASSERT_EQ(out.out[i].last, sb.expect[i].front().last);
      if (in.out_ready.test(i)) {
        sb.expect[i].pop_front();
        ++sb.delivered;
      }
    }
    if (out.in_ready) {
      ++next_word;
      --left;
    }
  }
}

class Replicator : public testing::TestWithParam<ReplicatorImpl> {
 protected:
  std::unique_ptr<ReplicatorCore> make(unsigned branches, ReplicatorMode mode, unsigned depth) {
    return make_replicator(GetParam(), branches, mode, depth);
  }
  void SetUp() override {
    if (GetParam() == ReplicatorImpl::kRtl && !rtl_replicator_available())
      GTEST_SKIP() << "this build has no Verilated replicator (ICNSIM_RTL=OFF)";
  }
};

TEST_P(Replicator, LockstepCopiesEveryFlitToEveryMaskedBranchAndNeverStores) {
  auto rep = make(4, ReplicatorMode::kLockstep, 0);
  Scoreboard sb(4);
  drive(*rep, 5000, {0.9, 0.5, 0.8, 0.3}, 7, sb);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_TRUE(sb.expect[i].empty()) << "lockstep holds nothing: branch " << i;
    EXPECT_EQ(rep->occupancy(i), 0u);
  }
  EXPECT_GT(sb.delivered, 1000u);
}

TEST_P(Replicator, BufferedDeliversEverythingInOrderAfterDrain) {
  for (unsigned depth : {1u, 2u, 4u}) {
    auto rep = make(3, ReplicatorMode::kBuffered, depth);
    Scoreboard sb(3);
    drive(*rep, 4000, {0.9, 0.4, 0.7}, 11 + depth, sb);
    // Drain: nothing offered, every branch ready.
    for (unsigned t = 0; t < 10 * depth; ++t) {
      ReplicatorInputs in;
      in.out_ready = 7;
      const ReplicatorOutputs out = rep->cycle(in);
      for (unsigned i = 0; i < 3; ++i)
        if (out.out_valid.test(i)) {
          ASSERT_FALSE(sb.expect[i].empty());
          ASSERT_EQ(out.out[i].data, sb.expect[i].front().data);
          sb.expect[i].pop_front();
        }
    }
    for (unsigned i = 0; i < 3; ++i) {
      EXPECT_TRUE(sb.expect[i].empty()) << "depth " << depth << " branch " << i;
      EXPECT_EQ(rep->occupancy(i), 0u);
    }
  }
}

TEST_P(Replicator, BufferedBackPressureComesFromOneStalledBranchAfterDepthFlits) {
  const unsigned depth = 3;
  auto rep = make(2, ReplicatorMode::kBuffered, depth);
  // Branch 1 never ready, branch 0 always: branch 1's FIFO fills after `depth`
  // flits, and from then on the input is refused although branch 0 is free.
  unsigned taken = 0;
  for (unsigned t = 0; t < 20; ++t) {
    ReplicatorInputs in;
    in.in_valid = true;
    in.in_mask = 3;
    in.in = {100 + t, false};
    in.out_ready = 1;
    if (rep->cycle(in).in_ready) ++taken;
  }
  EXPECT_EQ(taken, depth);
  EXPECT_EQ(rep->occupancy(1), depth);
  EXPECT_EQ(rep->occupancy(0), 0u);
  // A flit for branch 0 alone still goes.
  ReplicatorInputs in;
  in.in_valid = true;
  in.in_mask = 1;
  in.out_ready = 1;
  EXPECT_TRUE(rep->cycle(in).in_ready);
}

TEST_P(Replicator, LockstepStallsOnTheSlowestBranch) {
  auto rep = make(3, ReplicatorMode::kLockstep, 0);
  ReplicatorInputs in;
  in.in_valid = true;
  in.in_mask = 0b101;
  in.out_ready = 0b001;
  EXPECT_FALSE(rep->cycle(in).in_ready);
  in.out_ready = 0b011;  // branch 1 is not in the mask: still stalled on branch 2
  EXPECT_FALSE(rep->cycle(in).in_ready);
  in.out_ready = 0b100 | 0b001;
  const ReplicatorOutputs out = rep->cycle(in);
  EXPECT_TRUE(out.in_ready);
  EXPECT_EQ(out.out_valid, 0b101u);
}

TEST_P(Replicator, RefusesBadShapes) {
  EXPECT_THROW(make(0, ReplicatorMode::kLockstep, 0), std::invalid_argument);
  EXPECT_THROW(make(kMaxReplicatorBranches + 1, ReplicatorMode::kLockstep, 0),
               std::invalid_argument);
  EXPECT_THROW(make(2, ReplicatorMode::kBuffered, 0), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Impl, Replicator, testing::Values(ReplicatorImpl::kBehavioral, ReplicatorImpl::kRtl),
                         [](const testing::TestParamInfo<ReplicatorImpl>& info) {
                           return info.param == ReplicatorImpl::kBehavioral ? "Behavioral" : "Rtl";
                         });

// The paper's one-processor machines: f = c2 branches (256 for a 256x256
// level 2), beyond one machine word of mask.
TEST(WideReplicator, LockstepCopiesToAll256BranchesAndOneSlowBranchStallsThemAll) {
  BehavioralReplicator rep(256, ReplicatorMode::kLockstep, 0);
  ReplicatorInputs in;
  in.in_valid = true;
  in.in = {0x1234, false};
  in.in_mask = BranchMask::first(256);
  in.out_ready = BranchMask::first(256);
  ReplicatorOutputs out = rep.cycle(in);
  ASSERT_TRUE(out.in_ready);
  for (unsigned i = 0; i < 256; ++i) {
    ASSERT_TRUE(out.out_valid.test(i)) << i;
    ASSERT_EQ(out.out[i].data, 0x1234u) << i;
  }
  BranchMask all_but_last = BranchMask::first(255);
  in.out_ready = all_but_last;  // branch 255 has no credit
  out = rep.cycle(in);
  EXPECT_FALSE(out.in_ready);
  EXPECT_FALSE(out.out_valid.any());
  in.in_mask = all_but_last;  // a flit for the others only goes through
  out = rep.cycle(in);
  EXPECT_TRUE(out.in_ready);
  EXPECT_EQ(out.out_valid, all_but_last);
}

TEST(WideReplicator, BufferedBranch199FallsBehindByItsDepthThenHoldsTheInput) {
  const unsigned depth = 3;
  BehavioralReplicator rep(200, ReplicatorMode::kBuffered, depth);
  ReplicatorInputs in;
  in.in_valid = true;
  in.in_mask = BranchMask::first(200);
  in.out_ready = BranchMask::first(199);  // every branch drains except 199
  for (unsigned t = 0; t < depth; ++t) {
    in.in = {t, false};
    ASSERT_TRUE(rep.cycle(in).in_ready) << t;
  }
  EXPECT_EQ(rep.occupancy(199), depth);
  EXPECT_LE(rep.occupancy(0), 1u);
  in.in = {99, true};
  EXPECT_FALSE(rep.cycle(in).in_ready);  // branch 199's FIFO is full
  in.out_ready = BranchMask::first(200);
  in.in_valid = false;
  const ReplicatorOutputs out = rep.cycle(in);  // 199 offers its oldest flit
  EXPECT_TRUE(out.out_valid.test(199));
  EXPECT_EQ(out.out[199].data, 0u);
  EXPECT_EQ(rep.occupancy(199), depth - 1);
}

}  // namespace
}  // namespace icn::hpam
