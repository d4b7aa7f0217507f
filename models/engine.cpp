// sc_spawn (used by the per-block-methods mode) needs dynamic processes.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/engine.hpp"

#include <algorithm>
#include <csignal>
#include <sstream>
#include <stdexcept>

namespace icn {

std::atomic<int> CycleEngine::interrupt_signal_{0};

const char* to_string(RunOutcome::Status status) {
  switch (status) {
    case RunOutcome::Status::kRunning: return "running";
    case RunOutcome::Status::kCompleted: return "completed";
    case RunOutcome::Status::kStalled: return "stalled";
    case RunOutcome::Status::kCycleLimit: return "cycle_limit";
    case RunOutcome::Status::kInterrupted: return "interrupted";
    case RunOutcome::Status::kFault: return "fault";
  }
  return "?";
}

CycleEngine::CycleEngine(sc_core::sc_module_name name, Options options)
    : sc_module(name), options_(options) {
  SC_HAS_PROCESS(CycleEngine);
  SC_METHOD(step);  // runs once at time 0, then re-arms itself with next_trigger
}

void CycleEngine::add(Clocked& block) {
  if (block.engine_ != nullptr) throw std::logic_error(block.block_name() + ": registered twice");
  block.engine_ = this;
  blocks_.push_back(&block);
  if (options_.per_block_methods) {
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.dont_initialize();
    opts.set_sensitivity(block.phase_ == Phase::kProcessor ? &processor_phase_ : &network_phase_);
    Clocked* b = &block;
    sc_core::sc_spawn(
        [this, b] {
          if (!fault_.empty()) return;  // a block broke its hardware's rules earlier in this cycle
          b->last_tick_ = now_;
          ++evaluations_;
          try {
            const Cycle next = b->tick(now_);
            if (next != kNever) wake(*b, next);
          } catch (const HardwareFault& e) {
            fault_ = e.what();
          }
        },
        sc_core::sc_gen_unique_name("tick"), &opts);
  }
}

void CycleEngine::wake(Clocked& block, Cycle when) {
  const int phase = static_cast<int>(block.phase_);
  if (when < now_ || when == 0 || (when == now_ && phase <= current_phase_)) {
    throw std::logic_error("engine: " + block.block_name() + " woken for cycle " +
                           std::to_string(when) + " during cycle " + std::to_string(now_) +
                           " (a block may only wake later phases or later cycles)");
  }
  if (block.queued_for_ == when) return;
  block.queued_for_ = when;
  if (when - now_ < kRing) {
    ring_[phase][when & (kRing - 1)].push_back(&block);
    ++ring_items_;
  } else {
    far_.push(Deferred{when, far_order_++, phase, &block});
  }
}

void CycleEngine::add_cycle_hook(std::function<void(Cycle)> hook) {
  cycle_hooks_.push_back(std::move(hook));
}

Cycle CycleEngine::next_pending() const {
  Cycle best = far_.empty() ? kNever : far_.top().when;
  if (ring_items_ > 0) {
    for (Cycle c = now_ + 1; c < now_ + kRing && c < best; ++c) {
      const std::size_t slot = c & (kRing - 1);
      bool any = false;
      for (int p = 0; p < kPhaseCount; ++p) any = any || !ring_[p][slot].empty();
      if (any) return c;
    }
  }
  return best;
}

void CycleEngine::take_due_deferred(Cycle t) {
  while (!far_.empty() && far_.top().when == t) {
    const Deferred d = far_.top();
    far_.pop();
    ring_[d.phase][t & (kRing - 1)].push_back(d.block);
    ++ring_items_;
  }
}

void CycleEngine::run_cycle(Cycle t) {
  take_due_deferred(t);
  for (int p = 0; p < kPhaseCount; ++p) {
    current_phase_ = p;
    scratch_.clear();
    std::swap(scratch_, ring_[p][t & (kRing - 1)]);
    ring_items_ -= scratch_.size();
    if (options_.address_order) std::sort(scratch_.begin(), scratch_.end(), std::less<Clocked*>());
    for (Clocked* block : scratch_) {
      if (block->last_tick_ == t) continue;  // woken twice for this cycle
      block->last_tick_ = t;
      ++evaluations_;
      const Cycle next = block->tick(t);
      if (next != kNever) wake(*block, next);
    }
  }
  current_phase_ = kPhaseCount;  // hooks and the watchdog see a finished cycle
  for (auto& hook : cycle_hooks_) hook(t);
}

void CycleEngine::step() {
  if (finished()) return;
  if (flushing_) {
    // One idle period after the last cycle: SystemC writes a time step's
    // trace values when time advances, so this makes the last cycle visible.
    finish(pending_status_, pending_diagnostic_);
    return;
  }
  if (options_.per_block_methods && now_ != 0) {
    step_per_block_methods();
    return;
  }
  if (now_ != 0) {
    try {
      run_cycle(now_);
    } catch (const HardwareFault& e) {
      finish(RunOutcome::Status::kFault, e.what());
      return;
    }
  }
  end_of_cycle();
}

// The simple scheme: every block's own SC_METHOD runs every cycle. The engine
// only sequences the phases through delta cycles: processors run in delta 1,
// the network in delta 2, and the engine closes the cycle in delta 3.
void CycleEngine::step_per_block_methods() {
  switch (stage_) {
    case Stage::kStart: {
      take_due_deferred(now_);
      current_phase_ = -1;  // delta cycles order the phases in this mode
      processor_phase_.notify(sc_core::SC_ZERO_TIME);
      stage_ = Stage::kProcessorsRunning;
      next_trigger(sc_core::SC_ZERO_TIME);
      return;
    }
    case Stage::kProcessorsRunning:
      network_phase_.notify(sc_core::SC_ZERO_TIME);
      stage_ = Stage::kNetworkRunning;
      next_trigger(sc_core::SC_ZERO_TIME);
      return;
    case Stage::kNetworkRunning:
      stage_ = Stage::kEnd;
      next_trigger(sc_core::SC_ZERO_TIME);
      return;
    case Stage::kEnd:
      // Wake-ups for this cycle (made before or during it) are moot: every
      // block ran. Later ones only tell whether the run has work left.
      for (int p = 0; p < kPhaseCount; ++p) {
        ring_items_ -= ring_[p][now_ & (kRing - 1)].size();
        ring_[p][now_ & (kRing - 1)].clear();
      }
      stage_ = Stage::kStart;
      current_phase_ = kPhaseCount;
      if (!fault_.empty()) {
        finish(RunOutcome::Status::kFault, fault_);
        return;
      }
      for (auto& hook : cycle_hooks_) hook(now_);
      end_of_cycle();
      return;
  }
}

void CycleEngine::end_of_cycle() {
  if (progress_due_.load(std::memory_order_relaxed) && progress_report_) {
    progress_due_.store(false, std::memory_order_relaxed);
    progress_report_(now_);
  }
  if (const int sig = interrupted_by(); sig != 0) {
    const std::string name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal " + std::to_string(sig);
    finish(RunOutcome::Status::kInterrupted, "interrupted by " + name + " at cycle " + std::to_string(now_));
    return;
  }
  if (stop_requested_ && now_ != 0) {
    outcome_.stopped = true;
    outcome_.in_flight_at_stop = in_flight_ ? in_flight_() : 0;
    finish(RunOutcome::Status::kCompleted, "");
    return;
  }
  if (now_ != 0) {
    const std::size_t held = in_flight_ ? in_flight_() : 0;
    if (held > 0 && now_ - last_progress_ >= options_.watchdog_cycles) {
      std::ostringstream msg;
      msg << "stall: " << held << " packet(s) held and none moved for "
          << options_.watchdog_cycles << " cycles (since cycle " << last_progress_ << ")";
      finish(RunOutcome::Status::kStalled, msg.str());
      return;
    }
  }
  Cycle next = next_pending();
  const bool every_cycle = !cycle_hooks_.empty() || (options_.per_block_methods && now_ != 0);
  if (every_cycle && next != kNever) next = now_ + 1;
  if (next == kNever) {
    const std::size_t held = in_flight_ ? in_flight_() : 0;
    if (held > 0) {
      finish(RunOutcome::Status::kStalled,
             "stall: " + std::to_string(held) + " packet(s) held but no block has work left");
    } else {
      finish(RunOutcome::Status::kCompleted, "");
    }
    return;
  }
  if (next > options_.max_cycles) {
    finish(RunOutcome::Status::kCycleLimit,
           "run.max_cycles = " + std::to_string(options_.max_cycles) +
               " reached before the traffic completed");
    return;
  }
  if (now_ == 0) last_progress_ = next - 1;
  const Cycle delta = next - now_;
  current_phase_ = -1;
  now_ = next;
  next_trigger(options_.period * static_cast<double>(delta));
}

std::vector<HeldTraffic> CycleEngine::collect_held() const {
  std::vector<HeldTraffic> held;
  for (const Clocked* block : blocks_) block->report_held(held);
  std::stable_sort(held.begin(), held.end(),
                   [](const HeldTraffic& a, const HeldTraffic& b) { return a.since < b.since; });
  return held;
}

void CycleEngine::finish(RunOutcome::Status status, std::string diagnostic) {
  if (!cycle_hooks_.empty() && !flushing_) {
    flushing_ = true;
    pending_status_ = status;
    pending_diagnostic_ = std::move(diagnostic);
    next_trigger(options_.period);
    return;
  }
  outcome_.status = status;
  outcome_.last_cycle = now_;
  // Where traffic waits explains a stall or the cycle limit; an interrupted
  // run is not at fault, and its line stays short.
  // A fault's line says itself what went wrong, and where.
  if (status != RunOutcome::Status::kCompleted && status != RunOutcome::Status::kInterrupted &&
      status != RunOutcome::Status::kFault) {
    outcome_.held = collect_held();
    if (!outcome_.held.empty()) {
      const HeldTraffic& oldest = outcome_.held.front();
      diagnostic += "; oldest waits at " + oldest.location + " (" +
                    std::to_string(oldest.packets) + " packet(s), head " + oldest.head +
                    ", since cycle " + std::to_string(oldest.since) + ")";
      if (outcome_.held.size() > 1)
        diagnostic += "; " + std::to_string(outcome_.held.size() - 1) + " more place(s) hold traffic";
    }
  }
  outcome_.diagnostic = std::move(diagnostic);
  for (auto& callback : finish_callbacks_) callback(outcome_);
}

}  // namespace icn
