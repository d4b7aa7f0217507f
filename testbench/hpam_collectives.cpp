#include "testbench/hpam_collectives.hpp"

#include <algorithm>

namespace icn::hpam {

namespace {

std::uint64_t mix(std::uint64_t x) {  // SplitMix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A tree edge: `from` hands `to` the data of `to`'s region.
struct Edge {
  NodeId from, to;
  std::uint64_t bytes, tag;
  std::vector<NodeId> copies;  // multicast: every receiver (to is the first)
  std::vector<std::pair<std::uint64_t, std::uint64_t>> copy_content;  // (bytes, tag) of each copy's own column
  NodeId via = kNoNode;        // multicast: the inter-level router that replicates (or combines)
};

class Planner {
 public:
  Planner(const HpamGeometry& g, const CollectiveSpec& s) : g_(g), s_(s), src_(g.node(s.source)) {}

  std::uint64_t piece_bytes(NodeId n) const {
    return (s_.scaled && g_.position(n).level == 0) ? s_.piece_bytes * s_.q : s_.piece_bytes;
  }
  std::uint64_t piece(NodeId n) const {
    return s_.collective == Collective::kBroadcast ? piece_tag(s_.seed, src_, src_) : piece_tag(s_.seed, src_, n);
  }
  // The message for a region: a broadcast carries one copy of the data, a
  // scatter or gather every piece of the region.
  void add_to_region(Edge& e, NodeId n) const {
    if (s_.collective == Collective::kBroadcast) {
      e.bytes = s_.piece_bytes;
      e.tag = piece(n);
    } else {
      e.bytes += piece_bytes(n);
      e.tag ^= piece(n);
    }
  }

  // The binary tree over an h x w block of `level` whose virtual coordinate
  // (a, b) is the physical (r0 + (a ^ xr), c0 + (b ^ xc)); the holder at
  // virtual (vr, vc) owns an h x w region and sends the far halves' corners.
  void tree(unsigned level, unsigned r0, unsigned c0, unsigned xr, unsigned xc, unsigned vr, unsigned vc, unsigned h,
            unsigned w) {
    auto phys = [&](unsigned a, unsigned b) { return g_.node({level, r0 + (a ^ xr), c0 + (b ^ xc)}); };
    const NodeId me = phys(vr, vc);
    auto region_edge = [&](unsigned a0, unsigned b0, unsigned hh, unsigned ww) {
      Edge e{me, phys(a0, b0), 0, 0, {}, {}, kNoNode};
      for (unsigned a = 0; a < hh; ++a)
        for (unsigned b = 0; b < ww; ++b) add_to_region(e, phys(a0 + a, b0 + b));
      edges_.push_back(e);
    };
    for (unsigned half = w / 2; half >= 1; half /= 2) {
      region_edge(vr, vc + half, h, half);
      tree(level, r0, c0, xr, xc, vr, vc + half, h, half);
    }
    for (unsigned half = h / 2; half >= 1; half /= 2) {
      region_edge(vr + half, vc, half, 1);
      tree(level, r0, c0, xr, xc, vr + half, vc, half, 1);
    }
  }

  std::vector<Edge> build() {
    const LevelShape top = g_.level(0), low = g_.level(1);
    if (s_.algorithm == Algorithm::kBruteForce) {
      for (NodeId n = g_.first_node(1); n < g_.first_node(1) + low.rows * low.cols; ++n) direct(n);
      if (s_.all_levels)
        for (NodeId n = 0; n < top.rows * top.cols; ++n)
          if (n != src_) direct(n);
      return edges_;
    }
    // Hybrid and multicast relay through the source's row of level 1
    // (sections 3.2, 4.2); with one level-1 processor the relay is the
    // source alone (sections 3.1, 4.1).
    relay(0, top.cols);
    return edges_;
  }

 private:
  unsigned f() const { return g_.level(1).cols / g_.level(0).cols; }
  // Processors of the source's row that feed level 2: all c1 of them when a
  // sub-mesh is at most f columns wide (the paper's case a; always for
  // multicast), else one per q2-wide block of level 2 (case b: c2 / q2).
  unsigned relays() const {
    const unsigned c1 = g_.level(0).cols;
    if (s_.algorithm == Algorithm::kMulticast) return c1;
    return std::min(c1, g_.level(1).cols / s_.q2);
  }
  // Virtual column v of the source's row (the tree is rooted at the source:
  // physical column = source column XOR v).
  NodeId row_node(unsigned v) const { return g_.node({0, s_.source.row, s_.source.col ^ v}); }
  unsigned phys_col(unsigned v) const { return s_.source.col ^ v; }

  // The relay of the source's row: the processor at virtual column vc holds
  // the data of `width` columns of level 1 (and of the level-2 columns below
  // them). It first hands the far halves to their relays (halving down to
  // one relay's share), then feeds its own part of level 2 through its
  // inter-level links, then (destinations=all) runs the level-1 tree over its
  // share of level 1.
  void relay(unsigned vc, unsigned width) {
    const LevelShape top = g_.level(0);
    const unsigned unit = top.cols / relays();
    const NodeId me = row_node(vc);
    for (unsigned half = width / 2; half >= unit; half /= 2) {
      Edge e{me, row_node(vc + half), 0, 0, {}, {}, kNoNode};
      // Physical columns of virtual [vc + half, vc + 2 half): an aligned block.
      const unsigned x0 = phys_col(vc + half) & ~(half - 1);
      if (s_.all_levels)
        for (unsigned r = 0; r < top.rows; ++r)
          for (unsigned c = x0; c < x0 + half; ++c) add_to_region(e, g_.node({0, r, c}));
      for (unsigned r = 0; r < g_.level(1).rows; ++r)
        for (unsigned c = x0 * f(); c < (x0 + half) * f(); ++c) add_to_region(e, g_.node({1, r, c}));
      edges_.push_back(e);
      relay(vc + half, half);
    }
    serve(me, phys_col(vc), unit);
    if (s_.all_levels) tree(0, 0, 0, s_.source.row, s_.source.col, 0, vc, top.rows, unit);
  }

  // The inter-level sends of the relay at physical column x, whose share is
  // the `unit` level-1 columns of its aligned block and the level-2 columns
  // below them; each sub-mesh root is in the column right below x.
  void serve(NodeId me, unsigned x, unsigned unit) {
    const LevelShape top = g_.level(0), low = g_.level(1);
    const unsigned x0 = x & ~(unit - 1);
    if (s_.algorithm == Algorithm::kMulticast) {
      // One replicated message per row block through the replicator below x.
      std::vector<NodeId> roots;
      for (unsigned i = 0; i < low.rows / s_.p2; ++i) {
        Edge e{me, g_.node({1, i * s_.p2, x * f()}), 0, 0, {}, {}, kNoNode};
        e.via = g_.node({0, top.rows - 1, x});
        for (unsigned b = 0; b < f(); ++b) {
          e.copies.push_back(g_.node({1, i * s_.p2, x * f() + b}));
          Edge own{me, e.copies.back(), 0, 0, {}, {}, kNoNode};
          for (unsigned a = 0; a < s_.p2; ++a) {
            add_to_region(e, g_.node({1, i * s_.p2 + a, x * f() + b}));
            add_to_region(own, g_.node({1, i * s_.p2 + a, x * f() + b}));
          }
          e.copy_content.push_back({own.bytes, own.tag});
        }
        edges_.push_back(e);
        roots.insert(roots.end(), e.copies.begin(), e.copies.end());
      }
      for (NodeId root : roots) {
        const Position r = g_.position(root);
        tree(1, r.row, r.col, 0, 0, 0, 0, s_.p2, 1);
      }
      return;
    }
    // Hybrid: the relay serves every sub-mesh root of its share in turn, then
    // each root its sub-mesh.
    const unsigned offset = (x * f()) % s_.q2;  // the root's column within its block
    std::vector<std::pair<NodeId, Position>> roots;  // root, block corner
    for (unsigned i = 0; i < low.rows / s_.p2; ++i)
      for (unsigned c0 = x0 * f(); c0 < (x0 + unit) * f(); c0 += s_.q2) {
        Edge e{me, g_.node({1, i * s_.p2, c0 + offset}), 0, 0, {}, {}, kNoNode};
        for (unsigned a = 0; a < s_.p2; ++a)
          for (unsigned b = 0; b < s_.q2; ++b) add_to_region(e, g_.node({1, i * s_.p2 + a, c0 + b}));
        edges_.push_back(e);
        roots.push_back({e.to, {1, i * s_.p2, c0}});
      }
    for (const auto& [root, corner] : roots) tree(1, corner.row, corner.col, 0, offset, 0, 0, s_.p2, s_.q2);
  }

  void direct(NodeId n) {
    Edge e{src_, n, 0, 0, {}, {}, kNoNode};
    add_to_region(e, n);
    edges_.push_back(e);
  }

  const HpamGeometry& g_;
  const CollectiveSpec& s_;
  NodeId src_;
  std::vector<Edge> edges_;
};

}  // namespace

std::uint64_t piece_tag(std::uint64_t seed, NodeId source, NodeId owner) {
  return mix(mix(seed ^ 0x48504d) ^ (std::uint64_t{source} << 32 | owner));
}

std::vector<std::pair<unsigned, unsigned>> submesh_shapes(const HpamGeometry& g, Algorithm a) {
  std::vector<std::pair<unsigned, unsigned>> out;
  const LevelShape low = g.level(1);
  for (unsigned p = 1; p <= low.rows; p *= 2)
    for (unsigned q = 1; q <= low.cols; q *= 2)
      if (a != Algorithm::kMulticast || q == 1) out.push_back({p, q});
  return out;
}

CollectivePlan plan_collective(const HpamGeometry& g, const CollectiveSpec& spec) {
  Planner planner(g, spec);
  const std::vector<Edge> edges = planner.build();
  CollectivePlan plan;
  plan.sends.resize(g.nodes());
  plan.waits.assign(g.nodes(), 0);
  plan.receives.resize(g.nodes());
  const bool reverse = spec.collective == Collective::kGather;
  for (const Edge& e : edges) {
    if (reverse && !e.copies.empty()) {
      // Combining gather: every column root sends its own block up; the sink
      // receives one merged message from the inter-level router.
      for (std::size_t b = 0; b < e.copies.size(); ++b)
        plan.sends[e.copies[b]].push_back(
            {e.copies[b], e.from, e.copy_content[b].first, e.copy_content[b].second, false, true});
      // The merged message comes from the group (InterLevelCombiner): the
      // senders' row of the first column below.
      plan.receives[e.from].push_back({e.copies[0], e.from, e.bytes, e.tag});
      plan.bytes += e.bytes;
      ++plan.messages;
      continue;
    }
    const std::vector<NodeId> to = e.copies.empty() ? std::vector<NodeId>{e.to} : e.copies;
    for (NodeId n : to) {
      PlannedMessage m{e.from, n, e.bytes, e.tag};
      if (reverse) std::swap(m.src, m.dst);
      plan.receives[m.dst].push_back(m);
      plan.bytes += m.bytes;
      ++plan.messages;
    }
  }
  if (!reverse) {
    for (const Edge& e : edges) plan.sends[e.from].push_back({e.from, e.to, e.bytes, e.tag, !e.copies.empty()});
    for (NodeId n = 0; n < g.nodes(); ++n) plan.waits[n] = static_cast<unsigned>(plan.receives[n].size());
  } else {
    // Gather: a processor sends its region's pieces to its parent once every
    // child has sent it theirs; leaves (and brute force) send at the start.
    for (const Edge& e : edges)
      if (e.copies.empty()) plan.sends[e.to].push_back({e.to, e.from, e.bytes, e.tag});
    for (NodeId n = 0; n < g.nodes(); ++n) plan.waits[n] = static_cast<unsigned>(plan.receives[n].size());
  }
  return plan;
}

const char* to_string(Collective c) {
  switch (c) {
    case Collective::kBroadcast: return "broadcast";
    case Collective::kScatter: return "scatter";
    case Collective::kGather: return "gather";
  }
  return "?";
}

const char* to_string(Algorithm a) {
  switch (a) {
    case Algorithm::kBruteForce: return "brute_force";
    case Algorithm::kHybrid: return "hybrid";
    case Algorithm::kMulticast: return "multicast";
  }
  return "?";
}

}  // namespace icn::hpam
