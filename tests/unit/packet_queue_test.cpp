#include <gtest/gtest.h>

#include "models/packet_queue.hpp"

namespace icn {

TEST(PacketQueue, IsFifoAcrossGrowth) {
  PacketQueue q;
  for (PacketId p = 0; p < 1000; ++p) q.push(p, p);
  EXPECT_EQ(q.size(), 1000u);
  for (PacketId p = 0; p < 500; ++p) EXPECT_EQ(q.pop(), p);
  for (PacketId p = 1000; p < 1700; ++p) q.push(p, p);  // wraps and grows
  for (PacketId p = 500; p < 1700; ++p) {
    EXPECT_EQ(q.front_since(), p);
    EXPECT_EQ(q.pop(), p);
  }
  EXPECT_TRUE(q.empty());
}

TEST(PacketQueue, MaxOccupancyCountsOnlySampledStates) {
  PacketQueue q;
  q.push(1, 1);
  q.push(2, 1);
  q.push(3, 1);
  q.pop();
  q.sample();  // two left after this cycle's transmission
  EXPECT_EQ(q.max_occupancy(), 2u);
  q.pop();
  q.pop();
  q.sample();
  EXPECT_EQ(q.max_occupancy(), 2u);
}

TEST(PacketQueue, BoundedQueueReportsFull) {
  PacketQueue q(2);
  EXPECT_FALSE(q.full());
  q.push(1, 1);
  q.push(2, 1);
  EXPECT_TRUE(q.full());
  PacketQueue unbounded;
  for (PacketId p = 0; p < 100; ++p) unbounded.push(p, 0);
  EXPECT_FALSE(unbounded.full());
}

}  // namespace icn
