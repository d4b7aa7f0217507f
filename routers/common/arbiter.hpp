// Arbiters: pick one of up to 64 requesters, given as a bit mask.
//
// Each arbiter separates the choice (arbitrate) from the priority update
// (update), as BookSim's arbiters and Garnet's allocators do, so that an
// allocator can move priorities only for grants that were finally accepted
// (iSLIP). Requester i is bit i of the mask.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "models/rng.hpp"

namespace icn {

inline constexpr unsigned kMaxArbiterInputs = 64;

inline void check_arbiter_size(unsigned n) {
  if (n < 1 || n > kMaxArbiterInputs) throw std::invalid_argument("arbiter: 1..64 requesters");
}

// Round-robin: the first requester at or after the pointer wins; after an
// update the pointer moves just past the winner, so the winner has the lowest
// priority next time.
class RoundRobinArbiter {
 public:
  explicit RoundRobinArbiter(unsigned n = 1) { resize(n); }
  void resize(unsigned n) {
    check_arbiter_size(n);
    n_ = n;
    pointer_ = 0;
  }
  int arbitrate(std::uint64_t requests) const {
    if (requests == 0) return -1;
    const std::uint64_t at_or_after = requests & (~std::uint64_t{0} << pointer_);
    const std::uint64_t pick = at_or_after != 0 ? at_or_after : requests;
    return __builtin_ctzll(pick);
  }
  void update(int winner) { pointer_ = static_cast<unsigned>(winner + 1) % n_; }
  unsigned pointer() const { return pointer_; }
  unsigned size() const { return n_; }

 private:
  unsigned n_ = 1;
  unsigned pointer_ = 0;
};

// Matrix arbiter: a bit per pair (i, j) says i beats j; the winner is the
// requester no other requester beats, and it then loses to everyone (least
// recently served first).
class MatrixArbiter {
 public:
  explicit MatrixArbiter(unsigned n = 1) { resize(n); }
  void resize(unsigned n) {
    check_arbiter_size(n);
    n_ = n;
    beats_.assign(n, 0);
    for (unsigned i = 0; i < n; ++i)  // initially lower index beats higher
      for (unsigned j = i + 1; j < n; ++j) beats_[i] |= std::uint64_t{1} << j;
  }
  int arbitrate(std::uint64_t requests) const {
    for (std::uint64_t r = requests; r != 0; r &= r - 1) {
      const unsigned i = static_cast<unsigned>(__builtin_ctzll(r));
      bool beaten = false;
      for (std::uint64_t o = requests & ~(std::uint64_t{1} << i); o != 0; o &= o - 1) {
        const unsigned j = static_cast<unsigned>(__builtin_ctzll(o));
        if ((beats_[j] >> i) & 1u) {
          beaten = true;
          break;
        }
      }
      if (!beaten) return static_cast<int>(i);
    }
    return -1;
  }
  void update(int winner) {
    const unsigned w = static_cast<unsigned>(winner);
    beats_[w] = 0;
    for (unsigned j = 0; j < n_; ++j)
      if (j != w) beats_[j] |= std::uint64_t{1} << w;
  }
  bool beats(unsigned i, unsigned j) const { return (beats_[i] >> j) & 1u; }
  unsigned size() const { return n_; }

 private:
  unsigned n_ = 1;
  std::vector<std::uint64_t> beats_;
};

// Random: every requester equally likely, from a seeded stream (deterministic).
class RandomArbiter {
 public:
  RandomArbiter(unsigned n, std::uint64_t seed, std::uint64_t stream) : rng_(seed, stream) { resize(n); }
  void resize(unsigned n) {
    check_arbiter_size(n);
    n_ = n;
  }
  int arbitrate(std::uint64_t requests) {
    if (requests == 0) return -1;
    std::uint64_t k = rng_.below(static_cast<std::uint64_t>(__builtin_popcountll(requests)));
    std::uint64_t r = requests;
    while (k-- != 0) r &= r - 1;
    return __builtin_ctzll(r);
  }
  void update(int) {}
  unsigned size() const { return n_; }

 private:
  unsigned n_ = 1;
  Rng rng_;
};

// Multi-grant random arbitration: grants `winners` of the requests (any type),
// every subset of that size equally likely, by a partial Fisher-Yates shuffle
// that moves the winners to the front in grant order. Used where one output
// has several free paths, as in Ishii's concentrator switches.
template <class Request>
void grant_random_subset(std::vector<Request>& requests, std::size_t winners, Rng& rng) {
  const std::size_t k = requests.size();
  if (winners >= k) return;
  for (std::size_t i = 0; i < winners; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(rng.below(k - i));
    std::swap(requests[i], requests[j]);
  }
}

}  // namespace icn
