#include "tests/support/ibt_step_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace icn::test {

namespace {

using Dims = std::vector<unsigned>;

// The network as READING-NOTES defines it, written here so the step model
// shares nothing with the router model but the parameters (n, d, b):
// x = sum_j c_j n^j; port 2j is +1 and 2j+1 is -1 along dimension j; a node
// of class c = (sum of coordinates) mod dk has bypass links +-b_(c div d + 1)
// along dimension c mod d on ports 2d and 2d+1.
class NotesNetwork {
 public:
  NotesNetwork(unsigned n, unsigned d, std::vector<unsigned> bypass) : n_(n), d_(d), bypass_(std::move(bypass)) {
    nodes_ = 1;
    for (unsigned j = 0; j < d_; ++j) nodes_ *= n_;
  }
  unsigned d() const { return d_; }
  NodeId nodes() const { return nodes_; }
  unsigned ports() const { return 2 * d_ + (bypass_.empty() ? 0 : 2); }
  unsigned coord(NodeId x, unsigned j) const {
    for (unsigned i = 0; i < j; ++i) x /= n_;
    return x % n_;
  }
  unsigned node_class(NodeId x) const {
    unsigned sum = 0;
    for (unsigned j = 0; j < d_; ++j) sum += coord(x, j);
    return sum % (d_ * static_cast<unsigned>(bypass_.size()));
  }
  unsigned bypass_dim(NodeId x) const { return node_class(x) % d_; }
  NodeId neighbour(NodeId x, unsigned q) const {
    const bool positive = q % 2 == 0;
    const unsigned j = q < 2 * d_ ? q / 2 : bypass_dim(x);
    const unsigned length = q < 2 * d_ ? 1 : bypass_[node_class(x) / d_];
    NodeId weight = 1;
    for (unsigned i = 0; i < j; ++i) weight *= n_;
    const unsigned c = coord(x, j);
    const unsigned moved = (c + (positive ? length : n_ - length)) % n_;
    return x - c * weight + moved * weight;
  }

 private:
  unsigned n_, d_;
  std::vector<unsigned> bypass_;
  NodeId nodes_;
};

bool contains(const Dims& set, unsigned j) { return std::find(set.begin(), set.end(), j) != set.end(); }

// Omega^c(x, s): the dimensions in which x and s differ.
Dims omega_c(const NotesNetwork& topo, NodeId x, NodeId s) {
  Dims out;
  for (unsigned j = 0; j < topo.d(); ++j)
    if (topo.coord(x, j) != topo.coord(s, j)) out.push_back(j);
  return out;
}

// chi(i, k): the k + 2 dimensions starting at i in colour i's cyclic order
// (the paper's {(i + l)_d + 1 : l in [-1, k]}, over the broadcast's dimension list).
Dims chi(const Dims& order, int k) { return Dims(order.begin(), order.begin() + (k + 2)); }

// k_m(x, s): the smallest k with Omega^c(x, s) a subset of chi(i, k).
int k_m(const Dims& order, const Dims& omega) {
  for (int k = -1; k <= static_cast<int>(order.size()) - 2; ++k) {
    const Dims c = chi(order, k);
    if (std::all_of(omega.begin(), omega.end(), [&](unsigned j) { return contains(c, j); })) return k;
  }
  throw std::logic_error("node outside the broadcast group");
}

// Rule-derived permissions of one node for one colour, except rule 3, which
// depends on the dimension each packet came from.
struct NodeColour {
  bool tree = false;      // i in Omega^c(x, s)
  Dims broadcast_dims;    // rule 2: chi^c(i, k_m(x, s)); at the source, rule 1: {i}
  std::vector<unsigned> fill_ports;  // rule 4
};

}  // namespace

StepModelResult run_step_model(const IbtTopology& shape, const StepModelConfig& cfg) {
  const NotesNetwork topo(shape.n(), shape.d(), shape.bypass());  // only the parameters
  if (cfg.packets > 64) throw std::invalid_argument("the step model handles k <= 64");
  const NodeId n_nodes = topo.nodes();
  const unsigned ports = topo.ports();
  const unsigned m = static_cast<unsigned>(cfg.dims.size());
  const unsigned k = cfg.packets;
  const NodeId s = cfg.source;
  const std::uint64_t all = k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;

  std::vector<unsigned> colour_of(k);
  {
    unsigned p = 0;
    for (unsigned c = 0; c < cfg.split.size(); ++c)
      for (unsigned i = 0; i < cfg.split[c]; ++i) colour_of[p++] = c;
  }
  auto port_dim = [&](NodeId x, unsigned q) { return q < 2 * topo.d() ? q / 2 : topo.bypass_dim(x); };

  // The group: nodes whose differences from s all lie in the dimension list.
  std::vector<NodeId> group;
  std::vector<char> in_group(n_nodes, 0);
  for (NodeId x = 0; x < n_nodes; ++x) {
    const Dims om = omega_c(topo, x, s);
    if (std::all_of(om.begin(), om.end(), [&](unsigned j) { return contains(cfg.dims, j); })) {
      group.push_back(x);
      in_group[x] = 1;
    }
  }

  // Permissions per (node, colour).
  std::vector<NodeColour> perm(static_cast<std::size_t>(n_nodes) * m);
  for (NodeId x : group) {
    const Dims om = omega_c(topo, x, s);
    for (unsigned c = 0; c < m; ++c) {
      Dims order;
      for (unsigned q = 0; q < m; ++q) order.push_back(cfg.dims[(c + q) % m]);
      const unsigned i = order[0];
      NodeColour& nc = perm[static_cast<std::size_t>(x) * m + c];
      if (x == s) {
        nc.broadcast_dims = {i};  // rule 1
        continue;
      }
      nc.tree = contains(om, i);
      if (!nc.tree) continue;
      const Dims c_set = chi(order, k_m(order, om));
      for (unsigned j : order)
        if (!contains(c_set, j)) nc.broadcast_dims.push_back(j);  // rule 2
      for (unsigned q : {2 * i, 2 * i + 1}) {                     // rule 4
        const NodeId y = topo.neighbour(x, q);
        if (y != s && topo.coord(y, i) == topo.coord(s, i)) nc.fill_ports.push_back(q);
      }
    }
  }

  // Rules 1, 2 and 4 do not depend on the packet beyond its colour: fold them
  // into one packet mask per (node, port); rule 3 needs the dimension each
  // packet came along, kept as one mask per (node, dimension).
  std::vector<std::uint64_t> colour_packets(m, 0);
  for (unsigned p = 0; p < k; ++p) colour_packets[colour_of[p]] |= std::uint64_t{1} << p;
  std::vector<std::uint64_t> by_rule(static_cast<std::size_t>(n_nodes) * ports, 0), tree_packets(n_nodes, 0);
  for (NodeId x : group) {
    for (unsigned c = 0; c < m; ++c) {
      const NodeColour& nc = perm[static_cast<std::size_t>(x) * m + c];
      if (nc.tree) tree_packets[x] |= colour_packets[c];
      for (unsigned q = 0; q < ports; ++q) {
        if (contains(nc.broadcast_dims, port_dim(x, q)) || (q < 2 * topo.d() && contains(nc.fill_ports, q)))
          by_rule[static_cast<std::size_t>(x) * ports + q] |= colour_packets[c];
      }
    }
  }

  std::vector<std::uint64_t> held(n_nodes, 0), sent(static_cast<std::size_t>(n_nodes) * ports, 0);
  std::vector<std::uint64_t> came_along(static_cast<std::size_t>(n_nodes) * topo.d(), 0);
  held[s] = all;
  // What a node knows of its neighbours in step t: their holdings at the end of step t-2.
  std::vector<std::uint64_t> known(n_nodes, 0);
  StepModelResult result;

  struct Send {
    NodeId to;
    unsigned in_port;
    unsigned packet;
    unsigned dim;
  };
  std::vector<Send> sends;
  for (std::uint64_t t = 1;; ++t) {
    sends.clear();
    for (NodeId x : group) {
      if (held[x] == 0) continue;
      for (unsigned q = 0; q < ports; ++q) {
        const NodeId y = topo.neighbour(x, q);
        const unsigned dim = port_dim(x, q);
        const std::uint64_t rule3 = came_along[static_cast<std::size_t>(x) * topo.d() + dim] & tree_packets[x];
        std::uint64_t cand = held[x] & (by_rule[static_cast<std::size_t>(x) * ports + q] | rule3);
        cand &= ~sent[static_cast<std::size_t>(x) * ports + q] & ~known[y];
        if (cand == 0) continue;
        const unsigned first = static_cast<unsigned>(__builtin_ctzll(cand));
        const unsigned colour = colour_of[first];
        bool reverse;
        if (x == s) {
          const bool positive = q % 2 == 0;
          const unsigned bit = q < 2 * topo.d() ? (positive ? 3 : 0) : (positive ? 2 : 1);
          reverse = (cfg.patterns[colour] >> bit) & 1u;
        } else {
          reverse = q % 2 == 1;  // - links: highest packet first
        }
        unsigned pick = first;
        if (reverse) {
          for (unsigned p = k; p-- > first;) {
            if ((cand >> p & 1u) && colour_of[p] == colour) {
              pick = p;
              break;
            }
          }
        }
        sent[static_cast<std::size_t>(x) * ports + q] |= std::uint64_t{1} << pick;
        sends.push_back({y, q ^ 1u, pick, dim});
      }
    }
    if (sends.empty()) break;
    std::stable_sort(sends.begin(), sends.end(),
                     [](const Send& a, const Send& b) { return a.to != b.to ? a.to < b.to : a.in_port < b.in_port; });
    known = held;  // holdings at the end of step t-1, known in step t+1
    for (const Send& snd : sends) {
      ++result.transfers;
      const std::uint64_t bit = std::uint64_t{1} << snd.packet;
      if (held[snd.to] & bit) {
        ++result.duplicates;
        continue;
      }
      held[snd.to] |= bit;
      came_along[static_cast<std::size_t>(snd.to) * topo.d() + snd.dim] |= bit;
      result.steps = t;
    }
  }
  result.complete = std::all_of(group.begin(), group.end(), [&](NodeId x) { return held[x] == all; });
  return result;
}

}  // namespace icn::test
