#include "routers/ibt/broadcast_route.hpp"

namespace icn::ibt {

namespace {

unsigned port(unsigned dim, int sign) { return 2 * dim + (sign > 0 ? 0u : 1u); }
unsigned bit(unsigned dim, int sign) { return 1u << port(dim, sign); }

// Torus ports of a dimension, plus the bypass ports if the node's bypass runs along it.
unsigned dim_ports(unsigned dim, const NodeOffsets& at) {
  unsigned mask = bit(dim, +1) | bit(dim, -1);
  if (at.bypass_dim == static_cast<int>(dim)) mask |= 3u << (2 * at.d);
  return mask;
}

}  // namespace

unsigned BroadcastRoute::colour_dim(unsigned q) const {
  const unsigned first = scheme == ColourScheme::kDirectedTorus ? colour / 2 : colour;
  return dims[(first + q) % dims_count];
}

int BroadcastRoute::colour_sign(unsigned q) const {
  if (scheme != ColourScheme::kDirectedTorus) return +1;
  const int sigma = (colour & 1u) ? -1 : +1;
  return colour / 2 + q < dims_count ? sigma : -sigma;
}

std::uint32_t BroadcastRoute::pack() const {
  std::uint32_t w = colour & 0xFu;
  w |= static_cast<std::uint32_t>(scheme) << 4;
  w |= ((dims_count - 1) & 3u) << 6;
  for (unsigned q = 0; q < 4; ++q) w |= (dims[q] & 3u) << (8 + 2 * q);
  w |= (pattern & 0xFu) << 16;
  return w;
}

BroadcastRoute BroadcastRoute::unpack(std::uint32_t w) {
  BroadcastRoute r;
  r.colour = w & 0xFu;
  r.scheme = static_cast<ColourScheme>((w >> 4) & 1u);
  r.dims_count = ((w >> 6) & 3u) + 1;
  for (unsigned q = 0; q < 4; ++q) r.dims[q] = static_cast<std::uint8_t>((w >> (8 + 2 * q)) & 3u);
  r.pattern = (w >> 16) & 0xFu;
  return r;
}

bool BroadcastRouteUnit::in_group(const BroadcastRoute& route, const NodeOffsets& at) {
  for (unsigned i = 0; i < at.d; ++i) {
    if (at.offset[i] == 0) continue;
    bool listed = false;
    for (unsigned q = 0; q < route.dims_count; ++q) listed = listed || route.dims[q] == i;
    if (!listed) return false;
  }
  return true;
}

unsigned BroadcastRouteUnit::ports(const BroadcastRoute& route, const NodeOffsets& at) {
  if (!in_group(route, at)) return 0;
  const unsigned m = route.dims_count;
  const unsigned first = route.colour_dim(0);
  const int sigma = route.colour_sign(0);
  bool source = true;
  for (unsigned i = 0; i < at.d; ++i) source = source && at.offset[i] == 0;
  const bool directed = route.scheme == ColourScheme::kDirectedTorus;

  if (source) return directed ? bit(first, sigma) : dim_ports(first, at);
  if (at.offset[first] == 0) return 0;  // a leaf of this colour, filled by rule 4

  // The last position, in this colour's order, where the node differs from the source.
  unsigned last = 0;
  bool only_first = true;
  for (unsigned q = 0; q < m; ++q) {
    if (at.offset[route.colour_dim(q)] != 0) {
      last = q;
      if (q > 0) only_first = false;
    }
  }

  unsigned mask = 0;
  if (directed) {
    const unsigned j = route.colour_dim(last);
    const int tau = route.colour_sign(last);
    const unsigned next = (at.offset[j] + (tau > 0 ? 1u : at.n - 1)) % at.n;
    if (next != 0) mask |= bit(j, tau);  // the chain continues unless it would return to its start
    for (unsigned q = last + 1; q < m; ++q) mask |= bit(route.colour_dim(q), route.colour_sign(q));
    const unsigned fill_offset = sigma > 0 ? 1u : at.n - 1;
    if (at.offset[first] == fill_offset && !only_first) mask |= bit(first, -sigma);
  } else {
    for (unsigned q = last; q < m; ++q) mask |= dim_ports(route.colour_dim(q), at);
    if (!only_first) {
      if (at.offset[first] == 1) mask |= bit(first, -1);
      if (at.offset[first] == at.n - 1) mask |= bit(first, +1);
    }
  }
  return mask;
}

}  // namespace icn::ibt
