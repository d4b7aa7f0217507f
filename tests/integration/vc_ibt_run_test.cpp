// The VC family's interlaced bypass torus (network.topology=ibt) run whole:
// every pair delivered alone on an idle network in the pipeline formula's
// cycles over the routers of the route worked out from coordinates
// (tests/support/ibt_vc_route.hpp), the same formula on a mesh, no deadlock
// far beyond saturation with datelines, and the bad-parameter refusals.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/ibt_vc_route.hpp"
#include "tests/support/sim_helpers.hpp"
#include "tests/support/vc_pipeline.hpp"

namespace icn {

using test::Pipeline;
using test::run_scenarios;
using test::zero_load_latency;

namespace {

struct AllPairs {
  std::vector<std::string> keys;
  unsigned count = 0, min_routers = ~0u, max_routers = 0;
  double routers = 0, latency = 0;  // sums over the pairs
};

// Every ordered pair of distinct nodes that `keep` keeps sends one packet,
// 200 cycles apart (each alone in the network); `routers_of` gives the
// routers each crosses.
template <typename F, typename K>
AllPairs all_pairs(const std::string& trace, unsigned nodes, const Pipeline& p, F routers_of, K keep) {
  AllPairs a;
  std::ofstream out(trace);
  unsigned long cycle = 5;
  for (unsigned s = 0; s < nodes; ++s)
    for (unsigned d = 0; d < nodes; ++d) {
      if (s == d || !keep(s, d)) continue;
      out << cycle << ' ' << s << ' ' << d << ' ' << p.flits << '\n';
      cycle += 200;
      const unsigned r = routers_of(s, d);
      ++a.count;
      a.routers += r;
      a.latency += zero_load_latency(p, r);
      a.min_routers = std::min(a.min_routers, r);
      a.max_routers = std::max(a.max_routers, r);
    }
  a.keys = pipeline_trace_keys(p, trace, cycle);
  a.keys.push_back("traffic.packet_size=" + std::to_string(p.flits));
  return a;
}

}  // namespace

// iBT(8^2; <2>), iBT(12^2; <4,8>) and iBT(9^3; <3>) (two pipelines), and a
// 5x5 mesh: every packet's latency is the docs' zero-load formula
// 1 + L + R (rd + va + sa + st + L) + P - 1 for the R routers of its route
// (on the iBT the greedy bypass route; on the mesh |dx| + |dy| + 1), so the
// count, sums, minimum and maximum of latency and routers all match.
TEST(VcIbtRun, EveryPairArrivesAloneInThePipelineFormulasCyclesOverTheGreedyBypassRoute) {
  const std::string dir = test::scratch_dir();
  const Pipeline fast{1, 1, 1, 1, 1, 4, 4}, slow{2, 1, 3, 2, 3, 16, 5};
  struct Case {
    test::Shape shape;
    Pipeline p;
  };
  const std::vector<Case> cases{{{8, 2, {2}, 2}, fast}, {{12, 2, {4, 8}, 4}, slow}, {{9, 3, {3}, 2}, fast}};
  std::vector<AllPairs> want;
  std::vector<std::vector<std::string>> runs;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const test::Shape& s = cases[i].shape;
    unsigned nodes = 1;
    for (unsigned d = 0; d < s.n; ++d) nodes *= s.k;
    // 9^3 has 729 nodes, 530,000 pairs: there node 0 and node 364 (the
    // middle) to every node, and every node to node 0.
    auto a = all_pairs(
        dir + "/ibt" + std::to_string(i), nodes, cases[i].p,
        [&](unsigned src, unsigned dst) { return test::expected_routers(src, dst, s); },
        [&](unsigned src, unsigned dst) { return s.n < 3 || src == 0 || src == 364 || dst == 0; });
    std::string bypass = "network.bypass=[";
    for (std::size_t j = 0; j < s.b.size(); ++j) bypass += (j ? "," : "") + std::to_string(s.b[j]);
    a.keys.insert(a.keys.end(), {"network.topology=ibt", "network.k=" + std::to_string(s.k),
                                 "network.n=" + std::to_string(s.n), bypass + "]",
                                 "router.vcs=" + std::to_string(s.vcs)});
    runs.push_back(a.keys);
    want.push_back(a);
  }
  auto mesh = all_pairs(
      dir + "/mesh", 25, slow,
      [](unsigned s, unsigned d) { return unsigned(std::abs(int(s % 5) - int(d % 5)) + std::abs(int(s / 5) - int(d / 5)) + 1); },
      [](unsigned, unsigned) { return true; });
  mesh.keys.insert(mesh.keys.end(), {"network.topology=mesh", "network.k=5"});
  runs.push_back(mesh.keys);
  want.push_back(mesh);
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE("run " + std::to_string(i));
    ASSERT_EQ(results[i].problem, "");
    const auto& r = results[i].results["result"];
    const auto& lat = r["latency"]["packet"];
    const Pipeline& p = i + 1 == results.size() ? slow : cases[i].p;
    ASSERT_EQ(lat["count"].get<unsigned>(), want[i].count);
    EXPECT_EQ(r["packets"]["delivered"].get<unsigned>(), want[i].count);
    EXPECT_NEAR(lat["mean"].get<double>() * want[i].count, want[i].latency, 1e-6 * want[i].latency);
    EXPECT_EQ(lat["min"].get<unsigned>(), zero_load_latency(p, want[i].min_routers));
    EXPECT_EQ(lat["max"].get<unsigned>(), zero_load_latency(p, want[i].max_routers));
    EXPECT_NEAR(r["hops"]["mean"].get<double>() * want[i].count, want[i].routers, 1e-6 * want[i].routers);
    EXPECT_EQ(r["hops"]["max"].get<unsigned>(), want[i].max_routers);
    EXPECT_TRUE(r["verified"].get<bool>());
  }
}

// Far beyond saturation, where deadlock is likeliest (one-flit buffers,
// 16-flit packets, two VCs: one per dateline class), on a ring with chords
// and on two 2-D iBTs (every node offering a flit a cycle on the small ones,
// a quarter of one on iBT(12^2; <4,8>), which without datelines deadlocks at
// that load within the window): the runs complete, the watchdog never fires,
// every packet created is delivered.
TEST(VcIbtRun, DatelinesKeepTheIbtFreeOfDeadlockFarBeyondSaturation) {
  const std::vector<std::string> common{"network.type=vc", "network.topology=ibt", "router.vcs=2",
                                        "router.buffer_depth=1", "traffic.packet_size=16"};
  std::vector<std::vector<std::string>> runs;
  const std::string full = "traffic.injection_rate=1", quarter = "traffic.injection_rate=0.25";
  for (const auto& shape : std::vector<std::vector<std::string>>{
           {"network.k=8", "network.n=1", "network.bypass=[3]", full, "measure.cycles=3000"},
           {"network.k=8", "network.n=2", "network.bypass=[2]", full, "measure.cycles=1500"},
           {"network.k=12", "network.n=2", "network.bypass=[4,8]", quarter, "measure.cycles=1000"}}) {
    runs.push_back(common);
    runs.back().insert(runs.back().end(), shape.begin(), shape.end());
  }
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE("run " + std::to_string(i));
    const auto& r = results[i].results["result"];
    EXPECT_EQ(results[i].problem, "");
    EXPECT_EQ(r["status"], "completed");
    EXPECT_EQ(r["packets"]["created"], r["packets"]["delivered"]);
    EXPECT_GT(r["packets"]["created"].get<unsigned>(), 1000u);
    EXPECT_EQ(r["packets"]["held_at_end"].get<unsigned>(), 0u);
    EXPECT_LT(r["throughput"]["accepted"].get<double>(), 0.8 * r["throughput"]["offered"].get<double>()) << "saturated";
    EXPECT_TRUE(r["verified"].get<bool>());
  }
}

TEST(VcIbtRun, BadParametersAreRefusedWithOneLine) {
  const std::string dir = test::scratch_dir();
  std::ofstream(dir + "/ibt.yaml") << "network:\n  type: vc\n  topology: ibt\n";
  const std::string run = "run " + dir + "/ibt.yaml ";
  test::expect_rejected(run + "--set network.bypass=[4]", "network.bypass");       // 2b = 0 mod k
  test::expect_rejected(run + "--set network.bypass=[3]", "not a multiple of d*k");
  test::expect_rejected(run + "--set network.bypass=[8]", "1..n-1");
  test::expect_rejected(run + "--set network.k=9", "network.k = 9: iBT");          // d*k = 2 does not divide 9: named by the VC key
  test::expect_rejected(run + "--set network.bypass=[]", "at least one bypass length");
  test::expect_rejected(run + "--set network.n=1 --set network.bypass=[3,3]", "listed twice");
  test::expect_rejected(run + "--set network.bypass=two", "network.bypass");
  test::expect_rejected(run + "--set router.vcs=1", "router.vcs");
  test::expect_rejected(run + "--set router.dateline_classes=whole_dimension", "router.dateline_classes");
  test::expect_rejected(run + "--set router.routing=adaptive", "router.routing");
  test::expect_rejected(run + "--set traffic.collective=broadcast", "traffic.collective");
  test::expect_rejected(run + "--set network.topology=torus --set network.bypass=[2]", "network.bypass");
  test::expect_rejected(run + "--set 'network.failed_links=[r0_0.b0]'", "network.failed_links");
}

}  // namespace icn
