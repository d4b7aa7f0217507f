// Activity counters and result.energy / result.area of HPAM (docs/energy.md,
// "HPAM (Ben Miled et al.)"): the counts of a multicast broadcast (through the
// replicator) and a hybrid broadcast (software relaying) on one processor
// over a 4x4 mesh, derived here from the programs' routes; the floor plan's
// link lengths from tile coordinates; the pricing by hand; the energy's
// invariants. Each run is an icnsim process.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "power/energy_report.hpp"
#include "power/orion.hpp"
#include "power/technology.hpp"
#include "routers/hpam/replicator_core.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

using Json = nlohmann::ordered_json;

// 1 processor over a 4x4 mesh, a broadcast of 64 bytes in 8-byte flits:
// every message is P = 8 flits. Sub-meshes of 4 x 1: each column of level 2
// is one sub-mesh, rooted in its top row.
const std::string kMachine =
    "--set network.levels=[[1,1],[4,4]] --set traffic.collective=broadcast --set traffic.submesh=[4,1] "
    "--set network.flit_bytes=8 ";
constexpr std::uint64_t P = 8;

Json run_hpam(const std::string& sets, const std::string& tag) {
  const std::string json = scratch_dir() + "/hpam_energy_" + tag + ".json";
  const CommandResult r = run_icnsim("run /dev/null --quiet --set network.type=hpam " + sets + " --json " + json, 120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return Json::parse(read_file(json));
}

Json multicast(const std::string& more, const std::string& tag, unsigned bytes = 64) {
  return run_hpam(kMachine + "--set traffic.algorithm=multicast --set network.replication=true "
                             "--set traffic.message_bytes=" + std::to_string(bytes) + " " + more,
                  tag);
}
Json hybrid(const std::string& more, const std::string& tag) {
  return run_hpam(kMachine + "--set traffic.algorithm=hybrid --set traffic.message_bytes=64 " + more, tag);
}

std::uint64_t u(const Json& j, const std::string& key) { return j.at(key).get<std::uint64_t>(); }
double dyn(const Json& r, const std::string& component) {
  return r.at("result").at("energy").at("components").at(component).at("dynamic_pj").get<double>();
}

// Link groups as "name" -> {links, flits, length_mm}.
struct Group {
  std::uint64_t links = 0, flits = 0;
  double mm = 0;
};
std::map<std::string, Group> link_groups(const Json& activity) {
  std::map<std::string, Group> g;
  for (const auto& l : activity.at("links"))
    g[l.at("name").get<std::string>()] = {u(l, "links"), u(l, "flits"), l.at("length_mm").get<double>()};
  return g;
}

// Within each column of level 2 (a 4 x 1 sub-mesh) the binary tree sends row
// 0 -> 2 (two hops), then 2 -> 3 and 0 -> 1 (one hop each): 4 mesh links, 3 + 2
// + 2 = 7 router visits, 3 messages; every link runs north-south (1 mm).
constexpr std::uint64_t kTreeLinkHops = 4, kTreeRouterVisits = 7, kTreeMessages = 3;

// Floor plan, 1 mm tiles: level 1 (1x1) spans the chip's 4 mm, its router at
// x = 2, y = 0.5; level-2 router (0, b) at x = b + 0.5, y = 1.5. A link down
// branch b spans 1 + |2 - (b + 0.5)|: 2.5, 1.5, 1.5, 2.5 mm.
double branch_mm(unsigned b) { return 1.0 + std::abs(2.0 - (b + 0.5)); }

}  // namespace

// The multicast broadcast: the processor sends one message with the
// replicate bit; its router hands it to the replicator, which takes its P
// flits and sends each down all 4 branches; each column's root then runs its
// tree. Counted where it happens: the replicator's input, its copies, its
// branch links, the routers each flit crosses.
TEST(HpamActivity, MulticastBroadcastThroughTheReplicator) {
  for (const std::string mode : {"lockstep", "buffered"}) {
    const Json r = multicast("--set network.replicator_mode=" + mode, "multicast_" + mode);
    ASSERT_TRUE(r.at("result").at("verified").get<bool>()) << r.dump(1);
    const Json& a = r.at("stats").at("activity");
    const Json& rep = a.at("replicators");
    EXPECT_EQ(u(rep, "replicators"), 1u);
    EXPECT_EQ(u(rep, "flits_in"), P) << mode;
    EXPECT_EQ(u(rep, "flits_taken"), P) << mode;
    EXPECT_EQ(u(rep, "packets_copied"), 1u) << mode;
    EXPECT_EQ(u(rep, "branch_flits"), 4 * P) << mode;
    EXPECT_EQ(u(rep, "branch_fifo_writes"), mode == "buffered" ? 4 * P : 0u) << mode;
    // Routers: the level-1 router once, each copy's root once, the trees.
    const std::uint64_t visits = P + 4 * P + 4 * kTreeRouterVisits * P;
    const Json& t = a.at("routers");
    EXPECT_EQ(u(t, "buffer_writes"), visits) << mode;
    EXPECT_EQ(u(t, "buffer_reads"), visits) << mode;
    EXPECT_EQ(u(t, "crossbar_traversals"), visits) << mode;
    // NICs: the source's message and the trees' in; the 4 copies and the trees' out.
    EXPECT_EQ(u(a.at("nics"), "injections"), (1 + 4 * kTreeMessages) * P);
    EXPECT_EQ(u(a.at("nics"), "ejections"), (4 + 4 * kTreeMessages) * P);
    EXPECT_EQ(u(r.at("result").at("energy"), "delivered_flits"), (4 + 4 * kTreeMessages) * P);
    const auto g = link_groups(a);
    EXPECT_EQ(g.at("level 2 mesh, 1 mm").flits, 4 * kTreeLinkHops * P);
    // Replicator branches beside the down links: b = 0, 3 at 2.5 mm, b = 1, 2 at 1.5 mm.
    EXPECT_EQ(g.at("replicator branches 1-2, 2.5 mm").links, 2u);
    EXPECT_EQ(g.at("replicator branches 1-2, 2.5 mm").flits, 2 * P);
    EXPECT_EQ(g.at("replicator branches 1-2, 1.5 mm").flits, 2 * P);
    // The inter-level links carry nothing: the message went through the replicator.
    EXPECT_EQ(g.at("levels 1-2, 2.5 mm").flits, 0u);
    EXPECT_EQ(g.at("levels 1-2, 1.5 mm").flits, 0u);
    EXPECT_EQ(u(a.at("combiners"), "merges"), 0u);
  }
}

// The hybrid broadcast: the processor sends one message to each of the 4
// roots in turn, each down its own inter-level link (branch b for column b):
// two routers per message; then the same trees. No replication hardware.
TEST(HpamActivity, HybridBroadcastRelaysInSoftware) {
  const Json r = hybrid("", "hybrid");
  ASSERT_TRUE(r.at("result").at("verified").get<bool>()) << r.dump(1);
  const Json& a = r.at("stats").at("activity");
  EXPECT_EQ(u(a.at("replicators"), "replicators"), 0u);
  const std::uint64_t visits = 4 * 2 * P + 4 * kTreeRouterVisits * P;
  EXPECT_EQ(u(a.at("routers"), "buffer_writes"), visits);
  EXPECT_EQ(u(a.at("routers"), "crossbar_traversals"), visits);
  EXPECT_EQ(u(a.at("nics"), "injections"), (4 + 4 * kTreeMessages) * P);
  EXPECT_EQ(u(a.at("nics"), "ejections"), (4 + 4 * kTreeMessages) * P);
  const auto g = link_groups(a);
  EXPECT_EQ(g.at("level 2 mesh, 1 mm").flits, 4 * kTreeLinkHops * P);
  EXPECT_EQ(g.at("levels 1-2, 2.5 mm").flits, 2 * P);
  EXPECT_EQ(g.at("levels 1-2, 1.5 mm").flits, 2 * P);
  EXPECT_EQ(g.count("replicator branches 1-2, 2.5 mm"), 0u);
  // No replication hardware: its buffers have no area.
  EXPECT_EQ(r.at("result").at("area").at("fifos_mm2").get<double>(), 0.0);
}

// Floor plan of 2x2 over 4x8 with 1 mm tiles: level 1's tiles are 8 / 2 = 4 mm
// wide and 1 mm tall, level 2's 1 x 1 mm. Level-1 bottom-row router (1, a) sits
// at x = 4a + 2, y = 1.5; level-2 router (0, 4a + b) at x = 4a + b + 0.5, y = 2.5.
TEST(HpamEnergy, LinkLengthsFollowTheFloorplan) {
  const Json r = run_hpam("--set network.levels=[[2,2],[4,8]] --set traffic.collective=broadcast "
                          "--set traffic.algorithm=multicast --set network.replication=true "
                          "--set traffic.submesh=[4,1] --set traffic.message_bytes=64",
                          "floorplan");
  const auto g = link_groups(r.at("stats").at("activity"));
  // Level 1: east-west links span a 4 mm tile, 2 rows x 1 pair x 2 directions; north-south 1 mm.
  EXPECT_EQ(g.at("level 1 mesh, 4 mm").links, 4u);
  EXPECT_EQ(g.at("level 1 mesh, 1 mm").links, 4u);
  // Level 2: 4 x 8, every link 1 mm: 4 rows x 7 + 8 columns x 3, both directions.
  EXPECT_EQ(g.at("level 2 mesh, 1 mm").links, 2u * (4 * 7 + 8 * 3));
  // Inter-level: 1 + |2 - (b + 0.5)|, both directions, 2 routers with 4 branches each.
  EXPECT_EQ(g.at("levels 1-2, 2.5 mm").links, 2u * 2 * 2);
  EXPECT_EQ(g.at("levels 1-2, 1.5 mm").links, 2u * 2 * 2);
  EXPECT_EQ(g.at("replicator branches 1-2, 2.5 mm").links, 2u * 2);
  EXPECT_EQ(g.at("replicator branches 1-2, 1.5 mm").links, 2u * 2);
  EXPECT_EQ(g.size(), 7u);
  for (const auto& l : r.at("result").at("area").at("links"))
    EXPECT_EQ(l.at("length_mm").get<double>(), g.at(l.at("name").get<std::string>()).mm);
}

// Buffered replicator (depth 3): leakage is every block's leakage power over
// the trial's cycles, the replicator's buffers and branch links priced from
// the counts above with ORION's register FIFO and wire.
TEST(HpamEnergy, LeakageAndReplicatorPricedByHand) {
  const unsigned D = 3, F = 64, V = 2, B = 4;
  const Json r = multicast("--set network.replicator_mode=buffered --set network.replicator_depth=3", "priced");
  const Json& e = r.at("result").at("energy");
  const power::OrionModel m(power::technology("45nm"), 1.0);
  const double seconds = double(u(e, "cycles")) * 1e-9;
  EXPECT_EQ(u(e, "cycles"), u(r.at("result"), "cycles"));
  double leak_w = 0;
  for (const auto& t : r.at("result").at("area").at("router_types")) {
    power::RouterShape s{t.at("ports").get<unsigned>(), t.at("ports").get<unsigned>(), V, B, F};
    s.register_after_link = s.register_after_buffers = false;
    const power::RouterFigures f = m.router(s);
    leak_w += u(t, "routers") * (f.leakage_w.buffers + f.leakage_w.crossbar + f.leakage_w.sw_allocator +
                                 f.leakage_w.vc_allocator + f.leakage_w.clock);
  }
  // Router ports of 1 over 4x4 with replication: the level-1 router has local
  // + 4 mesh + 4 down + replicate + combine = 11; level 2's top row 5 + up +
  // from_replicator = 7, the others 5.
  const Json& types = r.at("result").at("area").at("router_types");
  ASSERT_EQ(types.size(), 3u);
  EXPECT_EQ(u(types[0], "ports"), 5u);
  EXPECT_EQ(u(types[0], "routers"), 12u);
  EXPECT_EQ(u(types[1], "ports"), 7u);
  EXPECT_EQ(u(types[1], "routers"), 4u);
  EXPECT_EQ(u(types[2], "ports"), 11u);
  double links_dyn = 0;
  for (unsigned b = 0; b < 4; ++b) {
    const power::LinkFigures lf = m.link(branch_mm(b), F);
    leak_w += 3 * lf.leakage_w;  // per branch: the down link, the up link, the replicator's branch
    links_dyn += double(P) * F * lf.energy_per_bit;  // each branch carries the message once
  }
  const power::LinkFigures mesh = m.link(1.0, F);
  leak_w += 2.0 * (4 * 3 + 4 * 3) * mesh.leakage_w;  // level 2: 48 directed links of 1 mm
  links_dyn += double(4 * kTreeLinkHops * P) * F * mesh.energy_per_bit;
  // Replicator: input buffer V FIFOs of B flits, 4 branch FIFOs of D flits;
  // combiner: 4 FIFOs of B flits. ORION's register FIFO = a 1-port, 1-VC router's buffers.
  const power::RouterFigures in_fifo = m.router(power::RouterShape{1, 1, 1, B, F});
  const power::RouterFigures branch_fifo = m.router(power::RouterShape{1, 1, 1, D, F});
  leak_w += V * in_fifo.leakage_w.buffers + 4 * branch_fifo.leakage_w.buffers + 4 * in_fifo.leakage_w.buffers;
  EXPECT_NEAR(e.at("leakage_pj").get<double>(), leak_w * seconds * 1e12, 1e-9 * leak_w * seconds * 1e12);
  EXPECT_NEAR(dyn(r, "links"), links_dyn * 1e12, 1e-9 * links_dyn * 1e12);
  const Json& hw = e.at("replication_hardware");
  const double branch_dyn =
      (4.0 * P * branch_fifo.energy.buffer_write + 4.0 * P * branch_fifo.energy.buffer_read) * 1e12;
  EXPECT_NEAR(hw.at("replicator branch FIFOs").at("dynamic_pj").get<double>(), branch_dyn, 1e-9 * branch_dyn);
  const double input_dyn = (double(P) * in_fifo.energy.buffer_write + double(P) * in_fifo.energy.buffer_read) * 1e12;
  EXPECT_NEAR(hw.at("replicator input buffers").at("dynamic_pj").get<double>(), input_dyn, 1e-9 * input_dyn);
  const double area = 4 * branch_fifo.area_mm2.buffers + (V + 4) * in_fifo.area_mm2.buffers;
  EXPECT_NEAR(r.at("result").at("area").at("fifos_mm2").get<double>(), area, 1e-9 * area);
  // The branch FIFOs' area is the register-FIFO count B D F flip-flops (docs/energy.md, "Area against synthesis").
  EXPECT_NEAR(4 * branch_fifo.area_mm2.buffers, 4.0 * D * F * m.technology().area_dff * 1e-6, 1e-12);
}

// Twice the message (P = 16 flits): every event of the broadcast doubles, so
// the buffers', crossbar's and links' energy double, for twice the flits delivered.
TEST(HpamEnergy, EventEnergyLinearInDeliveredData) {
  const Json one = multicast("", "linear_64");
  const Json two = multicast("", "linear_128", 128);
  EXPECT_EQ(u(two.at("result").at("energy"), "delivered_flits"), 2 * u(one.at("result").at("energy"), "delivered_flits"));
  for (const char* c : {"buffers", "crossbar", "links"}) EXPECT_NEAR(dyn(two, c), 2 * dyn(one, c), 1e-9 * dyn(two, c)) << c;
}

// power.flit_bits 64 -> 128: the same events, link energy and area double;
// without the key the width is 8 x network.flit_bytes.
TEST(HpamEnergy, WiderFlitsDoubleLinkEnergy) {
  const Json narrow = hybrid("", "narrow");
  const Json wide = hybrid("--set power.flit_bits=128", "wide");
  EXPECT_EQ(narrow.at("stats").at("activity").at("routers"), wide.at("stats").at("activity").at("routers"));
  EXPECT_NEAR(dyn(wide, "links"), 2 * dyn(narrow, "links"), 1e-9 * dyn(wide, "links"));
  const double links_mm2 = narrow.at("result").at("area").at("links_mm2").get<double>();
  EXPECT_NEAR(wide.at("result").at("area").at("links_mm2").get<double>(), 2 * links_mm2, 1e-9 * links_mm2);
  EXPECT_EQ(u(narrow.at("result").at("energy"), "flit_bits"), 64u);
  EXPECT_EQ(u(wide.at("result").at("energy"), "flit_bits"), 128u);
  const Json bytes16 = run_hpam("--set network.levels=[[1,1],[4,4]] --set traffic.algorithm=hybrid "
                                "--set network.flit_bytes=16",
                                "bytes16");
  EXPECT_EQ(u(bytes16.at("result").at("energy"), "flit_bits"), 128u);
  for (const Json* j : {&narrow, &wide}) {
    const Json& e = j->at("result").at("energy");
    double sum = 0, dsum = 0;
    for (const auto& [name, part] : e.at("components").items()) {
      sum += part.at("total_pj").get<double>();
      dsum += part.at("dynamic_pj").get<double>();
    }
    EXPECT_NEAR(sum, e.at("total_pj").get<double>(), 1e-9 * sum);
    EXPECT_NEAR(dsum, e.at("dynamic_pj").get<double>(), 1e-9 * dsum);
  }
}

// The Verilated replicator counts what the behavioural one counts: the
// counters are kept outside the core, at its ports.
TEST(HpamEnergy, TheRtlReplicatorCountsAlike) {
  if (!hpam::rtl_replicator_available()) GTEST_SKIP() << "this build has no Verilated replicator";
  for (const std::string mode : {"lockstep", "buffered"}) {
    const std::string sets = "--set network.replicator_mode=" + mode + " --set network.replicator_model=";
    const Json beh = multicast(sets + "behavioral", "beh_" + mode);
    const Json rtl = multicast(sets + "rtl", "rtl_" + mode);
    EXPECT_EQ(beh.at("stats").at("activity").dump(), rtl.at("stats").at("activity").dump()) << mode;
    EXPECT_EQ(beh.at("result").at("energy").dump(), rtl.at("result").at("energy").dump()) << mode;
  }
}

TEST(HpamEnergy, BadKeysAreRefused) {
  const std::string run = "run /dev/null --quiet --set network.type=hpam ";
  expect_rejected(run + "--set power.tech=7nm", "power.tech");
  expect_rejected(run + "--set power.clock_ghz=0", "power.clock_ghz");
  expect_rejected(run + "--set power.vdd=0.05", "power.vdd");
  expect_rejected(run + "--set power.flit_bits=0", "power.flit_bits");
  expect_rejected(run + "--set power.link_mm=-1", "power.link_mm");
}

TEST(HpamEnergy, SameRunSameBytes) {
  EXPECT_EQ(deterministic_part(multicast("", "same_a")).dump(), deterministic_part(multicast("", "same_b")).dump());
}

}  // namespace icn::test
