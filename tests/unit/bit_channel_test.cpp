#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "routers/fattree_bitserial/bit_channel.hpp"

namespace icn {

namespace {
std::vector<std::pair<unsigned, bool>> take(const BitChannel& c, Cycle t) {
  std::vector<std::pair<unsigned, bool>> out;
  c.receive(t, [&](std::uint32_t p, bool b) { out.emplace_back(p, b); });
  return out;
}
using Bits = std::vector<std::pair<unsigned, bool>>;
}  // namespace

TEST(BitChannel, BitDrivenInCycleTIsSeenAtTPlusLatencyAndIdleOtherwise) {
  for (unsigned latency : {1u, 2u, 3u}) {
    BitChannel c("c", 4, latency);
    c.drive(10, 2, true);
    c.drive(10, 0, false);
    for (Cycle t = 8; t < 10 + latency; ++t) EXPECT_TRUE(take(c, t).empty()) << latency;
    EXPECT_EQ(take(c, 10 + latency), (Bits{{2, true}, {0, false}}));
    EXPECT_EQ(c.seen(10 + latency, 2), 3u);  // valid, 1
    EXPECT_EQ(c.seen(10 + latency, 0), 2u);  // valid, 0
    EXPECT_EQ(c.seen(10 + latency, 1), 0u);  // idle
    EXPECT_EQ(c.driven_in(10, 2), 3u);
    EXPECT_TRUE(take(c, 11 + latency).empty());
  }
}

// Reading slot t and driving slot t+L in one cycle never interfere, in either
// order, and a row left unread is never seen again (it remembers its cycle).
TEST(BitChannel, OrderIndependentAndStaleRowsReadIdle) {
  BitChannel a("a", 2, 1), b("b", 2, 1);
  for (Cycle t = 1; t <= 20; ++t) {
    const bool v = (t * 7) % 3 == 0;
    const Bits ra = take(a, t);
    a.drive(t, t % 2, v);
    b.drive(t, t % 2, v);
    EXPECT_EQ(ra, take(b, t));
  }
  BitChannel c("c", 1, 1);
  c.drive(5, 0, true);
  EXPECT_TRUE(take(c, 8).empty());  // same ring row as cycle 6, another cycle
  EXPECT_EQ(take(c, 6), (Bits{{0, true}}));
}

TEST(BitChannel, APathCarriesOneBitPerCycle) {
  BitChannel c("c", 2, 1);
  c.drive(3, 1, true);
  EXPECT_THROW(c.drive(3, 1, false), std::logic_error);
  EXPECT_THROW(c.drive(3, 2, false), std::logic_error);
  c.drive(4, 1, false);  // next cycle is fine
  EXPECT_EQ(c.bits_driven(), 2u);
  EXPECT_EQ(c.ones_driven(), 1u);
  EXPECT_THROW(BitChannel("bad", 1, 4), std::invalid_argument);
}

}  // namespace icn
