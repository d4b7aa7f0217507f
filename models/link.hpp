// Link: the one delay-line primitive every network family builds its wires from.
//
// One direction of a connection between two blocks: `width` parallel physical
// links of the same latency L >= 1, each carrying one item per cycle. An item is
// whatever the wire carries — a packet handle, a bit, a flit, a credit. The link
// is a delay line indexed by cycle (ARCHITECTURE rule 3): the sender writes the
// row of cycle t + L in cycle t, the receiver reads the row of cycle t in cycle t.
// With L >= 1 the two never touch the same row in one cycle, so sender and
// receiver can be evaluated in either order.
//
// Each row remembers the cycle it holds (its stamp), so a row nobody read reads
// as empty once its cycle has passed: nothing has to clear it, reading does not
// consume, and a waveform probe can look at a row before or after the receiver.
// The first item written for a cycle wakes the receiving block for that cycle,
// which is how idle blocks stay asleep. A block that reads many links can also
// have the link mark its port in an ArrivalMask (latency 1 only), so that it
// reads only the links that carry something this cycle.
//
// Every link has a fault flag (a failed link accepts nothing: traffic behind it
// stalls and the watchdog reports it), a 64-bit transfer counter and the count
// of items sent in the current cycle (the waveform probe).
//
// Two shapes share this code:
//   Link<T>               any width and latency; rows live on the heap (inline
//                         for width 1 and latency 1, or up to 3 for items of
//                         one or two bytes: a credit)
//   Link<T, OneCycleWire> one link of latency 1: everything inline, trivially
//                         destructible, 56 bytes for a packet handle; the shape a million-router
//                         network can afford per port (docs/performance.md)
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "models/engine.hpp"
#include "models/types.hpp"

namespace icn {

// Which input ports of a block carry an item in a cycle: one word per cycle
// modulo Rows (a power of two). The receiver clears the word of cycle t after
// reading it; a link of latency L < Rows sends into the word of t + L, never
// the one being read, so any latency below Rows may mark the mask.
template <unsigned Rows>
struct ArrivalRows {
  static_assert(Rows >= 2 && (Rows & (Rows - 1)) == 0, "arrival rows: a power of two >= 2");
  static constexpr unsigned kRows = Rows;
  std::uint32_t ports[Rows] = {};
  std::uint32_t& of(Cycle t) { return ports[t & (Rows - 1)]; }
};
// Latency-1 links only, by cycle parity (the iBT's one-cycle wires).
using ArrivalMask = ArrivalRows<2>;

// Shape tags.
struct AnyWidthAndLatency {};
struct OneCycleWire {};

namespace link_detail {

template <class T>
struct HeapRows {
  // A row on the heap: the cycle it holds, its items and the receiver's read.
  struct Row {
    Cycle stamp = kNever;
    std::uint32_t count = 0;
    std::uint32_t read = 0;  // the receiver read this row (checked on strict links)
  };
  // The commonest links (width 1, latency 1; and for items of a byte or two,
  // such as a credit, latency up to 3) keep their rows inline, so reading or
  // writing one touches the link object alone (one cache miss instead of
  // three in a big network). preset=booksim's credit links take 2 cycles.
  // An inline row is one word: the cycle it holds, with the receiver's read
  // in the top bit; its count is 1 when the cycle matches (width 1). Cycles
  // stay far below 2^63 (run.max_cycles allows 2^50); an empty row holds
  // kNever, read.
  static constexpr unsigned kInlineRows = sizeof(T) <= 2 ? 4 : 2;
  static constexpr Cycle kRead = Cycle{1} << 63;
  bool small = false;
  bool strict = false;  // reusing a row nobody read is a model error
  std::uint32_t width = 1;
  std::uint32_t latency = 1;
  std::uint32_t mask = 1;
  Cycle small_stamps[kInlineRows];
  T small_slots[kInlineRows]{};
  std::unique_ptr<Row[]> heap_rows;
  std::unique_ptr<T[]> heap_slots;

  void shape(unsigned w, unsigned l) {
    if (w < 1 || l < 1) throw std::invalid_argument("link: width and latency must be >= 1");
    if (l > (1u << 31)) throw std::invalid_argument("link: latency must be <= 2^31");
    width = w;
    latency = l;
    std::uint32_t n = 2;  // a power of two > latency, so a cycle maps to its row by a mask
    while (n < l + 1u) n *= 2;
    mask = n - 1;
    small = w == 1 && n <= kInlineRows;
    for (Cycle& s : small_stamps) s = kNever;
    heap_rows = small ? nullptr : std::make_unique<Row[]>(n);
    heap_slots = small ? nullptr : std::make_unique<T[]>(static_cast<std::size_t>(n) * w);
  }
  std::uint32_t count(Cycle t) const {
    assert(t < kRead - 1);
    if (small) return (small_stamps[t & mask] & ~kRead) == t ? 1u : 0u;
    const Row& r = heap_rows[t & mask];
    return r.stamp == t ? r.count : 0;
  }
  const T* row(Cycle t) const {
    return small ? &small_slots[t & mask] : &heap_slots[static_cast<std::size_t>(t & mask) * width];
  }
  void mark_read(Cycle t) {
    if (small) small_stamps[t & mask] |= kRead;
    else heap_rows[t & mask].read = 1;
  }
  // Appends to the row of cycle t; returns true if it was the row's first item.
  bool append(Cycle t, const T& item) {
    assert(t < kRead - 1);
    if (small) {
      Cycle& stamp = small_stamps[t & mask];
      if ((stamp & ~kRead) == t) throw std::logic_error("link: more items than physical links in one cycle");
      if (strict && (stamp & kRead) == 0)
        throw std::logic_error("link: the receiver did not read the items of cycle " + std::to_string(stamp));
      stamp = t;
      small_slots[t & mask] = item;
      return true;
    }
    Row& r = heap_rows[t & mask];
    const bool first = r.stamp != t;
    if (first) {
      if (strict && r.count != 0 && r.read == 0)
        throw std::logic_error("link: the receiver did not read the items of cycle " + std::to_string(r.stamp));
      r.stamp = t;
      r.count = 0;
      r.read = 0;
    }
    if (r.count == width) throw std::logic_error("link: more items than physical links in one cycle");
    heap_slots[static_cast<std::size_t>(t & mask) * width + r.count++] = item;
    return first;
  }
};

template <class T>
struct InlineRow {
  Cycle stamp[2] = {kNever, kNever};
  T slot[2]{};
  static constexpr std::uint32_t width = 1;
  static constexpr std::uint32_t latency = 1;

  void shape(unsigned w, unsigned l) {
    if (w != 1 || l != 1) throw std::invalid_argument("one-cycle link: width 1 and latency 1 only");
  }
  std::uint32_t count(Cycle t) const { return stamp[t & 1] == t ? 1u : 0u; }
  const T* row(Cycle t) const { return &slot[t & 1]; }
  void mark_read(Cycle) {}
  bool append(Cycle t, const T& item) {
    if (stamp[t & 1] == t) throw std::logic_error("one-cycle link: two items in one cycle");
    stamp[t & 1] = t;
    slot[t & 1] = item;
    return true;
  }
};

}  // namespace link_detail

template <class T, class Shape = AnyWidthAndLatency>
class Link {
  static constexpr bool kInline = std::is_same_v<Shape, OneCycleWire>;
  using Rows = std::conditional_t<kInline, link_detail::InlineRow<T>, link_detail::HeapRows<T>>;

 public:
  Link() { rows_.shape(1, 1); }
  Link(unsigned width, unsigned latency) { rows_.shape(width, latency); }
  Link(Link&&) noexcept = default;
  Link& operator=(Link&&) noexcept = default;
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  // Re-shapes an unused link (before the run).
  void configure(unsigned width, unsigned latency) { rows_.shape(width, latency); }

  // Links that carry packet handles must never drop one: reusing a row the
  // receiver did not read throws (a model error, caught in tests). Bit wires
  // leave it off: an ignored idle wire is legal.
  void set_strict(bool strict) {
    if constexpr (!kInline) rows_.strict = strict;
  }

  // The block woken for the cycle an item arrives.
  void connect_receiver(Clocked& receiver) { receiver_ = &receiver; }
  // ... and which also marks `port` in the receiver's arrival mask (a
  // latency below the mask's rows).
  template <unsigned Rows>
  void connect_receiver(Clocked& receiver, ArrivalRows<Rows>& arrivals, unsigned port) {
    if (rows_.latency >= Rows)
      throw std::invalid_argument("link: an arrival mask of " + std::to_string(Rows) + " rows needs latency below " +
                                  std::to_string(Rows));
    if (port >= 32) throw std::invalid_argument("link: an arrival mask marks ports 0..31");
    receiver_ = &receiver;
    arrivals_ = arrivals.ports;
    arrival_rows_ = static_cast<std::uint8_t>(Rows - 1);
    port_bit_ = 1u << port;
  }

  unsigned width() const { return rows_.width; }
  unsigned latency() const { return rows_.latency; }

  // A failed link accepts nothing (fault injection).
  void set_failed(bool failed) { failed_ = failed; }
  bool failed() const { return failed_; }

  // Physical links still free for an item sent in cycle t.
  unsigned free(Cycle t) const { return failed_ ? 0u : rows_.width - rows_.count(t + rows_.latency); }

  // Sends an item in cycle t on a free link; the receiver sees it in cycle t + L.
  // Items of one cycle keep their send order.
  void send(Cycle t, const T& item) {
    assert(!failed_);
    const Cycle arrive = t + rows_.latency;
    const bool first = rows_.append(arrive, item);
    ++transfers_;
    if (arrivals_ != nullptr) {
      // Several senders may mark one receiver's word from different worker threads.
      std::uint32_t& word = arrivals_[arrive & arrival_rows_];
      if (receiver_->engine()->threads() > 1) __atomic_fetch_or(&word, port_bit_, __ATOMIC_RELAXED);
      else word |= port_bit_;
    }
    if (first && receiver_ != nullptr) receiver_->engine()->wake(*receiver_, arrive);
  }

  // Calls fn(item) for each item the receiver sees in cycle t, in send order
  // (the receiver's read: on a strict link every row must be read).
  template <class Fn>
  void receive(Cycle t, Fn&& fn) {
    const std::uint32_t n = rows_.count(t);
    if (n == 0) return;
    rows_.mark_read(t);
    const T* row = rows_.row(t);
    for (std::uint32_t i = 0; i < n; ++i) fn(row[i]);
  }
  // The same without counting as the receiver's read (probes, diagnostics).
  template <class Fn>
  void peek(Cycle t, Fn&& fn) const {
    const std::uint32_t n = rows_.count(t);
    const T* row = rows_.row(t);
    for (std::uint32_t i = 0; i < n; ++i) fn(row[i]);
  }
  // Items the receiver sees in cycle t.
  unsigned arrivals(Cycle t) const { return rows_.count(t); }
  // The one item of a width-1 link in cycle t, or `none`.
  T take(Cycle t, T none) const { return rows_.count(t) != 0 ? rows_.row(t)[0] : none; }

  // Calls fn(item) for each item sent in cycle t (visible at t + L): a probe.
  template <class Fn>
  void sent(Cycle t, Fn&& fn) const { peek(t + rows_.latency, fn); }
  // Items sent in cycle t (for waveforms).
  unsigned sent_in(Cycle t) const { return rows_.count(t + rows_.latency); }
  // Items sent but not yet seen by the receiver, as of the end of cycle t.
  unsigned in_flight(Cycle t) const {
    unsigned n = 0;
    for (unsigned d = 1; d <= rows_.latency; ++d) n += rows_.count(t + d);
    return n;
  }

  // Statistics: one transfer occupies one physical link for one cycle.
  std::uint64_t transfers() const { return transfers_; }

 private:
  Rows rows_;
  Clocked* receiver_ = nullptr;
  std::uint32_t* arrivals_ = nullptr;  // the receiver's ArrivalRows words
  std::uint32_t port_bit_ = 0;
  std::uint8_t arrival_rows_ = 0;       // its rows - 1
  bool failed_ = false;
  std::uint64_t transfers_ = 0;
};

}  // namespace icn
