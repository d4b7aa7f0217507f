// BitChannel: one direction of a bundle of bit-serial physical paths.
//
// `width` parallel paths, each carrying one bit per cycle, with latency L
// (Ishii's links: one shift per clock). It is the shared Link
// (models/link.hpp) carrying (path, bit) items, so it follows the same rule: the
// sender drives the row of t + L in cycle t, the receiver reads the row of t in
// cycle t, and the two can be evaluated in either order.
//
// A path that nobody drives reads as (valid = 0, bit = 0): an idle wire. A
// stream is a run of driven bits; its first bit is Ishii's message bit M = 1,
// which is how a switch detects it. `valid` is not a separate wire the switch
// decodes: it records that the upstream cell drove the path in that cycle,
// which keeps idle paths free (nothing to read, nothing to wake) and gives the
// waveform its per-path valid trace.
//
// Rows remember their cycle, so stale rows read as idle without anybody clearing
// them; the receiver is woken for the cycle a bit arrives. Latency is 1..3
// (Ishii's paths have 1: the buffering-bit count assumes it).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/link.hpp"

namespace icn {

struct PathBit {
  std::uint32_t path;
  std::uint8_t value;
};

class BitChannel : public Link<PathBit> {
 public:
  static constexpr unsigned kMaxLatency = 3;
  using Bit = PathBit;

  BitChannel(std::string name, unsigned width, unsigned latency = 1)
      : Link<PathBit>(check(name, width, latency), latency), name_(std::move(name)), last_drive_(width, kNever) {}

  const std::string& name() const { return name_; }

  // Drives `value` on `path` in cycle t; the receiver sees it in cycle t + L.
  void drive(Cycle t, unsigned path, bool value) {
    if (path >= width()) throw std::logic_error(name_ + ": no path " + std::to_string(path));
    if (last_drive_[path] == t)
      throw std::logic_error(name_ + ": path " + std::to_string(path) + " driven twice in cycle " + std::to_string(t));
    // A 1 after an idle clock starts something: a stream's M, or an acknowledge.
    const bool starts = value && (last_drive_[path] == kNever || last_drive_[path] + 1 != t);
    last_drive_[path] = t;
    if (failed()) {  // a cut wire: the bit never arrives
      ++cut_bits_;
      if (starts) note_swallowed(path);
      return;
    }
    if (!stuck_.empty() && stuck_[path] != kNotStuck) {  // a stuck-at fault: the wire reads its stuck value
      if (value != (stuck_[path] != 0)) ++flipped_[path];
      if (starts && stuck_[path] == 0) note_swallowed(path);  // M never arrives: nobody downstream sees it
      value = stuck_[path] != 0;
    }
    send(t, PathBit{path, static_cast<std::uint8_t>(value ? 1 : 0)});
    ones_ += value ? 1 : 0;
  }

  // The bits seen by the receiver in cycle t (driven in t - L), in drive order.
  template <class Fn>
  void receive(Cycle t, Fn&& fn) const {
    peek(t, [&](const PathBit& b) { fn(b.path, b.value != 0); });
  }

  // What `path` carries in cycle t as the receiver sees it: 0 idle, 2 driven 0,
  // 3 driven 1 (bit 1 = valid, bit 0 = value). For waveforms and tests.
  unsigned seen(Cycle t, unsigned path) const {
    unsigned v = 0;
    peek(t, [&](const PathBit& b) {
      if (b.path == path) v = 2u | b.value;
    });
    return v;
  }
  // What `path` was driven with in cycle t (visible at t + L), same encoding.
  unsigned driven_in(Cycle t, unsigned path) const { return seen(t + latency(), path); }

  // Statistics: bits driven (one per path per cycle of a stream) and 1-bits among them.
  std::uint64_t bits_driven() const { return transfers(); }
  std::uint64_t ones_driven() const { return ones_; }
  // Bits driven onto the channel while it was failed (they vanished).
  std::uint64_t cut_bits() const { return cut_bits_; }

  // Stuck-at fault (fault injection): every bit driven on `path` arrives as
  // `value`. Only a driven bit is changed: the model has no idle-wire level
  // (a path nobody drives carries no stream), so a stuck-at-1 wire does not
  // start phantom streams on its own.
  void set_stuck(unsigned path, bool value) {
    if (path >= width()) throw std::logic_error(name_ + ": no path " + std::to_string(path));
    if (stuck_.empty()) {
      stuck_.assign(width(), kNotStuck);
      flipped_.assign(width(), 0);
    }
    stuck_[path] = value ? 1 : 0;
  }
  // Bits a stuck-at fault on `path` changed.
  std::uint64_t flipped_bits(unsigned path) const { return path < flipped_.size() ? flipped_[path] : 0; }
  // Streams (or acknowledges) whose starting 1 a fault made vanish on `path`:
  // cut, or stuck at 0. Where streams vanish is where a watchdog looks.
  std::uint64_t swallowed(unsigned path) const { return path < swallowed_.size() ? swallowed_[path] : 0; }
  std::uint64_t swallowed() const {
    std::uint64_t n = 0;
    for (auto v : swallowed_) n += v;
    return n;
  }
  bool stuck_at(unsigned path, bool value) const {
    return path < stuck_.size() && stuck_[path] == (value ? 1 : 0);
  }

 private:
  static unsigned check(const std::string& name, unsigned width, unsigned latency) {
    if (width < 1 || latency < 1 || latency > kMaxLatency)
      throw std::invalid_argument("BitChannel " + name + ": width >= 1 and latency 1.." + std::to_string(kMaxLatency));
    return width;
  }

  void note_swallowed(unsigned path) {
    if (swallowed_.empty()) swallowed_.assign(width(), 0);
    ++swallowed_[path];
  }

  std::string name_;
  std::vector<Cycle> last_drive_;  // per path: catches two streams on one path
  std::uint64_t ones_ = 0;
  std::uint64_t cut_bits_ = 0;
  static constexpr std::uint8_t kNotStuck = 2;
  std::vector<std::uint8_t> stuck_;  // per path: 0, 1 or kNotStuck; empty without faults
  std::vector<std::uint64_t> flipped_;
  std::vector<std::uint64_t> swallowed_;  // per path; empty until a fault swallows something
};

}  // namespace icn
