// Failed-link names: parsed once, strictly. The set of accepted names is
// compared with the channel list written out in the test from the fat tree's
// definition (every NIC up, every router up but the root's, two downs each).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "models/link_address.hpp"

namespace icn {

namespace {
std::set<std::string> tree_channels(unsigned height, char prefix) {
  std::set<std::string> names;
  for (unsigned k = 0; k < (1u << height); ++k) names.insert("nic" + std::to_string(k) + ".up");
  for (unsigned l = 1; l <= height; ++l) {
    for (unsigned j = 0; j < (1u << (height - l)); ++j) {
      const std::string r = prefix + std::to_string(l) + "_" + std::to_string(j);
      if (l < height) names.insert(r + ".up");
      names.insert(r + ".down0");
      names.insert(r + ".down1");
    }
  }
  return names;
}
}  // namespace

TEST(LinkAddress, AcceptsExactlyTheTreesChannelsAndNamesThemCanonically) {
  for (unsigned h = 1; h <= 4; ++h) {
    const auto valid = tree_channels(h, 'r');
    // Candidates: every valid name plus near misses around each index.
    std::set<std::string> candidates = valid;
    for (unsigned a = 0; a <= (1u << h) + 1; ++a) {
      for (const char* port : {".up", ".down0", ".down1", ".down2", ".ack"}) {
        candidates.insert("nic" + std::to_string(a) + port);
        for (unsigned b = 0; b <= 3; ++b)
          candidates.insert("r" + std::to_string(a) + "_" + std::to_string(b) + port);
      }
    }
    for (const auto& name : candidates) {
      const auto a = parse_fat_tree_link(name, h, false);
      EXPECT_EQ(a.has_value(), valid.count(name) == 1) << name << " h=" << h;
      if (a) {
        EXPECT_EQ(a->name(), name);
      }
    }
  }
}

// The names that used to pass a loose check and crash the lookup (issue 13).
TEST(LinkAddress, RejectsSignsSpacesLeadingZerosAndOverflow) {
  for (const char* bad : {"nic03.up", "nic 3.up", "nic+3.up", "nic4294967299.up", "r1_00.down0", "r01_0.up",
                          "r+1_0.up", "r1_-0.down1", "r1_4294967296.down0", "r4294967297_0.up", "nic3.up ",
                          "nic3", ".up", "nic.up", "r_0.up", "r1_.up", "r0_0.down0", "nic99999999999999999999.up"}) {
    EXPECT_FALSE(parse_fat_tree_link(bad, 4, false)) << bad;
  }
  EXPECT_TRUE(parse_fat_tree_link("nic0.up", 4, false));
}

TEST(LinkAddress, AcknowledgeWiresAndSwitchPrefix) {
  const auto a = parse_fat_tree_link("s2_1.down0.ack", 3, true, 's');
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->ack);
  EXPECT_EQ(a->channel_name(), "s2_1.down0");
  EXPECT_EQ(a->name(), "s2_1.down0.ack");
  EXPECT_FALSE(parse_fat_tree_link("s2_1.down0.ack", 3, false, 's'));
  EXPECT_FALSE(parse_fat_tree_link("r2_1.down0", 3, true, 's'));
}

TEST(LinkAddress, NodePortNames) {
  auto port = [](unsigned q) { return std::string(q == 0 ? "x+" : "x-"); };
  const auto a = parse_node_port_link("12.x-", 16, 2, port);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->node, 12u);
  EXPECT_EQ(a->port, 1u);
  for (const char* bad : {"16.x+", "012.x+", "-1.x+", "1.y+", "1x+", " 1.x+", "18446744073709551617.x+"})
    EXPECT_FALSE(parse_node_port_link(bad, 16, 2, port)) << bad;
}

}  // namespace icn
