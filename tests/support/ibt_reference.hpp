// Independent references for iBT tests, written from READING-NOTES'
// definition with nothing from the model: node numbering, the neighbour rule
// and an all-sources breadth-first search.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace icn::test {

struct IbtMetrics {
  std::uint32_t diameter = 0;
  std::uint64_t distance_sum = 0;  // over all ordered pairs
  bool connected = true;
};

// Torus links +-1 in every dimension; with bypass lengths b_1..b_k, the class
// c(x) = (sum of coordinates) mod d*k, and a node of class c has bypass links
// +-b_(c div d + 1) in dimension c mod d.
inline IbtMetrics ibt_metrics_by_bfs(unsigned n, unsigned d, const std::vector<unsigned>& bypass) {
  const unsigned k = static_cast<unsigned>(bypass.size());
  const unsigned dk = k > 0 ? d * k : 1;
  std::size_t nodes = 1;
  for (unsigned i = 0; i < d; ++i) nodes *= n;
  auto coords = [&](std::size_t x) {
    std::vector<unsigned> c(d);
    for (unsigned i = 0; i < d; ++i, x /= n) c[i] = static_cast<unsigned>(x % n);
    return c;
  };
  auto index = [&](const std::vector<unsigned>& c) {
    std::size_t x = 0;
    for (unsigned i = d; i-- > 0;) x = x * n + c[i];
    return x;
  };
  std::vector<std::vector<std::size_t>> adjacent(nodes);
  for (std::size_t x = 0; x < nodes; ++x) {
    const auto c = coords(x);
    auto add = [&](unsigned i, unsigned step) {
      auto y = c;
      y[i] = (c[i] + step) % n;
      adjacent[x].push_back(index(y));
    };
    for (unsigned i = 0; i < d; ++i) {
      add(i, 1);
      add(i, n - 1);
    }
    if (k > 0) {
      unsigned sum = 0;
      for (unsigned v : c) sum += v;
      const unsigned cls = sum % dk;
      add(cls % d, bypass[cls / d]);
      add(cls % d, n - bypass[cls / d]);
    }
  }
  IbtMetrics m;
  for (std::size_t source = 0; source < nodes; ++source) {
    std::vector<std::int64_t> dist(nodes, -1);
    std::vector<std::size_t> queue{source};
    dist[source] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      for (std::size_t y : adjacent[queue[head]]) {
        if (dist[y] >= 0) continue;
        dist[y] = dist[queue[head]] + 1;
        queue.push_back(y);
      }
    }
    for (std::int64_t v : dist) {
      if (v < 0) {
        m.connected = false;
        continue;
      }
      m.distance_sum += static_cast<std::uint64_t>(v);
      m.diameter = std::max(m.diameter, static_cast<std::uint32_t>(v));
    }
  }
  return m;
}

}  // namespace icn::test
