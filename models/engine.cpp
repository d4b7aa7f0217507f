// sc_spawn (used by the per-block-methods mode) needs dynamic processes.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/engine.hpp"

#include <algorithm>
#include <condition_variable>
#include <csignal>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace icn {

std::atomic<int> CycleEngine::interrupt_signal_{0};

namespace {

// The worker this thread is during a multi-threaded network phase, or -1.
thread_local int tl_worker = -1;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// Sorts a cycle's woken blocks by address, for an address-order sweep. In a
// million-router broadcast a cycle wakes about 100,000 routers, nearly in
// order already (each router wakes neighbours a fixed distance away), on
// which std::sort's introsort fell back to heapsort in places (6% of the
// torus run). An LSD radix sort over the address bits that differ takes a
// fixed 2-3 passes. `spare` is a buffer of the caller's to sort through.
void sort_by_address(std::vector<Clocked*>& blocks, std::vector<Clocked*>& spare) {
  constexpr std::size_t kSmall = 256;  // below this std::sort is as fast
  if (blocks.size() < kSmall) {
    std::sort(blocks.begin(), blocks.end(), std::less<Clocked*>());
    return;
  }
  auto address = [](const Clocked* b) { return reinterpret_cast<std::uintptr_t>(b); };
  std::uintptr_t lo = ~std::uintptr_t{0}, hi = 0;
  for (const Clocked* b : blocks) {
    lo = std::min(lo, address(b));
    hi = std::max(hi, address(b));
  }
  constexpr unsigned kDigit = 11;  // 2048 buckets: the counts fit in L1
  constexpr unsigned kAligned = 3;  // a Clocked holds pointers: 8-byte aligned
  static_assert(alignof(Clocked) >= (1u << kAligned));
  unsigned width = 0;
  for (std::uintptr_t span = (hi - lo) >> kAligned; span != 0; span >>= 1) ++width;
  spare.resize(blocks.size());
  std::vector<Clocked*>* from = &blocks;
  std::vector<Clocked*>* to = &spare;
  for (unsigned shift = 0; shift < width; shift += kDigit) {
    std::uint32_t start[1u << kDigit] = {};
    auto digit = [&](const Clocked* b) { return ((address(b) - lo) >> (kAligned + shift)) & ((1u << kDigit) - 1); };
    for (const Clocked* b : *from) ++start[digit(b)];
    std::uint32_t sum = 0;
    for (std::uint32_t& c : start) sum += std::exchange(c, sum);
    for (Clocked* b : *from) (*to)[start[digit(b)]++] = b;
    std::swap(from, to);
  }
  if (from != &blocks) blocks.swap(spare);
}

}  // namespace

// The helper threads of a multi-threaded engine (workers 1 .. threads - 1; the
// simulation thread is worker 0). Once per cycle the simulation thread opens
// a round (a new epoch), every worker evaluates its own blocks, and the round
// closes when all have arrived: a barrier, which also orders every link write
// of the round before every read of the next. A helper spins for a while
// before it sleeps, so that short cycles cost no system call, and sleeps so
// that an idle or overloaded machine is not kept busy.
class CycleEngine::Workers {
 public:
  Workers(CycleEngine& engine, unsigned threads)
      : engine_(engine),
        per_(threads),
        // More threads than cores: a spinning helper would only take a core
        // from one with work, so helpers sleep at once.
        spins_(threads <= std::max(1u, std::thread::hardware_concurrency()) ? 8192 : 0) {
    for (unsigned w = 1; w < threads; ++w) helpers_.emplace_back([this, w] { helper(w); });
  }
  ~Workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_.store(true, std::memory_order_seq_cst);
    }
    wake_.notify_all();
    for (auto& t : helpers_) t.join();
  }

  struct alignas(64) PerWorker {
    std::uint64_t evaluations = 0;
    std::size_t pushed = 0;    // wake-ups this worker queued in the ring's lanes
    std::size_t consumed = 0;  // wake-ups it took from its lanes
    std::vector<Clocked*> commits;
    std::vector<Clocked*> scratch;
    std::vector<Clocked*> sort_spare;  // sort_by_address's second buffer
    std::vector<std::vector<Clocked*>> spares;  // idle lane buffers (CycleEngine::retire)
    std::exception_ptr error;
  };
  PerWorker& per(unsigned w) { return per_[w]; }
  unsigned count() const { return static_cast<unsigned>(per_.size()); }

  // Evaluates cycle t's network phase on every worker; returns when all are done.
  void run(Cycle t) {
    cycle_ = t;
    arrived_.store(0, std::memory_order_relaxed);
    epoch_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wake_.notify_all();
    }
    share(0);
    const unsigned helpers = count() - 1;
    for (unsigned spins = 0; arrived_.load(std::memory_order_acquire) != helpers; ++spins) {
      if (spins < spins_ / 2) cpu_relax();
      else std::this_thread::yield();
    }
  }

 private:
  void share(unsigned w) {
    tl_worker = static_cast<int>(w);
    try {
      engine_.evaluate_share(w, cycle_);
    } catch (...) {
      per_[w].error = std::current_exception();
    }
    tl_worker = -1;
  }

  void helper(unsigned w) {
    std::uint64_t seen = 0;
    for (;;) {
      unsigned spins = 0;
      while (epoch_.load(std::memory_order_acquire) == seen && !quit_.load(std::memory_order_acquire)) {
        if (++spins < spins_) {
          cpu_relax();
          continue;
        }
        std::unique_lock<std::mutex> lock(mutex_);
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        wake_.wait(lock, [&] {
          return epoch_.load(std::memory_order_seq_cst) != seen || quit_.load(std::memory_order_seq_cst);
        });
        sleepers_.fetch_sub(1, std::memory_order_seq_cst);
      }
      if (quit_.load(std::memory_order_acquire)) return;
      seen = epoch_.load(std::memory_order_acquire);
      share(w);
      arrived_.fetch_add(1, std::memory_order_release);
    }
  }

  CycleEngine& engine_;
  std::vector<PerWorker> per_;
  std::vector<std::thread> helpers_;
  unsigned spins_;  // busy-wait rounds before a helper sleeps
  Cycle cycle_ = 0;
  std::atomic<std::uint64_t> epoch_{0};
  std::atomic<unsigned> arrived_{0};
  std::atomic<unsigned> sleepers_{0};
  std::atomic<bool> quit_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
};

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
    : sc_module(name), options_(options), threads_(std::max(1u, options.threads)) {
  if (threads_ > 1 && options_.per_block_methods)
    throw std::invalid_argument("engine: several threads need the engine scheduler, not per-block methods");
  if (threads_ > 1) {
    lanes_.resize(static_cast<std::size_t>(threads_ + 1) * threads_ * kRing);
    proc_lanes_.resize(static_cast<std::size_t>(threads_) * kRing);
  }
  SC_HAS_PROCESS(CycleEngine);
  SC_METHOD(step);  // runs once at time 0, then re-arms itself with next_trigger
}

CycleEngine::~CycleEngine() = default;

void CycleEngine::add(Clocked& block) {
  if (block.engine_ != nullptr) throw std::logic_error(block.block_name() + ": registered twice");
  block.engine_ = this;
  block.index_ = static_cast<std::uint32_t>(blocks_.size());
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
  if (threads_ > 1) {
    if (block.queued_for_.exchange(when, std::memory_order_relaxed) == when) return;
    const int w = tl_worker;
    if (when - now_ >= kRing) {
      std::lock_guard<std::mutex> lock(far_mutex_);
      far_.push(Deferred{when, far_order_++, phase, &block});
      return;
    }
    const std::size_t slot = when & (kRing - 1);
    if (w < 0) {  // the simulation thread, outside the network phase
      push_to(block.phase_ == Phase::kNetwork ? lane(threads_, block.owner_, slot) : ring_[phase][slot], &block, spares_);
      ++ring_items_;
      return;
    }
    Workers::PerWorker& me = workers_->per(static_cast<unsigned>(w));
    push_to(block.phase_ == Phase::kNetwork ? lane(static_cast<unsigned>(w), block.owner_, slot)
                                            : proc_lanes_[static_cast<std::size_t>(w) * kRing + slot],
            &block, me.spares);
    ++me.pushed;
    return;
  }
  if (block.queued_for_.load(std::memory_order_relaxed) == when) return;
  block.queued_for_.store(when, std::memory_order_relaxed);
  if (when - now_ < kRing) {
    push_to(ring_[phase][when & (kRing - 1)], &block, spares_);
    ++ring_items_;
  } else {
    far_.push(Deferred{when, far_order_++, phase, &block});
  }
}

void CycleEngine::add_cycle_hook(std::function<void(Cycle)> hook) {
  cycle_hooks_.push_back(std::move(hook));
}

// A ring slot or lane keeps no buffer while it is idle: a consumed one hands
// its buffer to the spares and the next one to be filled takes one back.
// Without this every slot used once keeps the capacity of its busiest cycle
// (256 slots x the blocks woken in a cycle: 67 MB on a 128x128 mesh).
//
// The spares are kept largest first. A slot that only ever holds a few far
// wake-ups (traffic sources) would otherwise keep whichever buffer came back
// last, often the one that held every router of a busy cycle (56 MB of such
// buffers on a 128x128 mesh). So an empty list takes only a small spare
// (kSmallSpare entries at most), or none; a list that fills its buffer moves
// to the smallest spare with more room before the vector would reallocate,
// so a busy cycle's list climbs back to a big buffer in a step or two.
void CycleEngine::push_to(std::vector<Clocked*>& list, Clocked* block, std::vector<std::vector<Clocked*>>& spares) {
  if (list.size() == list.capacity() && !spares.empty()) take_roomier_spare(list, spares);
  list.push_back(block);
}

void CycleEngine::take_roomier_spare(std::vector<Clocked*>& list, std::vector<std::vector<Clocked*>>& spares) {
  // Largest first: the last spare whose capacity exceeds the list's.
  auto it = std::partition_point(spares.begin(), spares.end(), [&](const std::vector<Clocked*>& v) {
    return v.capacity() > list.capacity();
  });
  if (it == spares.begin()) return;  // none has more room: the vector grows itself
  if (list.capacity() == 0 && std::prev(it)->capacity() > kSmallSpare) return;  // a fresh one, sized by its use
  std::vector<Clocked*>& spare = *std::prev(it);
  spare.assign(list.begin(), list.end());
  list.swap(spare);
  // `spare` now holds the old, smaller buffer: back among the spares in order.
  std::vector<Clocked*> old;
  old.swap(spare);
  spares.erase(std::prev(it));
  if (old.capacity() != 0) keep_spare(old, spares);
}

void CycleEngine::keep_spare(std::vector<Clocked*>& buffer, std::vector<std::vector<Clocked*>>& spares) {
  buffer.clear();
  const std::size_t at = static_cast<std::size_t>(
      std::partition_point(spares.begin(), spares.end(),
                           [&](const std::vector<Clocked*>& v) { return v.capacity() >= buffer.capacity(); }) -
      spares.begin());
  if (spares.size() >= kMaxSpares) {
    // Enough kept: drop the smallest (cheapest to make again) of them and this one.
    if (at == spares.size()) {
      std::vector<Clocked*>().swap(buffer);
      return;
    }
    spares.pop_back();
  }
  spares.emplace(spares.begin() + static_cast<std::ptrdiff_t>(at))->swap(buffer);
}

std::size_t CycleEngine::wake_list_capacity() const {
  std::size_t n = 0;
  for (const auto& phase : ring_)
    for (const auto& list : phase) n += list.capacity();
  for (const auto& list : lanes_) n += list.capacity();
  for (const auto& list : proc_lanes_) n += list.capacity();
  return n;
}

void CycleEngine::retire(std::vector<Clocked*>& list, std::vector<std::vector<Clocked*>>& spares) {
  if (list.capacity() == 0) return;
  keep_spare(list, spares);
}

void CycleEngine::request_commit(Clocked& block) {
  if (threads_ == 1) {
    serial_commits_.push_back(&block);
    return;
  }
  if (tl_worker < 0) throw std::logic_error("engine: " + block.block_name() + " asked for a commit outside a worker");
  workers_->per(static_cast<unsigned>(tl_worker)).commits.push_back(&block);
}

bool CycleEngine::slot_has_work(std::size_t slot) const {
  for (int p = 0; p < kPhaseCount; ++p)
    if (!ring_[p][slot].empty()) return true;
  if (threads_ == 1) return false;
  for (unsigned w = 0; w < threads_; ++w)
    if (!proc_lanes_[static_cast<std::size_t>(w) * kRing + slot].empty()) return true;
  for (unsigned from = 0; from <= threads_; ++from)
    for (unsigned to = 0; to < threads_; ++to)
      if (!lane(from, to, slot).empty()) return true;
  return false;
}

Cycle CycleEngine::next_pending() const {
  Cycle best = far_.empty() ? kNever : far_.top().when;
  if (ring_items_ > 0) {
    for (Cycle c = now_ + 1; c < now_ + kRing && c < best; ++c)
      if (slot_has_work(c & (kRing - 1))) return c;
  }
  return best;
}

void CycleEngine::take_due_deferred(Cycle t) {
  while (!far_.empty() && far_.top().when == t) {
    const Deferred d = far_.top();
    far_.pop();
    const bool lane_of_owner = threads_ > 1 && d.phase == static_cast<int>(Phase::kNetwork);
    push_to(lane_of_owner ? lane(threads_, d.block->owner_, t & (kRing - 1)) : ring_[d.phase][t & (kRing - 1)], d.block,
            spares_);
    ++ring_items_;
  }
}

// Evaluates one woken block in cycle t and queues its own next wake-up.
void CycleEngine::evaluate(Clocked& block, Cycle t, std::uint64_t& evaluations) {
  if (block.last_tick_ == t) return;  // woken twice for this cycle
  block.last_tick_ = t;
  ++evaluations;
  const Cycle next = block.tick(t);
  if (next != kNever) wake(block, next);
}

// Evaluates a cycle's woken blocks in the order given. In an address-order
// sweep the blocks lie ascending in memory but far apart in a big network
// (a broadcast wavefront wakes one router in ten), too far for the
// hardware's prefetchers: each evaluation started with a cache miss on the
// block, then one per line of its state, one after another. Looking ahead
// overlaps them.
void CycleEngine::sweep(const std::vector<Clocked*>& blocks, Cycle t, std::uint64_t& evaluations) {
  const std::size_t n = blocks.size();
  if (!options_.address_order || !options_.look_ahead) {
    for (Clocked* block : blocks) evaluate(*block, t, evaluations);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (i + 2 * kLookahead < n) __builtin_prefetch(blocks[i + 2 * kLookahead]);
    if (i + kLookahead < n) blocks[i + kLookahead]->prefetch();
    evaluate(*blocks[i], t, evaluations);
  }
}

// Phase p of cycle t on the simulation thread: the blocks woken in the ring
// and, with several threads, those the workers woke (processor phase only).
void CycleEngine::run_phase_here(int p, Cycle t) {
  const std::size_t slot = t & (kRing - 1);
  current_phase_ = p;
  scratch_.clear();
  std::swap(scratch_, ring_[p][slot]);
  retire(ring_[p][slot], spares_);
  ring_items_ -= scratch_.size();
  if (threads_ > 1) {
    for (unsigned w = 0; w < threads_; ++w) {
      std::vector<Clocked*>& in = proc_lanes_[static_cast<std::size_t>(w) * kRing + slot];
      scratch_.insert(scratch_.end(), in.begin(), in.end());
      ring_items_ -= in.size();
      retire(in, workers_->per(w).spares);
    }
  }
  if (options_.address_order) sort_by_address(scratch_, sort_spare_);
  sweep(scratch_, t, evaluations_);
}

// One worker's share of cycle t's network phase: the blocks it owns that
// some thread woke for t, lane by lane in waking-thread order.
void CycleEngine::evaluate_share(unsigned worker, Cycle t) {
  Workers::PerWorker& me = workers_->per(worker);
  const std::size_t slot = t & (kRing - 1);
  if (options_.address_order) {
    me.scratch.clear();
    for (unsigned from = 0; from <= threads_; ++from) {
      std::vector<Clocked*>& in = lane(from, worker, slot);
      me.scratch.insert(me.scratch.end(), in.begin(), in.end());
      me.consumed += in.size();
      retire(in, me.spares);
    }
    sort_by_address(me.scratch, me.sort_spare);
    sweep(me.scratch, t, me.evaluations);
    return;
  }
  for (unsigned from = 0; from <= threads_; ++from) {
    std::vector<Clocked*>& in = lane(from, worker, slot);
    for (Clocked* block : in) evaluate(*block, t, me.evaluations);
    me.consumed += in.size();
    retire(in, me.spares);
  }
}

void CycleEngine::run_cycle_threaded(Cycle t) {
  if (!owners_assigned_) {
    // Network-phase blocks by locality (Clocked::set_locality), cut into
    // `threads_` runs of nearly equal length: neighbours share a worker.
    std::vector<Clocked*> network;
    for (Clocked* b : blocks_)
      if (b->phase_ == Phase::kNetwork) network.push_back(b);
    auto key = [](const Clocked* b) { return std::make_pair(b->locality_ != kNever ? b->locality_ : b->index_, b->index_); };
    std::sort(network.begin(), network.end(), [&](const Clocked* a, const Clocked* b) { return key(a) < key(b); });
    for (std::size_t i = 0; i < network.size(); ++i)
      network[i]->owner_ = static_cast<std::uint32_t>(i * threads_ / network.size());
    // Wake-ups made before the first cycle went to worker 0's lanes: re-deal them.
    for (std::size_t s = 0; s < kRing; ++s) {
      std::vector<Clocked*> early;
      for (unsigned from = 0; from <= threads_; ++from)
        for (unsigned to = 0; to < threads_; ++to) {
          std::vector<Clocked*>& in = lane(from, to, s);
          early.insert(early.end(), in.begin(), in.end());
          in.clear();
        }
      for (Clocked* b : early) lane(threads_, b->owner_, s).push_back(b);
    }
    owners_assigned_ = true;
  }
  if (!workers_) workers_ = std::make_unique<Workers>(*this, threads_);
  take_due_deferred(t);

  // Processor phase, on the simulation thread.
  run_phase_here(static_cast<int>(Phase::kProcessor), t);

  // Network phase, on every worker.
  current_phase_ = static_cast<int>(Phase::kNetwork);
  workers_->run(t);
  std::exception_ptr error;
  std::vector<Clocked*> commits;
  for (unsigned w = 0; w < threads_; ++w) {
    Workers::PerWorker& p = workers_->per(w);
    evaluations_ += p.evaluations;
    ring_items_ += p.pushed;
    ring_items_ -= p.consumed;
    p.evaluations = p.pushed = p.consumed = 0;
    if (p.error && !error) error = p.error;
    p.error = nullptr;
    commits.insert(commits.end(), p.commits.begin(), p.commits.end());
    p.commits.clear();
  }
  // Buffers drift from the workers that fill lanes to those that consume
  // them: pool the spares, and hand each worker back a few.
  // Both stay largest first; each worker gets every threads_-th of the
  // pooled spares, so each has large and small ones.
  for (unsigned w = 0; w < threads_; ++w) {
    auto& mine = workers_->per(w).spares;
    for (auto& v : mine) keep_spare(v, spares_);
    mine.clear();
  }
  for (unsigned w = 0; w < threads_; ++w) {
    auto& mine = workers_->per(w).spares;
    for (std::size_t i = w; i < spares_.size() && mine.size() <= threads_; i += threads_)
      mine.push_back(std::move(spares_[i]));
  }
  const auto handed_out = [](const std::vector<Clocked*>& v) { return v.capacity() == 0; };
  spares_.erase(std::remove_if(spares_.begin(), spares_.end(), handed_out), spares_.end());
  if (error) std::rethrow_exception(error);
  // Shared effects in registration order, whatever the thread count.
  std::sort(commits.begin(), commits.end(), [](const Clocked* a, const Clocked* b) { return a->index_ < b->index_; });
  for (Clocked* block : commits) block->commit(t);
  current_phase_ = kPhaseCount;
  for (auto& hook : cycle_hooks_) hook(t);
}

// The commits asked for on one thread, as on several: in registration order,
// after the network phase.
void CycleEngine::commit_serial(Cycle t) {
  if (serial_commits_.empty()) return;
  std::sort(serial_commits_.begin(), serial_commits_.end(),
            [](const Clocked* a, const Clocked* b) { return a->index_ < b->index_; });
  for (Clocked* block : serial_commits_) block->commit(t);
  serial_commits_.clear();
}

void CycleEngine::run_cycle(Cycle t) {
  if (threads_ > 1) {
    run_cycle_threaded(t);
    return;
  }
  take_due_deferred(t);
  for (int p = 0; p < kPhaseCount; ++p) run_phase_here(p, t);
  commit_serial(t);
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
      commit_serial(now_);
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
    if (held > 0 && now_ - last_progress_.load(std::memory_order_relaxed) >= options_.watchdog_cycles) {
      std::ostringstream msg;
      msg << "stall: " << held << " packet(s) held and none moved for "
          << options_.watchdog_cycles << " cycles (since cycle " << last_progress_.load() << ")";
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
