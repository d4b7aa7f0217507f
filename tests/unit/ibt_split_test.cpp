// splits_within against brute force: every vector of `colours` parts in
// 0..k summing to k whose largest and smallest parts differ by at most the
// tolerance, in lexicographic order (the order the experiment tries them).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "testbench/ibt_broadcast.hpp"
#include "models/packet.hpp"
#include "testbench/receipt_checker.hpp"

namespace icn {

namespace {

std::vector<std::vector<unsigned>> brute_force(unsigned k, unsigned colours, unsigned tolerance) {
  std::vector<std::vector<unsigned>> out;
  std::vector<unsigned> v(colours, 0);
  for (;;) {
    unsigned sum = 0;
    for (unsigned x : v) sum += x;
    const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
    if (sum == k && *mx - *mn <= tolerance) out.push_back(v);
    unsigned i = colours;
    while (i > 0 && v[i - 1] == k) v[--i] = 0;
    if (i == 0) return out;
    ++v[i - 1];
  }
}

}  // namespace

TEST(IbtSplits, MatchBruteForce) {
  for (unsigned k = 1; k <= 10; ++k)
    for (unsigned colours = 1; colours <= 4; ++colours)
      for (unsigned tolerance = 0; tolerance <= 4; ++tolerance)
        EXPECT_EQ(splits_within(k, colours, tolerance), brute_force(k, colours, tolerance))
            << "k=" << k << " colours=" << colours << " tolerance=" << tolerance;
}

// The limit stops the enumeration: 8 colours, k = 4096 and any spread have
// astronomically many splits; asking for at most 256 returns 257 at once.
TEST(IbtSplits, StopPastTheLimit) {
  EXPECT_EQ(splits_within(4096, 8, 4096, 256).size(), 257u);
  EXPECT_EQ(splits_within(10, 3, 2, 3).size(), 4u);
  EXPECT_EQ(splits_within(10, 3, 2, 1000), brute_force(10, 3, 2));
}

}  // namespace icn

namespace icn {

namespace {

// A broadcast of 3 packets from node 5 of a 4x4 torus to every node, and the
// deliveries its receivers' check is fed: each payload is what the source's
// processor writes (message_content, the same hash ProcessingElement uses).
struct GroupReceiptsCase {
  static constexpr std::uint64_t kKey = 77;
  static constexpr NodeId kSource = 5;
  IbtTopology topo{4, 2, {}};
  IbtBroadcastPlan plan;
  std::vector<std::array<unsigned char, 8>> payloads;
  GroupReceiptsCase() {
    plan.collective = IbtCollective::kGlobal;
    plan.source = kSource;
    plan.packets = 3;
    plan.dims = {0, 1};
    plan.split = {3};
    payloads.resize(plan.packets);
    for (unsigned p = 0; p < plan.packets; ++p)
      store_le64(payloads[p].data(), message_content(kKey, kSource, kBroadcastDestination, p));
  }
  // Packet `seq` to `node`, carrying packet `content`'s payload.
  Delivery delivery(NodeId node, unsigned seq, unsigned content) const {
    Delivery d;
    d.src = kSource;
    d.dst = node;
    d.seq = seq;
    d.broadcast = true;
    d.payload = payloads[content].data();
    d.payload_len = 8;
    d.arrived = 10;
    return d;
  }
  // Every packet to every node but the source, once; packet `wrong_seq` to
  // node `wrong_node` carries packet `wrong_content`'s payload.
  void deliver_all(GroupReceipts& receipts, NodeId wrong_node = kNoNode, unsigned wrong_seq = 0,
                   unsigned wrong_content = 0) const {
    for (NodeId x = 0; x < topo.nodes(); ++x)
      for (unsigned p = 0; p < plan.packets; ++p)
        if (x != kSource) receipts.deliver(delivery(x, p, x == wrong_node && p == wrong_seq ? wrong_content : p));
  }
};

}  // namespace

TEST(GroupReceipts, EveryPacketOnceToEveryOtherNodeIsVerified) {
  GroupReceiptsCase c;
  GroupReceipts receipts(c.topo, c.plan, c.kKey);
  c.deliver_all(receipts);
  EXPECT_EQ(receipts.expected(), 15u * 3u);
  EXPECT_EQ(receipts.received(), 15u * 3u);
  EXPECT_EQ(receipts.problem(), "");
}

// Packet 1 arriving with packet 2's payload (a router that mixed up two
// copies' contents) is corrupted, even though packet 2's payload is one the
// source did write.
TEST(GroupReceipts, APacketCarryingAnotherPacketsPayloadIsCorrupted) {
  GroupReceiptsCase c;
  GroupReceipts receipts(c.topo, c.plan, c.kKey);
  c.deliver_all(receipts, 9, 1, 2);
  EXPECT_NE(receipts.problem().find("corrupted packet 1"), std::string::npos) << receipts.problem();
}

TEST(GroupReceipts, ASecondCopyOfAPacketIsADuplicate) {
  GroupReceiptsCase c;
  GroupReceipts receipts(c.topo, c.plan, c.kKey);
  c.deliver_all(receipts);
  receipts.deliver(c.delivery(3, 0, 0));
  EXPECT_NE(receipts.problem().find("duplicate packet 0"), std::string::npos) << receipts.problem();
}

}  // namespace icn
