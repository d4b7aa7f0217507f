// The cycle engine: one clocked SystemC process per network.
//
// Every hardware block (router, NIC, processing element) is a Clocked object
// registered with the engine of its network. Once per cycle the engine calls
// tick() on the blocks that have something to do, in two phases:
//
//   kProcessor  processing elements hand messages to their NICs (TLM b_transport)
//   kNetwork    NICs and routers read what their input links carry in this cycle,
//               evaluate, and write what becomes visible at cycle + latency
//
// Within a phase the order of blocks never matters: a block reads link slot t and
// writes slot t + L (L >= 1), and owns all its other state (BookSim's
// read / evaluate / write). A block with nothing to do is not evaluated: it is
// woken by a link write addressed to it, or by its own request for a later cycle.
// This is what lets a million-node network run at a few times BookSim's speed
// (ARCHITECTURE rule 4: one SC_METHOD activation per network per cycle instead of
// one per router).
//
// The engine also owns the stall watchdog (rule 8): if packets are held in the
// network and none moves for `watchdog_cycles`, it stops the run and names the
// block, port and queue where the oldest packet waits.
#pragma once

#include <systemc>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn {

class CycleEngine;

enum class Phase : std::uint8_t { kProcessor = 0, kNetwork = 1 };
inline constexpr int kPhaseCount = 2;

// Where traffic waits, reported to the watchdog.
struct HeldTraffic {
  std::string location;  // e.g. "cbft.r2_1 port up, output queue"
  std::size_t packets = 0;
  std::string head;      // e.g. "packet 3 -> 12 (seq 0)"
  Cycle since = kNever;  // cycle the head packet started waiting here
};

class Clocked {
 public:
  explicit Clocked(Phase phase) : phase_(phase) {}
  virtual ~Clocked() = default;
  Clocked(const Clocked&) = delete;
  Clocked& operator=(const Clocked&) = delete;

  // Evaluates one cycle. Returns the next cycle this block must be evaluated
  // in even if no link wakes it (usually now + 1 while it holds work), or kNever.
  virtual Cycle tick(Cycle now) = 0;

  // Hierarchical name used in diagnostics.
  virtual std::string block_name() const = 0;

  // Appends where this block holds packets (watchdog diagnostics).
  virtual void report_held(std::vector<HeldTraffic>& out) const {}

  // A hint, in an address-order sweep that looks ahead (Options::look_ahead): the engine
  // evaluates this block a few blocks from now. A block whose cycle reads
  // memory past its first cache line (which the engine loads itself) may
  // start loading it (__builtin_prefetch), so that a sweep over a network
  // larger than the caches waits on several misses at once rather than one
  // after another. It must change nothing.
  virtual void prefetch() const {}

  // With several threads (Options::threads > 1) a network-phase block runs on
  // a worker thread and must not touch state it shares with other blocks
  // (statistics, the ledger; the packet pool only through its worker's free
  // list, PacketPool's calls with owner()). It queues those effects and
  // calls CycleEngine::request_commit(); the engine then calls commit(now) on
  // the simulation thread after the phase, for every such block in
  // registration order, so the effects land in the same order for any
  // thread count.
  virtual void commit(Cycle now) {}

  Phase phase() const { return phase_; }
  CycleEngine* engine() const { return engine_; }
  // The worker thread that evaluates it (0 on one thread): a block may keep
  // per-worker scratch and queues without locks.
  std::uint32_t owner() const { return owner_; }

  // Where the block sits in its network, for splitting the network phase
  // among worker threads (Options::threads): blocks are dealt out in
  // contiguous runs of this key, so a router and its NIC, and neighbouring
  // routers, share a worker and its caches. By default the registration order.
  void set_locality(std::uint64_t key) { locality_ = key; }

 private:
  friend class CycleEngine;
  Phase phase_;
  std::uint32_t owner_ = 0;  // the worker thread that evaluates it (threads > 1)
  std::uint32_t index_ = 0;  // registration order (commits run in it)
  std::uint64_t locality_ = kNever;  // kNever: index_
  CycleEngine* engine_ = nullptr;
  Cycle last_tick_ = kNever;
  // Worker threads may wake one block at once: the exchange keeps one entry.
  std::atomic<Cycle> queued_for_{kNever};
};

// Thrown by a block whose modelled hardware broke a rule the model cannot go
// on past (a loaded RTL router that breaks its port contract): the engine
// ends the run at that cycle with status "fault" and this one line, as it
// ends a stalled run, instead of an internal error.
class HardwareFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunOutcome {
  enum class Status { kRunning, kCompleted, kStalled, kCycleLimit, kInterrupted, kFault };
  Status status = Status::kRunning;
  Cycle last_cycle = 0;     // last cycle the engine evaluated
  // Open-loop runs end by the testbench's stop(), with traffic still in flight.
  bool stopped = false;
  std::size_t in_flight_at_stop = 0;
  std::string diagnostic;   // one line, set for kStalled, kCycleLimit, kInterrupted and kFault
  std::vector<HeldTraffic> held;  // where traffic was held when the run stopped
};

const char* to_string(RunOutcome::Status status);

class CycleEngine : public sc_core::sc_module {
 public:
  struct Options {
    sc_core::sc_time period = sc_core::sc_time(1, sc_core::SC_NS);
    Cycle max_cycles = 10'000'000;
    Cycle watchdog_cycles = 10'000;
    // The simple alternative, kept to measure against: one SC_METHOD per block,
    // triggered every cycle by a phase event, no skipping of idle blocks.
    bool per_block_methods = false;
    // Evaluate each cycle's blocks in memory-address order rather than wake
    // order. Results cannot change (the order within a phase never matters);
    // for a million blocks allocated in network order the sweep becomes
    // sequential in memory, 1.6x faster for the iBT routers.
    bool address_order = false;
    // With address_order: the sweep also looks ahead. It loads the first
    // cache line of the block 2 * kLookahead places on and calls
    // Clocked::prefetch on the block kLookahead places on: 1.3x on the
    // million-node torus, whose routers lie in one array. Off by default:
    // where blocks are small or cached it is pure overhead (HPAM's 64x64
    // broadcast ran 5% slower with it).
    bool look_ahead = false;
    // Threads that evaluate the network phase of a cycle (run.threads). With
    // more than one, each network-phase block belongs to one worker (blocks
    // split into contiguous runs by registration order, which is network
    // order), wake-ups go into one lane per (waking worker, owning worker),
    // and effects on shared state are committed after the phase in
    // registration order (Clocked::commit): the results do not depend on the
    // thread count. The processor phase stays on the simulation thread.
    unsigned threads = 1;
  };

  ~CycleEngine() override;

  CycleEngine(sc_core::sc_module_name name, Options options);

  // Registers a block; every block of the network must be registered before
  // simulation starts.
  void add(Clocked& block);

  // Requests an evaluation of `block` in cycle `when`. A block may wake a block
  // of a later phase in the current cycle, or any block in a later cycle, never
  // one of its own phase in the current cycle (that would make the result depend
  // on evaluation order).
  void wake(Clocked& block, Cycle when);

  // The packets currently held anywhere in the network (for the watchdog and the
  // end-of-run check); usually the pool's live count.
  void set_in_flight_probe(std::function<std::size_t()> probe) { in_flight_ = std::move(probe); }

  // Called after every cycle's network phase. Installing a hook makes the
  // engine evaluate every cycle (no skipping of idle stretches), as waveform
  // tracing needs.
  void add_cycle_hook(std::function<void(Cycle)> hook);

  // A progress report for long runs: `report` runs on the simulation thread
  // at the end of the first evaluated cycle after request_progress(), which
  // any thread may call (a timer thread asks a few times a second). Unlike a
  // cycle hook it does not make the engine evaluate every cycle.
  void set_progress_report(std::function<void(Cycle)> report) { progress_report_ = std::move(report); }
  void request_progress() { progress_due_.store(true, std::memory_order_relaxed); }

  // Called once when the run ends, whatever the status.
  void on_finish(std::function<void(const RunOutcome&)> callback) {
    finish_callbacks_.push_back(std::move(callback));
  }

  // Ends the run at the end of the current cycle although traffic may still be
  // in flight: open-loop (synthetic) traffic never runs out of work, so the
  // testbench decides when its measurement is complete (after warm-up,
  // measurement and drain, as BookSim's warming_up / running / draining). The
  // packets then in flight are recorded in the outcome; a stall or the cycle
  // limit reached before still ends the run as usual.
  void stop() { stop_requested_ = true; }

  // A signal (SIGINT, SIGTERM) asks every engine of the process to end its run
  // at the end of the cycle it is evaluating, as kInterrupted: what was
  // measured so far is still reported. Async-signal-safe (a lock-free store).
  static void interrupt(int signal_number) { interrupt_signal_.store(signal_number, std::memory_order_relaxed); }
  // The signal that interrupted the process, or 0.
  static int interrupted_by() { return interrupt_signal_.load(std::memory_order_relaxed); }

  // Any packet movement (link transfer, injection, delivery, drop) counts as
  // progress. Worker threads all store the same cycle: relaxed is enough.
  void note_progress() { last_progress_.store(now_, std::memory_order_relaxed); }

  // Worker threads evaluating the network phase (1: the simulation thread alone).
  unsigned threads() const { return threads_; }
  // See Clocked::commit: `block` is committed after this cycle's network
  // phase, on one thread as on several (a block asked by several workers in
  // one cycle is committed once per request).
  void request_commit(Clocked& block);

  Cycle now() const { return now_; }
  bool finished() const { return outcome_.status != RunOutcome::Status::kRunning; }
  const RunOutcome& outcome() const { return outcome_; }
  std::uint64_t evaluations() const { return evaluations_; }
  std::size_t blocks() const { return blocks_.size(); }
  // Wake-up entries the ring's slots and lanes have room for (not counting
  // idle spare buffers): what a test checks the spares policy against.
  std::size_t wake_list_capacity() const;
  const Options& options() const { return options_; }

 private:
  static constexpr Cycle kRing = 256;  // near-future wake-ups; later ones go to a heap
  static constexpr std::size_t kMaxSpares = 256;  // idle wake-up buffers kept for reuse
  static constexpr std::size_t kSmallSpare = 64;  // the largest spare an empty list takes (push_to)
 public:
  // Blocks an address-order sweep looks ahead (Options::look_ahead): far
  // enough that a block's loads, started kLookahead evaluations early, have
  // arrived; near enough that they are not evicted again (3, 4 and 6
  // measured alike on the million-node torus; docs/performance.md).
  static constexpr std::size_t kLookahead = 4;

 private:

  struct Deferred {
    Cycle when;
    std::uint64_t order;  // FIFO among equal cycles, for determinism
    int phase;
    Clocked* block;
    bool operator>(const Deferred& o) const {
      return when != o.when ? when > o.when : order > o.order;
    }
  };

  class Workers;  // the worker threads (engine.cpp)

  void step();
  void step_per_block_methods();
  void run_cycle_threaded(Cycle t);
  void evaluate_share(unsigned worker, Cycle t);
  bool slot_has_work(std::size_t slot) const;
  static void push_to(std::vector<Clocked*>& list, Clocked* block, std::vector<std::vector<Clocked*>>& spares);
  static void retire(std::vector<Clocked*>& list, std::vector<std::vector<Clocked*>>& spares);
  static void take_roomier_spare(std::vector<Clocked*>& list, std::vector<std::vector<Clocked*>>& spares);
  static void keep_spare(std::vector<Clocked*>& buffer, std::vector<std::vector<Clocked*>>& spares);
  void evaluate(Clocked& block, Cycle t, std::uint64_t& evaluations);
  void sweep(const std::vector<Clocked*>& blocks, Cycle t, std::uint64_t& evaluations);
  void run_phase_here(int phase, Cycle t);
  std::vector<Clocked*>& lane(unsigned from, unsigned to, std::size_t slot) {
    return lanes_[(static_cast<std::size_t>(from) * threads_ + to) * kRing + slot];
  }
  const std::vector<Clocked*>& lane(unsigned from, unsigned to, std::size_t slot) const {
    return lanes_[(static_cast<std::size_t>(from) * threads_ + to) * kRing + slot];
  }
  void end_of_cycle();
  void commit_serial(Cycle t);
  void run_cycle(Cycle t);
  void take_due_deferred(Cycle t);
  Cycle next_pending() const;
  void finish(RunOutcome::Status status, std::string diagnostic);
  std::vector<HeldTraffic> collect_held() const;

  Options options_;
  unsigned threads_ = 1;
  std::vector<Clocked*> blocks_;
  std::vector<Clocked*> ring_[kPhaseCount][kRing];
  std::size_t ring_items_ = 0;
  std::priority_queue<Deferred, std::vector<Deferred>, std::greater<>> far_;
  std::uint64_t far_order_ = 0;
  std::vector<Clocked*> scratch_;
  std::vector<Clocked*> sort_spare_;  // an address-order sort's second buffer
  std::vector<Clocked*> serial_commits_;  // commits asked for on one thread
  std::vector<std::vector<Clocked*>> spares_;  // idle ring buffers (retire)
  std::vector<std::function<void(Cycle)>> cycle_hooks_;
  std::function<void(Cycle)> progress_report_;
  std::atomic<bool> progress_due_{false};
  static std::atomic<int> interrupt_signal_;
  std::vector<std::function<void(const RunOutcome&)>> finish_callbacks_;
  std::function<std::size_t()> in_flight_;
  // threads > 1: network-phase wake-ups, one lane per (waking thread, owning
  // worker) and ring slot; the waking thread is a worker or, as index
  // threads_, the simulation thread outside the network phase. Processor-phase
  // wake-ups made by workers wait in proc_lanes_[worker][slot].
  std::vector<std::vector<Clocked*>> lanes_;
  std::vector<std::vector<Clocked*>> proc_lanes_;
  std::mutex far_mutex_;  // workers' wake-ups beyond the ring (rare)
  std::unique_ptr<Workers> workers_;
  bool owners_assigned_ = false;
  Cycle now_ = 0;
  int current_phase_ = -1;
  std::atomic<Cycle> last_progress_{0};
  std::uint64_t evaluations_ = 0;
  RunOutcome outcome_;
  bool flushing_ = false;
  std::string fault_;  // per-block methods: a HardwareFault's line, ends the run at the cycle's end
  bool stop_requested_ = false;
  // Per-block-methods mode: the delta cycle of the current cycle we are in.
  enum class Stage { kStart, kProcessorsRunning, kNetworkRunning, kEnd };
  Stage stage_ = Stage::kStart;
  sc_core::sc_event processor_phase_;
  sc_core::sc_event network_phase_;
  RunOutcome::Status pending_status_ = RunOutcome::Status::kRunning;
  std::string pending_diagnostic_;
};

}  // namespace icn
