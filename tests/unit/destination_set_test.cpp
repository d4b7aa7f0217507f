// Destination sets against explicit member lists built in the test.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "models/destination_set.hpp"

namespace icn {

namespace {
std::vector<NodeId> members(const DestinationSet& s) {
  std::vector<NodeId> v;
  s.for_each([&](NodeId n) { v.push_back(n); });
  return v;
}
void expect_members(const DestinationSet& s, const std::set<NodeId>& want, NodeId universe) {
  EXPECT_EQ(s.size(), want.size()) << s.to_string();
  EXPECT_EQ(members(s), std::vector<NodeId>(want.begin(), want.end())) << s.to_string();
  for (NodeId n = 0; n < universe; ++n) EXPECT_EQ(s.contains(n), want.count(n) == 1) << s.to_string() << " " << n;
}
}  // namespace

TEST(DestinationSet, EachFormHasExactlyItsMembers) {
  expect_members(DestinationSet{}, {}, 20);
  expect_members(DestinationSet::one(7), {7}, 20);
  expect_members(DestinationSet::all(5), {0, 1, 2, 3, 4}, 20);
  expect_members(DestinationSet::range(3, 6), {3, 4, 5, 6}, 20);
  // A 2x3 block at row 1, column 2 of a 4x6 mesh (row-major): rows 1-2, columns 2-4.
  expect_members(DestinationSet::submesh(1, 2, 2, 3, 6), {8, 9, 10, 14, 15, 16}, 24);
  expect_members(DestinationSet::list({9, 2, 2, 5}), {2, 5, 9}, 20);
  EXPECT_EQ(DestinationSet::list({4, 5, 6}).kind(), DestinationSet::Kind::kRange);
  EXPECT_THROW(DestinationSet::submesh(0, 4, 1, 3, 6), std::invalid_argument);
}

TEST(DestinationSet, SplitPartitionsTheMembersByOutput) {
  // Split a 4x4 mesh's nodes by column half, as an X-first router would.
  const DestinationSet all = DestinationSet::all(16);
  const auto parts = all.split(2, [](NodeId n) { return (n % 4) < 2 ? 0u : 1u; });
  ASSERT_EQ(parts.size(), 2u);
  expect_members(parts[0], {0, 1, 4, 5, 8, 9, 12, 13}, 16);
  expect_members(parts[1], {2, 3, 6, 7, 10, 11, 14, 15}, 16);
  // A part that keeps everything keeps the compact form.
  const auto whole = all.split(3, [](NodeId) { return 1u; });
  EXPECT_TRUE(whole[0].empty());
  EXPECT_EQ(whole[1].kind(), DestinationSet::Kind::kRange);
  EXPECT_THROW(all.split(2, [](NodeId) { return 2u; }), std::logic_error);
}

TEST(DestinationSet, RestrictionAndEquality) {
  expect_members(DestinationSet::range(2, 9).restricted_to(5, 20), {5, 6, 7, 8, 9}, 24);
  expect_members(DestinationSet::submesh(0, 0, 2, 2, 4).restricted_to(1, 4), {1, 4}, 16);
  EXPECT_TRUE(DestinationSet::list({0, 1, 4, 5}) == DestinationSet::submesh(0, 0, 2, 2, 4));
  EXPECT_FALSE(DestinationSet::range(0, 3) == DestinationSet::submesh(0, 0, 2, 2, 4));
}

TEST(DestinationTable, OnlyMulticastPacketsHaveEntries) {
  DestinationTable t;
  EXPECT_EQ(t.find(3), nullptr);
  t.set(3, DestinationSet::range(1, 4));
  ASSERT_NE(t.find(3), nullptr);
  EXPECT_EQ(t.find(3)->size(), 4u);
  t.erase(3);
  EXPECT_EQ(t.size(), 0u);
}

}  // namespace icn
