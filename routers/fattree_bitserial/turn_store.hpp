// TurnStore: the memory a switch needs when routing bits are stored in the
// nodes (Ishii 1985, section 2.1.2, network.sync_scheme=store): "store the bits
// coming in the branches of a node, until the messages arrive at the trunk
// port". One shift register per input path of each branch port, `depth` cells
// long: a stream turning here is stored from its first bit after the turning
// bit until the switch's down decision, which is `depth` clocks later, and is
// then shifted out `depth` clocks behind its arrival, so it leaves the switch
// exactly when a mid-stream-buffered stream would. The memo's cost, "O(log n)
// memory elements for each input into a branch port", is depth = 4(H-h) here,
// the number of buffering bits the stream no longer carries.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace icn::bitserial {

class TurnStore {
 public:
  static constexpr unsigned kMaxDepth = 64;  // 4(H-1) <= 60 for the largest tree, H = 16

  // `paths_per_branch` input paths on each of the two branch ports.
  TurnStore(unsigned paths_per_branch, unsigned depth)
      : paths_per_branch_(paths_per_branch), depth_(depth), cells_(2 * paths_per_branch) {
    if (depth > kMaxDepth) throw std::invalid_argument("TurnStore: depth " + std::to_string(depth) + " > 64");
  }

  unsigned depth() const { return depth_; }
  // Memory elements in this switch: one per cell of every branch input path.
  std::uint64_t storage_bits() const { return std::uint64_t{depth_} * cells_.size(); }
  // The most bits one path ever held at once.
  unsigned peak_bits() const { return peak_; }

  void clear(unsigned branch, unsigned path) { cells_[index(branch, path)] = Cells{}; }
  // A bit arriving on a stored path (held or connected).
  void push(unsigned branch, unsigned path, bool bit) {
    Cells& c = cells_[index(branch, path)];
    if (c.count == depth_ + 1u) throw std::logic_error("TurnStore: shift register overflow");
    if (bit) c.bits |= static_cast<unsigned __int128>(1) << c.count;
    ++c.count;
    if (c.count > peak_ && c.count <= depth_) peak_ = c.count;
  }
  // The oldest stored bit leaves; false when the register is empty.
  bool pop(unsigned branch, unsigned path, bool& bit) {
    Cells& c = cells_[index(branch, path)];
    if (c.count == 0) return false;
    bit = (c.bits & 1u) != 0;
    c.bits >>= 1;
    --c.count;
    return true;
  }
  unsigned stored(unsigned branch, unsigned path) const { return cells_[index(branch, path)].count; }

 private:
  // One word holds depth + 1 bits: the register and the bit arriving in the clock it shifts.
  struct Cells {
    unsigned __int128 bits = 0;
    unsigned count = 0;
  };
  unsigned index(unsigned branch, unsigned path) const { return (branch - 1) * paths_per_branch_ + path; }

  unsigned paths_per_branch_;
  unsigned depth_;
  std::vector<Cells> cells_;
  unsigned peak_ = 0;
};

}  // namespace icn::bitserial
