// A FIFO of packet handles with optional capacity and occupancy statistics.
//
// Occupancy is sampled by the owner once per cycle after the cycle's
// transmissions ("messages left waiting after the step's transmission", the
// convention under which Dimakopoulos' queue sizes come out).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/types.hpp"

namespace icn {

class PacketQueue {
 public:
  static constexpr std::size_t kUnbounded = 0;

  explicit PacketQueue(std::size_t capacity = kUnbounded) : capacity_(capacity) {}

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool full() const { return capacity_ != kUnbounded && size_ >= capacity_; }

  // Appends a packet that arrived in cycle `now`; the caller checks full().
  void push(PacketId packet, Cycle now) {
    if (size_ == ring_.size()) grow();
    const std::size_t tail = (head_ + size_) & (ring_.size() - 1);
    ring_[tail] = Entry{packet, now};
    ++size_;
  }

  PacketId front() const { return ring_[head_].packet; }
  Cycle front_since() const { return ring_[head_].since; }

  PacketId pop() {
    const PacketId p = ring_[head_].packet;
    head_ = (head_ + 1) & (ring_.size() - 1);
    --size_;
    return p;
  }

  // Records the occupancy at the end of a cycle.
  void sample() {
    if (size_ > max_occupancy_) max_occupancy_ = size_;
  }
  std::size_t max_occupancy() const { return max_occupancy_; }

 private:
  struct Entry {
    PacketId packet;
    Cycle since;
  };

  void grow() {
    std::vector<Entry> bigger(ring_.empty() ? 4 : ring_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = ring_[(head_ + i) & (ring_.size() - 1)];
    ring_.swap(bigger);
    head_ = 0;
  }

  std::size_t capacity_;
  std::vector<Entry> ring_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  std::size_t max_occupancy_ = 0;
};

}  // namespace icn
