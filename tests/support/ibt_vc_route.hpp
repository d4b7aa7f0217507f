// The route a packet takes on the VC family's iBT (network.topology=ibt),
// worked out from coordinates with the iBT's definition
// (shared/papers/READING-NOTES.md) and the routing rule of docs/vc_router.md
// written out again, for tests that check the model against it. Nothing here
// calls icnsim's IbtTopology.
#pragma once

#include <vector>

namespace icn::test {

struct Shape {
  unsigned k, n;
  std::vector<unsigned> b;
  unsigned vcs;
};

// Coordinates of node x (x = c_0 + k c_1 + k^2 c_2).
inline std::vector<unsigned> coords_of(unsigned x, const Shape& s) {
  std::vector<unsigned> c(s.n);
  for (unsigned d = 0; d < s.n; ++d, x /= s.k) c[d] = x % s.k;
  return c;
}

inline unsigned node_of(const std::vector<unsigned>& c, const Shape& s) {
  unsigned x = 0;
  for (unsigned d = s.n; d-- > 0;) x = x * s.k + c[d];
  return x;
}

// The iBT definition: class = coordinate sum mod n*K; bypass along
// dimension class mod n, of length b[class / n].
inline void bypass_of(const std::vector<unsigned>& c, const Shape& s, unsigned& dim, unsigned& len) {
  unsigned sum = 0;
  for (unsigned v : c) sum += v;
  const unsigned cls = sum % (s.n * static_cast<unsigned>(s.b.size()));
  dim = cls % s.n;
  len = s.b[cls / s.n];
}

// One hop of the expected route: port (the VC topology's numbering), the next
// node, and whether the hop's far end has wrapped past coordinate 0.
struct Hop {
  unsigned port, next;
  bool crossed;
};

// The route from src to dst as docs/vc_router.md states it: dimension order;
// in a dimension the shorter way round (ties +), the bypass when it runs along
// the dimension and its length is at most the distance left, else one ring
// step. `crossed` tracks the distance travelled from the entry coordinate.
inline std::vector<Hop> expected_route(unsigned src, unsigned dst, const Shape& s) {
  std::vector<Hop> hops;
  std::vector<unsigned> c = coords_of(src, s);
  const std::vector<unsigned> t = coords_of(dst, s);
  const int k = static_cast<int>(s.k);
  for (unsigned d = 0; d < s.n; ++d) {
    const int entry = static_cast<int>(c[d]);
    const int forward = (static_cast<int>(t[d]) - entry + k) % k;
    const bool plus = forward <= k - forward;
    int left = plus ? forward : k - forward, travelled = 0;
    while (left > 0) {
      unsigned bdim, blen;
      bypass_of(c, s, bdim, blen);
      const bool bypass = bdim == d && static_cast<int>(blen) <= left;
      const int step = bypass ? static_cast<int>(blen) : 1;
      travelled += step;
      left -= step;
      const int pos = plus ? entry + travelled : entry - travelled;  // unwrapped
      c[d] = static_cast<unsigned>(((pos % k) + k) % k);
      const unsigned port = bypass ? 2 * s.n + 1 + (plus ? 0 : 1) : 1 + 2 * d + (plus ? 0 : 1);
      hops.push_back({port, node_of(c, s), pos >= k || pos < 0});
    }
  }
  return hops;
}

// Routers a packet from src to dst crosses (its hops plus one).
inline unsigned expected_routers(unsigned src, unsigned dst, const Shape& s) {
  return static_cast<unsigned>(expected_route(src, dst, s).size()) + 1;
}

}  // namespace icn::test
