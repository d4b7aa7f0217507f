// Activity counters and result.energy / result.area of Ishii's bit-serial fat
// tree (docs/energy.md, "The bit-serial fat tree (Ishii)"): one stream's
// counters switch by switch from the stream's layout (docs/fattree_bitserial.md,
// "The stream"), worked out here from the two addresses, not with the model's
// generator; a lost stream's bits; the H-tree lengths; the energy priced by
// hand from ORION's figures; the invariants. Each run is an icnsim process.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "power/orion.hpp"
#include "power/technology.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

using Json = nlohmann::ordered_json;

Json run_tree(const std::string& sets, const std::string& tag) {
  const std::string json = scratch_dir() + "/" + tag + ".json";
  const CommandResult r =
      run_icnsim("run /dev/null --quiet --set network.type=fattree_bitserial " + sets + " --json " + json, 120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return Json::parse(read_file(json));
}

std::uint64_t u(const Json& j, const std::string& key) { return j.at(key).get<std::uint64_t>(); }
double dyn(const Json& r, const std::string& component) {
  return r.at("result").at("energy").at("components").at(component).at("dynamic_pj").get<double>();
}

// Message bits after the routing part: source address (H), sequence number (16), payload (64).
unsigned message_bits(unsigned height) { return height + 16 + 64; }

// The height at which a stream from a to b turns: one above the highest bit
// where the addresses differ (the subtree of a level-h switch holds 2^h leaves).
unsigned turn_height(unsigned a, unsigned b) {
  unsigned h = 0;
  for (unsigned x = a ^ b; x != 0; x >>= 1) ++h;
  return h;
}

// What one stream, alone in the tree, does at each level (index level - 1).
// It leaves its NIC as M, h-1 up bits, the turning bit, 4(H-h) buffering bits,
// h-1 down bits and the P message bits. Every switch latches each bit that
// arrives and drops its own routing bit (it drives M in that bit's clock);
// the turning switch also drops the buffering bits (held, ignored). So the
// up branch of level k carries L0 - (k-1) bits, the down branch k + P, and a
// switch shifts out one bit fewer than it latched (the turning switch
// 1 + 4(H-h) fewer). The acknowledge retraces the stream: one bit on each of
// the 2h reverse wires, passed back by each of its 2h-1 switches.
struct LevelCounts {
  std::uint64_t writes = 0, reads = 0, acks_switched = 0, decisions = 0, bits_up = 0, bits_down = 0, ack_bits = 0;
};

std::vector<LevelCounts> one_stream(unsigned height, unsigned src, unsigned dst) {
  const unsigned h = turn_height(src, dst), p = message_bits(height);
  const std::uint64_t l0 = 2 * h + 4 * (height - h) + p;
  std::vector<LevelCounts> levels(height);
  for (unsigned k = 1; k <= h; ++k) {
    LevelCounts& c = levels[k - 1];
    c.bits_up = l0 - (k - 1);
    c.bits_down = k + p;
    c.ack_bits = 2;
    if (k < h) {  // a switch on the way up and one on the way down
      c.writes = c.bits_up + (k + 1 + p);
      c.reads = (c.bits_up - 1) + (k + p);
      c.acks_switched = 2;
      c.decisions = 2;
    } else {      // the turning switch
      c.writes = c.bits_up;
      c.reads = h + p;
      c.acks_switched = 1;
      c.decisions = 1;
    }
  }
  return levels;
}

void expect_level_counts(const Json& r, const std::vector<LevelCounts>& want, const std::string& what) {
  const Json& levels = r.at("stats").at("activity").at("levels");
  ASSERT_EQ(levels.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const Json& l = levels[i];
    const LevelCounts& w = want[i];
    const std::string at = what + " level " + std::to_string(i + 1);
    EXPECT_EQ(u(l, "buffer_writes"), w.writes) << at;
    EXPECT_EQ(u(l, "buffer_reads"), w.reads) << at;
    EXPECT_EQ(u(l, "crossbar_traversals"), w.reads + w.acks_switched) << at;
    EXPECT_EQ(u(l, "acknowledge_bits_switched"), w.acks_switched) << at;
    EXPECT_EQ(u(l.at("sw_allocator").at("output"), "decisions"), w.decisions) << at;
    EXPECT_EQ(u(l.at("sw_allocator").at("output"), "requests"), w.decisions) << at;
    // A switch's clock runs in every clock a bit reaches it: each latched bit and the acknowledge.
    EXPECT_EQ(u(l, "clocked_cycles"), w.writes + w.acks_switched) << at;
    EXPECT_EQ(u(l.at("links"), "bits_up"), w.bits_up) << at;
    EXPECT_EQ(u(l.at("links"), "bits_down"), w.bits_down) << at;
    EXPECT_EQ(u(l.at("links"), "acknowledge_bits"), w.ack_bits) << at;
    EXPECT_EQ(u(l.at("sw_allocator").at("input"), "decisions"), 0u) << at;
    EXPECT_EQ(u(l.at("vc_allocator").at("output"), "decisions"), 0u) << at;
  }
}

std::string pair(unsigned n, unsigned src, unsigned dst) {
  return "--set network.processors=" + std::to_string(n) + " --set traffic.pattern=pairs --set traffic.pairs=[[" +
         std::to_string(src) + "," + std::to_string(dst) + "]]";
}

// H-tree: a level-l wire spans 2^(ceil(l/2)-2) tiles: 0.5, 0.5, 1, 1, 2, 2 (1 mm tiles).
const std::vector<double> kHtreeMm{0.5, 0.5, 1, 1, 2, 2};

}  // namespace

// The memo's three examples for H = 3 (turning at the root, at level 2, at
// level 1), each alone in the tree: every counter, level by level.
TEST(FatTreeBitSerialActivity, OneStreamSwitchBySwitch) {
  for (const auto& [src, dst] : std::vector<std::pair<unsigned, unsigned>>{{1, 6}, {4, 6}, {0, 1}}) {
    const std::string what = std::to_string(src) + "->" + std::to_string(dst);
    const Json r = run_tree(pair(8, src, dst) + " --set network.capacities=constant",
                            "one_" + std::to_string(src) + "_" + std::to_string(dst));
    ASSERT_TRUE(r.at("result").at("verified").get<bool>()) << what;
    expect_level_counts(r, one_stream(3, src, dst), what);
    const Json& a = r.at("stats").at("activity");
    EXPECT_EQ(u(a.at("nics"), "injections"), 1u) << what;
    EXPECT_EQ(u(a.at("nics"), "ejections"), 1u) << what;
    EXPECT_EQ(u(r.at("result").at("energy"), "delivered_messages"), 1u) << what;
  }
}

// Two streams from the switch s1_0 (processors 0 and 1, n = 4) both want its
// trunk, which has one path: one is lost and sent again in the next delivery
// cycle. Both turn at the root (h = 2, L0 = 4 + 82 = 86 bits). The lost stream
// still drives all its bits up to s1_0, which latches them and shifts none
// out; nothing of it goes further and nothing acknowledges it.
TEST(FatTreeBitSerialActivity, ALostStreamCostsItsBitsUpToTheSwitchThatDeniedIt) {
  const Json r = run_tree("--set network.processors=4 --set network.capacities=constant --set traffic.pattern=pairs "
                          "--set traffic.pairs=[[0,2],[1,3]]",
                          "lost");
  ASSERT_TRUE(r.at("result").at("verified").get<bool>());
  ASSERT_EQ(u(r.at("result").at("messages"), "lost"), 1u);
  const std::uint64_t l0 = 86, p = 82;
  const Json& levels = r.at("stats").at("activity").at("levels");
  // Level 1: three streams up (two, then the retry), each delivered one down.
  EXPECT_EQ(u(levels[0].at("links"), "bits_up"), 3 * l0);
  EXPECT_EQ(u(levels[0].at("links"), "bits_down"), 2 * (1 + p));
  EXPECT_EQ(u(levels[0], "buffer_writes"), 3 * l0 + 2 * (2 + p));
  EXPECT_EQ(u(levels[0], "buffer_reads"), 2 * (l0 - 1) + 2 * (1 + p));
  // s1_0 decides twice (2 requests, then 1), s1_1 twice (1 each).
  EXPECT_EQ(u(levels[0].at("sw_allocator").at("output"), "decisions"), 4u);
  EXPECT_EQ(u(levels[0].at("sw_allocator").at("output"), "requests"), 5u);
  // The root sees each delivered stream once.
  EXPECT_EQ(u(levels[1].at("links"), "bits_up"), 2 * (l0 - 1));
  EXPECT_EQ(u(levels[1], "buffer_writes"), 2 * (l0 - 1));
  EXPECT_EQ(u(levels[1], "buffer_reads"), 2 * (2 + p));
  EXPECT_EQ(u(levels[0].at("links"), "acknowledge_bits"), 4u);
  const Json& a = r.at("stats").at("activity");
  EXPECT_EQ(u(a.at("nics"), "injections"), 3u);
  EXPECT_EQ(u(a.at("nics"), "ejections"), 2u);
}

TEST(FatTreeBitSerialEnergy, LinkLengthsFollowAnHTree) {
  const Json r = run_tree(pair(64, 0, 63) + " --set network.capacities=doubling", "htree");
  const Json& levels = r.at("stats").at("activity").at("levels");
  ASSERT_EQ(levels.size(), 6u);
  for (unsigned l = 0; l < 6; ++l) EXPECT_EQ(levels[l].at("links").at("length_mm").get<double>(), kHtreeMm[l]) << l + 1;
  const Json u3 = run_tree(pair(64, 0, 63) + " --set power.tree_layout=uniform --set power.link_mm=3", "uniform");
  for (const Json& l : u3.at("stats").at("activity").at("levels")) EXPECT_EQ(l.at("links").at("length_mm").get<double>(), 3.0);
  const Json& links = r.at("result").at("area").at("links");
  // Per level: paths, then acknowledge wires, at the level's length.
  ASSERT_EQ(links.size(), 12u);
  EXPECT_EQ(links[4].at("name").get<std::string>(), "level 3 paths");
  EXPECT_EQ(links[4].at("length_mm").get<double>(), 1.0);
  EXPECT_EQ(u(links[4], "links"), 16u * 4 * 2);  // doubling: 4 paths each way to each of 16 level-2 switches
}

// One stream 4 -> 6 (H = 3, constant capacities, 45 nm, 1 GHz, 1-bit paths,
// 1 mm tiles): every block's leakage over the run and each component's
// dynamic energy from the counts of OneStreamSwitchBySwitch and ORION's
// figures for the switches' shapes (P = 3 paths, the root 2; depth 1; one
// register stage).
TEST(FatTreeBitSerialEnergy, LeakageAndEventsPricedByHand) {
  const unsigned n = 8, height = 3;
  const Json r = run_tree(pair(n, 4, 6) + " --set network.capacities=constant", "priced");
  const Json& e = r.at("result").at("energy");
  const power::OrionModel m(power::technology("45nm"), 1.0);
  const double seconds = double(u(e, "cycles")) * 1e-9;
  const std::vector<LevelCounts> counts = one_stream(height, 4, 6);
  double leak_w = 0, buffers = 0, crossbar = 0, links = 0, clock = 0, arbiters = 0;
  for (unsigned l = 1; l <= height; ++l) {
    power::RouterShape s;
    s.ports_in = s.ports_out = l < height ? 3 : 2;
    s.vcs = 1;
    s.depth = 1;
    s.flit_bits = 1;
    s.register_after_link = s.register_after_buffers = false;
    const power::RouterFigures f = m.router(s);
    const double switches = n >> l;
    const auto& lk = f.leakage_w;
    leak_w += switches * (lk.buffers + lk.crossbar + lk.sw_allocator + lk.vc_allocator + lk.clock);
    const LevelCounts& c = counts[l - 1];
    buffers += double(c.writes) * f.energy.buffer_write + double(c.reads) * f.energy.buffer_read;
    crossbar += double(c.reads + c.acks_switched) * f.energy.crossbar;
    clock += double(c.writes + c.acks_switched) * f.energy.clock;
    const power::OrionModel::ArbiterWidths w = m.arbiter_widths(s);
    arbiters += double(c.decisions) * m.arbiter_energy(w.sw_output, 1.0, w.sw_output_wire_um);
    const power::LinkFigures lf = m.link(kHtreeMm[l - 1], 1);
    const double wires = 2.0 * (n >> (l - 1));  // one path each way per child, and as many reverse wires
    leak_w += 2 * wires * lf.leakage_w;
    links += double(c.bits_up + c.bits_down + c.ack_bits) * lf.energy_per_bit;
  }
  auto near = [](double got, double want) { EXPECT_NEAR(got, want, 1e-9 * want); };
  near(e.at("leakage_pj").get<double>(), leak_w * seconds * 1e12);
  near(dyn(r, "buffers"), buffers * 1e12);
  near(dyn(r, "crossbar"), crossbar * 1e12);
  near(dyn(r, "links"), links * 1e12);
  near(dyn(r, "clock"), clock * 1e12);
  near(dyn(r, "sw_allocator"), arbiters * 1e12);
  EXPECT_EQ(dyn(r, "vc_allocator"), 0.0);
  // Components sum to the totals; per message and per message bit.
  double sum = 0;
  for (const auto& [name, part] : e.at("components").items()) sum += part.at("total_pj").get<double>();
  near(sum, e.at("total_pj").get<double>());
  near(e.at("per_message_pj").get<double>(), e.at("total_pj").get<double>());
  near(e.at("per_message_bit_pj").get<double>(), e.at("total_pj").get<double>() / 83);
  EXPECT_EQ(r.at("result").at("area").at("router_types")[0].at("flit_bits").get<unsigned>(), 1u);
}

// Four streams turning at level 1 in four different switches (0->1, 2->3,
// 4->5, 6->7) do four times what one does, in the same time: every dynamic
// component is four times one stream's, leakage the same.
TEST(FatTreeBitSerialEnergy, EventEnergyLinearInDeliveredMessages) {
  const std::string net = "--set network.processors=8 --set network.capacities=constant --set traffic.pattern=pairs ";
  const Json one = run_tree(net + "--set traffic.pairs=[[0,1]]", "one");
  const Json four = run_tree(net + "--set traffic.pairs=[[0,1],[2,3],[4,5],[6,7]]", "four");
  ASSERT_TRUE(four.at("result").at("verified").get<bool>());
  EXPECT_EQ(u(four.at("result").at("energy"), "delivered_flits"), 4u);
  for (const char* c : {"buffers", "crossbar", "sw_allocator", "clock", "links"})
    EXPECT_NEAR(dyn(four, c), 4 * dyn(one, c), 1e-9 * dyn(four, c)) << c;
  EXPECT_NEAR(four.at("result").at("energy").at("leakage_pj").get<double>(),
              one.at("result").at("energy").at("leakage_pj").get<double>(), 1e-9);
}

// power.flit_bits 1 -> 2: the same counts; the paths' wires double (their
// energy and area), the acknowledge wires stay one bit.
TEST(FatTreeBitSerialEnergy, WiderPathsDoubleThePathWires) {
  const std::string run = "--set network.processors=64 --set network.capacities=doubling --set traffic.pattern=random "
                          "--set traffic.load_factor=2";
  const Json narrow = run_tree(run, "narrow");
  const Json wide = run_tree(run + " --set power.flit_bits=2", "wide");
  EXPECT_EQ(narrow.at("stats").at("activity").at("routers"), wide.at("stats").at("activity").at("routers"));
  // The acknowledge wires' energy, by hand from their bits and lengths.
  const power::OrionModel m(power::technology("45nm"), 1.0);
  double ack = 0, paths = 0;
  for (const Json& l : narrow.at("stats").at("activity").at("levels")) {
    const double epb = m.link(l.at("links").at("length_mm").get<double>(), 1).energy_per_bit * 1e12;
    ack += double(u(l.at("links"), "acknowledge_bits")) * epb;
    paths += double(u(l.at("links"), "bits_up") + u(l.at("links"), "bits_down")) * epb;
  }
  EXPECT_NEAR(dyn(narrow, "links"), paths + ack, 1e-9 * (paths + ack));
  EXPECT_NEAR(dyn(wide, "links"), 2 * paths + ack, 1e-9 * (paths + ack));
  const Json& na = narrow.at("result").at("area").at("links");
  const Json& wa = wide.at("result").at("area").at("links");
  ASSERT_EQ(na.size(), wa.size());
  for (std::size_t i = 0; i < na.size(); ++i) {
    const bool path = na[i].at("name").get<std::string>().find("paths") != std::string::npos;
    const double a = na[i].at("total_mm2").get<double>();
    EXPECT_NEAR(wa[i].at("total_mm2").get<double>(), path ? 2 * a : a, 1e-12) << na[i].at("name");
  }
  EXPECT_GT(dyn(wide, "crossbar"), dyn(narrow, "crossbar"));
}

TEST(FatTreeBitSerialEnergy, BadKeysAreRefused) {
  const std::string run = "run /dev/null --quiet --set network.type=fattree_bitserial ";
  expect_rejected(run + "--set power.flit_bits=0", "power.flit_bits");
  expect_rejected(run + "--set power.tree_layout=ring", "power.tree_layout");
  expect_rejected(run + "--set power.clock_ghz=0", "power.clock_ghz");
  expect_rejected(run + "--set power.tech=7nm", "power.tech");
}

TEST(FatTreeBitSerialEnergy, SameSeedSameBytes) {
  const std::string run = "--set network.processors=64 --set network.capacities=constant --set traffic.pattern=random "
                          "--set traffic.load_factor=4 --set seed=3";
  EXPECT_EQ(deterministic_part(run_tree(run, "a")).dump(), deterministic_part(run_tree(run, "b")).dump());
}

}  // namespace icn::test
