// Virtual-channel input buffer: V independent FIFOs of B entries each, in one
// contiguous block (no allocation after construction), and the credit counter
// the upstream side keeps for it.
//
// A sender may only send on VC v while it holds a credit for v; every entry
// leaving the buffer returns one credit upstream. The buffer therefore never
// overflows in a correct model: push() on a full VC is a model error (throws).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace icn {

template <class T>
class VcBuffer {
 public:
  VcBuffer() = default;
  VcBuffer(unsigned vcs, unsigned depth) { resize(vcs, depth); }

  void resize(unsigned vcs, unsigned depth) {
    if (vcs < 1 || depth < 1) throw std::invalid_argument("VC buffer: at least one VC of one entry");
    vcs_ = vcs;
    depth_ = depth;
    slots_ = std::make_unique<T[]>(static_cast<std::size_t>(vcs) * depth);
    head_ = std::make_unique<std::uint32_t[]>(vcs);
    size_ = std::make_unique<std::uint32_t[]>(vcs);
    for (unsigned v = 0; v < vcs; ++v) head_[v] = size_[v] = 0;
  }

  unsigned vcs() const { return vcs_; }
  unsigned depth() const { return depth_; }
  unsigned size(unsigned vc) const { return size_[vc]; }
  bool empty(unsigned vc) const { return size_[vc] == 0; }
  bool full(unsigned vc) const { return size_[vc] == depth_; }

  void push(unsigned vc, const T& item) {
    if (size_[vc] == depth_)
      throw std::logic_error("VC buffer overflow on VC " + std::to_string(vc) + " (a flit sent without a credit)");
    slots_[vc * depth_ + (head_[vc] + size_[vc]) % depth_] = item;
    ++size_[vc];
  }
  const T& front(unsigned vc) const { return slots_[vc * depth_ + head_[vc]]; }
  T pop(unsigned vc) {
    if (size_[vc] == 0) throw std::logic_error("VC buffer underflow on VC " + std::to_string(vc));
    T item = slots_[vc * depth_ + head_[vc]];
    head_[vc] = (head_[vc] + 1) % depth_;
    --size_[vc];
    return item;
  }

 private:
  unsigned vcs_ = 0;
  unsigned depth_ = 0;
  std::unique_ptr<T[]> slots_;
  std::unique_ptr<std::uint32_t[]> head_;
  std::unique_ptr<std::uint32_t[]> size_;
};

// The upstream side's count of free entries in each downstream VC, kept
// inline (a NIC reads it every cycle it sends; no pointer to chase).
class CreditCounter {
 public:
  static constexpr unsigned kMaxVcs = 16;
  CreditCounter() = default;
  CreditCounter(unsigned vcs, unsigned depth) { reset(vcs, depth); }
  void reset(unsigned vcs, unsigned depth) {
    if (vcs > kMaxVcs) throw std::invalid_argument("credit counter: at most 16 VCs");
    depth_ = depth;
    vcs_ = vcs;
    for (unsigned v = 0; v < vcs; ++v) credits_[v] = depth;
  }
  unsigned vcs() const { return vcs_; }
  unsigned depth() const { return depth_; }
  unsigned available(unsigned vc) const { return credits_[vc]; }
  bool all_returned(unsigned vc) const { return credits_[vc] == depth_; }
  void consume(unsigned vc) {
    if (credits_[vc] == 0) throw std::logic_error("credit underflow on VC " + std::to_string(vc));
    --credits_[vc];
  }
  void restore(unsigned vc) {
    if (credits_[vc] == depth_) throw std::logic_error("credit overflow on VC " + std::to_string(vc));
    ++credits_[vc];
  }

 private:
  unsigned vcs_ = 0;
  unsigned depth_ = 0;
  std::uint32_t credits_[kMaxVcs] = {};
};

}  // namespace icn
