// Reproduction of Ishii, "Interprocessor Communication Issues in Fat-Tree
// Architectures" (MIT VLSI Memo 85-268, 1985), sections 2-4, under the
// conventions of shared/papers/READING-NOTES.md. Expected values come from the
// paper and the notes (stream examples, 4(H-h) buffering bits, 4H-2 shifts,
// the lambda lower bound) or from an independent walk of the tree written here
// from the paper's text, never from the model's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <map>
#include <set>

#include "routers/fattree_bitserial/load_factor.hpp"
#include "routers/fattree_bitserial/route_stream_generator.hpp"
#include "tests/support/bitserial_harness.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

using bitserial::BehaviouralRouteStreamGenerator;
using bitserial::BufferFill;
using bitserial::RouteStream;
using bitserial::StreamBitKind;

// Scheme 1 written out from section 2 (ports counter-clockwise trunk, branch 0,
// branch 1; bit 0 = the port on your right, 1 = on your left):
//   from the trunk: 0 -> branch 0, 1 -> branch 1
//   from branch 0:  0 -> branch 1, 1 -> trunk
//   from branch 1:  0 -> trunk,    1 -> branch 0
enum WalkPort { T = 0, B0 = 1, B1 = 2 };
int scheme1(int in, bool bit) {
  static const int table[3][2] = {{B0, B1}, {B1, T}, {T, B0}};
  return table[in][bit ? 1 : 0];
}

struct Walk {
  bool ok = false;
  NodeId arrived = kNoNode;
  unsigned turn_level = 0;
  unsigned skipped = 0;           // bits ignored at the turning node
  bool skipped_all_buffers = true;
  std::vector<bool> routing_bits;  // the bits the nodes used, in order
  std::string why;
};

// Walks a stream from leaf `src` of a height-H tree: every node removes the bit
// after M and routes on it; a node where the stream turns below the root
// ignores the next 4(H-h) bits (section 3.1), which must be buffering bits.
Walk walk(unsigned H, NodeId src, const RouteStream& s, bool mid_stream_buffering = true) {
  Walk w;
  if (s.bits.empty() || !s.bits[0] || s.kinds[0] != StreamBitKind::kMessage) {
    w.why = "no message bit";
    return w;
  }
  std::size_t i = 1;
  unsigned level = 1;
  NodeId index = src >> 1;
  int in = (src & 1) ? B1 : B0;
  while (true) {
    if (i >= s.bits.size()) {
      w.why = "stream ended inside the network";
      return w;
    }
    const bool bit = s.bits[i++];
    w.routing_bits.push_back(bit);
    const int out = scheme1(in, bit);
    if (out == T) {
      if (level == H) {
        w.why = "routed up out of the root";
        return w;
      }
      in = (index & 1) ? B1 : B0;
      index >>= 1;
      ++level;
      continue;
    }
    if (in != T && mid_stream_buffering) {  // turning here
      w.turn_level = level;
      const unsigned skip = 4 * (H - level);
      for (unsigned k = 0; k < skip && i < s.bits.size(); ++k, ++i) {
        ++w.skipped;
        w.skipped_all_buffers = w.skipped_all_buffers && s.kinds[i] == StreamBitKind::kBuffer;
      }
    }
    const NodeId child = index * 2 + (out == B1 ? 1 : 0);
    if (level == 1) {
      w.arrived = child;
      w.ok = i == s.bits.size();  // every routing bit used, nothing left over
      if (!w.ok) w.why = "bits left over at the destination";
      return w;
    }
    index = child;
    in = T;
    --level;
  }
}

}  // namespace

// READING-NOTES, Ishii: the H = 3 examples, first bit first.
TEST(Ishii, StreamsOfTheReadingNotesExamples) {
  EXPECT_EQ(BehaviouralRouteStreamGenerator::compose(3, 1, 6, BufferFill::kZero).text(), "M01010");
  EXPECT_EQ(BehaviouralRouteStreamGenerator::compose(3, 4, 6, BufferFill::kZero).text(), "M10BBBB0");
  EXPECT_EQ(BehaviouralRouteStreamGenerator::compose(3, 0, 1, BufferFill::kZero).text(), "M0BBBBBBBB");
}

// Figures 6-8 convention: the last buffering bit repeats the bit before the first.
TEST(Ishii, TurnBitFillRepeatsTheTurningBitInTheLastBufferingBit) {
  for (unsigned H = 2; H <= 6; ++H) {
    const NodeId n = NodeId{1} << H;
    for (NodeId s = 0; s < n; ++s) {
      for (NodeId d = 0; d < n; ++d) {
        if (s == d) continue;
        const RouteStream a = BehaviouralRouteStreamGenerator::compose(H, s, d, BufferFill::kTurnBit);
        const RouteStream z = BehaviouralRouteStreamGenerator::compose(H, s, d, BufferFill::kZero);
        ASSERT_EQ(a.text(), z.text());
        std::size_t first = 0, last = 0, count = 0;
        for (std::size_t i = 0; i < a.bits.size(); ++i) {
          if (a.kinds[i] != StreamBitKind::kBuffer) continue;
          if (count++ == 0) first = i;
          last = i;
          EXPECT_FALSE(z.bits[i]);
        }
        if (count == 0) continue;
        EXPECT_EQ(a.bits[last], a.bits[first - 1]) << s << "->" << d;
        for (std::size_t i = first; i < last; ++i) EXPECT_FALSE(a.bits[i]);
      }
    }
  }
}

// Section 3.3 with the notes' buffering reading: for every pair of trees of
// height 1..8 the stream, walked through the tree by scheme 1, reaches its
// destination; the turning node at height h ignores exactly 4(H-h) bits, all of
// them buffering bits; the stream is M, 2h-1 routing bits and 4(H-h) buffering bits.
TEST(Ishii, EveryStreamRoutesToItsDestinationAndTheTurningNodeIgnores4HMinusHBufferingBits) {
  for (unsigned H = 1; H <= 8; ++H) {
    const NodeId n = NodeId{1} << H;
    for (NodeId s = 0; s < n; ++s) {
      for (NodeId d = 0; d < n; ++d) {
        if (s == d) continue;
        const RouteStream stream = BehaviouralRouteStreamGenerator::compose(H, s, d, BufferFill::kZero);
        const Walk w = walk(H, s, stream);
        ASSERT_TRUE(w.ok) << "H=" << H << " " << s << "->" << d << ": " << w.why;
        ASSERT_EQ(w.arrived, d);
        unsigned h = 0;  // turning height: the highest differing address bit + 1
        for (unsigned k = 0; k < H; ++k)
          if (((s ^ d) >> k) & 1u) h = k + 1;
        ASSERT_EQ(w.turn_level, h);
        ASSERT_EQ(w.skipped, 4 * (H - h));
        ASSERT_TRUE(w.skipped_all_buffers);
        const auto buffers = std::count(stream.kinds.begin(), stream.kinds.end(), StreamBitKind::kBuffer);
        ASSERT_EQ(static_cast<unsigned>(buffers), 4 * (H - h));
        ASSERT_EQ(stream.bits.size(), 1 + (2 * h - 1) + 4 * (H - h));
      }
    }
  }
}

// The generator block's clocked interface gives the same bits, then valid = 0.
TEST(Ishii, GeneratorShiftsOutTheComposedStreamOneBitPerClock) {
  for (unsigned H : {1u, 4u, 10u}) {
    BehaviouralRouteStreamGenerator gen(H, BufferFill::kTurnBit);
    const NodeId n = NodeId{1} << H;
    for (NodeId s = 0; s < n; s += (n > 64 ? 37 : 1)) {
      for (NodeId d = 0; d < n; d += (n > 64 ? 41 : 1)) {
        if (s == d) continue;
        const RouteStream ref = BehaviouralRouteStreamGenerator::compose(H, s, d, BufferFill::kTurnBit);
        gen.load(s, d);
        for (std::size_t i = 0; i < ref.bits.size(); ++i) {
          const auto b = gen.next_bit();
          ASSERT_TRUE(b.valid);
          ASSERT_EQ(b.bit, ref.bits[i]);
        }
        for (int k = 0; k < 3; ++k) ASSERT_FALSE(gen.next_bit().valid);
        ASSERT_LE(ref.bits.size(), BehaviouralRouteStreamGenerator::max_length(H));
      }
    }
  }
}

// Theorem 1: from the root, a processor's address, most significant bit first,
// is a routing stream to it (with in-order, right-branch-first addressing).
TEST(Ishii, Theorem1AddressRoutesDownFromTheRoot) {
  for (unsigned H = 1; H <= 8; ++H) {
    for (NodeId a = 0; a < (NodeId{1} << H); ++a) {
      unsigned level = H;
      NodeId index = 0;
      int in = T;
      for (unsigned k = H; k-- > 0;) {
        const int out = scheme1(in, (a >> k) & 1u);
        ASSERT_NE(out, T);
        index = index * 2 + (out == B1 ? 1 : 0);
        --level;
        in = T;
      }
      EXPECT_EQ(level, 0u);
      EXPECT_EQ(index, a);
    }
  }
}

// Theorem 2: the routing bits a path used, reversed and inverted, retrace it
// from the destination (true of the bits the nodes use, not of a buffered stream).
TEST(Ishii, Theorem2ReversedInvertedRoutingBitsRetraceThePath) {
  for (unsigned H = 1; H <= 6; ++H) {
    const NodeId n = NodeId{1} << H;
    for (NodeId s = 0; s < n; ++s) {
      for (NodeId d = 0; d < n; ++d) {
        if (s == d) continue;
        // The path's routing bits from scheme 1 alone (not the model's
        // compose()): up from a branch to the trunk until the subtrees of s
        // and d meet, across to the other branch, then d's address bits down.
        unsigned meet = 0;
        while ((s >> meet) != (d >> meet)) ++meet;
        RouteStream path;
        path.bits.push_back(true);
        path.kinds.push_back(StreamBitKind::kMessage);
        auto add = [&](bool bit) {
          path.bits.push_back(bit);
          path.kinds.push_back(StreamBitKind::kUp);
        };
        // The bit that takes a stream entering by `in` out by `out` (scheme 1).
        auto bit_to = [](int in, int out) { return scheme1(in, true) == out; };
        auto branch = [](NodeId x, unsigned l) { return ((x >> l) & 1) ? B1 : B0; };
        for (unsigned l = 0; l + 1 < meet; ++l) add(bit_to(branch(s, l), T));                       // up
        add(bit_to(branch(s, meet - 1), branch(s, meet - 1) == B0 ? B1 : B0));                     // across
        for (unsigned l = meet - 1; l-- > 0;) add(bit_to(T, branch(d, l)));                         // down
        const Walk there = walk(H, s, path, /*mid_stream_buffering=*/false);
        ASSERT_TRUE(there.ok) << s << "->" << d << ": " << there.why;
        ASSERT_EQ(there.arrived, d);
        RouteStream back;
        back.bits.push_back(true);
        back.kinds.push_back(StreamBitKind::kMessage);
        for (auto it = there.routing_bits.rbegin(); it != there.routing_bits.rend(); ++it) {
          back.bits.push_back(!*it);
          back.kinds.push_back(StreamBitKind::kUp);
        }
        const Walk w = walk(H, d, back, /*mid_stream_buffering=*/false);
        ASSERT_TRUE(w.ok) << s << "->" << d << ": " << w.why;
        EXPECT_EQ(w.arrived, s);
      }
    }
  }
}

// Theorem 3: processors of one subtree of height h share their H-h most
// significant address bits. Walking down from the root by scheme 1 with a
// prefix of H-h bits reaches one node of height h; every processor below it
// (any further h bits) has that prefix as its high address bits.
TEST(Ishii, Theorem3SubtreesShareTheirHighAddressBits) {
  const unsigned H = 6;
  for (unsigned h = 0; h <= H; ++h) {
    for (NodeId prefix = 0; prefix < (NodeId{1} << (H - h)); ++prefix) {
      for (NodeId suffix = 0; suffix < (NodeId{1} << h); ++suffix) {
        const NodeId bits = (prefix << h) | suffix;
        NodeId index = 0;
        for (unsigned k = H; k-- > 0;) index = index * 2 + (scheme1(T, (bits >> k) & 1u) == B1 ? 1 : 0);
        EXPECT_EQ(index >> h, prefix);  // the leaf reached lies in the prefix's subtree
      }
    }
  }
}

namespace {

// A test block on the model's clock: drives a given bit stream on a channel
// (one bit per clock from a given cycle), and records every driven bit the
// watched channels carry, as their receivers see it, in a window of cycles.
class WireBench : public sc_core::sc_module, public Clocked {
 public:
  struct Seen {
    std::string channel;
    Cycle cycle;
    bool bit;
  };
  WireBench(sc_core::sc_module_name name, CycleEngine& engine, Cycle watch_from, Cycle watch_to)
      : sc_module(name), Clocked(Phase::kProcessor), from_(watch_from), to_(watch_to) {
    engine.add(*this);
    engine.wake(*this, watch_from);
  }
  void inject(BitChannel& c, Cycle first, std::vector<bool> bits) { streams_.push_back({&c, first, std::move(bits)}); }
  void watch(const std::string& name, const BitChannel& c) { watched_.emplace_back(name, &c); }

  Cycle tick(Cycle now) override {
    for (const auto& s : streams_)
      if (now >= s.first && now - s.first < s.bits.size()) s.channel->drive(now, 0, s.bits[now - s.first]);
    for (const auto& [name, c] : watched_)
      for (unsigned p = 0; p < c->width(); ++p)
        if (const unsigned v = c->seen(now, p); v & 2u) seen.push_back({name, now, (v & 1u) != 0});
    return now < to_ ? now + 1 : kNever;
  }
  std::string block_name() const override { return name(); }

  std::vector<Seen> seen;

 private:
  struct Stream {
    BitChannel* channel;
    Cycle first;
    std::vector<bool> bits;
  };
  Cycle from_, to_;
  std::vector<Stream> streams_;
  std::vector<std::pair<std::string, const BitChannel*>> watched_;
};

// Names of the paper's nodes: level 0 is processor k ("nic<k>"), level l >= 1
// node j ("s<l>_<j>"), numbered left to right as in the memo's figures.
std::string node_name(unsigned level, NodeId j) {
  return level == 0 ? "nic" + std::to_string(j) : "s" + std::to_string(level) + "_" + std::to_string(j);
}

// The nodes a routing-bit sequence visits from leaf `src` by scheme 1 (no
// buffering): (level, index) pairs, the source leaf first.
std::vector<std::pair<unsigned, NodeId>> visit(NodeId src, const std::vector<bool>& bits) {
  std::vector<std::pair<unsigned, NodeId>> nodes{{0, src}};
  unsigned level = 1;
  NodeId index = src >> 1;
  int in = (src & 1) ? B1 : B0;
  nodes.emplace_back(level, index);
  for (bool bit : bits) {
    const int out = scheme1(in, bit);
    if (out == T) {
      in = (index & 1) ? B1 : B0;
      index >>= 1;
      ++level;
    } else {
      index = index * 2 + (out == B1 ? 1 : 0);
      --level;
      in = T;
    }
    nodes.emplace_back(level, index);
  }
  return nodes;
}

}  // namespace

// Theorems 1 and 3 on the model's own switches and processor numbering: a
// stream injected into the root's trunk input carrying only M, processor a's
// address (H bits, most significant first) and a message reaches processor a
// (Theorem 1), and on its way down it enters at every level h the node whose
// index is a's H-h most significant bits (Theorem 3: a subtree's processors
// share them). The message's acknowledge comes back up the same connections,
// one clock per link, to the root's trunk reverse wire.
TEST(Ishii, Theorems1And3AnAddressInjectedAtTheRootReachesItsProcessor) {
  // SystemC elaborates once: every tree is built before the one sc_start().
  struct Setup {
    std::unique_ptr<BitSerialBench> bench;
    std::deque<BitChannel> trunk;  // in, in_ack, out, out_ack
    std::unique_ptr<WireBench> wires;
  };
  std::map<unsigned, Setup> setups;
  for (unsigned H : {3u, 4u}) {
    const NodeId n = NodeId{1} << H;
    Setup& st = setups[H];
    st.bench = std::make_unique<BitSerialBench>(("t1_h" + std::to_string(H)).c_str(), FatTreeShape(H, capacity_preset("cbft", H)),
                                                bitserial::BitSerialOptions{}, std::vector<std::vector<SourceDestination>>{});
    BitSerialBench& b = *st.bench;
    // The root has no trunk in the tree: the test wires one, one path each way.
    for (const char* name : {"trunk_in", "trunk_in_ack", "trunk_out", "trunk_out_ack"}) st.trunk.emplace_back(name, 1);
    BitChannel &trunk_in = st.trunk[0], &trunk_in_ack = st.trunk[1];
    b.net.node(H, 0).connect(kTrunk, trunk_in, trunk_in_ack, st.trunk[2], st.trunk[3]);
    const auto& clock = b.net.clock();
    const unsigned P = bitserial::BitSerialNic::message_bits(H);
    st.wires = std::make_unique<WireBench>(("t1_wires_h" + std::to_string(H)).c_str(), b.engine, clock.start(0), clock.start(n) - 1);
    WireBench& wires = *st.wires;
    wires.watch("trunk_in_ack", trunk_in_ack);
    for (const auto& br : b.net.branches()) wires.watch(br.parent + ".down" + std::to_string(br.side), *br.down);
    for (NodeId a = 0; a < n; ++a) {  // address a alone in delivery cycle a
      std::vector<bool> bits{true};  // M
      for (unsigned k = H; k-- > 0;) bits.push_back((a >> k) & 1u);
      // The message: source field n - 1 - a, sequence number a, payload 0.
      for (unsigned k = H; k-- > 0;) bits.push_back(((n - 1 - a) >> k) & 1u);
      for (unsigned k = 16; k-- > 0;) bits.push_back((a >> k) & 1u);
      bits.resize(1 + H + P, false);
      // Timed as a stream coming down from above the root: its routing bit
      // reaches the root at the clock trunk streams decide there.
      wires.inject(trunk_in, clock.start(a) + b.net.down_decision(H) - 1, bits);
    }
  }
  sc_core::sc_start();
  for (unsigned H : {3u, 4u}) {
    SCOPED_TRACE("H=" + std::to_string(H));
    const NodeId n = NodeId{1} << H;
    BitSerialBench& b = *setups[H].bench;
    const WireBench& wires = *setups[H].wires;
    const auto& clock = b.net.clock();
    ASSERT_EQ(b.received.size(), n);
    for (NodeId a = 0; a < n; ++a) {
      const Received& got = b.received[a];
      EXPECT_EQ(got.dst, a);  // Theorem 1
      EXPECT_EQ(got.src, n - 1 - a);
      EXPECT_EQ(got.seq, a);
      // Theorem 3: the down channels the stream used, one per level, each into
      // the node (or processor) whose index is a's high bits.
      std::set<std::string> used, expected;
      std::vector<Cycle> acks;
      for (const auto& w : wires.seen) {
        if (clock.index(w.cycle) != a) continue;
        if (w.channel == "trunk_in_ack") {
          if (w.bit) acks.push_back(w.cycle);
        } else {
          used.insert(w.channel);
        }
      }
      for (unsigned h = 0; h < H; ++h)
        expected.insert(node_name(h + 1, a >> (h + 1)) + ".down" + std::to_string((a >> h) & 1u));
      EXPECT_EQ(used, expected) << "address " << a;
      // The acknowledge: driven by processor a in the clock after its last bit
      // arrived, then H links up to the root and one to the trunk's reverse wire.
      ASSERT_EQ(acks.size(), 1u) << "address " << a;
      EXPECT_EQ(acks[0], got.arrived + 1 + (H + 1));
    }
    EXPECT_EQ(b.net.switch_totals().misrouted, 0u);
  }
}

// Theorem 2 on the model's acknowledge wires: for every pair of an 8- and a
// 16-processor tree, the routing bits of its path (written from scheme 1 and
// the address structure, not taken from the model), reversed and inverted,
// walk from the destination back to the source; the acknowledge the hardware
// sends back runs exactly along that walk: hop k of the walk on the reverse
// wire of the channel it retraces, in clock arrived + 1 + k, and nowhere else.
TEST(Ishii, Theorem2TheAcknowledgeFollowsTheReversedInvertedStream) {
  std::map<unsigned, std::vector<std::vector<SourceDestination>>> all_rounds;
  std::map<unsigned, std::unique_ptr<BitSerialBench>> benches;
  std::map<unsigned, std::unique_ptr<WireBench>> all_wires;
  for (unsigned H : {3u, 4u}) {
    const NodeId n = NodeId{1} << H;
    auto& rounds = all_rounds[H];
    for (NodeId s = 0; s < n; ++s)
      for (NodeId d = 0; d < n; ++d)
        if (s != d) rounds.push_back({SourceDestination{s, d}});
    benches[H] = std::make_unique<BitSerialBench>(("t2_h" + std::to_string(H)).c_str(), FatTreeShape(H, capacity_preset("ebft", H)),
                                                  bitserial::BitSerialOptions{}, rounds);
    BitSerialBench& b = *benches[H];
    all_wires[H] = std::make_unique<WireBench>(("t2_wires_h" + std::to_string(H)).c_str(), b.engine, b.net.clock().start(0),
                                               b.net.clock().start(rounds.size()) - 1);
    for (const auto& br : b.net.branches()) {
      all_wires[H]->watch(br.child + ".up.ack", *br.up_ack);
      all_wires[H]->watch(br.parent + ".down" + std::to_string(br.side) + ".ack", *br.down_ack);
    }
  }
  sc_core::sc_start();
  for (unsigned H : {3u, 4u}) {
    SCOPED_TRACE("H=" + std::to_string(H));
    const auto& rounds = all_rounds[H];
    BitSerialBench& b = *benches[H];
    const WireBench& wires = *all_wires[H];
    const auto& clock = b.net.clock();
    ASSERT_EQ(b.received.size(), rounds.size());
    std::map<std::uint64_t, std::set<std::pair<std::string, Cycle>>> observed;
    for (const auto& w : wires.seen)
      if (w.bit) observed[clock.index(w.cycle)].insert({w.channel, w.cycle});
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      const NodeId s = rounds[r][0].src, d = rounds[r][0].dst;
      // The path's routing bits from scheme 1 alone: up to the level where s
      // and d meet, across, then d's address bits down.
      unsigned meet = 0;
      while ((s >> meet) != (d >> meet)) ++meet;
      auto bit_to = [](int in, int out) { return scheme1(in, true) == out; };
      auto branch = [](NodeId x, unsigned l) { return ((x >> l) & 1) ? B1 : B0; };
      std::vector<bool> there;
      for (unsigned l = 0; l + 1 < meet; ++l) there.push_back(bit_to(branch(s, l), T));
      there.push_back(bit_to(branch(s, meet - 1), branch(s, meet - 1) == B0 ? B1 : B0));
      for (unsigned l = meet - 1; l-- > 0;) there.push_back(bit_to(T, branch(d, l)));
      std::vector<bool> back;
      for (auto it = there.rbegin(); it != there.rend(); ++it) back.push_back(!*it);
      const auto walk_back = visit(d, back);
      ASSERT_EQ(walk_back.back(), (std::pair<unsigned, NodeId>{0, s})) << s << "->" << d;
      // Hop k goes from X to Y: the acknowledge rides the reverse wire of the
      // forward channel Y -> X (Y's up channel if Y is below X, else Y's down
      // channel to X).
      const Cycle arrived = b.received[r].arrived;
      std::set<std::pair<std::string, Cycle>> expected;
      for (std::size_t k = 1; k < walk_back.size(); ++k) {
        const auto [xl, xj] = walk_back[k - 1];
        const auto [yl, yj] = walk_back[k];
        const std::string wire = yl < xl ? node_name(yl, yj) + ".up.ack"
                                         : node_name(yl, yj) + ".down" + std::to_string(xj & 1u) + ".ack";
        expected.insert({wire, arrived + 1 + k});
      }
      EXPECT_EQ(observed[r], expected) << s << "->" << d;
    }
  }
}

// In the simulated hardware: every (source, destination) pair of trees of
// height 1..6, alone in the network (one per delivery cycle), arrives at its
// destination with its payload intact and is reported delivered; the turning
// switch ignores exactly 4(H-h) bits, all buffering bits; and M reaches the
// destination NIC 4H-2 clocks after entering the first switch (two shifts per
// switch, 2H-1 switches: READING-NOTES), whatever the pair.
TEST(Ishii, EveryPairAloneArrivesIntactAtTheSameClock) {
  std::vector<std::unique_ptr<BitSerialBench>> benches;
  std::vector<std::vector<bitserial::TurnRecord>> turns(7);
  std::vector<std::vector<SourceDestination>> pairs(7);
  for (unsigned H = 1; H <= 6; ++H) {
    const NodeId n = NodeId{1} << H;
    std::vector<std::vector<SourceDestination>> rounds;
    for (NodeId s = 0; s < n; ++s)
      for (NodeId d = 0; d < n; ++d)
        if (s != d) rounds.push_back({SourceDestination{s, d}});
    for (const auto& r : rounds) pairs[H].push_back(r[0]);
    bitserial::BitSerialOptions o;
    o.buffer_fill = H % 2 ? BufferFill::kZero : BufferFill::kTurnBit;  // both fills, buffering bits are ignored
    benches.push_back(std::make_unique<BitSerialBench>(("h" + std::to_string(H)).c_str(),
                                                       FatTreeShape(H, capacity_preset("cbft", H)), o, rounds));
    for (unsigned l = 1; l <= H; ++l)
      for (unsigned j = 0; j < (1u << (H - l)); ++j) benches.back()->net.node(l, j).record_turns(&turns[H]);
  }
  sc_core::sc_start();
  for (unsigned H = 1; H <= 6; ++H) {
    SCOPED_TRACE("H=" + std::to_string(H));
    BitSerialBench& b = *benches[H - 1];
    const auto& clock = b.net.clock();
    const unsigned P = bitserial::BitSerialNic::message_bits(H);
    ASSERT_EQ(b.engine.outcome().status, RunOutcome::Status::kCompleted) << b.engine.outcome().diagnostic;
    ASSERT_EQ(b.received.size(), pairs[H].size());
    ASSERT_EQ(b.reports.size(), pairs[H].size());
    ASSERT_EQ(turns[H].size(), pairs[H].size());
    for (std::size_t r = 0; r < pairs[H].size(); ++r) {
      const SourceDestination p = pairs[H][r];
      const Received& got = b.received[r];
      const Cycle start = clock.start(r);
      EXPECT_EQ(got.src, p.src);
      EXPECT_EQ(got.dst, p.dst);
      EXPECT_EQ(got.payload, BitSerialBench::content(p.src, p.dst, 0));
      // M read 1 + (4H-2) clocks after the NIC drove it (after its generator's
      // load clock); the message bits follow.
      const Cycle m_read = got.arrived + 1 - P;
      EXPECT_EQ(m_read - (start + bitserial::BitSerialNic::kFirstDrivePhase), 1 + (4 * H - 2)) << p.src << "->" << p.dst;
      EXPECT_TRUE(b.reports[r].delivered);
      EXPECT_EQ(b.reports[r].dst, p.dst);
      // The acknowledge retraces the path, one clock per link (2h links).
      const unsigned h = bitserial::turn_height(p.src, p.dst);
      EXPECT_EQ(b.reports[r].cycle, got.arrived + 1 + 2 * h);
      const bitserial::TurnRecord& t = turns[H][r];
      EXPECT_EQ(t.delivery_cycle, r);
      EXPECT_EQ(t.level, h);
      EXPECT_EQ(t.ignored, 4 * (H - h));
      if (t.ignored > 0) {
        // Positions counted from M at the turning switch; h-1 bits were stripped below it.
        const RouteStream s = BehaviouralRouteStreamGenerator::compose(H, p.src, p.dst, BufferFill::kZero);
        for (unsigned k = 0; k < t.ignored; ++k)
          EXPECT_EQ(s.kinds.at(t.first_ignored + (h - 1) + k), StreamBitKind::kBuffer);
      }
    }
    // The delivery cycle is sized to the latest acknowledge: a pair through the root.
    Cycle last_ack = 0;
    for (const auto& rep : b.reports) last_ack = std::max(last_ack, clock.phase(rep.cycle));
    EXPECT_EQ(last_ack, clock.length() - 1);
    EXPECT_EQ(b.ledger.lost, 0u);
  }
}

// Section 4.2: lambda(FT, M) bounds the number of delivery cycles from below;
// a message set with lambda <= 1 needs no more than one with perfect
// concentration (no output is ever oversubscribed).
TEST(Ishii, LoadFactorAtMostOneIsDeliveredInOneDeliveryCycle) {
  std::vector<std::vector<std::string>> scenarios;
  for (unsigned n : {2u, 16u, 64u, 256u})
    for (const char* caps : {"constant", "doubling"})
      for (int seed = 1; seed <= 3; ++seed)
        scenarios.push_back({"network.type=fattree_bitserial", "network.processors=" + std::to_string(n),
                             std::string("network.capacities=") + caps, "traffic.pattern=random",
                             "traffic.load_factor=1", "seed=" + std::to_string(seed)});
  for (unsigned n : {16u, 128u})  // permutations on doubling capacities have lambda <= 1
    for (int seed = 1; seed <= 3; ++seed)
      scenarios.push_back({"network.type=fattree_bitserial", "network.processors=" + std::to_string(n),
                           "network.capacities=doubling", "seed=" + std::to_string(seed)});
  // Exactly full: 8 processors, capacities [1,2,4], every level-1 pair crossing the root.
  scenarios.push_back({"network.type=fattree_bitserial", "network.processors=8", "network.capacities=[1,2,4]",
                       "traffic.pattern=pairs", "traffic.pairs=[[0,4],[1,5],[2,6],[3,7],[4,0],[5,1],[6,2],[7,3]]"});
  const auto runs = run_scenarios(scenarios);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i].results["result"];
    SCOPED_TRACE(runs[i].results["scenario"].dump());
    EXPECT_EQ(runs[i].problem, "");
    ASSERT_LE(r["load_factor"].get<double>(), 1.0);
    ASSERT_GT(r["messages"]["message_set"].get<unsigned>(), 0u);
    EXPECT_EQ(r["delivery_cycles"], 1);
    EXPECT_EQ(r["messages"]["lost"], 0);
    EXPECT_EQ(r["verified"], true);
  }
  // random at X = 1 reaches lambda = 1 exactly
  EXPECT_EQ(runs[0].results["result"]["load_factor"].get<double>(), 1.0);
}

// Greedy routing never beats the lower bound lambda(FT, M), and with a single
// path into every processor an all-to-one set takes exactly lambda = n - 1
// delivery cycles (each delivers exactly one message: some stream always wins
// every contention down to the sink, and its one path admits no more).
TEST(Ishii, GreedyRespectsTheLoadFactorBoundAndAllToOneTakesNMinusOne) {
  std::vector<std::vector<std::string>> scenarios;
  for (const char* caps : {"constant", "doubling"})
    for (double x : {2.0, 4.0})
      for (int seed = 1; seed <= 2; ++seed)
        scenarios.push_back({"network.type=fattree_bitserial", "network.processors=32",
                             std::string("network.capacities=") + caps, "traffic.pattern=random",
                             "traffic.load_factor=" + std::to_string(x), "seed=" + std::to_string(seed)});
  for (const char* caps : {"constant", "doubling"})
    scenarios.push_back({"network.type=fattree_bitserial", "network.processors=16",
                         std::string("network.capacities=") + caps, "traffic.pattern=all_to_one",
                         "traffic.root=5"});
  const auto runs = run_scenarios(scenarios);
  for (const auto& run : runs) {
    SCOPED_TRACE(run.results["scenario"].dump());
    const auto& r = run.results["result"];
    EXPECT_EQ(run.problem, "");
    // lambda of a random set at integral target X is X (MessageSets tests
    // count it independently); all-to-one: n - 1 messages into one leaf
    // channel of capacity 1.
    const auto& sc = run.results["scenario"]["traffic"];
    const double lambda = sc["pattern"] == "random" ? sc["load_factor"].get<double>() : 15.0;
    EXPECT_EQ(r["load_factor"].get<double>(), lambda);
    EXPECT_GE(r["delivery_cycles"].get<double>(), lambda);
    EXPECT_EQ(r["messages"]["sent"].get<std::uint64_t>(),
              r["messages"]["delivered"].get<std::uint64_t>() + r["messages"]["lost"].get<std::uint64_t>());
  }
  for (std::size_t i = runs.size() - 2; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].results["result"]["load_factor"].get<double>(), 15.0);
    EXPECT_EQ(runs[i].results["result"]["delivery_cycles"], 15);
    for (const auto& dc : runs[i].results["delivery_cycle_log"]) EXPECT_EQ(dc["delivered"], 1);
  }
}

}  // namespace icn::test
