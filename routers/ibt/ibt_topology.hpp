// Torus(n^d) and the interlaced bypass torus iBT(n^d; b = <b_1..b_k>) of
// Zhang & Deng, built as shared/papers/READING-NOTES.md defines it (the paper
// itself does not; this construction reproduces its Table 1):
//
//   nodes      x = (x_1..x_d) in Z_n^d, node id = x_1 + n x_2 + n^2 x_3 + ...
//   class      c(x) = (x_1 + ... + x_d) mod (d k)
//   torus      every node keeps its 2d links x +- e_i (mod n)
//   bypass     every node gets two more, x +- b_j e_i (mod n), with
//              j = floor(c/d) + 1 and i = (c mod d) + 1
//
// A torus is an iBT with no bypass (k = 0): one class, 2d links per node.
// Valid when d k divides n and every b_j (so the class is well defined on the
// torus and a bypass link joins two nodes of the same class, which makes the
// links symmetric), and b_j, 2 b_j are not 0 mod n (two distinct bypass
// neighbours, neither the node itself).
//
// Ports of a node: 2i = +e_i, 2i+1 = -e_i (dimension i = 0..d-1), then 2d =
// bypass +, 2d+1 = bypass -. A link leaving on port p arrives on port p^1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn {

class IbtTopology {
 public:
  static constexpr unsigned kMaxDims = 4;
  static constexpr std::uint64_t kMaxNodes = std::uint64_t{1} << 22;

  // Why (n, d, bypass) does not give a valid network, naming the rule and the
  // scenario key it is about ("network.n", "network.d" or "network.bypass").
  struct Problem {
    std::string key;
    std::string why;  // empty when the parameters are valid
  };
  static Problem check(std::int64_t n, std::int64_t d, const std::vector<std::int64_t>& bypass);

  // Throws std::invalid_argument with check()'s reason if invalid.
  IbtTopology(unsigned n, unsigned d, std::vector<unsigned> bypass);

  unsigned n() const { return n_; }
  unsigned d() const { return d_; }
  const std::vector<unsigned>& bypass() const { return bypass_; }
  bool has_bypass() const { return !bypass_.empty(); }
  NodeId nodes() const { return nodes_; }
  unsigned classes() const { return classes_; }        // d k, or 1 for a torus
  unsigned ports() const { return 2 * d_ + (has_bypass() ? 2 : 0); }
  unsigned bypass_port() const { return 2 * d_; }       // + bypass; - is bypass_port() + 1

  unsigned coord(NodeId x, unsigned dim) const { return (x / stride_[dim]) % n_; }
  std::vector<unsigned> coords(NodeId x) const;
  NodeId node(const std::vector<unsigned>& coords) const;
  std::uint32_t stride(unsigned dim) const { return stride_[dim]; }

  unsigned node_class(NodeId x) const;
  // The dimension (0-based) and length of a node's bypass links (iBT only).
  unsigned bypass_dim_of_class(unsigned c) const { return c % d_; }
  unsigned bypass_length_of_class(unsigned c) const { return bypass_[c / d_]; }
  unsigned bypass_dim(NodeId x) const { return bypass_dim_of_class(node_class(x)); }
  unsigned bypass_length(NodeId x) const { return bypass_length_of_class(node_class(x)); }

  // x + delta e_dim (mod n).
  NodeId step(NodeId x, unsigned dim, std::int64_t delta) const;
  // The neighbour on port p (0..ports()-1).
  NodeId neighbour(NodeId x, unsigned port) const;
  // The dimension a port's link runs along.
  unsigned port_dim(NodeId x, unsigned port) const { return port < 2 * d_ ? port / 2 : bypass_dim(x); }
  static bool port_positive(unsigned port) { return (port & 1u) == 0; }
  bool is_bypass_port(unsigned port) const { return port >= 2 * d_; }

  // "x+", "y-", ..., "b+", "b-".
  std::string port_name(unsigned port) const;
  // "(3,5)".
  std::string coords_text(NodeId x) const;
  // "torus(8^2)" or "iBT(64^2; <4,16>)".
  std::string label() const;

 private:
  unsigned n_;
  unsigned d_;
  std::vector<unsigned> bypass_;
  NodeId nodes_;
  unsigned classes_;
  std::uint32_t stride_[kMaxDims + 1] = {};
};

// Exact distance metrics over all N^2 ordered pairs (each node to itself included).
struct DistanceMetrics {
  std::uint32_t diameter = 0;
  std::uint64_t distance_sum = 0;  // sum of d(x, y) over all ordered pairs
  double average = 0;              // distance_sum / N^2
  std::uint32_t bfs_sources = 0;   // breadth-first searches it took
};

// Distances from one node to every node (breadth-first search over the links).
std::vector<std::uint32_t> bfs_distances(const IbtTopology& topo, NodeId source);

// One BFS per class: translations that keep the class map the network onto
// itself (proof in ibt_topology.cpp), so every node of a class has the same
// distance profile.
DistanceMetrics distance_metrics(const IbtTopology& topo);

// Plain all-sources BFS, for checking distance_metrics on small networks.
DistanceMetrics distance_metrics_all_sources(const IbtTopology& topo);

}  // namespace icn
