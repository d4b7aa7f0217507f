// run.threads: several worker threads evaluate each cycle's network phase
// (models/engine.hpp). The results must be byte for byte those of one thread:
// a shared-state race, a lost wake-up between workers or effects committed in
// a thread-dependent order would each change some field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "testbench/experiment.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn {
namespace {

using test::kScenarios;
using test::run_icnsim;

struct ThreadCase {
  std::string name;
  std::string args;  // after "run"
  int exit_code;     // of every thread count
};

void PrintTo(const ThreadCase& c, std::ostream* os) { *os << c.name; }

// The whole results file but the host figures, the output path and the
// thread count itself.
nlohmann::ordered_json results_of(const std::string& json) {
  auto j = test::deterministic_part(nlohmann::ordered_json::parse(test::read_file(json)));
  j["scenario"]["run"].erase("threads");
  return j;
}

class ThreadCount : public ::testing::TestWithParam<ThreadCase> {};

TEST_P(ThreadCount, ResultsAreTheSameForOneTwoAndThreeThreads) {
  const ThreadCase& c = GetParam();
  const std::string dir = test::scratch_dir();
  std::vector<nlohmann::ordered_json> results;
  for (int threads : {1, 2, 3}) {
    const std::string json = dir + "/t" + std::to_string(threads) + ".json";
    const auto r = run_icnsim("run " + c.args + " --quiet --set run.threads=" + std::to_string(threads) + " --json " +
                                  json,
                              240);
    ASSERT_EQ(r.exit_code, c.exit_code) << "run.threads=" << threads << ": " << r.err;
    results.push_back(results_of(json));
  }
  // The runs did something: packets arrived (or the fault case stopped).
  ASSERT_TRUE(results[0].contains("result"));
  if (c.exit_code == 0) {
    const auto& latency = results[0]["result"]["latency"];  // VC: per packet; torus and iBT: per broadcast packet
    EXPECT_GT(latency[latency.contains("packet") ? "packet" : "network"]["count"].get<double>(), 0);
  }
  EXPECT_EQ(results[0], results[1]) << "2 threads differ from 1";
  EXPECT_EQ(results[0], results[2]) << "3 threads differ from 1";
}

INSTANTIATE_TEST_SUITE_P(
    Vc, ThreadCount,
    ::testing::Values(
        // Near saturation: every router busy, credits and arrivals crossing
        // between the workers' halves of the mesh every cycle.
        ThreadCase{"mesh_busy", kScenarios + "mesh8x8_uniform.yaml --set traffic.injection_rate=0.35", 0},
        ThreadCase{"mesh_3d_transpose",
                   kScenarios + "mesh8x8_uniform.yaml --set network.k=4 --set network.n=3 --set router.vcs=4 "
                                "--set traffic.pattern=transpose",
                   0},
        ThreadCase{"mesh_adaptive",
                   kScenarios + "mesh8x8_uniform.yaml --set router.routing=adaptive --set traffic.pattern=tornado", 0},
        ThreadCase{"torus_booksim", kScenarios + "torus8x8_uniform.yaml", 0},
        ThreadCase{"fattree", kScenarios + "fattree16_uniform.yaml", 0},
        ThreadCase{"ibt", kScenarios + "mesh8x8_uniform.yaml --set network.topology=ibt --set network.k=8 "
                                       "--set network.n=2 --set traffic.injection_rate=0.1",
                   0},
        // Bursty sources and variable packet sizes: packets of several
        // lengths interleave on every VC.
        ThreadCase{"bursty",
                   kScenarios + "mesh8x8_uniform.yaml --set traffic.injection=onoff --set traffic.packet_size=[1,4,8] "
                                "--set traffic.packet_size_weights=[1,1,1]",
                   0},
        // Faults: the problem lines (first misdelivery, where a stall waits)
        // are the same too.
        ThreadCase{"crossed_ejection", kScenarios + "mesh8x8_uniform.yaml --set 'network.swap_ejection=[5,40]'", 1},
        ThreadCase{"failed_link", kScenarios + "mesh8x8_uniform.yaml --set 'network.failed_links=[r3_3.x+]'", 1}),
    [](const ::testing::TestParamInfo<ThreadCase>& i) { return i.param.name; });

// The all-port torus and iBT routers (Zhang & Deng): every router reads its
// neighbours' holdings registers while they change them, and the deliveries
// of a cycle reach the processors after it, in node order.
INSTANTIATE_TEST_SUITE_P(
    AllPort, ThreadCount,
    ::testing::Values(
        // Eight trials (pattern=best): eight networks commit in one engine.
        ThreadCase{"ibt_line_best_pattern", kScenarios + "ibt_table1_line.yaml", 0},
        ThreadCase{"ibt_rectangle", kScenarios + "ibt_table1_rect.yaml", 0},
        ThreadCase{"torus_global_3d", kScenarios + "torus_global_3d.yaml", 0},
        // k = 70: two words per packet set, holdings outside the register;
        // first-come-first-sent ports.
        ThreadCase{"ibt_k70_arrival",
                   kScenarios + "ibt_table1_rect.yaml --set traffic.packets=70 --set network.forward_order=arrival", 0},
        ThreadCase{"ibt_crossed_ejection", kScenarios + "ibt_table1_line.yaml --set 'network.swap_ejection=[1,0]'", 1},
        ThreadCase{"torus_failed_link", kScenarios + "torus_global_3d.yaml --set 'network.failed_links=[5.x+]'", 1}),
    [](const ::testing::TestParamInfo<ThreadCase>& i) { return i.param.name; });

// Dimakopoulos & Dimopoulos's packet fat tree: routers on any worker clone
// broadcasts (multinode broadcast floods the tree), and the NICs' deliveries
// reach the processing elements after the phase.
INSTANTIATE_TEST_SUITE_P(
    PacketFatTree, ThreadCount,
    ::testing::Values(
        ThreadCase{"flooding", kScenarios + "fattree_cbft32_flooding.yaml", 0},
        ThreadCase{"flooding_ebft256", kScenarios + "fattree_cbft32_flooding.yaml --set network.leaves=256 "
                                                    "--set network.capacities=ebft", 0},
        ThreadCase{"total_exchange", kScenarios + "fattree_ebft64_total_exchange.yaml", 0},
        ThreadCase{"custom_capacities", kScenarios + "fattree_custom_capacities.yaml", 0},
        ThreadCase{"broadcast", kScenarios + "fattree_cbft32_flooding.yaml --set network.leaves=64 "
                                             "--set traffic.collective=broadcast --set traffic.root=5", 0},
        ThreadCase{"scatter", kScenarios + "fattree_cbft32_flooding.yaml --set network.leaves=64 "
                                           "--set traffic.collective=scatter --set traffic.root=9", 0},
        ThreadCase{"gather", kScenarios + "fattree_cbft32_flooding.yaml --set network.leaves=64 "
                                          "--set traffic.collective=gather", 0},
        ThreadCase{"crossed_ejection", kScenarios + "fattree_cbft32_flooding.yaml --set 'network.swap_ejection=[3,9]'",
                   1},
        ThreadCase{"failed_link", kScenarios + "fattree_cbft32_flooding.yaml --set 'network.failed_links=[r2_1.up]'",
                   1}),
    [](const ::testing::TestParamInfo<ThreadCase>& i) { return i.param.name; });

// HPAM (Ben Miled et al.): the inter-level replicators clone and the
// combiners merge on any worker, and commit their change to the ledger's
// expected deliveries; the meshes are VC routers.
INSTANTIATE_TEST_SUITE_P(
    Hpam, ThreadCount,
    ::testing::Values(
        ThreadCase{"broadcast_multicast", kScenarios + "hpam_broadcast_multicast.yaml", 0},
        ThreadCase{"broadcast_multicast_buffered",
                   kScenarios + "hpam_broadcast_multicast.yaml --set network.replicator_mode=buffered", 0},
        ThreadCase{"broadcast_two_level_all", kScenarios + "hpam_broadcast_two_level_all.yaml", 0},
        ThreadCase{"broadcast_hybrid", kScenarios + "hpam_broadcast_hybrid.yaml", 0},
        ThreadCase{"scatter_multicast", kScenarios + "hpam_scatter_multicast.yaml", 0},
        ThreadCase{"gather_multicast", kScenarios + "hpam_gather_multicast.yaml", 0},
        ThreadCase{"gather_hybrid", kScenarios + "hpam_gather_hybrid.yaml", 0},
        ThreadCase{"failed_link",
                   kScenarios + "hpam_broadcast_multicast.yaml --set 'network.failed_links=[l2_r0_1.south]'", 1}),
    [](const ::testing::TestParamInfo<ThreadCase>& i) { return i.param.name; });

// Ishii's bit-serial fat tree: switches and NICs on any worker; a NIC's
// counts per delivery cycle, ledger, deliveries and reports to its processor
// (which retries lost messages) wait for its commit.
const std::string kBitSerial = kScenarios + "fattree_bitserial_doubling64_random.yaml";
INSTANTIATE_TEST_SUITE_P(
    BitSerial, ThreadCount,
    ::testing::Values(
        ThreadCase{"permutation_constant256", kScenarios + "fattree_bitserial_constant256_permutation.yaml", 0},
        ThreadCase{"random_doubling64", kBitSerial, 0},
        ThreadCase{"random_1024", kBitSerial + " --set network.processors=1024 --set traffic.load_factor=2", 0},
        ThreadCase{"prefix", kBitSerial + " --set network.sync_scheme=prefix", 0},
        ThreadCase{"flush", kBitSerial + " --set network.sync_scheme=flush", 0},
        ThreadCase{"store", kBitSerial + " --set network.sync_scheme=store", 0},
        ThreadCase{"trunk_priority_turn_bit",
                   kBitSerial + " --set network.arbitration=trunk_priority --set network.buffer_fill=turn_bit", 0},
        ThreadCase{"cut_ack", kBitSerial + " --set 'network.failed_links=[s2_1.up.ack]'", 1},
        ThreadCase{"stuck_bit", kBitSerial + " --set 'network.stuck_bits=[s1_3.down0.p0:1]'", 1},
        ThreadCase{"crossed_ejection", kBitSerial + " --set 'network.swap_ejection=[3,9]'", 1}),
    [](const ::testing::TestParamInfo<ThreadCase>& i) { return i.param.name; });

// The run.threads key: its range, and the runs it cannot serve.
// Sanders & Sibeyn's pipelined collectives: single-port NICs whose
// rendezvous reads the receiver's posted receives in the phase and takes
// them in the commit, crossbar switches that receive heads from upstream
// switches on other workers, and (network.type=vc) VC NICs written by the
// single-port NICs' commits; each run also simulates a reference crossbar.
INSTANTIATE_TEST_SUITE_P(
    Pipelined, ThreadCount,
    ::testing::Values(
        ThreadCase{"crossbar_chain", kScenarios + "fractional_crossbar_chain.yaml", 0},
        ThreadCase{"crossbar_broadcast", kScenarios + "fractional_crossbar_broadcast.yaml", 0},
        ThreadCase{"crossbar_binary_reduction", kScenarios + "fractional_crossbar_binary_reduction.yaml", 0},
        ThreadCase{"hier_crossbar", kScenarios + "fractional_hier_crossbar.yaml", 0},
        ThreadCase{"hier_crossbar_embedding", kScenarios + "fractional_hier_crossbar_embedding.yaml", 0},
        // An up channel cut: the module's other channels carry its packets.
        ThreadCase{"hier_crossbar_failed_up",
                   kScenarios + "fractional_hier_crossbar.yaml --set 'network.failed_links=[up1.0]'", 0},
        ThreadCase{"simplex_couples", kScenarios + "fractional_simplex_couples.yaml", 0},
        ThreadCase{"simplex_direct", kScenarios + "fractional_simplex_direct.yaml", 0},
        ThreadCase{"worked_example", kScenarios + "fractional_worked_example.yaml", 0},
        ThreadCase{"vc_mesh_htree", kScenarios + "fractional_mesh_htree.yaml", 0},
        ThreadCase{"vc_mesh_reduction", kScenarios + "fractional_mesh_htree.yaml --set traffic.collective=reduction", 0},
        ThreadCase{"vc_fattree_matrix_reduction",
                   kScenarios + "fractional_fattree.yaml --set traffic.collective=reduction --set traffic.operator=matrix",
                   0},
        ThreadCase{"crossbar_failed_input",
                   kScenarios + "fractional_crossbar_broadcast.yaml --set 'network.failed_links=[pe3.in]'", 1},
        ThreadCase{"crossbar_crossed_ejection",
                   kScenarios + "fractional_crossbar_broadcast.yaml --set 'network.swap_ejection=[1,5]'", 1},
        ThreadCase{"vc_crossed_ejection", kScenarios + "fractional_mesh_htree.yaml --set 'network.swap_ejection=[1,5]'",
                   1},
        ThreadCase{"vc_failed_link", kScenarios + "fractional_mesh_htree.yaml --set 'network.failed_links=[r0_0.x+]'",
                   1}),
    [](const ::testing::TestParamInfo<ThreadCase>& i) { return i.param.name; });

TEST(ThreadCount, BadValuesAndUnsupportedRunsAreRefusedWithOneLine) {
  const std::string mesh = "run " + kScenarios + "mesh8x8_uniform.yaml";
  for (const char* bad : {"0", "-1", "65", "two", "1.5", "[2]"})
    test::expect_rejected(mesh + " --set run.threads=" + bad, "run.threads");
  test::expect_rejected(mesh + " --set run.threads=2 --set run.scheduler=per_block_methods", "run.scheduler=engine");
  // Every shipped family takes several threads; a setup that does not say
  // (a user's own family, docs/library.md) is refused by default.
  struct OwnFamily : ExperimentSetup {
    std::unique_ptr<Experiment> elaborate(const std::string&, const RunContext&) override { return nullptr; }
  };
  EXPECT_EQ(OwnFamily().single_thread_reason(), ExperimentSetup::kSingleThreadFamily);
  EXPECT_NE(std::string(ExperimentSetup::kSingleThreadFamily).find("runs on one thread"), std::string::npos);
  test::expect_rejected(mesh + " --set run.threads=2 --vcd " + test::scratch_dir() + "/w.vcd", "one thread");
}

}  // namespace
}  // namespace icn
