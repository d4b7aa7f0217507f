// Arbiters: pick one of n requesters, given as a bit mask.
//
// Each arbiter separates the choice (arbitrate) from the priority update
// (update), as BookSim's arbiters and Garnet's allocators do, so that an
// allocator can move priorities only for grants that were finally accepted
// (iSLIP). Requester i is bit i of the mask.
//
// Any number of requesters: the mask is mask_words(n) 64-bit words, requester
// i being bit i % 64 of word i / 64 (arbitrate_words) (an HPAM inter-level router has hundreds
// of input VCs). Up to 64 requesters the mask is one word and the one-word
// arbitrate() is the fast path every ordinary router takes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/rng.hpp"

namespace icn {

// A bound against absurd sizes only (the masks grow as n and a matrix arbiter
// as n^2 bits); no hardware built here comes near it.
inline constexpr unsigned kMaxArbiterInputs = 1u << 16;
static_assert(kMaxArbiterInputs - 1 <= 0xffff, "RoundRobinArbiter keeps n - 1 in 16 bits");

inline void check_arbiter_size(unsigned n) {
  if (n < 1 || n > kMaxArbiterInputs)
    throw std::invalid_argument("arbiter: 1.." + std::to_string(kMaxArbiterInputs) + " requesters");
}

// 64-bit words of a mask over n requesters.
inline constexpr unsigned mask_words(unsigned n) { return (n + 63) / 64; }

// Sets bits [pos, pos + width) of a multi-word mask to `bits` OR-ed in (width <= 64).
inline void or_mask_bits(std::uint64_t* mask, unsigned pos, std::uint64_t bits) {
  if (bits == 0) return;
  const unsigned w = pos / 64, b = pos % 64;
  mask[w] |= bits << b;
  if (b != 0 && (bits >> (64 - b)) != 0) mask[w + 1] |= bits >> (64 - b);
}

inline bool mask_test(const std::uint64_t* mask, unsigned i) { return (mask[i / 64] >> (i % 64)) & 1u; }

// Round-robin: the first requester at or after the pointer wins; after an
// update the pointer moves just past the winner, so the winner has the lowest
// priority next time.
class RoundRobinArbiter {
 public:
  explicit RoundRobinArbiter(unsigned n = 1) { resize(n); }
  void resize(unsigned n) {
    check_arbiter_size(n);
    last_ = static_cast<std::uint16_t>(n - 1);
    pointer_ = 0;
  }
  // n <= 64.
  int arbitrate(std::uint64_t requests) const {
    if (requests == 0) return -1;
    const std::uint64_t at_or_after = requests & (~std::uint64_t{0} << pointer_);
    const std::uint64_t pick = at_or_after != 0 ? at_or_after : requests;
    return __builtin_ctzll(pick);
  }
  // Any n: `requests` holds mask_words(n) words.
  int arbitrate_words(const std::uint64_t* requests) const {
    const unsigned words = mask_words(size());
    if (words == 1) return arbitrate(requests[0]);
    const unsigned w0 = pointer_ / 64;
    const std::uint64_t first = requests[w0] & (~std::uint64_t{0} << (pointer_ % 64));
    if (first != 0) return static_cast<int>(w0 * 64 + __builtin_ctzll(first));
    for (unsigned k = 1; k <= words; ++k) {  // the words after, wrapping round to w0's low bits
      const unsigned w = (w0 + k) % words;
      if (requests[w] != 0) return static_cast<int>(w * 64 + __builtin_ctzll(requests[w]));
    }
    return -1;
  }
  void update(int winner) {
    pointer_ = static_cast<unsigned>(winner) == last_ ? 0 : static_cast<std::uint16_t>(winner + 1);
  }
  unsigned pointer() const { return pointer_; }
  unsigned size() const { return last_ + 1u; }

 private:
  // 4 bytes: a router has dozens (check_arbiter_size: n <= 2^16, so n - 1 and
  // the pointer fit 16 bits).
  std::uint16_t last_ = 0;     // n - 1
  std::uint16_t pointer_ = 0;  // the requester with the highest priority
};

// Matrix arbiter: a bit per pair (i, j) says i beats j; the winner is the
// requester no other requester beats, and it then loses to everyone (least
// recently served first). Row i is mask_words(n) words.
class MatrixArbiter {
 public:
  explicit MatrixArbiter(unsigned n = 1) { resize(n); }
  void resize(unsigned n) {
    check_arbiter_size(n);
    n_ = n;
    words_ = mask_words(n);
    beats_.assign(static_cast<std::size_t>(n) * words_, 0);
    for (unsigned i = 0; i < n; ++i)  // initially lower index beats higher
      for (unsigned j = i + 1; j < n; ++j) row(i)[j / 64] |= std::uint64_t{1} << (j % 64);
  }
  // n <= 64.
  int arbitrate(std::uint64_t requests) const { return arbitrate_words(&requests); }
  // Any n: `requests` holds mask_words(n) words.
  int arbitrate_words(const std::uint64_t* requests) const {
    for (unsigned wi = 0; wi < words_; ++wi)
      for (std::uint64_t r = requests[wi]; r != 0; r &= r - 1) {
        const unsigned i = wi * 64 + static_cast<unsigned>(__builtin_ctzll(r));
        bool beaten = false;
        for (unsigned wj = 0; wj < words_ && !beaten; ++wj)
          for (std::uint64_t o = requests[wj]; o != 0; o &= o - 1) {
            const unsigned j = wj * 64 + static_cast<unsigned>(__builtin_ctzll(o));
            if (j != i && beats(j, i)) {
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
    for (unsigned k = 0; k < words_; ++k) row(w)[k] = 0;
    for (unsigned j = 0; j < n_; ++j)
      if (j != w) row(j)[w / 64] |= std::uint64_t{1} << (w % 64);
  }
  bool beats(unsigned i, unsigned j) const { return mask_test(&beats_[static_cast<std::size_t>(i) * words_], j); }
  unsigned size() const { return n_; }

 private:
  std::uint64_t* row(unsigned i) { return &beats_[static_cast<std::size_t>(i) * words_]; }
  unsigned n_ = 1;
  unsigned words_ = 1;
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
  // n <= 64.
  int arbitrate(std::uint64_t requests) { return pick(&requests, 1); }
  // Any n: `requests` holds mask_words(n) words.
  int arbitrate_words(const std::uint64_t* requests) { return pick(requests, mask_words(n_)); }
  void update(int) {}
  unsigned size() const { return n_; }

 private:
  int pick(const std::uint64_t* requests, unsigned words) {
    std::uint64_t count = 0;
    for (unsigned w = 0; w < words; ++w) count += static_cast<unsigned>(__builtin_popcountll(requests[w]));
    if (count == 0) return -1;
    std::uint64_t k = rng_.below(count);
    for (unsigned w = 0;; ++w) {
      const std::uint64_t here = static_cast<unsigned>(__builtin_popcountll(requests[w]));
      if (k >= here) {
        k -= here;
        continue;
      }
      std::uint64_t r = requests[w];
      while (k-- != 0) r &= r - 1;
      return static_cast<int>(w * 64 + __builtin_ctzll(r));
    }
  }
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
