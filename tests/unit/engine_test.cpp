#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "models/channel.hpp"
#include "models/engine.hpp"

namespace icn {

namespace {

// Records the cycles it is evaluated in; asks for the cycles in `plan`.
class Recorder : public Clocked {
 public:
  Recorder(Phase phase, std::string name) : Clocked(phase), name_(std::move(name)) {}
  Cycle tick(Cycle now) override {
    ticks.push_back(now);
    if (next_ < plan.size()) return plan[next_++];
    return kNever;
  }
  std::string block_name() const override { return name_; }
  std::vector<Cycle> plan;
  std::vector<Cycle> ticks;

 private:
  std::string name_;
  std::size_t next_ = 0;
};

// Holds one "packet" forever: a deliberately deadlocked block.
class StuckBlock : public Clocked {
 public:
  StuckBlock() : Clocked(Phase::kNetwork) {}
  Cycle tick(Cycle now) override { return now + 1; }  // busy, never progresses
  std::string block_name() const override { return "top.stuck"; }
  void report_held(std::vector<HeldTraffic>& out) const override {
    out.push_back(HeldTraffic{"top.stuck port east output queue", 1, "packet 0 -> 5 seq 0", 3});
  }
};

}  // namespace

TEST(CycleEngine, EvaluatesOnlyRequestedCyclesAndSkipsIdleStretches) {
  CycleEngine engine("engine", {});
  Recorder r(Phase::kNetwork, "r");
  r.plan = {5, 1000, 1001};
  engine.add(r);
  engine.wake(r, 2);
  sc_core::sc_start();
  EXPECT_EQ(r.ticks, (std::vector<Cycle>{2, 5, 1000, 1001}));
  EXPECT_EQ(engine.outcome().status, RunOutcome::Status::kCompleted);
  EXPECT_EQ(engine.evaluations(), 4u);
  // Cycle c is simulated at time c * period.
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(1001, sc_core::SC_NS));
}

TEST(CycleEngine, ProcessorPhaseRunsBeforeNetworkPhaseInACycle) {
  CycleEngine engine("engine", {});
  std::vector<std::string> order;
  struct Block : Clocked {
    Block(Phase p, std::string n, std::vector<std::string>& o, Block* wakes = nullptr)
        : Clocked(p), name(std::move(n)), order(o), target(wakes) {}
    Cycle tick(Cycle now) override {
      order.push_back(name + "@" + std::to_string(now));
      if (target != nullptr) engine()->wake(*target, now);  // a later phase, same cycle: allowed
      return kNever;
    }
    std::string block_name() const override { return name; }
    std::string name;
    std::vector<std::string>& order;
    Block* target;
  };
  Block net(Phase::kNetwork, "nic", order);
  Block pe(Phase::kProcessor, "pe", order, &net);
  engine.add(net);
  engine.add(pe);
  engine.wake(pe, 3);
  sc_core::sc_start();
  EXPECT_EQ(order, (std::vector<std::string>{"pe@3", "nic@3"}));
}

TEST(CycleEngine, RejectsWakingTheSamePhaseInTheCurrentCycle) {
  CycleEngine engine("engine", {});
  struct Bad : Clocked {
    Bad() : Clocked(Phase::kNetwork) {}
    Cycle tick(Cycle now) override {
      try {
        engine()->wake(*this, now);
      } catch (const std::logic_error&) {
        rejected = true;
      }
      return kNever;
    }
    std::string block_name() const override { return "bad"; }
    bool rejected = false;
  } bad;
  engine.add(bad);
  engine.wake(bad, 1);
  sc_core::sc_start();
  EXPECT_TRUE(bad.rejected);
}

TEST(CycleEngine, LinkWriteWakesTheReceiverAtArrival) {
  CycleEngine engine("engine", {});
  Recorder receiver(Phase::kNetwork, "receiver");
  Channel link("link", 1, 4);
  link.connect_receiver(receiver);
  engine.add(receiver);
  struct Sender : Clocked {
    Sender(Channel& c) : Clocked(Phase::kNetwork), link(c) {}
    Cycle tick(Cycle now) override {
      link.send(now, 1);
      return kNever;
    }
    std::string block_name() const override { return "s"; }
    Channel& link;
  } s(link);
  engine.add(s);
  engine.wake(s, 7);
  sc_core::sc_start();
  EXPECT_EQ(receiver.ticks, std::vector<Cycle>{11});
}

// The watchdog turns a deadlock into a diagnostic naming where traffic waits.
TEST(CycleEngine, WatchdogReportsADeadlockInsteadOfHanging) {
  CycleEngine::Options options;
  options.watchdog_cycles = 50;
  CycleEngine engine("engine", options);
  StuckBlock stuck;
  engine.add(stuck);
  engine.set_in_flight_probe([] { return std::size_t{1}; });
  engine.wake(stuck, 1);
  sc_core::sc_start();
  const RunOutcome& o = engine.outcome();
  EXPECT_EQ(o.status, RunOutcome::Status::kStalled);
  EXPECT_LE(o.last_cycle, 60u);
  EXPECT_NE(o.diagnostic.find("top.stuck port east output queue"), std::string::npos) << o.diagnostic;
  EXPECT_NE(o.diagnostic.find("50 cycles"), std::string::npos) << o.diagnostic;
  ASSERT_EQ(o.held.size(), 1u);
}

TEST(CycleEngine, PacketsHeldWithNoActiveBlockIsAStall) {
  CycleEngine engine("engine", {});
  Recorder r(Phase::kNetwork, "r");
  engine.add(r);
  engine.wake(r, 1);
  engine.set_in_flight_probe([] { return std::size_t{3}; });
  sc_core::sc_start();
  EXPECT_EQ(engine.outcome().status, RunOutcome::Status::kStalled);
  EXPECT_NE(engine.outcome().diagnostic.find("3 packet(s)"), std::string::npos);
}

TEST(CycleEngine, CycleLimitEndsTheRun) {
  CycleEngine::Options options;
  options.max_cycles = 100;
  CycleEngine engine("engine", options);
  Recorder r(Phase::kNetwork, "r");
  r.plan = {50, 150};
  engine.add(r);
  engine.wake(r, 1);
  sc_core::sc_start();
  EXPECT_EQ(engine.outcome().status, RunOutcome::Status::kCycleLimit);
  EXPECT_EQ(r.ticks, (std::vector<Cycle>{1, 50}));
}

TEST(CycleEngine, CycleHooksForceEveryCycle) {
  CycleEngine engine("engine", {});
  Recorder r(Phase::kNetwork, "r");
  r.plan = {10};
  engine.add(r);
  engine.wake(r, 1);
  std::vector<Cycle> seen;
  engine.add_cycle_hook([&](Cycle t) { seen.push_back(t); });
  sc_core::sc_start();
  ASSERT_EQ(seen.size(), 10u);
  for (Cycle t = 1; t <= 10; ++t) EXPECT_EQ(seen[t - 1], t);
}

}  // namespace icn

namespace icn {

namespace {

// Appends its address to a shared log when evaluated.
class OrderProbe : public Clocked {
 public:
  explicit OrderProbe(std::vector<const Clocked*>& log) : Clocked(Phase::kNetwork), log_(log) {}
  Cycle tick(Cycle) override {
    log_.push_back(this);
    return kNever;
  }
  std::string block_name() const override { return "probe"; }

 private:
  std::vector<const Clocked*>& log_;
};

}  // namespace

// Options::address_order evaluates a cycle's blocks in ascending address order,
// whatever order they were woken in.
TEST(CycleEngine, AddressOrderEvaluatesBlocksInMemoryOrder) {
  CycleEngine::Options options;
  options.address_order = true;
  CycleEngine engine("engine", options);
  std::vector<const Clocked*> log;
  std::vector<std::unique_ptr<OrderProbe>> probes;
  for (int i = 0; i < 16; ++i) probes.push_back(std::make_unique<OrderProbe>(log));
  for (auto& p : probes) engine.add(*p);
  for (int i = 15; i >= 0; i -= 2) engine.wake(*probes[i], 3);  // woken in a scrambled order
  for (int i = 0; i < 16; i += 2) engine.wake(*probes[i], 3);
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 16u);
  EXPECT_TRUE(std::is_sorted(log.begin(), log.end(), std::less<const Clocked*>()));
}

// The same with thousands of blocks spread over 64 MB (a large network's
// router array), woken out of order: every block is evaluated once, in
// ascending address order.
TEST(CycleEngine, AddressOrderSortsThousandsOfBlocksSpreadOverMegabytes) {
  CycleEngine::Options options;
  options.address_order = true;
  CycleEngine engine("engine", options);
  std::vector<const Clocked*> log;
  constexpr std::size_t kStride = 128, kSlots = std::size_t{1} << 19;  // 64 MB
  static_assert(sizeof(OrderProbe) <= kStride);
  std::unique_ptr<std::byte[]> space(new std::byte[kStride * kSlots]);  // untouched but where a probe lies
  std::vector<OrderProbe*> probes;
  for (std::size_t i = 0; i < 3000; ++i) {
    // i -> i * odd (mod 2^19) is one-to-one: distinct slots, scattered.
    const std::size_t slot = (i * 2654435761u) % kSlots;
    probes.push_back(new (space.get() + slot * kStride) OrderProbe(log));
    engine.add(*probes.back());
  }
  for (std::size_t i = 0; i < probes.size(); ++i) engine.wake(*probes[(i * 7) % probes.size()], 4);
  sc_core::sc_start();
  std::vector<const Clocked*> expected(probes.begin(), probes.end());
  std::sort(expected.begin(), expected.end(), std::less<const Clocked*>());
  EXPECT_EQ(log, expected);
  for (OrderProbe* p : probes) p->~OrderProbe();
}

namespace {

// Logs its prefetch hints and its evaluations, in the order they come.
class LookAheadProbe : public Clocked {
 public:
  struct Event {
    char what;  // 'p' prefetch, 't' tick
    const Clocked* block;
    bool operator==(const Event& o) const { return what == o.what && block == o.block; }
  };
  explicit LookAheadProbe(std::vector<Event>& log) : Clocked(Phase::kNetwork), log_(log) {}
  Cycle tick(Cycle) override {
    log_.push_back({'t', this});
    return kNever;
  }
  void prefetch() const override { log_.push_back({'p', this}); }
  std::string block_name() const override { return "probe"; }

 private:
  std::vector<Event>& log_;
};

std::vector<LookAheadProbe::Event> look_ahead_log(bool address_order, bool look_ahead,
                                                  std::vector<const Clocked*>& sorted) {
  CycleEngine::Options options;
  options.address_order = address_order;
  options.look_ahead = look_ahead;
  CycleEngine engine("engine", options);
  std::vector<LookAheadProbe::Event> log;
  std::vector<std::unique_ptr<LookAheadProbe>> probes;
  for (int i = 0; i < 12; ++i) probes.push_back(std::make_unique<LookAheadProbe>(log));
  for (auto& p : probes) engine.add(*p);
  for (int i = 11; i >= 0; --i) engine.wake(*probes[i], 2);
  for (auto& p : probes) sorted.push_back(p.get());
  std::sort(sorted.begin(), sorted.end(), std::less<const Clocked*>());
  sc_core::sc_start();
  return log;
}

}  // namespace

// Options::look_ahead: in an address-order sweep, the block kLookahead
// places on is told before each evaluation, so it can start loading its
// state; the last kLookahead blocks have no one behind them to be told by.
TEST(CycleEngine, LookAheadTellsEachBlockKLookaheadEvaluationsEarly) {
  std::vector<const Clocked*> sorted;
  const auto log = look_ahead_log(true, true, sorted);
  const std::size_t n = sorted.size(), ahead = CycleEngine::kLookahead;
  ASSERT_LT(ahead, n);
  std::vector<LookAheadProbe::Event> expected;
  for (std::size_t i = 0; i < n; ++i) {
    if (i + ahead < n) expected.push_back({'p', sorted[i + ahead]});
    expected.push_back({'t', sorted[i]});
  }
  EXPECT_EQ(log, expected);
}

// Without look_ahead, or without address order, no block is told anything
// (one simulation per process: two tests).
TEST(CycleEngine, NoPrefetchHintsInAnAddressOrderSweepThatDoesNotLookAhead) {
  std::vector<const Clocked*> sorted;
  const auto log = look_ahead_log(true, false, sorted);
  EXPECT_EQ(log.size(), sorted.size());
  for (const auto& e : log) EXPECT_EQ(e.what, 't');
}

TEST(CycleEngine, NoPrefetchHintsInAWakeOrderSweep) {
  std::vector<const Clocked*> sorted;
  const auto log = look_ahead_log(false, true, sorted);
  EXPECT_EQ(log.size(), sorted.size());
  for (const auto& e : log) EXPECT_EQ(e.what, 't');
}

}  // namespace icn

namespace icn {

// Open-loop traffic never runs out of work: the testbench ends the run, and
// what is still in flight is recorded rather than called a stall.
TEST(CycleEngine, StopEndsAnOpenLoopRunWithTrafficInFlight) {
  CycleEngine engine("engine", {});
  struct Source : Clocked {
    Source(CycleEngine& e) : Clocked(Phase::kNetwork), engine(e) {}
    Cycle tick(Cycle now) override {
      ticks.push_back(now);
      if (now == 25) engine.stop();
      return now + 1;  // always more to inject
    }
    std::string block_name() const override { return "source"; }
    CycleEngine& engine;
    std::vector<Cycle> ticks;
  } source(engine);
  engine.add(source);
  engine.set_in_flight_probe([] { return std::size_t{4}; });
  engine.note_progress();
  engine.wake(source, 1);
  sc_core::sc_start();
  const RunOutcome& o = engine.outcome();
  EXPECT_EQ(o.status, RunOutcome::Status::kCompleted);
  EXPECT_TRUE(o.stopped);
  EXPECT_EQ(o.in_flight_at_stop, 4u);
  EXPECT_EQ(o.last_cycle, 25u);
  EXPECT_EQ(source.ticks.size(), 25u);
}

}  // namespace icn

namespace icn {
namespace {

// One stage of a ring: receives tokens on `in`, passes each on `out` with
// its count plus one; every 5th token also sleeps past the engine's wake-up
// ring (300 cycles) before it is passed on. Each delivery is committed:
// commit() appends to a log all stages share, which only the simulation
// thread may touch.
class RingStage : public Clocked {
 public:
  RingStage(unsigned id, std::vector<std::string>& log) : Clocked(Phase::kNetwork), id_(id), log_(log) {}
  Channel* in = nullptr;
  Channel* out = nullptr;
  std::vector<Cycle> ticks;
  PacketId held = kNoPacket;
  Cycle release_at = kNever;

  Cycle tick(Cycle now) override {
    ticks.push_back(now);
    in->receive(now, [&](PacketId token) {
      held = token;
      release_at = (token % 5 == 4) ? now + 300 : now;
    });
    if (held != kNoPacket && now == release_at) {
      if (held < kLastToken) out->send(now, held + 1);
      if (pending_.empty()) engine()->request_commit(*this);
      pending_.push_back(held);
      held = kNoPacket;
      engine()->note_progress();
      return kNever;
    }
    return held != kNoPacket ? release_at : kNever;
  }
  void commit(Cycle now) override {
    for (PacketId t : pending_) log_.push_back(std::to_string(now) + ":" + std::to_string(id_) + ":" + std::to_string(t));
    pending_.clear();
  }
  std::string block_name() const override { return "stage" + std::to_string(id_); }
  static constexpr PacketId kLastToken = 40;

 private:
  unsigned id_;
  std::vector<std::string>& log_;
  std::vector<PacketId> pending_;
};

}  // namespace

// Seven ring stages on `threads` workers: tokens cross from one worker's
// blocks to another's on every hop, some wait beyond the wake-up ring, and
// commits arrive from all of them; the ticks and the shared log are what a
// hand count gives.
static void run_ring_and_check_by_hand(unsigned threads) {
  CycleEngine::Options options;
  options.threads = threads;
  CycleEngine engine("engine", options);
  constexpr unsigned kStages = 7;
  std::vector<std::string> log;
  std::vector<std::unique_ptr<RingStage>> stages;
  std::vector<std::unique_ptr<Channel>> links;
  for (unsigned i = 0; i < kStages; ++i) stages.push_back(std::make_unique<RingStage>(i, log));
  for (unsigned i = 0; i < kStages; ++i) {
    links.push_back(std::make_unique<Channel>("l" + std::to_string(i), 1, 1 + i % 3));  // latencies 1, 2, 3
    stages[i]->out = links.back().get();
    stages[(i + 1) % kStages]->in = links.back().get();
    links.back()->connect_receiver(*stages[(i + 1) % kStages]);
  }
  for (auto& s : stages) engine.add(*s);
  engine.set_in_flight_probe([&] { return RingStage::kLastToken + 1 - log.size(); });
  struct Injector : Clocked {
    explicit Injector(Channel& c) : Clocked(Phase::kProcessor), link(c) {}
    Cycle tick(Cycle now) override {
      link.send(now, 0);
      return kNever;
    }
    std::string block_name() const override { return "injector"; }
    Channel& link;
  } injector(*links[kStages - 1]);
  engine.add(injector);
  engine.wake(injector, 1);
  sc_core::sc_start();

  // The expected run, counted by hand-rule: token t is at stage t % 7; it
  // leaves in its arrival cycle, or 300 later if t % 5 == 4; the link from
  // stage i takes 1 + i % 3 cycles. The injector sends token 0 in cycle 1
  // on stage 6's link (latency 1), so it arrives at stage 0 in cycle 2.
  std::vector<std::vector<Cycle>> expected_ticks(kStages);
  std::vector<std::string> expected_log;
  Cycle arrive = 1 + (1 + (kStages - 1) % 3);
  for (PacketId t = 0; t <= RingStage::kLastToken; ++t) {
    const unsigned at = t % kStages;
    const Cycle leave = t % 5 == 4 ? arrive + 300 : arrive;
    expected_ticks[at].push_back(arrive);
    if (leave != arrive) expected_ticks[at].push_back(leave);
    expected_log.push_back(std::to_string(leave) + ":" + std::to_string(at) + ":" + std::to_string(t));
    arrive = leave + 1 + at % 3;
  }
  EXPECT_EQ(engine.outcome().status, RunOutcome::Status::kCompleted) << engine.outcome().diagnostic;
  for (unsigned i = 0; i < kStages; ++i) EXPECT_EQ(stages[i]->ticks, expected_ticks[i]) << "stage " << i;
  EXPECT_EQ(log, expected_log);
}

TEST(CycleEngine, WorkerThreadsPassTokensAcrossTheirBlocksAsTheHardwareDoes) { run_ring_and_check_by_hand(3); }

// On one thread the engine also commits what blocks ask it to, after the
// network phase of the cycle they asked in (the all-port networks deliver so).
TEST(CycleEngine, OnOneThreadCommitsRunAfterTheNetworkPhaseAsOnWorkers) { run_ring_and_check_by_hand(1); }

}  // namespace icn

namespace icn {

// A block on a helper thread that breaks its hardware's rules ends the run
// as a fault with its line, as on one thread.
TEST(CycleEngine, AFaultOnAWorkerThreadEndsTheRunWithItsLine) {
  CycleEngine::Options options;
  options.threads = 2;
  CycleEngine engine("engine", options);
  struct Faulty : Clocked {
    explicit Faulty(bool breaks) : Clocked(Phase::kNetwork), breaks(breaks) {}
    Cycle tick(Cycle now) override {
      if (breaks && now == 4) throw HardwareFault("r1: two grants for one output");
      return now < 10 ? now + 1 : kNever;
    }
    std::string block_name() const override { return "faulty"; }
    bool breaks;
  } quiet(false), breaker(true);  // registered second: worker 1, a helper thread
  engine.add(quiet);
  engine.add(breaker);
  engine.wake(quiet, 1);
  engine.wake(breaker, 1);
  sc_core::sc_start();
  EXPECT_EQ(engine.outcome().status, RunOutcome::Status::kFault);
  EXPECT_EQ(engine.outcome().diagnostic, "r1: two grants for one output");
  EXPECT_EQ(engine.outcome().last_cycle, 4u);
}

}  // namespace icn

namespace icn {

namespace {

// Busy until cycle `until`: wakes itself every cycle.
class BusyBlock : public Clocked {
 public:
  explicit BusyBlock(Cycle until) : Clocked(Phase::kNetwork), until_(until) {}
  Cycle tick(Cycle now) override { return now < until_ ? now + 1 : kNever; }
  std::string block_name() const override { return "busy"; }

 private:
  Cycle until_;
};

// Evaluated first in every cycle (it was woken first), it wakes one far
// block `ahead` cycles on before anything else wakes in the cycle: the
// first wake-up into an empty slot, the one that takes a spare buffer.
class FarKicker : public Clocked {
 public:
  FarKicker(std::vector<std::unique_ptr<BusyBlock>>& far, Cycle until, Cycle ahead)
      : Clocked(Phase::kNetwork), far_(far), until_(until), ahead_(ahead) {}
  Cycle tick(Cycle now) override {
    engine()->wake(*far_[next_++ % far_.size()], now + ahead_);
    return now < until_ ? now + 1 : kNever;
  }
  std::string block_name() const override { return "kicker"; }

 private:
  std::vector<std::unique_ptr<BusyBlock>>& far_;
  Cycle until_, ahead_;
  std::size_t next_ = 0;
};

// 10,000 blocks busy every cycle and, each cycle, one wake-up 200 cycles
// ahead into a slot of its own: ~100 slots each holding one far wake-up.
// Each such slot must hold a buffer sized for what it holds, not the busy
// cycle's (which would be 100 x 16,384 entries here, 13 MB).
std::size_t most_wake_list_capacity(unsigned threads) {
  CycleEngine::Options options;
  options.threads = threads;
  CycleEngine engine("engine", options);
  constexpr std::size_t kBusy = 10000, kFar = 150;
  constexpr Cycle kUntil = 120, kAhead = 200;
  std::vector<std::unique_ptr<BusyBlock>> far;
  for (std::size_t i = 0; i < kFar; ++i) far.push_back(std::make_unique<BusyBlock>(0));
  FarKicker kicker(far, kUntil, kAhead);
  std::vector<std::unique_ptr<BusyBlock>> busy;
  for (std::size_t i = 0; i < kBusy; ++i) busy.push_back(std::make_unique<BusyBlock>(kUntil));
  engine.add(kicker);
  for (auto& b : far) engine.add(*b);
  for (auto& b : busy) engine.add(*b);
  engine.wake(kicker, 1);
  for (auto& b : busy) engine.wake(*b, 1);
  std::size_t most = 0;
  engine.add_cycle_hook([&](Cycle) { most = std::max(most, engine.wake_list_capacity()); });
  sc_core::sc_start();
  EXPECT_EQ(engine.outcome().status, RunOutcome::Status::kCompleted) << engine.outcome().diagnostic;
  return most;
}

}  // namespace

// Bound: the busy cycle's list at most doubled (vector growth), plus a few
// entries for each slot and lane that holds anything.
TEST(CycleEngine, FarWakeUpsDoNotKeepABusyCyclesBufferOnOneThread) {
  EXPECT_LE(most_wake_list_capacity(1), 2 * 10001u + 256 * 16u);
}

TEST(CycleEngine, FarWakeUpsDoNotKeepABusyCyclesBufferOnTwoThreads) {
  EXPECT_LE(most_wake_list_capacity(2), 2 * 10001u + 3 * 2 * 256 * 16u);
}

}  // namespace icn
