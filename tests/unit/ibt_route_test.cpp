// The hardware blocks of the all-port broadcast router that can be checked
// without elaboration: the route word, the packet sets, the status sideband,
// and the structure the route unit gives each colour.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <set>
#include <vector>

#include "routers/ibt/broadcast_route.hpp"
#include "routers/ibt/holdings_register.hpp"
#include "routers/ibt/ibt_topology.hpp"
#include "routers/ibt/packet_bits.hpp"

namespace icn::ibt {
namespace {

TEST(BroadcastRoute, PacksAndUnpacksEveryField) {
  BroadcastRoute r;
  r.scheme = ColourScheme::kDirectedTorus;
  r.dims_count = 3;
  r.dims = {2, 0, 1, 0};
  r.colour = 5;
  r.pattern = 0xB;
  const BroadcastRoute u = BroadcastRoute::unpack(r.pack());
  EXPECT_EQ(u.scheme, r.scheme);
  EXPECT_EQ(u.dims_count, 3u);
  EXPECT_EQ(u.dims, r.dims);
  EXPECT_EQ(u.colour, 5u);
  EXPECT_EQ(u.pattern, 0xBu);
  EXPECT_EQ(BroadcastRoute::colour_of(r.pack()), 5u);
  EXPECT_EQ(BroadcastRoute::pattern_of(r.pack()), 0xBu);
  // The broadcast key ignores colour and pattern.
  BroadcastRoute other = r;
  other.colour = 1;
  other.pattern = 3;
  EXPECT_EQ(BroadcastRoute::broadcast_key(other.pack()), BroadcastRoute::broadcast_key(r.pack()));
  // Colour (c, sigma) of the directed scheme: colour 5 = (dims[2], -); the order wraps after dims[2].
  EXPECT_EQ(r.colour_dim(0), 1u);
  EXPECT_EQ(r.colour_sign(0), -1);
  EXPECT_EQ(r.colour_dim(1), 2u);
  EXPECT_EQ(r.colour_sign(1), +1);  // sign flips when the order wraps past the last listed dimension
}

TEST(PacketBits, FindsLowestHighestAndCountsAcrossWords) {
  Word w[2] = {0, 0};
  EXPECT_EQ(lowest(w, 2), -1);
  EXPECT_EQ(highest(w, 2), -1);
  set(w, 3);
  set(w, 70);
  set(w, 64);
  EXPECT_EQ(lowest(w, 2), 3);
  EXPECT_EQ(highest(w, 2), 70);
  EXPECT_EQ(count(w, 2), 3u);
  clear(w, 3);
  EXPECT_EQ(lowest(w, 2), 64);
  EXPECT_TRUE(test(w, 70));
  EXPECT_FALSE(test(w, 3));
}

// A register of `words` words: k <= 64 keeps the holdings inside the
// register; larger k uses outside storage.
struct RegisterOfWords {
  explicit RegisterOfWords(unsigned words) : external(2 * words, 0) { r.init(words, external.data()); }
  std::vector<Word> external;
  HoldingsRegister r;
};

// A neighbour reading the register in cycle t sees the holdings at the end of
// t-1, whether it reads before or after the owner changes them in cycle t.
TEST(HoldingsRegister, NeighboursSeeTheHoldingsOneCycleLate) {
  for (unsigned words : {1u, 2u}) {
    SCOPED_TRACE(words);
    RegisterOfWords reg(words);
    HoldingsRegister& r = reg.r;
    const unsigned hi = words == 1 ? 0 : 64;  // also exercise the second word
    EXPECT_EQ(count(r.visible(1), words), 0u);
    r.set(2, 1);
    EXPECT_EQ(count(r.visible(1), words), 0u);  // read after the update in the same cycle
    EXPECT_TRUE(test(r.visible(2), 2));
    EXPECT_TRUE(test(r.visible(5), 2));
    r.set(hi, 5);
    r.set(1, 5);
    EXPECT_EQ(count(r.visible(5), words), 1u);
    EXPECT_EQ(count(r.visible(6), words), 3u);
    EXPECT_TRUE(test(r.visible(6), hi));
    EXPECT_TRUE(test(r.current(), 1));
  }
}

// With run.threads, a neighbour on another worker may read the register at
// the moment its owner changes it: the words a neighbour reads in cycle t
// must not be written in cycle t at all, whichever comes first.
TEST(HoldingsRegister, TheWordsNeighboursReadInACycleAreNotWrittenInIt) {
  for (unsigned words : {1u, 2u}) {
    SCOPED_TRACE(words);
    RegisterOfWords reg(words);
    HoldingsRegister& r = reg.r;
    for (Cycle t : {Cycle{3}, Cycle{4}, Cycle{9}}) {
      SCOPED_TRACE(t);
      const Word* seen = r.visible(t);  // a neighbour's read before the owner's first change in t
      const std::vector<Word> before(seen, seen + words);
      r.set(static_cast<unsigned>(t) % (64 * words), t);
      r.set(words == 1 ? 63 : 127, t);
      EXPECT_EQ(r.visible(t), seen) << "a read after the change must see the same words";
      EXPECT_EQ(std::vector<Word>(seen, seen + words), before) << "the owner wrote the words a neighbour reads";
      EXPECT_TRUE(test(r.current(), static_cast<unsigned>(t) % (64 * words)));
      EXPECT_TRUE(test(r.visible(t + 1), words == 1 ? 63 : 127));
    }
  }
}

NodeOffsets offsets(const IbtTopology& t, NodeId x, NodeId s) {
  NodeOffsets o;
  o.d = t.d();
  o.n = t.n();
  for (unsigned i = 0; i < t.d(); ++i) o.offset[i] = (t.coord(x, i) + t.n() - t.coord(s, i)) % t.n();
  o.bypass_dim = t.has_bypass() ? static_cast<int>(t.bypass_dim(x)) : -1;
  return o;
}

using Arc = std::pair<NodeId, unsigned>;  // (node, out port)

// The arcs each colour may use, and every group member, for one broadcast.
struct ColourArcs {
  std::vector<std::set<Arc>> arcs;  // per colour
  std::set<NodeId> group;
};

ColourArcs arcs_of(const IbtTopology& t, NodeId s, BroadcastRoute base) {
  ColourArcs out;
  out.arcs.resize(base.colours());
  for (NodeId x = 0; x < t.nodes(); ++x) {
    const NodeOffsets o = offsets(t, x, s);
    if (BroadcastRouteUnit::in_group(base, o)) out.group.insert(x);
    for (unsigned c = 0; c < base.colours(); ++c) {
      BroadcastRoute r = base;
      r.colour = c;
      const unsigned mask = BroadcastRouteUnit::ports(r, o);
      if (!BroadcastRouteUnit::in_group(base, o)) {
        EXPECT_EQ(mask, 0u) << "node outside the group";
      }
      for (unsigned p = 0; p < t.ports(); ++p)
        if (mask & (1u << p)) out.arcs[c].insert({x, p});
    }
  }
  return out;
}

// Breadth-first depth of every node reachable from s over a colour's arcs.
std::map<NodeId, unsigned> depths(const IbtTopology& t, NodeId s, const std::set<Arc>& arcs) {
  std::map<NodeId, unsigned> depth{{s, 0}};
  std::deque<NodeId> queue{s};
  while (!queue.empty()) {
    const NodeId x = queue.front();
    queue.pop_front();
    for (unsigned p = 0; p < t.ports(); ++p) {
      if (!arcs.count({x, p})) continue;
      const NodeId y = t.neighbour(x, p);
      if (depth.emplace(y, depth[x] + 1).second) queue.push_back(y);
    }
  }
  return depth;
}

// The torus baseline: 2m arc-disjoint spanning trees of depth m(n-1).
TEST(BroadcastRouteUnit, DirectedTorusColoursAreArcDisjointSpanningTreesOfDepthMTimesNMinus1) {
  struct Case {
    unsigned n, d;
    std::vector<std::uint8_t> dims;
  };
  for (const Case& c : std::vector<Case>{{3, 2, {0, 1}}, {4, 2, {0, 1}}, {7, 2, {1, 0}}, {3, 3, {0, 1, 2}},
                                         {5, 3, {0, 1, 2}}, {4, 3, {2, 0}}, {3, 4, {0, 1, 2, 3}}, {4, 4, {1, 3}},
                                         {6, 1, {0}}}) {
    const IbtTopology t(c.n, c.d, {});
    BroadcastRoute base;
    base.scheme = ColourScheme::kDirectedTorus;
    base.dims_count = static_cast<unsigned>(c.dims.size());
    for (std::size_t q = 0; q < c.dims.size(); ++q) base.dims[q] = c.dims[q];
    for (NodeId s : {NodeId{0}, t.nodes() / 2 + 1}) {
      SCOPED_TRACE(t.label() + " m=" + std::to_string(base.dims_count) + " s=" + t.coords_text(s));
      const ColourArcs ca = arcs_of(t, s, base);
      std::set<Arc> all;
      for (unsigned col = 0; col < base.colours(); ++col) {
        const auto& arcs = ca.arcs[col];
        // A tree over the group: every member but s has exactly one arc in, and all are reached.
        std::map<NodeId, unsigned> in_degree;
        for (const Arc& a : arcs) {
          const NodeId y = t.neighbour(a.first, a.second);
          EXPECT_TRUE(ca.group.count(a.first) && ca.group.count(y));
          ++in_degree[y];
        }
        EXPECT_EQ(in_degree.count(s), 0u);
        for (NodeId y : ca.group) {
          if (y != s) {
            EXPECT_EQ(in_degree[y], 1u) << "colour " << col << " node " << t.coords_text(y);
          }
        }
        const auto depth = depths(t, s, arcs);
        EXPECT_EQ(depth.size(), ca.group.size()) << "colour " << col;
        unsigned deepest = 0;
        for (const auto& [node, dep] : depth) deepest = std::max(deepest, dep);
        EXPECT_EQ(deepest, base.dims_count * (c.n - 1)) << "colour " << col;
        for (const Arc& a : arcs) EXPECT_TRUE(all.insert(a).second) << "arc used by two colours";
      }
    }
  }
}

// The paper's iBT colours: every colour reaches the whole group over its own
// arcs, and no link carries two colours. An arc into a node that holds the
// colour before the arc's tail does - the source, or the start of the line the
// arc runs along - is allowed but never carries anything (the neighbour's
// status shows the packets), so only the other arcs must be exclusive.
TEST(BroadcastRouteUnit, DimensionOrderedColoursCoverTheGroupWithoutSharingALink) {
  struct Case {
    unsigned n, d;
    std::vector<unsigned> bypass;
    std::vector<std::uint8_t> dims;
  };
  for (const Case& c : std::vector<Case>{{12, 2, {4}, {0, 1}},
                                         {16, 2, {4, 12}, {1, 0}},
                                         {12, 3, {3}, {0, 1, 2}},
                                         {12, 3, {9}, {2, 0}},
                                         {12, 4, {8}, {0, 1, 2, 3}},
                                         {10, 2, {}, {0}},
                                         {16, 1, {2, 6}, {0}},
                                         {6, 3, {}, {0, 1, 2}}}) {
    if (!IbtTopology::check(c.n, c.d, std::vector<std::int64_t>(c.bypass.begin(), c.bypass.end())).why.empty()) {
      ADD_FAILURE() << "invalid case n=" << c.n;
      continue;
    }
    const IbtTopology t(c.n, c.d, c.bypass);
    BroadcastRoute base;
    base.dims_count = static_cast<unsigned>(c.dims.size());
    for (std::size_t q = 0; q < c.dims.size(); ++q) base.dims[q] = c.dims[q];
    for (NodeId s : {NodeId{0}, NodeId{1}, t.nodes() - 1}) {
      SCOPED_TRACE(t.label() + " s=" + t.coords_text(s));
      const ColourArcs ca = arcs_of(t, s, base);
      EXPECT_EQ(ca.group.size(), [&] {
        std::size_t g = 1;
        for (std::size_t q = 0; q < c.dims.size(); ++q) g *= c.n;
        return g;
      }());
      std::set<Arc> all;
      for (unsigned col = 0; col < base.colours(); ++col) {
        EXPECT_EQ(depths(t, s, ca.arcs[col]).size(), ca.group.size()) << "colour " << col << " misses nodes";
        const unsigned first = base.dims[col];
        for (const Arc& a : ca.arcs[col]) {
          const NodeId y = t.neighbour(a.first, a.second);
          const unsigned j = t.port_dim(a.first, a.second);
          const bool into_line_start = t.coord(y, j) == t.coord(s, j) && j != first;
          if (y == s || into_line_start) continue;
          EXPECT_TRUE(all.insert(a).second) << "link " << a.first << "." << t.port_name(a.second)
                                            << " carries two colours";
        }
      }
    }
  }
}

}  // namespace
}  // namespace icn::ibt
