#include "routers/ibt/ibt_topology.hpp"

#include <algorithm>
#include <stdexcept>

namespace icn {

IbtTopology::Problem IbtTopology::check(std::int64_t n, std::int64_t d, const std::vector<std::int64_t>& bypass) {
  if (d < 1 || d > static_cast<std::int64_t>(kMaxDims)) return {"network.d", "d must be 1..4"};
  if (n < 3) return {"network.n", "n must be at least 3 (the +1 and -1 neighbours of a node must differ)"};
  std::uint64_t nodes = 1;
  for (std::int64_t i = 0; i < d; ++i) {
    nodes *= static_cast<std::uint64_t>(n);
    if (nodes > kMaxNodes) {
      return {"network.n", "n^d must be at most " + std::to_string(kMaxNodes) + " nodes"};
    }
  }
  if (bypass.empty()) return {};
  const std::int64_t dk = d * static_cast<std::int64_t>(bypass.size());
  if (n % dk != 0) {
    return {"network.n", "d*k = " + std::to_string(dk) + " must divide n (the class c(x) = sum of coordinates mod d*k "
                         "must be well defined around the torus)"};
  }
  for (std::size_t j = 0; j < bypass.size(); ++j) {
    const std::int64_t b = bypass[j];
    const std::string name = "b_" + std::to_string(j + 1) + " = " + std::to_string(b);
    if (b < 1 || b >= n) return {"network.bypass", name + ": bypass lengths must be 1..n-1"};
    if (b % dk != 0) {
      return {"network.bypass", name + " is not a multiple of d*k = " + std::to_string(dk) +
                                    " (a bypass link must join two nodes of the same class)"};
    }
    if ((2 * b) % n == 0) {
      return {"network.bypass", name + ": 2*b_j = 0 mod n, so x + b_j and x - b_j would be the same node"};
    }
  }
  return {};
}

IbtTopology::IbtTopology(unsigned n, unsigned d, std::vector<unsigned> bypass)
    : n_(n), d_(d), bypass_(std::move(bypass)) {
  std::vector<std::int64_t> b(bypass_.begin(), bypass_.end());
  const Problem p = check(n, d, b);
  if (!p.why.empty()) throw std::invalid_argument(p.key + ": " + p.why);
  stride_[0] = 1;
  for (unsigned i = 0; i < d_; ++i) stride_[i + 1] = stride_[i] * n_;
  nodes_ = stride_[d_];
  classes_ = has_bypass() ? d_ * static_cast<unsigned>(bypass_.size()) : 1;
}

std::vector<unsigned> IbtTopology::coords(NodeId x) const {
  std::vector<unsigned> c(d_);
  for (unsigned i = 0; i < d_; ++i) c[i] = coord(x, i);
  return c;
}

NodeId IbtTopology::node(const std::vector<unsigned>& coords) const {
  NodeId x = 0;
  for (unsigned i = 0; i < d_; ++i) x += (coords[i] % n_) * stride_[i];
  return x;
}

unsigned IbtTopology::node_class(NodeId x) const {
  if (!has_bypass()) return 0;
  unsigned sum = 0;
  for (unsigned i = 0; i < d_; ++i) sum += coord(x, i);
  return sum % classes_;
}

NodeId IbtTopology::step(NodeId x, unsigned dim, std::int64_t delta) const {
  const std::int64_t c = coord(x, dim);
  std::int64_t moved = (c + delta) % static_cast<std::int64_t>(n_);
  if (moved < 0) moved += n_;
  return static_cast<NodeId>(x + (moved - c) * static_cast<std::int64_t>(stride_[dim]));
}

NodeId IbtTopology::neighbour(NodeId x, unsigned port) const {
  if (port < 2 * d_) return step(x, port / 2, port_positive(port) ? 1 : -1);
  const unsigned c = node_class(x);
  const std::int64_t b = bypass_length_of_class(c);
  return step(x, bypass_dim_of_class(c), port_positive(port) ? b : -b);
}

std::string IbtTopology::port_name(unsigned port) const {
  static const char* dims = "xyzw";
  std::string s(1, port < 2 * d_ ? dims[port / 2] : 'b');
  s += port_positive(port) ? '+' : '-';
  return s;
}

std::string IbtTopology::coords_text(NodeId x) const {
  std::string s = "(";
  for (unsigned i = 0; i < d_; ++i) s += (i ? "," : "") + std::to_string(coord(x, i));
  return s + ")";
}

std::string IbtTopology::label() const {
  std::string s = has_bypass() ? "iBT(" : "Torus(";
  s += std::to_string(n_) + "^" + std::to_string(d_);
  if (has_bypass()) {
    s += "; <";
    for (std::size_t j = 0; j < bypass_.size(); ++j) s += (j ? "," : "") + std::to_string(bypass_[j]);
    s += ">";
  }
  return s + ")";
}

std::vector<std::uint32_t> bfs_distances(const IbtTopology& topo, NodeId source) {
  constexpr std::uint32_t kUnseen = ~std::uint32_t{0};
  const NodeId nodes = topo.nodes();
  const unsigned n = topo.n(), d = topo.d();
  std::vector<std::uint32_t> dist(nodes, kUnseen);
  std::vector<NodeId> frontier{source}, next;
  dist[source] = 0;
  unsigned coords[IbtTopology::kMaxDims];
  std::uint32_t level = 0;
  auto visit = [&](NodeId y) {
    if (dist[y] == kUnseen) {
      dist[y] = level + 1;
      next.push_back(y);
    }
  };
  while (!frontier.empty()) {
    next.clear();
    for (NodeId x : frontier) {
      unsigned sum = 0;
      for (unsigned i = 0; i < d; ++i) {
        coords[i] = topo.coord(x, i);
        sum += coords[i];
        const std::uint32_t s = topo.stride(i);
        visit(coords[i] + 1 == n ? x - (n - 1) * s : x + s);
        visit(coords[i] == 0 ? x + (n - 1) * s : x - s);
      }
      if (topo.has_bypass()) {
        const unsigned c = sum % topo.classes();
        const unsigned i = topo.bypass_dim_of_class(c), b = topo.bypass_length_of_class(c);
        const std::int64_t s = topo.stride(i);
        const std::int64_t up = (coords[i] + b) % n, down = (coords[i] + n - b) % n;
        visit(static_cast<NodeId>(x + (up - coords[i]) * s));
        visit(static_cast<NodeId>(x + (down - coords[i]) * s));
      }
    }
    frontier.swap(next);
    ++level;
  }
  return dist;
}

namespace {

void accumulate(const std::vector<std::uint32_t>& dist, std::uint64_t weight, DistanceMetrics& m) {
  std::uint64_t sum = 0;
  for (std::uint32_t v : dist) {
    if (v == ~std::uint32_t{0}) throw std::logic_error("topology is not connected");
    sum += v;
    m.diameter = std::max(m.diameter, v);
  }
  m.distance_sum += sum * weight;
  ++m.bfs_sources;
}

void finish(const IbtTopology& topo, DistanceMetrics& m) {
  const double n = static_cast<double>(topo.nodes());
  m.average = static_cast<double>(m.distance_sum) / (n * n);
}

}  // namespace

// Why one BFS per class suffices.
//
// Let t be a translation vector with t_1 + ... + t_d = 0 (mod dk), and
// T(x) = x + t (mod n). Because dk divides n, a coordinate's residue mod dk
// does not depend on which representative mod n it has, so
// c(T(x)) = c(x) + (t_1 + ... + t_d) = c(x) (mod dk). T maps torus links to
// torus links (x +- e_i -> T(x) +- e_i), and since the bypass links of x depend
// only on c(x), T maps x's bypass links x +- b_j e_i to T(x) +- b_j e_i, the
// bypass links of T(x). T is a bijection of Z_n^d, hence a graph automorphism,
// and d(T(x), T(y)) = d(x, y).
//
// For two nodes x, y of the same class, t = y - x has coordinate sum
// c(y) - c(x) = 0 (mod dk), so such a T maps x to y: every node of a class has
// the same multiset of distances to all nodes. The dk classes have N / dk nodes
// each (x -> x + e_1 is a bijection from class c onto class c + 1). So
//   sum over ordered pairs = sum over classes c of (N/dk) * sum_y d(rep_c, y),
//   diameter = max over classes of the eccentricity of rep_c.
// A torus has one class (every translation is an automorphism).
DistanceMetrics distance_metrics(const IbtTopology& topo) {
  DistanceMetrics m;
  const std::uint64_t per_class = topo.nodes() / topo.classes();
  for (unsigned c = 0; c < topo.classes(); ++c) {
    // Representative of class c: (c mod n, 0, ..., 0) has coordinate sum c < dk <= n.
    accumulate(bfs_distances(topo, static_cast<NodeId>(c)), per_class, m);
  }
  finish(topo, m);
  return m;
}

DistanceMetrics distance_metrics_all_sources(const IbtTopology& topo) {
  DistanceMetrics m;
  for (NodeId x = 0; x < topo.nodes(); ++x) accumulate(bfs_distances(topo, x), 1, m);
  finish(topo, m);
  return m;
}

}  // namespace icn
