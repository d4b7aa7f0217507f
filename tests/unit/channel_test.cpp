#include <gtest/gtest.h>

#include <vector>

#include "models/channel.hpp"

namespace icn {

namespace {
std::vector<PacketId> take(Channel& c, Cycle t) {
  std::vector<PacketId> out;
  c.receive(t, [&](PacketId p) { out.push_back(p); });
  return out;
}
}  // namespace

TEST(Channel, PacketSentInCycleTIsSeenAtTPlusLatency) {
  for (unsigned latency : {1u, 2u, 5u}) {
    Channel c("c", 1, latency);
    c.send(10, 7);
    for (Cycle t = 10; t < 10 + latency; ++t) EXPECT_TRUE(take(c, t).empty()) << "latency " << latency;
    EXPECT_EQ(take(c, 10 + latency), std::vector<PacketId>{7});
    EXPECT_TRUE(take(c, 11 + latency).empty());
  }
}

TEST(Channel, WidthBoundsTransfersPerCycle) {
  Channel c("c", 3, 1);
  EXPECT_EQ(c.free_links(1), 3u);
  c.send(1, 1);
  c.send(1, 2);
  EXPECT_EQ(c.free_links(1), 1u);
  c.send(1, 3);
  EXPECT_EQ(c.free_links(1), 0u);
  EXPECT_EQ(c.free_links(2), 3u);  // a new cycle frees every link
  EXPECT_EQ(c.sent_in(1), 3u);
  EXPECT_EQ(take(c, 2), (std::vector<PacketId>{1, 2, 3}));
  EXPECT_EQ(c.transfers(), 3u);
}

// Reading slot t and writing slot t+L in the same cycle never interfere, in
// either order: this is what makes router evaluation order irrelevant.
TEST(Channel, ReadAndWriteInTheSameCycleAreOrderIndependent) {
  Channel a("a", 1, 1), b("b", 1, 1);
  a.send(1, 100);
  b.send(1, 100);
  // Cycle 2: a is read before the write, b after.
  auto ra = take(a, 2);
  a.send(2, 200);
  b.send(2, 200);
  auto rb = take(b, 2);
  EXPECT_EQ(ra, rb);
  EXPECT_EQ(take(a, 3), take(b, 3));
}

TEST(Channel, PipelinesOnePacketPerLinkPerCycle) {
  Channel c("c", 1, 3);
  for (Cycle t = 1; t <= 13; ++t) {
    const auto got = take(c, t);
    if (t >= 4) EXPECT_EQ(got, std::vector<PacketId>{static_cast<PacketId>(t - 3)});
    else EXPECT_TRUE(got.empty());
    if (t <= 10) c.send(t, static_cast<PacketId>(t));
  }
}

TEST(Channel, AReceiverThatDoesNotDrainIsAnError) {
  Channel c("c", 1, 1);
  c.send(1, 1);
  // The slot for cycle 4 is the slot of cycle 2, which nobody read.
  EXPECT_THROW(c.send(3, 2), std::logic_error);
}

TEST(Channel, FailedChannelOffersNoLinks) {
  Channel c("c", 2, 1);
  c.set_failed(true);
  EXPECT_EQ(c.free_links(1), 0u);
}

}  // namespace icn
