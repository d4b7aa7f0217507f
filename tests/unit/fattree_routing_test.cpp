// RouteComputation, exhaustively: every unicast reaches its destination along
// the unique tree path, and broadcast mode floods every leaf exactly once.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "models/fat_tree.hpp"
#include "routers/fattree_packet/route_computation.hpp"

namespace icn::fattree {

namespace {

struct Hop {
  unsigned level;  // level of the node reached (0 = leaf)
  unsigned index;
  unsigned in_port;  // port of that node the packet entered by
};

// Next node through output `port` of router (level, index).
Hop step(unsigned level, unsigned index, unsigned port) {
  if (port == kUp) return {level + 1, index / 2, kDown0 + index % 2};
  return {level - 1, index * 2 + (port - kDown0), kUp};
}

}  // namespace

TEST(FatTreeRouting, EveryPairReachesItsDestinationOnTheUniquePath) {
  for (unsigned h = 1; h <= 6; ++h) {
    const NodeId n = NodeId{1} << h;
    for (NodeId s = 0; s < n; ++s) {
      for (NodeId d = 0; d < n; ++d) {
        if (s == d) continue;
        Packet p;
        p.src = s;
        p.dst = d;
        Hop at{1, s / 2, kDown0 + s % 2};
        unsigned hops = 1;
        while (at.level > 0) {
          RouteComputation rc(at.level, at.index, at.level == h);
          const unsigned mask = rc.outputs(p, at.in_port);
          ASSERT_EQ(__builtin_popcount(mask), 1) << "h=" << h << " " << s << "->" << d;
          at = step(at.level, at.index, __builtin_ctz(mask));
          ASSERT_LE(at.level, h);
          ++hops;
        }
        EXPECT_EQ(at.index, d) << "h=" << h << " " << s << "->" << d;
        // Up to the lowest common ancestor (the first level where the
        // leaves' subtrees coincide) and down again.
        unsigned lca = 0;
        while ((s >> lca) != (d >> lca)) ++lca;
        EXPECT_EQ(hops, 2 * lca);
      }
    }
  }
}

TEST(FatTreeRouting, BroadcastModeFloodsEveryOtherLeafOnce) {
  for (unsigned h = 1; h <= 6; ++h) {
    const NodeId n = NodeId{1} << h;
    for (NodeId s = 0; s < n; ++s) {
      Packet p;
      p.src = s;
      p.flags = Packet::kBroadcast;
      std::map<NodeId, int> reached;
      std::vector<Hop> frontier{{1, s / 2, kDown0 + s % 2}};
      while (!frontier.empty()) {
        Hop at = frontier.back();
        frontier.pop_back();
        if (at.level == 0) {
          ++reached[at.index];
          continue;
        }
        RouteComputation rc(at.level, at.index, at.level == h);
        const unsigned mask = rc.outputs(p, at.in_port);
        EXPECT_EQ(mask & (1u << at.in_port), 0u) << "never back where it came from";
        for (unsigned port = 0; port < kPorts; ++port)
          if (mask & (1u << port)) frontier.push_back(step(at.level, at.index, port));
      }
      EXPECT_EQ(reached.size(), n - 1);
      EXPECT_EQ(reached.count(s), 0u);
      for (const auto& [leaf, times] : reached) EXPECT_EQ(times, 1) << "leaf " << leaf;
    }
  }
}

}  // namespace icn::fattree
