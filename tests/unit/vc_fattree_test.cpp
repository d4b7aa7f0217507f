// The fat tree as a shape of the virtual-channel router: links pair up, every
// pair of leaves is routed up*/down* through its nearest common ancestor with
// the hop count computed here by climbing the two leaves' ancestors, and the
// random up-port choice uses every parallel link.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "models/rng.hpp"
#include "routers/vc/fattree_topology.hpp"

namespace icn {

using vc::FatTreeTopology;
using vc::PortRef;

namespace {

// Routers an up*/down* path between two leaves crosses, from the definition:
// climb both leaves' ancestors (a leaf's parent at level l is leaf >> l) until
// they meet at level L; the path goes up L levels and down L levels, so it
// crosses 2L - 1 routers (the common ancestor once), or one router for a
// leaf sending to itself (up to its level-1 router and back).
unsigned expected_routers(NodeId a, NodeId b) {
  unsigned level = 0;
  while (a != b) {
    a >>= 1;
    b >>= 1;
    ++level;
  }
  return level == 0 ? 1 : 2 * level - 1;
}

struct Walk {
  unsigned routers = 0;
  std::vector<unsigned> levels;
  bool arrived = false;
};

Walk walk(const FatTreeTopology& t, NodeId src, NodeId dst, Rng& rng) {
  Walk w;
  PortRef at = t.node_port(src);
  for (int guard = 0; guard < 100; ++guard) {
    ++w.routers;
    w.levels.push_back(t.level(at.router));
    const vc::RouteChoice c = t.route(at.router, at.port, src, dst, rng);
    EXPECT_LT(c.port, t.ports(at.router));
    EXPECT_EQ(c.vc_mask, (std::uint64_t{1} << t.vcs()) - 1) << "every VC allowed";
    const auto next = t.neighbor(at.router, c.port);
    if (!next) {  // a node port: it must be the destination's
      const PortRef d = t.node_port(dst);
      w.arrived = d.router == at.router && d.port == c.port;
      return w;
    }
    at = *next;
  }
  return w;
}

const std::vector<std::vector<unsigned>> kShapes = {
    {1}, {1, 1}, {1, 2}, {1, 1, 1, 1}, {1, 2, 4, 8}, {1, 2, 2, 3, 5}, {1, 1, 2, 2, 4, 4}};

}  // namespace

TEST(VcFatTree, EveryLinkHasOnePartnerFacingBack) {
  for (const auto& caps : kShapes) {
    const FatTreeTopology t(static_cast<unsigned>(caps.size()), caps, 2);
    const unsigned n = t.nodes();
    EXPECT_EQ(t.routers(), n - 1);
    std::set<std::pair<unsigned, unsigned>> node_ports, linked;
    for (NodeId leaf = 0; leaf < n; ++leaf) {
      const PortRef p = t.node_port(leaf);
      EXPECT_EQ(t.level(p.router), 1u);
      EXPECT_FALSE(t.neighbor(p.router, p.port).has_value());
      node_ports.insert({p.router, p.port});
    }
    EXPECT_EQ(node_ports.size(), n);
    for (unsigned r = 0; r < t.routers(); ++r) {
      const unsigned l = t.level(r);
      // 2 c_l down, c_(l+1) up (none at the root).
      EXPECT_EQ(t.ports(r), 2 * caps[l - 1] + (l < caps.size() ? caps[l] : 0)) << t.router_name(r);
      for (unsigned p = 0; p < t.ports(r); ++p) {
        const auto q = t.neighbor(r, p);
        if (!q) {
          EXPECT_TRUE(node_ports.count({r, p})) << t.router_name(r) << "." << t.port_name(r, p);
          continue;
        }
        const auto back = t.neighbor(q->router, q->port);
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(back->router, r);
        EXPECT_EQ(back->port, p);
        const unsigned lq = t.level(q->router);
        EXPECT_TRUE(lq + 1 == l || lq == l + 1) << "links join adjacent levels";
        linked.insert({r, p});
      }
    }
    // Physical links: 2 directions x sum over levels 2..h of (routers at l) x 2 x c_l.
    std::size_t links = 0;
    for (unsigned l = 2; l <= caps.size(); ++l) links += 2 * (n >> l) * 2 * caps[l - 1];
    EXPECT_EQ(linked.size(), links);
  }
}

TEST(VcFatTree, EveryPairIsRoutedUpThenDownWithTheNearestCommonAncestorHopCount) {
  for (const auto& caps : kShapes) {
    const FatTreeTopology t(static_cast<unsigned>(caps.size()), caps, 3);
    Rng rng(1, 7);
    for (NodeId s = 0; s < t.nodes(); ++s)
      for (NodeId d = 0; d < t.nodes(); ++d) {
        for (int draw = 0; draw < 3; ++draw) {  // a few random up-port choices per pair
          const Walk w = walk(t, s, d, rng);
          ASSERT_TRUE(w.arrived) << s << " -> " << d;
          EXPECT_EQ(w.routers, expected_routers(s, d)) << s << " -> " << d;
          // Levels rise strictly to the turn, then fall strictly: up*/down*.
          std::size_t top = 0;
          while (top + 1 < w.levels.size() && w.levels[top + 1] == w.levels[top] + 1) ++top;
          for (std::size_t i = top + 1; i < w.levels.size(); ++i) EXPECT_EQ(w.levels[i] + 1, w.levels[i - 1]);
        }
      }
  }
}

TEST(VcFatTree, TheRandomUpChoiceUsesEveryParallelLinkEvenly) {
  // EBFT of 16 leaves: a level-2 router has c_3 = 4 links up. Heads that must
  // climb pick one at random: each link gets about a quarter of 40,000 draws.
  const FatTreeTopology t(4, {1, 2, 4, 8}, 2);
  const unsigned r = t.router_at(2, 1);  // leaves 4..7
  Rng rng(3, 11);
  std::vector<unsigned> count(t.ports(r), 0);
  for (int i = 0; i < 40000; ++i) ++count[t.route(r, 0, 4, 12, rng).port];
  for (unsigned p = 0; p < 4; ++p) EXPECT_EQ(count[p], 0u) << "never down for a leaf outside the subtree";
  for (unsigned p = 4; p < 8; ++p) EXPECT_NEAR(count[p], 10000.0, 400.0) << t.port_name(r, p);
  // Down toward leaf 6 (child 1 of router (2,1), c_2 = 2 links): ports 2 and 3 only.
  std::vector<unsigned> down(t.ports(r), 0);
  for (int i = 0; i < 4000; ++i) ++down[t.route(r, 4, 12, 6, rng).port];
  EXPECT_EQ(down[0] + down[1], 0u);
  EXPECT_GT(down[2], 1500u);
  EXPECT_GT(down[3], 1500u);
}

TEST(VcFatTree, NamesFollowThePacketFatTree) {
  const FatTreeTopology t(3, {1, 1, 2}, 2);
  EXPECT_EQ(t.router_name(t.router_at(1, 3)), "r1_3");
  EXPECT_EQ(t.router_name(t.router_at(3, 0)), "r3_0");
  EXPECT_EQ(t.port_name(t.router_at(1, 0), 0), "down0");
  EXPECT_EQ(t.port_name(t.router_at(1, 0), 2), "up");
  EXPECT_EQ(t.port_name(t.router_at(2, 0), 2), "up0");  // c_3 = 2 links up
  EXPECT_EQ(t.port_name(t.router_at(3, 0), 3), "down1_1");
  EXPECT_EQ(t.describe(), "fat tree 8 [1,1,2]");
}

}  // namespace icn
