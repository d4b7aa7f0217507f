// The open-loop phase controller, fed with latency sequences whose verdict is
// known from the rules (warm-up count, 3 converged periods, threshold).
#include <gtest/gtest.h>

#include "models/open_loop.hpp"

namespace icn {

using State = OpenLoopPhases::State;

TEST(OpenLoopPhases, FixedWarmUpThenThreeConvergedPeriodsThenDrain) {
  OpenLoopPhases c({});
  EXPECT_EQ(c.end_of_period(40, 0.1), State::kWarmingUp);
  EXPECT_EQ(c.end_of_period(41, 0.1), State::kWarmingUp);
  EXPECT_EQ(c.end_of_period(39, 0.1), State::kMeasuring);  // 3 warm-up periods
  EXPECT_TRUE(c.measuring());
  EXPECT_EQ(c.end_of_period(40, 0.1), State::kMeasuring);    // first: nothing to compare with
  EXPECT_EQ(c.end_of_period(40.5, 0.1), State::kMeasuring);  // converged 1
  EXPECT_EQ(c.end_of_period(40.2, 0.1), State::kMeasuring);  // converged 2
  EXPECT_EQ(c.end_of_period(40.1, 0.1), State::kDraining);   // converged 3
  c.drained();
  EXPECT_EQ(c.state(), State::kDone);
  EXPECT_TRUE(c.stable());
}

TEST(OpenLoopPhases, AChangeResetsConvergence) {
  OpenLoopPhases c({});
  for (int i = 0; i < 3; ++i) c.end_of_period(40, 0.1);
  c.end_of_period(40, 0.1);
  c.end_of_period(40, 0.1);  // 1
  c.end_of_period(40, 0.1);  // 2
  EXPECT_EQ(c.end_of_period(60, 0.1), State::kMeasuring);  // 50 % jump: back to 0
  c.end_of_period(60, 0.1);
  c.end_of_period(60, 0.1);
  EXPECT_EQ(c.end_of_period(60, 0.1), State::kDraining);
}

TEST(OpenLoopPhases, SteadyStateCheckEndsWarmUpWhenLatencyStopsChanging) {
  OpenLoopPhases::Params p;
  p.warmup_periods = 0;
  p.max_samples = 20;
  OpenLoopPhases c(p);
  EXPECT_EQ(c.end_of_period(20, 0.2), State::kWarmingUp);
  EXPECT_EQ(c.end_of_period(30, 0.2), State::kWarmingUp);  // 33 % change
  EXPECT_EQ(c.end_of_period(34, 0.2), State::kWarmingUp);  // 12 %
  EXPECT_EQ(c.end_of_period(35, 0.2), State::kMeasuring);  // 2.9 %
}

TEST(OpenLoopPhases, LatencyAboveTheThresholdIsUnstable) {
  OpenLoopPhases c({});
  c.end_of_period(100, 0.3);
  EXPECT_EQ(c.end_of_period(501, 0.3), State::kDone);
  EXPECT_FALSE(c.stable());
  OpenLoopPhases d({});
  for (int i = 0; i < 8; ++i) d.end_of_period(50 + 10 * i, 0.3);
  EXPECT_EQ(d.state(), State::kMeasuring);
  d.end_of_period(200, 0.3);
  EXPECT_EQ(d.drain_check(520), State::kDone);
  EXPECT_FALSE(d.stable());
}

TEST(OpenLoopPhases, AnUnsteadyWarmUpGivesUpAsUnstable) {
  OpenLoopPhases::Params p;
  p.warmup_periods = 0;
  p.max_samples = 5;
  OpenLoopPhases c(p);
  for (int i = 0; i < 5; ++i) c.end_of_period(20.0 * (i + 1), 0.3);
  EXPECT_EQ(c.state(), State::kDone);
  EXPECT_FALSE(c.stable());
}

}  // namespace icn
