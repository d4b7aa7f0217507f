// Sets of packet numbers 0..k-1 as W = ceil(k/64) 64-bit words: the form in
// which an all-port broadcast router keeps what it holds, what each output
// port may carry and has carried, and what its neighbours hold.
#pragma once

#include <cstdint>

namespace icn::ibt {

using Word = std::uint64_t;

inline unsigned words_for(unsigned packets) { return (packets + 63) / 64; }

inline bool test(const Word* w, unsigned p) { return (w[p >> 6] >> (p & 63)) & 1u; }
inline void set(Word* w, unsigned p) { w[p >> 6] |= Word{1} << (p & 63); }
inline void clear(Word* w, unsigned p) { w[p >> 6] &= ~(Word{1} << (p & 63)); }

inline bool any(const Word* w, unsigned words) {
  for (unsigned i = 0; i < words; ++i)
    if (w[i] != 0) return true;
  return false;
}

inline unsigned count(const Word* w, unsigned words) {
  unsigned n = 0;
  for (unsigned i = 0; i < words; ++i) n += static_cast<unsigned>(__builtin_popcountll(w[i]));
  return n;
}

// Lowest / highest member, or -1 if empty.
inline int lowest(const Word* w, unsigned words) {
  for (unsigned i = 0; i < words; ++i)
    if (w[i] != 0) return static_cast<int>(i * 64 + static_cast<unsigned>(__builtin_ctzll(w[i])));
  return -1;
}
inline int highest(const Word* w, unsigned words) {
  for (unsigned i = words; i-- > 0;)
    if (w[i] != 0) return static_cast<int>(i * 64 + 63 - static_cast<unsigned>(__builtin_clzll(w[i])));
  return -1;
}

}  // namespace icn::ibt
