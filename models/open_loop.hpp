// Open-loop measurement phases (BookSim's warming_up / running / draining).
//
// Synthetic traffic never runs out, so a run is bounded by time. The testbench
// observes the network in sample periods and reports, at the end of each
// period, the average latency and accepted rate it saw; this controller decides
// the phase:
//
//   warm-up   - a fixed number of periods, or (warmup_periods = 0) until latency
//               and accepted rate change by less than warmup_threshold between
//               two periods (BookSim's steady-state check);
//   measure   - packets created now are the measured ones; the run has
//               converged when the cumulative latency and the accepted rate
//               changed by less than their thresholds in 3 periods in a row, or
//               after max_samples periods in all;
//   drain     - no new measured packets; the testbench ends the run when every
//               measured packet has arrived.
//
// A latency above latency_threshold at any period end (or while draining) is
// the "unstable" verdict: latency grows without bound, the network is past
// saturation, and the run ends at once.
#pragma once

#include <cmath>
#include <cstdint>

#include "models/types.hpp"

namespace icn {

class OpenLoopPhases {
 public:
  struct Params {
    Cycle sample_period = 1000;
    unsigned warmup_periods = 3;       // 0: steady-state check
    double warmup_threshold = 0.05;
    double stopping_threshold = 0.05;  // latency, relative change per period
    double acc_stopping_threshold = 0.05;
    unsigned max_samples = 10;         // periods (warm-up and measurement) before giving up
    double latency_threshold = 500;    // cycles; above it the run is unstable
    unsigned converged_periods = 3;
  };
  enum class State { kWarmingUp, kMeasuring, kDraining, kDone };

  explicit OpenLoopPhases(Params p) : p_(p) {}

  State state() const { return state_; }
  bool measuring() const { return state_ == State::kMeasuring; }
  bool stable() const { return stable_; }
  bool converged() const { return converged_ >= p_.converged_periods; }
  unsigned periods() const { return periods_; }
  const Params& params() const { return p_; }

  // The end of a sample period: `latency` as the testbench measures it in this
  // phase (the period's packets while warming up, the measured packets so far
  // while measuring), `accepted` the period's accepted rate. Returns the new state.
  State end_of_period(double latency, double accepted) {
    ++periods_;
    if (latency > p_.latency_threshold) return unstable();
    const double dl = change(latency, prev_latency_);
    const double da = change(accepted, prev_accepted_);
    prev_latency_ = latency;
    prev_accepted_ = accepted;
    if (state_ == State::kWarmingUp) {
      const bool steady = p_.warmup_periods == 0 ? (periods_ > 1 && dl < p_.warmup_threshold && da < p_.warmup_threshold)
                                                 : periods_ >= p_.warmup_periods;
      if (steady) {
        state_ = State::kMeasuring;
        measure_start_ = periods_;
        prev_latency_ = prev_accepted_ = 0;  // the measurement starts afresh
      } else if (periods_ >= p_.max_samples) {
        return unstable();  // never reached a steady state
      }
    } else if (state_ == State::kMeasuring) {
      const bool first = periods_ == measure_start_ + 1;
      if (!first && dl < p_.stopping_threshold && da < p_.acc_stopping_threshold) ++converged_;
      else converged_ = 0;
      if (converged() || periods_ >= p_.max_samples + measure_start_) state_ = State::kDraining;
    }
    return state_;
  }

  // While draining: the running average latency of the measured packets,
  // including those still in flight (their age so far).
  State drain_check(double latency_so_far) {
    if (latency_so_far > p_.latency_threshold) return unstable();
    return state_;
  }
  void drained() {
    if (state_ == State::kDraining) state_ = State::kDone;
  }

 private:
  static double change(double now, double before) {
    return now == 0 ? (before == 0 ? 0.0 : 1.0) : std::fabs((now - before) / now);
  }
  State unstable() {
    stable_ = false;
    state_ = State::kDone;
    return state_;
  }

  Params p_;
  State state_ = State::kWarmingUp;
  bool stable_ = true;
  unsigned periods_ = 0;
  unsigned measure_start_ = 0;
  unsigned converged_ = 0;
  double prev_latency_ = 0;
  double prev_accepted_ = 0;
};

}  // namespace icn
