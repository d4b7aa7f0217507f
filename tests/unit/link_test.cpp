// The one link primitive in both shapes: delay, width, order independence,
// fault flag, arrival mask, probes and the strict-read check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "models/link.hpp"

namespace icn {

namespace {
// A receiver that never has work: the links below only need one to mark.
struct Idle : Clocked {
  Idle() : Clocked(Phase::kNetwork) {}
  Cycle tick(Cycle) override { return kNever; }
  std::string block_name() const override { return "idle"; }
};

template <class L>
std::vector<int> read(L& link, Cycle t) {
  std::vector<int> out;
  link.receive(t, [&](int v) { out.push_back(v); });
  return out;
}
}  // namespace

TEST(Link, AnItemSentInCycleTIsSeenExactlyInTPlusLatency) {
  for (unsigned latency : {1u, 2u, 3u, 7u, 64u}) {
    Link<int> link(1, latency);
    link.send(100, 42);
    for (Cycle t = 95; t < 100 + latency; ++t) EXPECT_TRUE(read(link, t).empty()) << latency;
    EXPECT_EQ(read(link, 100 + latency), std::vector<int>{42});
    // A row holds its own cycle only: the same ring row, one lap later, is empty.
    for (Cycle lap = 1; lap <= 3; ++lap) EXPECT_TRUE(read(link, 100 + latency + 128 * lap).empty());
  }
}

// A link of one-byte items (a credit) keeps up to four rows inline, so
// latencies 1 to 3 use inline rows and 4 the heap: every one is a delay line
// of exactly its latency, with an item in every cycle, and the strict check
// still sees a row nobody read.
TEST(Link, ByteItemLinksAreExactDelayLinesInlineAndOnTheHeap) {
  for (unsigned latency : {1u, 2u, 3u, 4u, 5u}) {
    Link<std::uint8_t> link(1, latency);
    link.set_strict(true);
    std::vector<int> seen;
    for (Cycle t = 10; t < 40; ++t) {
      link.receive(t, [&](std::uint8_t v) { seen.push_back(v); });
      // Before this cycle's send: those of the last latency - 1 cycles.
      EXPECT_EQ(link.in_flight(t), std::min<Cycle>(t - 10, latency - 1)) << latency << " " << t;
      link.send(t, static_cast<std::uint8_t>(t));
    }
    ASSERT_EQ(seen.size(), 30u - latency) << latency;
    for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], int(10 + i)) << latency;
    // Cycle 40 + latency's row was last the row of an item nobody read.
    for (Cycle t = 40; t < 40 + latency; ++t) link.receive(t, [](std::uint8_t) {});
    link.send(40, 1);
    link.send(41, 2);  // the row of 41 + latency held 41 + latency - ring, read above
    Link<std::uint8_t> lazy(1, latency);
    lazy.set_strict(true);
    lazy.send(1, 1);
    EXPECT_THROW(for (Cycle t = 2; t < 20; ++t) lazy.send(t, 2), std::logic_error) << latency;
  }
}

TEST(Link, OneCycleWireBehavesLikeTheGeneralShape) {
  Link<int> general(1, 1);
  Link<int, OneCycleWire> wire;
  static_assert(std::is_trivially_destructible_v<Link<int, OneCycleWire>>);
  for (Cycle t = 1; t <= 40; ++t) {
    EXPECT_EQ(read(general, t), read(wire, t)) << t;
    EXPECT_EQ(general.free(t), wire.free(t));
    if (t % 3 != 0) {
      general.send(t, static_cast<int>(t));
      wire.send(t, static_cast<int>(t));
    }
    EXPECT_EQ(general.free(t), wire.free(t));
    EXPECT_EQ(general.sent_in(t), wire.sent_in(t));
  }
  EXPECT_EQ(general.transfers(), wire.transfers());
  EXPECT_EQ(wire.take(41, -1), 40);
  EXPECT_EQ(wire.take(42, -1), -1);
}

TEST(Link, WidthBoundsItemsPerCycleAndKeepsSendOrder) {
  Link<int> link(3, 2);
  EXPECT_EQ(link.free(5), 3u);
  link.send(5, 1);
  link.send(5, 2);
  link.send(5, 3);
  EXPECT_EQ(link.free(5), 0u);
  EXPECT_THROW(link.send(5, 4), std::logic_error);
  EXPECT_EQ(link.free(6), 3u);
  EXPECT_EQ(link.in_flight(5), 3u);
  EXPECT_EQ(link.in_flight(6), 3u);
  EXPECT_EQ(link.in_flight(7), 0u);
  EXPECT_EQ(read(link, 7), (std::vector<int>{1, 2, 3}));
}

TEST(Link, AFailedLinkOffersNothing) {
  Link<int> link(2, 1);
  Link<int, OneCycleWire> wire;
  link.set_failed(true);
  wire.set_failed(true);
  EXPECT_EQ(link.free(1), 0u);
  EXPECT_EQ(wire.free(1), 0u);
  link.set_failed(false);
  EXPECT_EQ(link.free(1), 2u);
}

TEST(Link, ArrivalMaskMarksThePortByArrivalParity) {
  CycleEngine engine("engine", {});
  Idle receiver;
  engine.add(receiver);
  ArrivalMask mask;
  Link<int, OneCycleWire> a, b;
  a.connect_receiver(receiver, mask, 5);
  b.connect_receiver(receiver, mask, 0);
  a.send(3, 9);  // arrives in cycle 4: even
  b.send(4, 8);  // arrives in cycle 5: odd
  EXPECT_EQ(mask.ports[0], 1u << 5);
  EXPECT_EQ(mask.ports[1], 1u << 0);
  Link<int> longer(1, 2);
  EXPECT_THROW(longer.connect_receiver(receiver, mask, 1), std::invalid_argument);
}

// A mask of four rows takes links of latency 1 to 3: each marks the word of
// its arrival cycle modulo 4, never the word of the cycle it sends in (the
// one the receiver reads and clears).
TEST(Link, ArrivalRowsMarkThePortByArrivalCycleForLatenciesBelowTheRows) {
  CycleEngine engine("engine", {});
  Idle receiver;
  engine.add(receiver);
  ArrivalRows<4> mask;
  Link<int> one(1, 1), two(1, 2), three(1, 3);
  one.connect_receiver(receiver, mask, 1);
  two.connect_receiver(receiver, mask, 9);
  three.connect_receiver(receiver, mask, 31);
  one.send(5, 1);    // arrives in 6: row 2
  two.send(5, 2);    // arrives in 7: row 3
  three.send(5, 3);  // arrives in 8: row 0
  three.send(6, 4);  // arrives in 9: row 1
  EXPECT_EQ(mask.ports[0], 1u << 31);
  EXPECT_EQ(mask.ports[1], 1u << 31);
  EXPECT_EQ(mask.ports[2], 1u << 1);
  EXPECT_EQ(mask.ports[3], 1u << 9);
  EXPECT_EQ(&mask.of(10), &mask.ports[2]);
  Link<int> four(1, 4);
  EXPECT_THROW(four.connect_receiver(receiver, mask, 2), std::invalid_argument);
  Link<int> wide_port(1, 1);
  EXPECT_THROW(wide_port.connect_receiver(receiver, mask, 32), std::invalid_argument);
}

TEST(Link, PeekingDoesNotCountAsTheReceiversRead) {
  Link<int> link(1, 1);
  link.set_strict(true);
  link.send(1, 7);
  int seen = 0;
  link.peek(2, [&](int v) { seen = v; });
  EXPECT_EQ(seen, 7);
  // Cycle 4 reuses the row of cycle 2, which the receiver never read.
  try {
    link.send(3, 8);
    ADD_FAILURE() << "an unread row was reused";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("items of cycle 2"), std::string::npos) << e.what();
  }
  // Reading does not consume: a probe after the receiver still sees the item.
  for (unsigned latency : {1u, 2u, 5u}) {
    Link<std::uint8_t> credits(1, latency);
    credits.send(10, 3);
    EXPECT_EQ(read(credits, 10 + latency), std::vector<int>{3});
    EXPECT_EQ(credits.arrivals(10 + latency), 1u) << latency;
    EXPECT_EQ(credits.sent_in(10), 1u) << latency;
  }
  Link<int> relaxed(1, 1);
  relaxed.send(1, 7);
  EXPECT_NO_THROW(relaxed.send(3, 8));  // bit wires may be ignored when idle
}

TEST(Link, WideChannelsAndFarCyclesKeepEveryItem) {
  // A fat tree's channel may carry up to 2^20 paths (network.capacities),
  // and the engine skips idle cycles, so a trace or a long run reaches
  // cycles up to run.max_cycles = 2^50 at little cost: neither may be cut
  // short by how a row stores its count or its cycle.
  Link<int> wide(40000, 1);
  for (int i = 0; i < 40000; ++i) wide.send(7, i);
  EXPECT_EQ(wide.free(7), 0u);
  EXPECT_EQ(wide.arrivals(8), 40000u);
  const Cycle far = Cycle{1} << 50;
  Link<int> link(2, 3);
  link.set_strict(true);
  link.send(far - 3, 1);
  link.send(far - 3, 2);
  EXPECT_EQ(link.arrivals(far - 1), 0u);
  EXPECT_EQ(read(link, far), (std::vector<int>{1, 2}));
  EXPECT_EQ(link.arrivals(far), 2u);
  // The inline rows (one word each: the cycle, with the receiver's read in
  // the top bit) at the same far cycles: a flit's link and a credit's.
  Link<std::uint64_t> flits(1, 1);
  Link<std::uint8_t> credits(1, 2);
  flits.set_strict(true);
  credits.set_strict(true);
  for (Cycle t = far - 8; t < far + 8; ++t) {
    EXPECT_EQ(flits.take(t, 0), t - 1 >= far - 8 ? t - 1 : 0u) << t - far;
    EXPECT_EQ(credits.arrivals(t), t >= far - 6 ? 1u : 0u) << t - far;
    credits.receive(t, [&](std::uint8_t v) { EXPECT_EQ(v, std::uint8_t(t - 2)); });
    flits.receive(t, [](std::uint64_t) {});
    flits.send(t, t);
    credits.send(t, static_cast<std::uint8_t>(t));
    // A row read a lap ago is not this cycle's, and not read by this cycle's receiver.
    EXPECT_EQ(flits.arrivals(t + 3), 0u);
    EXPECT_EQ(credits.arrivals(t + 6), 0u);
  }
}

TEST(Link, ProbeShowsWhatWasSentInACycle) {
  Link<int> link(2, 3);
  link.send(10, 5);
  link.send(10, 6);
  std::vector<int> sent;
  link.sent(10, [&](int v) { sent.push_back(v); });
  EXPECT_EQ(sent, (std::vector<int>{5, 6}));
  EXPECT_EQ(link.sent_in(10), 2u);
  EXPECT_EQ(link.sent_in(11), 0u);
}

}  // namespace icn
