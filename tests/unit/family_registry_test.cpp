// Families register themselves in their own experiment files
// (testbench/family.hpp): the registry orders them by rank, never by the
// linker, and a program linked like icnsim (the testbench library linked
// whole) has every one of them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "testbench/family.hpp"

namespace icn {

namespace {

std::vector<std::string> registered_types() {
  std::vector<std::string> types;
  for (const NetworkKind& k : network_kinds()) types.push_back(k.type);
  return types;
}

}  // namespace

TEST(FamilyRegistry, RanksAreDistinctAndOrderTheFamilies) {
  const auto& all = families();
  ASSERT_FALSE(all.empty());
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1].rank, all[i].rank) << "family " << i;
  for (const Family& f : all) EXPECT_FALSE(f.kinds.empty()) << "rank " << f.rank;
}

// `icnsim list` shows the kinds family by family, in rank order.
TEST(FamilyRegistry, KindsAreTheFamiliesKindsInRankOrder) {
  std::vector<std::string> expected;
  for (const Family& f : families())
    for (NetworkKind (*kind)() : f.kinds) expected.push_back(kind().type);
  EXPECT_EQ(registered_types(), expected);
  const std::vector<std::string> types = registered_types();
  EXPECT_EQ(std::set<std::string>(types.begin(), types.end()).size(), types.size()) << "a type registered twice";
}

// docs/keys.md is `icnsim list --markdown` (Keys.ReferenceIsCurrent keeps the
// two equal): the test program, linked like icnsim, registers the same
// families in the same order, so the linker dropped none of their files.
TEST(FamilyRegistry, EveryFamilyOfTheKeyReferenceIsLinkedIn) {
  std::ifstream in(std::string(ICNSIM_SOURCE_DIR) + "/docs/keys.md");
  ASSERT_TRUE(in) << "docs/keys.md";
  std::vector<std::string> documented;
  const std::string heading = "## network.type=";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(heading, 0) == 0) documented.push_back(line.substr(heading.size()));
  EXPECT_GE(documented.size(), 8u);
  EXPECT_EQ(registered_types(), documented);
}

// Every family's section of the default table runs its own kinds, starts from
// one of its shipped scenarios and names each row as a module name can.
TEST(FamilyRegistry, DemoRowsRunTheFamilysOwnKinds) {
  std::size_t sections = 0;
  for (const Family& f : families()) {
    if (!f.demo) continue;
    ++sections;
    const DemoRows rows = f.demo();
    SCOPED_TRACE(rows.title);
    EXPECT_FALSE(rows.title.empty());
    EXPECT_FALSE(rows.paper.empty());
    EXPECT_TRUE(std::filesystem::is_regular_file(std::string(ICNSIM_SOURCE_DIR) + "/" + rows.scenario)) << rows.scenario;
    ASSERT_FALSE(rows.cases.empty());
    std::set<std::string> own;
    for (NetworkKind (*kind)() : f.kinds) own.insert("network.type=" + kind().type);
    for (const DemoCase& c : rows.cases) {
      EXPECT_EQ(c.name.find('.'), std::string::npos) << c.name;
      ASSERT_FALSE(c.overrides.empty()) << c.name;
      EXPECT_TRUE(own.count(c.overrides.front())) << c.name << ": " << c.overrides.front();
    }
  }
  EXPECT_GE(sections, 6u);
}

}  // namespace icn
