// One BitSerialSwitch on its own, driven wire by wire: the reverse
// (acknowledge) wires. The networks never put an acknowledge on an output path
// that no stream holds, so this is the only place that can check that the
// switch counts such a bit as stray and drives it nowhere, instead of passing
// it back to whichever input last held that path.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "models/engine.hpp"
#include "routers/fattree_bitserial/bit_channel.hpp"
#include "routers/fattree_bitserial/bit_serial_switch.hpp"
#include "routers/fattree_bitserial/delivery_cycle.hpp"

namespace icn::bitserial {

namespace {
using Bits = std::vector<std::pair<unsigned, bool>>;
Bits seen(const BitChannel& c, Cycle t) {
  Bits out;
  c.receive(t, [&](std::uint32_t p, bool b) { out.emplace_back(p, b); });
  return out;
}

// A leaf-level switch with two paths on every wire bundle.
struct OneSwitch {
  static constexpr unsigned kWidth = 2;
  CycleEngine engine;
  DeliveryCycleClock clock{1, 40};
  BitSerialSwitch sw;
  std::vector<BitChannel> in, in_ack, out, out_ack;
  explicit OneSwitch(const std::string& name = "one")
      : engine((name + "_engine").c_str(), {}),
        sw((name + "_switch").c_str(), BitSerialSwitch::Params{1, 0, 5, Arbitration::kRandom, 7, "switch"}, clock) {
    for (unsigned p = 0; p < kPorts; ++p) {
      in.emplace_back("in" + std::to_string(p), kWidth);
      in_ack.emplace_back("in_ack" + std::to_string(p), kWidth);
      out.emplace_back("out" + std::to_string(p), kWidth);
      out_ack.emplace_back("out_ack" + std::to_string(p), kWidth);
    }
    engine.add(sw);
    for (unsigned p = 0; p < kPorts; ++p) sw.connect(p, in[p], in_ack[p], out[p], out_ack[p]);
  }
  // Every reverse-wire bit the switch drove toward its inputs in cycle t.
  std::vector<Bits> acks_driven(Cycle t) const {
    std::vector<Bits> v;
    for (const BitChannel& c : in_ack) v.push_back(seen(c, t + 1));
    return v;
  }
};
}  // namespace

// A stream from branch 0 goes up (routing bit 1) and takes trunk path 0. An
// acknowledge on trunk path 0 goes back to branch 0's path 0; one on trunk
// path 1, which no stream holds, is counted stray and goes nowhere.
TEST(BitSerialSwitch, AnAcknowledgeOnAnUnheldPathIsStrayAndDrivenNowhere) {
  OneSwitch s;
  ASSERT_EQ(exit_port(kBranch0, true), kTrunk);  // the convention this test drives by
  s.in[kBranch0].drive(1, 0, true);              // M, seen at 2
  s.sw.tick(1);
  s.in[kBranch0].drive(2, 0, true);  // routing bit: up, seen at 3 where the trunk path is granted
  s.sw.tick(2);
  s.sw.tick(3);
  ASSERT_EQ(seen(s.out[kTrunk], 4), (Bits{{0, true}})) << "M goes out on trunk path 0";
  ASSERT_EQ(s.sw.concentrator(kTrunk).used_paths(), 1u);

  s.out_ack[kTrunk].drive(4, 0, true);  // the receiver's acknowledge, seen at 5
  s.out_ack[kTrunk].drive(4, 1, true);  // a stray bit on the unheld path
  s.sw.tick(4);
  s.sw.tick(5);
  const auto acks = s.acks_driven(5);
  EXPECT_EQ(acks[kBranch0], (Bits{{0, true}})) << "the held path's acknowledge goes back to its input";
  EXPECT_TRUE(acks[kTrunk].empty()) << "nothing may go back toward the trunk";
  EXPECT_TRUE(acks[kBranch1].empty()) << "nothing may go back toward branch 1";
  EXPECT_EQ(s.sw.stats().stray_acks, 1u);
}

// With no stream at all, an acknowledge on any path is stray.
TEST(BitSerialSwitch, AnAcknowledgeWithNoStreamIsStray) {
  for (unsigned port = 0; port < kPorts; ++port) {
    OneSwitch s("port" + std::to_string(port));
    s.out_ack[port].drive(3, 0, true);
    s.sw.tick(3);
    s.sw.tick(4);
    for (const Bits& b : s.acks_driven(4)) EXPECT_TRUE(b.empty()) << "port " << port;
    EXPECT_EQ(s.sw.stats().stray_acks, 1u) << "port " << port;
  }
}

}  // namespace icn::bitserial
