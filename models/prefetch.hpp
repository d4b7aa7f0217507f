// Hints that a block's state will be read soon (Clocked::prefetch): start
// loading its cache lines, so a sweep over a network larger than the caches
// waits on several misses at once. Hints only: nothing is read or written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace icn {

inline constexpr std::size_t kCacheLine = 64;

// Every line of [from, from + bytes).
inline void prefetch_lines(const void* from, std::size_t bytes) {
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(from);
  for (std::uintptr_t line = begin & ~std::uintptr_t{kCacheLine - 1}; line < begin + bytes; line += kCacheLine)
    __builtin_prefetch(reinterpret_cast<const void*>(line));
}

// A vector's elements (its heap block; the vector object itself is the caller's).
template <class Array>
void prefetch_elements(const Array& v) {
  if (!v.empty()) prefetch_lines(v.data(), v.size() * sizeof(*v.data()));
}

}  // namespace icn
