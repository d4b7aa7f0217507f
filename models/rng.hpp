// Seeded, platform-independent randomness (ARCHITECTURE rule 7).
//
// std::uniform_int_distribution is implementation-defined, so the same seed
// could give different runs under another standard library. Everything here is
// specified bit for bit: SplitMix64 derives a stream per component from the
// scenario seed and the component's id; xoshiro256** generates it; bounded
// integers use Lemire's multiply-shift with rejection (unbiased).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace icn {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Stable 64-bit hash of a component name (FNV-1a), to derive per-component seeds.
inline std::uint64_t stable_hash(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// Mixes several words into one well-distributed word (used for payload contents).
inline std::uint64_t mix64(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0,
                           std::uint64_t d = 0) {
  std::uint64_t s = a;
  std::uint64_t h = splitmix64(s);
  s = h ^ b;
  h = splitmix64(s);
  s = h ^ c;
  h = splitmix64(s);
  s = h ^ d;
  return splitmix64(s);
}

class Rng {
 public:
  // A stream for one component: same (seed, stream) -> same sequence, everywhere.
  Rng(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t s = seed ^ (stream * 0xd1342543de82ef95ULL);
    for (auto& word : s_) word = splitmix64(s);
  }
  Rng(std::uint64_t seed, std::string_view component) : Rng(seed, stable_hash(component)) {}

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, bound), bound > 0 (Lemire 2019, unbiased).
  std::uint64_t below(std::uint64_t bound) {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * bound;
    auto low = static_cast<std::uint64_t>(m);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * bound;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // Uniform double in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Fisher-Yates, specified here so the permutation is the same on every platform.
  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      std::size_t j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace icn
