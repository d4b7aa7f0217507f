// Activity counters and result.energy / result.area of the packet fat tree
// (docs/energy.md, "The packet fat tree (Dimakopoulos & Dimopoulos)"): the
// counters of collectives whose every route follows from the tree's geometry,
// computed here from leaf numbers (a leaf's bits), not with the model's
// routing; the link lengths from an H-tree drawn here by coordinates; the
// energy's invariants. Each run is an icnsim process.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
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
  const CommandResult r = run_icnsim("run /dev/null --quiet --set network.type=fattree_packet " + sets + " --json " + json, 120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return Json::parse(read_file(json));
}

std::uint64_t u(const Json& j, const std::string& key) { return j.at(key).get<std::uint64_t>(); }
double dyn(const Json& r, const std::string& component) {
  return r.at("result").at("energy").at("components").at(component).at("dynamic_pj").get<double>();
}

// The level of the lowest common ancestor of leaves a and b: the length of
// their differing bits (the subtree of a level-L node holds 2^L leaves).
unsigned lca_level(unsigned a, unsigned b) {
  unsigned level = 0;
  for (unsigned x = a ^ b; x != 0; x >>= 1) ++level;
  return level;
}

// The buffer, crossbar and link counts every router and level must show at
// the end of a drained run: writes = reads = traversals = merge requests.
void expect_conserved(const Json& a) {
  const Json& t = a.at("routers");
  EXPECT_EQ(u(t, "buffer_writes"), u(t, "buffer_reads"));
  EXPECT_EQ(u(t, "buffer_writes"), u(t, "crossbar_traversals"));
  EXPECT_EQ(u(t, "buffer_writes"), u(t.at("sw_allocator").at("output"), "requests"));
  EXPECT_LE(u(t.at("sw_allocator").at("output"), "decisions"), u(t, "buffer_writes"));
  // No VCs, one output FIFO per link: no input-port or VC arbitration.
  EXPECT_EQ(u(t.at("sw_allocator").at("input"), "decisions"), 0u);
  EXPECT_EQ(u(t.at("vc_allocator").at("input"), "decisions"), 0u);
  EXPECT_EQ(u(t.at("vc_allocator").at("output"), "decisions"), 0u);
}

}  // namespace

// One broadcast from leaf 5 of 16 floods the tree (section 2.1): it climbs to
// the root and every router sends it on every branch but the one it came
// from. So the branch of level l carries n / 2^(l-1) flits: one up (the
// climb), and down every channel but the h on the path back to the source.
// Every router below the root writes two copies, the root one; each router
// receives the packet once and holds it no longer than that cycle.
TEST(FatTreeActivity, OneBroadcastFloodsTheTree) {
  const unsigned n = 16, h = 4;
  for (const std::string caps : {"cbft", "ebft"}) {
    const Json r = run_tree("--set network.leaves=16 --set network.capacities=" + caps +
                                " --set traffic.collective=broadcast --set traffic.root=5",
                            "broadcast_" + caps);
    ASSERT_TRUE(r.at("result").at("verified").get<bool>()) << r.dump(1);
    const Json& a = r.at("stats").at("activity");
    const Json& t = a.at("routers");
    EXPECT_EQ(u(t, "buffer_writes"), 2 * n - 3) << caps;
    EXPECT_EQ(u(t, "clocked_cycles"), n - 1) << caps;
    EXPECT_EQ(u(t.at("sw_allocator").at("output"), "decisions"), 2 * n - 3) << caps;
    expect_conserved(a);
    const Json& levels = a.at("levels");
    ASSERT_EQ(levels.size(), h);
    for (unsigned l = 1; l <= h; ++l) {
      const Json& lv = levels[l - 1];
      const unsigned routers = n >> l, c = caps == "cbft" ? 1u : 1u << (l - 1);
      EXPECT_EQ(u(lv, "routers"), routers);
      EXPECT_EQ(u(lv, "buffer_writes"), l == h ? 1u : 2 * routers) << "level " << l;
      EXPECT_EQ(u(lv, "clocked_cycles"), routers) << "level " << l;
      EXPECT_EQ(u(lv.at("links"), "flits_up"), 1u) << "level " << l;
      EXPECT_EQ(u(lv.at("links"), "flits_down"), (n >> (l - 1)) - 1) << "level " << l;
      EXPECT_EQ(u(lv.at("links"), "links"), 2 * c * (n >> (l - 1))) << "level " << l;
      const unsigned up = l == h ? 0 : (caps == "cbft" ? 1u : 1u << l);
      EXPECT_EQ(u(lv, "ports"), 2 * c + up) << "level " << l;
    }
    EXPECT_EQ(u(a.at("nics"), "injections"), 1u);
    EXPECT_EQ(u(a.at("nics"), "ejections"), n - 1);
    EXPECT_EQ(u(r.at("result").at("energy"), "delivered_flits"), n - 1);
  }
}

// A gather to leaf 6: every other leaf s sends one message, which climbs to
// the level L of its common ancestor with 6 and descends: it is written into
// one FIFO of each of the 2L - 1 routers it crosses (two per level below L,
// one at L) and crosses branch level l twice (up and down) if l <= L.
TEST(FatTreeActivity, GatherRoutesEachMessageThroughItsCommonAncestor) {
  const unsigned n = 16, h = 4, root = 6;
  const Json r = run_tree("--set network.leaves=16 --set network.capacities=ebft --set traffic.collective=gather "
                          "--set traffic.root=6",
                          "gather");
  ASSERT_TRUE(r.at("result").at("verified").get<bool>()) << r.dump(1);
  ASSERT_EQ(r.at("result").at("messages").at("injected").get<unsigned>(), n - 1);
  std::vector<std::uint64_t> writes(h + 1, 0), crossings(h + 1, 0);
  std::uint64_t total = 0;
  for (unsigned s = 0; s < n; ++s) {
    if (s == root) continue;
    const unsigned top = lca_level(s, root);
    for (unsigned l = 1; l <= top; ++l) {
      writes[l] += l < top ? 2 : 1;
      crossings[l] += 1;
    }
    total += 2 * top - 1;
  }
  const Json& a = r.at("stats").at("activity");
  EXPECT_EQ(u(a.at("routers"), "buffer_writes"), total);
  expect_conserved(a);
  for (unsigned l = 1; l <= h; ++l) {
    const Json& lv = a.at("levels")[l - 1];
    EXPECT_EQ(u(lv, "buffer_writes"), writes[l]) << "level " << l;
    EXPECT_EQ(u(lv, "buffer_reads"), writes[l]) << "level " << l;
    EXPECT_EQ(u(lv.at("links"), "flits_up"), crossings[l]) << "level " << l;
    EXPECT_EQ(u(lv.at("links"), "flits_down"), crossings[l]) << "level " << l;
  }
  EXPECT_EQ(u(a.at("nics"), "ejections"), n - 1);
}

// The H-tree drawn by coordinates: leaf k's bits alternate between x (bit 0,
// 2, ...) and y (bit 1, 3, ...) in tiles; a node sits at the mean of its
// leaves; a link is as long as the Manhattan distance from a node to its
// child. Every level's links have one length, the one result.area prices.
TEST(FatTreeEnergy, LinkLengthsFollowAnHTree) {
  const unsigned n = 64, h = 6;
  const double tile = 0.75;
  auto leaf_xy = [](unsigned k, double& x, double& y) {
    x = y = 0;
    for (unsigned b = 0; (k >> b) != 0; ++b) ((b % 2 == 0) ? x : y) += ((k >> b) & 1u) * std::ldexp(1.0, int(b / 2));
  };
  auto node_xy = [&](unsigned level, unsigned j, double& x, double& y) {  // level 0: a leaf
    x = y = 0;
    const unsigned leaves = 1u << level;
    for (unsigned k = j * leaves; k < (j + 1) * leaves; ++k) {
      double lx, ly;
      leaf_xy(k, lx, ly);
      x += lx / leaves;
      y += ly / leaves;
    }
  };
  const Json r = run_tree("--set network.leaves=64 --set traffic.collective=broadcast --set power.link_mm=0.75", "htree");
  const Json& links = r.at("result").at("area").at("links");
  ASSERT_EQ(links.size(), h);
  for (unsigned l = 1; l <= h; ++l) {
    double expected = -1;
    for (unsigned child = 0; child < (n >> (l - 1)); ++child) {
      double px, py, cx, cy;
      node_xy(l, child / 2, px, py);
      node_xy(l - 1, child, cx, cy);
      const double len = (std::abs(px - cx) + std::abs(py - cy)) * tile;
      if (expected < 0) expected = len;
      EXPECT_DOUBLE_EQ(len, expected) << "level " << l << " child " << child;
    }
    EXPECT_DOUBLE_EQ(links[l - 1].at("length_mm").get<double>(), expected) << "level " << l;
  }
  const Json uniform = run_tree("--set network.leaves=64 --set traffic.collective=broadcast --set power.link_mm=0.75 "
                                "--set power.tree_layout=uniform",
                                "uniform");
  for (const Json& l : uniform.at("result").at("area").at("links")) EXPECT_DOUBLE_EQ(l.at("length_mm").get<double>(), tile);
}

// Leakage is every block's leakage power over the run, whatever it did: the
// routers priced here from the shape the geometry gives (2 c_l + c_(l+1)
// ports, one VC, power.queue_depth, one register stage), the links at their
// H-tree length. The dynamic energy of the buffers, crossbar and links is
// the broadcast's counts times ORION's event energies.
TEST(FatTreeEnergy, LeakageAndEventsPricedByHand) {
  const unsigned n = 16, h = 4, depth = 6;
  const Json r = run_tree("--set network.leaves=16 --set network.capacities=ebft --set traffic.collective=broadcast "
                          "--set power.queue_depth=6",
                          "priced");
  const Json& e = r.at("result").at("energy");
  const power::OrionModel m(power::technology("45nm"), 1.0);
  const double seconds = double(u(e, "cycles")) * 1e-9;
  double leak_w = 0, buffers = 0, crossbar = 0, links = 0;
  for (unsigned l = 1; l <= h; ++l) {
    power::RouterShape s;
    s.ports_in = s.ports_out = 2 * (1u << (l - 1)) + (l < h ? 1u << l : 0);
    s.vcs = 1;
    s.depth = depth;
    s.register_after_link = s.register_after_buffers = false;
    const power::RouterFigures f = m.router(s);
    const double routers = n >> l;
    const auto& lk = f.leakage_w;
    leak_w += routers * (lk.buffers + lk.crossbar + lk.sw_allocator + lk.vc_allocator + lk.clock);
    const double copies = l == h ? 1 : 2 * routers;  // OneBroadcastFloodsTheTree
    buffers += copies * (f.energy.buffer_write + f.energy.buffer_read);
    crossbar += copies * f.energy.crossbar;
    const double mm = std::ldexp(1.0, int((l + 1) / 2) - 2);  // LinkLengthsFollowAnHTree, 1 mm tiles
    const power::LinkFigures lf = m.link(mm, 64);
    leak_w += lf.leakage_w * 2.0 * (1u << (l - 1)) * (n >> (l - 1));
    links += double(n >> (l - 1)) * 64 * lf.energy_per_bit;
  }
  EXPECT_NEAR(e.at("leakage_pj").get<double>(), leak_w * seconds * 1e12, 1e-9 * leak_w * seconds * 1e12);
  EXPECT_NEAR(dyn(r, "buffers"), buffers * 1e12, 1e-9 * buffers * 1e12);
  EXPECT_NEAR(dyn(r, "crossbar"), crossbar * 1e12, 1e-9 * crossbar * 1e12);
  EXPECT_NEAR(dyn(r, "links"), links * 1e12, 1e-9 * links * 1e12);
  EXPECT_EQ(dyn(r, "vc_allocator"), 0.0);
  EXPECT_EQ(r.at("result").at("area").at("router_types")[0].at("depth").get<unsigned>(), depth);
}

// Every broadcast costs the same events whichever leaf sends it (the counts
// above do not depend on the source), so n of them (the multinode broadcast)
// cost n times one broadcast in buffers, crossbar and links, for n times the
// delivered flits: energy linear in the flits delivered.
TEST(FatTreeEnergy, EventEnergyLinearInDeliveredFlits) {
  for (const std::string caps : {"cbft", "ebft"}) {
    const std::string net = "--set network.leaves=16 --set network.capacities=" + caps;
    const Json one = run_tree(net + " --set traffic.collective=broadcast", "one_" + caps);
    const Json all = run_tree(net + " --set traffic.collective=multinode_broadcast", "all_" + caps);
    ASSERT_TRUE(all.at("result").at("verified").get<bool>());
    EXPECT_EQ(u(all.at("result").at("energy"), "delivered_flits"), 16 * u(one.at("result").at("energy"), "delivered_flits"));
    for (const char* c : {"buffers", "crossbar", "links"})
      EXPECT_NEAR(dyn(all, c), 16 * dyn(one, c), 1e-9 * dyn(all, c)) << caps << " " << c;
    expect_conserved(all.at("stats").at("activity"));
  }
}

// power.flit_bits 64 -> 128: the same events; link energy and area double
// (a link is a wire per bit), the crossbar's energy grows 2..4 times (its
// wires are longer and it has more of them).
TEST(FatTreeEnergy, WiderFlitsDoubleLinkEnergy) {
  const std::string run = "--set network.leaves=16 --set network.capacities=ebft --set traffic.collective=total_exchange";
  const Json narrow = run_tree(run, "narrow");
  const Json wide = run_tree(run + " --set power.flit_bits=128", "wide");
  EXPECT_EQ(narrow.at("stats").at("activity").at("routers"), wide.at("stats").at("activity").at("routers"));
  EXPECT_NEAR(dyn(wide, "links"), 2 * dyn(narrow, "links"), 1e-9 * dyn(wide, "links"));
  const double links_mm2 = narrow.at("result").at("area").at("links_mm2").get<double>();
  EXPECT_NEAR(wide.at("result").at("area").at("links_mm2").get<double>(), 2 * links_mm2, 1e-9 * links_mm2);
  const double x = dyn(wide, "crossbar") / dyn(narrow, "crossbar");
  EXPECT_GE(x, 2.0);
  EXPECT_LE(x, 4.0);
  const Json& e = wide.at("result").at("energy");
  double sum = 0;
  for (const auto& [name, part] : e.at("components").items()) sum += part.at("total_pj").get<double>();
  EXPECT_NEAR(sum, e.at("total_pj").get<double>(), 1e-9 * sum);
  expect_conserved(wide.at("stats").at("activity"));
}

TEST(FatTreeEnergy, BadKeysAreRefused) {
  const std::string run = "run /dev/null --quiet --set network.type=fattree_packet ";
  expect_rejected(run + "--set power.queue_depth=0", "power.queue_depth");
  expect_rejected(run + "--set power.tree_layout=ring", "power.tree_layout");
  expect_rejected(run + "--set power.flit_bits=0", "power.flit_bits");
}

TEST(FatTreeEnergy, SameRunSameBytes) {
  const std::string run = "--set network.leaves=16 --set network.capacities=cbft --set traffic.collective=total_exchange";
  EXPECT_EQ(deterministic_part(run_tree(run, "a")).at("result").dump(),
            deterministic_part(run_tree(run, "b")).at("result").dump());
}

}  // namespace icn::test
