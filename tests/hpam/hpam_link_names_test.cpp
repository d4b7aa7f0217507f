// HPAM link names for fault injection (network.failed_links): every link of a
// machine, enumerated here from the paper's geometry (meshes per level, the
// bottom row of level l-1 linked down to the top row of level l), parses to
// that link and only that; every other name is refused.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "routers/hpam/hpam_geometry.hpp"
#include "routers/hpam/hpam_topology.hpp"

namespace icn::hpam {
namespace {

struct Expected {
  std::string name;
  NodeId router;
  bool injection;
};

// The links of the machine, from its shape alone.
std::vector<Expected> links_of(const std::vector<LevelShape>& levels) {
  std::vector<Expected> out;
  NodeId first = 0, nodes = 0;
  for (const auto& l : levels) nodes += l.rows * l.cols;
  for (NodeId k = 0; k < nodes; ++k) out.push_back({"nic" + std::to_string(k) + ".up", k, true});
  for (unsigned lv = 0; lv < levels.size(); ++lv) {
    const LevelShape& s = levels[lv];
    for (unsigned r = 0; r < s.rows; ++r)
      for (unsigned c = 0; c < s.cols; ++c) {
        const NodeId id = first + r * s.cols + c;
        const std::string router = "l" + std::to_string(lv + 1) + "_r" + std::to_string(r) + "_" + std::to_string(c);
        out.push_back({router + ".local", id, false});
        if (c + 1 < s.cols) out.push_back({router + ".east", id, false});
        if (c > 0) out.push_back({router + ".west", id, false});
        if (r + 1 < s.rows) out.push_back({router + ".south", id, false});
        if (r > 0) out.push_back({router + ".north", id, false});
        if (lv > 0 && r == 0) out.push_back({router + ".up", id, false});
        if (lv + 1 < levels.size() && r + 1 == s.rows) {
          const unsigned f = levels[lv + 1].cols / s.cols;  // eq. (1): f_l branches down
          for (unsigned b = 0; b < f; ++b) out.push_back({router + ".down" + std::to_string(b), id, false});
        }
      }
    first += s.rows * s.cols;
  }
  return out;
}

void every_link_parses(const std::vector<LevelShape>& levels, bool replication) {
  const HpamGeometry geo(levels);
  const HpamTopology topo(geo, 2, replication);
  std::set<std::pair<unsigned, unsigned>> ports_seen;
  for (const Expected& e : links_of(levels)) {
    SCOPED_TRACE(e.name);
    const auto a = topo.parse_link(e.name);
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->name, e.name);
    EXPECT_EQ(a->injection, e.injection);
    if (e.injection) {
      EXPECT_EQ(a->node, e.router);
    } else {
      EXPECT_EQ(a->router, e.router);
      EXPECT_TRUE(ports_seen.insert({a->router, a->port}).second) << "two names for one port";
    }
  }
  // Names that are not links: wrong level, outside the mesh, mesh edges, the
  // replication hardware's ports, and index syntax the strict parser refuses.
  const std::string last = "l" + std::to_string(levels.size());
  const LevelShape& bottom = levels.back();
  const std::string l1_bottom = "l1_r" + std::to_string(levels[0].rows - 1) + "_0";
  for (const std::string& bad :
       {std::string("l0_r0_0.local"), "l" + std::to_string(levels.size() + 1) + "_r0_0.local",
        last + "_r" + std::to_string(bottom.rows) + "_0.local", last + "_r0_" + std::to_string(bottom.cols) + ".local",
        last + "_r0_0.north", last + "_r0_0.west", std::string("l1_r0_0.up"), last + "_r0_0.down0",
        l1_bottom + ".replicate", std::string("l2_r0_0.from_replicator"), l1_bottom + ".combine",
        std::string("l2_r00_0.local"), std::string("l2_r+0_0.local"), std::string("l2_r0_-0.local"), std::string("l02_r0_0.local"),
        std::string("l2_r0_0"), std::string("l2_r0_0."), std::string("l2_r0_0.x+"), std::string("r0_0.local"),
        std::string("l2_r0_0_0.local"), "nic" + std::to_string(geo.nodes()) + ".up", std::string("nic01.up"),
        std::string("nic1.down"), std::string("nic 1.up"), std::string("l2_r4294967296_0.local")}) {
    EXPECT_FALSE(topo.parse_link(bad).has_value()) << bad;
  }
}

TEST(HpamLinkNames, EveryLinkOfTheMachineParsesToItsRouterAndPort1x1Over4x4) { every_link_parses({{1, 1}, {4, 4}}, false); }
TEST(HpamLinkNames, EveryLinkParsesWithTheReplicationHardware2x2Over4x8) { every_link_parses({{2, 2}, {4, 8}}, true); }
TEST(HpamLinkNames, EveryLinkParsesOnThreeLevels) { every_link_parses({{1, 1}, {2, 2}, {2, 8}}, false); }

}  // namespace
}  // namespace icn::hpam
