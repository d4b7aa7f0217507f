// DeliveryCycleClock: the global timing of a network that moves messages in
// delivery cycles (Ishii 1985, section 4.4, assumption 2): every NIC starts its
// streams at the first clock of a delivery cycle, and every switch clears its
// settings there. In hardware this is a global control signal distributed with
// the shift clock; here it is a shared, read-only object.
//
// Delivery cycle f (from 0) occupies clock cycles start(f) .. start(f) + length - 1.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "models/types.hpp"

namespace icn {

class DeliveryCycleClock {
 public:
  DeliveryCycleClock(Cycle first, Cycle length) : first_(first), length_(length) {
    if (first < 1 || length < 1) throw std::invalid_argument("delivery cycle clock: first >= 1, length >= 1");
  }

  Cycle length() const { return length_; }
  Cycle start(std::uint64_t index) const { return first_ + index * length_; }
  // The delivery cycle that clock cycle t belongs to (t >= first).
  std::uint64_t index(Cycle t) const { return (t - first_) / length_; }
  // Clocks since the start of t's delivery cycle: 0 .. length - 1.
  Cycle phase(Cycle t) const { return (t - first_) % length_; }
  // The first delivery-cycle start at or after t.
  Cycle next_start(Cycle t) const {
    if (t <= first_) return first_;
    return start((t - first_ + length_ - 1) / length_);
  }

  // Where t falls, remembered from the previous call: a division only when t
  // has left the delivery cycle of the last call (blocks ask every clock).
  class Cursor {
   public:
    explicit Cursor(const DeliveryCycleClock& clock) : clock_(&clock) {}
    void seek(Cycle t) {
      if (t - start_ >= clock_->length_ || t < start_) {
        index_ = clock_->index(t);
        start_ = clock_->start(index_);
      }
      phase_ = t - start_;
    }
    std::uint64_t index() const { return index_; }
    Cycle start() const { return start_; }
    Cycle phase() const { return phase_; }

   private:
    const DeliveryCycleClock* clock_;
    std::uint64_t index_ = 0;
    Cycle start_ = kNever;
    Cycle phase_ = 0;
  };

 private:
  Cycle first_;
  Cycle length_;
};

}  // namespace icn
