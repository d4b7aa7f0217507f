// The output units of one virtual-channel router (docs/vc_router.md): per
// output port, who owns each downstream VC, which are free, and the credits
// for the downstream buffers. Flat arrays indexed by output VC
// (port * V + vc), as input_unit.hpp.
#pragma once

#include <cstdint>
#include <memory_resource>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/arena.hpp"
#include "models/prefetch.hpp"

namespace icn::vc {

inline constexpr std::uint16_t kFree = 0xffff;

// Output units of every port: who owns each downstream VC (the input VC whose
// packet holds it until its tail has left), which are free, and the credits
// for the downstream buffers.
class OutputUnits {
 public:
  // Its arrays come from `arena` (the network's ElaborationArena; null: the heap).
  explicit OutputUnits(std::pmr::memory_resource* arena = nullptr) : arena_(arena) {}
  void resize(unsigned ports, unsigned vcs, unsigned depth) {
    if (vcs > 64) throw std::invalid_argument("output unit: at most 64 VCs per port");
    vcs_ = vcs;
    owner_.assign(arena_, static_cast<std::size_t>(ports) * vcs, kFree);
    credits_.assign(arena_, static_cast<std::size_t>(ports) * vcs, depth);
    depth_.assign(arena_, ports, depth);
    const std::uint64_t all = vcs == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << vcs) - 1;
    free_.assign(arena_, ports, all);
  }
  // The downstream buffers of `port` hold `depth` flits per VC (all credits back).
  void reset_credits(unsigned port, unsigned depth) {
    depth_[port] = depth;
    for (unsigned v = 0; v < vcs_; ++v) credits_[port * vcs_ + v] = depth;
  }
  std::uint64_t free_vcs(unsigned port) const { return free_[port]; }
  std::uint16_t owner(unsigned port, unsigned vc) const { return owner_[port * vcs_ + vc]; }
  void claim(unsigned port, unsigned vc, unsigned input_vc) {
    owner_[port * vcs_ + vc] = static_cast<std::uint16_t>(input_vc);
    free_[port] &= ~(std::uint64_t{1} << vc);
  }
  void release(unsigned port, unsigned vc) {
    owner_[port * vcs_ + vc] = kFree;
    free_[port] |= std::uint64_t{1} << vc;
  }
  unsigned credits(unsigned port, unsigned vc) const { return credits_[port * vcs_ + vc]; }
  unsigned depth(unsigned port) const { return depth_[port]; }
  void consume(unsigned port, unsigned vc) {
    std::uint32_t& c = credits_[port * vcs_ + vc];
    if (c == 0) throw std::logic_error("credit underflow on VC " + std::to_string(vc));
    --c;
  }
  void restore(unsigned port, unsigned vc) {
    std::uint32_t& c = credits_[port * vcs_ + vc];
    if (c == depth_[port]) throw std::logic_error("credit overflow on VC " + std::to_string(vc));
    ++c;
  }

  void prefetch() const {  // Clocked::prefetch
    prefetch_elements(owner_);
    prefetch_elements(credits_);
    prefetch_elements(free_);
  }

 private:
  unsigned vcs_ = 1;
  std::pmr::memory_resource* arena_;
  FixedArray<std::uint16_t> owner_;   // input VC (port * V + vc) or kFree
  FixedArray<std::uint32_t> credits_;
  FixedArray<std::uint32_t> depth_;
  FixedArray<std::uint64_t> free_;    // per port: bit v = output VC v has no owner
};

}  // namespace icn::vc
