// The virtual-channel router family run whole: zero-load latency against the
// pipeline formula, throughput below saturation, conservation at full load,
// the torus deadlock and its watchdog report, determinism, bad input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/sim_helpers.hpp"
#include "tests/support/vc_pipeline.hpp"

namespace icn {

using test::run_icnsim;
using test::run_scenarios;
using test::Pipeline;
using test::zero_load_latency;

namespace {

std::vector<std::string> base(const Pipeline& p, const std::string& trace) { return pipeline_trace_keys(p, trace, 20); }

// The stages of result.latency.stages that make up the network latency.
double network_stages(const nlohmann::json& st) {
  double sum = 0;
  for (const char* k : {"links", "routing", "vc_alloc", "sw_alloc", "traversal", "serialization"})
    sum += st[k].get<double>();
  return sum;
}

}  // namespace

TEST(VcRun, ZeroLoadLatencyEqualsThePipelineFormulaForEveryHopCount) {
  // An 8x8 mesh: node 0 sends one packet to nodes at every distance 0..14
  // (routers traversed 1..15), each in its own idle network; two pipelines.
  const std::vector<Pipeline> pipelines{{1, 1, 1, 1, 1, 4, 4}, {2, 1, 3, 2, 3, 16, 5}};
  std::vector<std::vector<std::string>> runs;
  std::vector<unsigned> expected, routers;
  const std::string dir = test::scratch_dir();
  for (std::size_t pi = 0; pi < pipelines.size(); ++pi) {
    for (unsigned dist = 0; dist <= 14; ++dist) {
      const unsigned x = std::min(dist, 7u), y = dist - x;
      const std::string trace = dir + "/t" + std::to_string(pi) + "_" + std::to_string(dist);
      std::ofstream(trace) << "5 0 " << (x + 8 * y) << ' ' << pipelines[pi].flits << '\n';
      auto o = base(pipelines[pi], trace);
      o.push_back("traffic.packet_size=" + std::to_string(pipelines[pi].flits));
      runs.push_back(o);
      expected.push_back(zero_load_latency(pipelines[pi], dist + 1));
      routers.push_back(dist + 1);
    }
  }
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i].results["result"];
    ASSERT_EQ(results[i].problem, "") << i;
    ASSERT_EQ(r["latency"]["packet"]["count"].get<unsigned>(), 1u) << i;
    EXPECT_EQ(r["latency"]["packet"]["max"].get<unsigned>(), expected[i]) << "run " << i << ", routers " << routers[i];
    EXPECT_EQ(r["hops"]["max"].get<unsigned>(), routers[i]) << i;
    // Network latency starts one cycle later: at the head's injection.
    EXPECT_EQ(r["latency"]["network"]["max"].get<unsigned>(), expected[i] - 1) << i;
  }
}

// An 8x8 torus: node 0 sends one packet to nodes at every (dx, dy) of the
// ring distances 0..4, each in its own idle network. The links between
// routers take network.channel_latency, the NICs' links network.link_latency:
// preset=booksim on a torus gives BookSim 2's 2 and 1 (its pipeline 1,1,1,1,
// 4-flit packets); a second run sets both, and the pipeline, by hand. Routers
// crossed: 1 + the shorter way round in x + in y (a tie, 4 of 8, is 4 hops
// either way, so random ties do not change it).
TEST(VcRun, TorusZeroLoadLatencyCountsChannelsBetweenRoutersApartFromNicLinks) {
  struct Case {
    Pipeline p;
    unsigned channel;
    std::vector<std::string> keys;
  };
  const std::vector<Case> cases{
      {{1, 1, 1, 1, 1, 4, 4}, 2, {"preset=booksim"}},
      {{2, 1, 3, 1, 2, 16, 5}, 3,
       {"router.routing_delay=2", "router.sw_alloc_delay=3", "network.link_latency=2", "network.channel_latency=3",
        "router.buffer_depth=16", "traffic.packet_size=5"}},
  };
  std::vector<std::vector<std::string>> runs;
  std::vector<unsigned> expected, routers;
  const std::string dir = test::scratch_dir();
  for (std::size_t ci = 0; ci < cases.size(); ++ci)
    for (unsigned dx = 0; dx <= 4; ++dx)
      for (unsigned dy = 0; dy <= 4; dy += 2) {
        const std::string trace = dir + "/t" + std::to_string(ci) + "_" + std::to_string(dx) + std::to_string(dy);
        // Destination (8 - dx, dy): x the way round through the wrap link.
        std::ofstream(trace) << "5 0 " << ((8 - dx) % 8 + 8 * dy) << ' ' << cases[ci].p.flits << '\n';
        std::vector<std::string> o{"network.type=vc", "network.topology=torus", "traffic.pattern=trace",
                                   "traffic.trace_file=" + trace, "measure.cycles=40"};
        o.insert(o.end(), cases[ci].keys.begin(), cases[ci].keys.end());
        runs.push_back(o);
        const unsigned r = 1 + dx + dy;
        routers.push_back(r);
        expected.push_back(zero_load_latency(cases[ci].p, r, cases[ci].channel));
      }
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < results.size(); ++i) {
    SCOPED_TRACE("run " + std::to_string(i) + ", routers " + std::to_string(routers[i]));
    ASSERT_EQ(results[i].problem, "");
    const auto& r = results[i].results["result"];
    ASSERT_EQ(r["latency"]["packet"]["count"].get<unsigned>(), 1u);
    EXPECT_EQ(r["latency"]["packet"]["max"].get<unsigned>(), expected[i]);
    EXPECT_EQ(r["hops"]["max"].get<unsigned>(), routers[i]);
  }
}

// The credit loop between two routers (docs/vc_router.md: switch grant ->
// traversal st -> link C -> buffer write -> downstream switch grant one cycle
// later -> credit link C + credit_delay) is R = st + C + 1 + C + credit_delay
// cycles. One long packet from node 0 to node 1 of an idle 8x8 torus, with
// B = 4 flit buffers shorter than R, streams B flits per R cycles over the
// channel between the two routers (the NICs' loops, with links of 1, are
// shorter): its body takes (P - 1) R / B cycles behind the head. Under
// preset=booksim C = 2 and credit_delay = 1 (BookSim 2's torus): R = 7; with
// C = 3 and no credit delay by hand: R = 8.
TEST(VcRun, OnATorusTheCreditLoopBetweenRoutersSetsTheBodyRateOfALongPacket) {
  const unsigned P = 81, B = 4, st = 1;
  const std::string trace = test::scratch_dir() + "/long.txt";
  std::ofstream(trace) << "5 0 1 " << P << '\n';
  const std::vector<std::string> common{"network.type=vc",      "network.topology=torus",
                                        "traffic.pattern=trace", "traffic.trace_file=" + trace,
                                        "traffic.packet_size=81", "measure.cycles=400"};
  auto with = [&](std::vector<std::string> keys) {
    keys.insert(keys.begin(), common.begin(), common.end());
    return keys;
  };
  const std::vector<unsigned> channel{2, 3}, credit_delay{1, 0};
  const auto results = run_scenarios({with({"preset=booksim"}),
                                      with({"network.channel_latency=3", "router.buffer_depth=4"})});
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    ASSERT_EQ(results[i].problem, "");
    const auto& lat = results[i].results["result"]["latency"];
    const unsigned R = st + channel[i] + 1 + channel[i] + credit_delay[i];
    EXPECT_EQ(lat["stages"]["serialization"].get<double>(), double((P - 1) * R / B));
    // The head as on an idle network (2 routers, one channel), then the body.
    EXPECT_EQ(lat["packet"]["max"].get<unsigned>(),
              zero_load_latency({1, 1, 1, 1, 1, B, 1}, 2, channel[i]) + (P - 1) * R / B);
  }
}

// Sanders & Sibeyn's chain broadcast on an 8-ring torus whose channels take 3
// cycles (the NICs' links 1), buffers deep enough for the credit loop: the
// single-port fabric's pipeline to a neighbour is 1 + L + 2 routers x 4
// stages + C + L + 1 = 15 cycles, no packet waits beyond it, and the run
// costs exactly (P - 2 + s)(t + m) as the paper's model says.
TEST(VcRun, TheCollectiveFabricCountsChannelsBetweenRoutersApartFromNicLinks) {
  const long P = 8, s = 10, m = 7, t = 40;
  const auto runs = run_scenarios({{"network.type=vc", "network.topology=torus", "network.k=[8]",
                                    "network.channel_latency=3", "router.buffer_depth=16",
                                    "traffic.collective=broadcast", "traffic.algorithm=chain", "traffic.packets=10",
                                    "traffic.message_units=70", "nic.startup=" + std::to_string(t)}});
  ASSERT_EQ(runs[0].problem, "");
  EXPECT_EQ(runs[0].results["congestion"]["pipeline_cycles"].get<long>(), 1 + 1 + 2 * 4 + 3 + 1 + 1);
  EXPECT_EQ(runs[0].results["congestion"]["wait_cycles"].get<long>(), 0);
  EXPECT_EQ(runs[0].results["result"]["cycles"].get<long>(), (P - 2 + s) * (t + m));
}

// What preset=booksim fills on a torus (BookSim 2's kncube and dim_order)
// and what it leaves: the mesh keeps icnsim's own torus-free defaults, and a
// key the scenario gives wins over the preset.
TEST(VcRun, TheBooksimPresetFillsTheTorusKeysOnlyOnATorusAndNeverOverAGivenKey) {
  const auto results = run_scenarios({
      {"network.type=vc", "network.topology=torus", "preset=booksim", "traffic.injection_rate=0.01",
       "measure.cycles=200"},
      {"network.type=vc", "network.topology=mesh", "preset=booksim", "traffic.injection_rate=0.01",
       "measure.cycles=200"},
      {"network.type=vc", "network.topology=torus", "preset=booksim", "router.credit_delay=0",
       "network.channel_latency=1", "router.torus_ties=plus", "traffic.injection_rate=0.01", "measure.cycles=200"},
      {"network.type=vc", "network.topology=torus", "traffic.injection_rate=0.01", "measure.cycles=200"},
  });
  for (const auto& r : results) ASSERT_EQ(r.problem, "");
  auto key = [&](int i, const char* section, const char* k) { return results[i].results["scenario"][section][k]; };
  EXPECT_EQ(key(0, "network", "channel_latency"), 2);
  EXPECT_EQ(key(0, "network", "link_latency"), 1);
  EXPECT_EQ(key(0, "router", "credit_delay"), 1);
  EXPECT_EQ(key(0, "router", "dateline_classes"), "whole_dimension");
  EXPECT_EQ(key(0, "router", "torus_ties"), "random");
  EXPECT_EQ(key(1, "network", "channel_latency"), 0);  // the mesh: as network.link_latency
  EXPECT_EQ(key(1, "router", "credit_delay"), 1);  // BookSim's credit loop on every topology
  EXPECT_EQ(key(2, "network", "channel_latency"), 1);
  EXPECT_EQ(key(2, "router", "credit_delay"), 0);
  EXPECT_EQ(key(2, "router", "torus_ties"), "plus");
  EXPECT_EQ(key(2, "router", "dateline_classes"), "whole_dimension");
  EXPECT_EQ(key(3, "network", "channel_latency"), 0);  // no preset: icnsim's defaults
  EXPECT_EQ(key(3, "router", "credit_delay"), 0);
  EXPECT_EQ(key(3, "router", "dateline_classes"), "after_crossing");
  EXPECT_EQ(key(3, "router", "torus_ties"), "plus");
}

TEST(VcRun, LatencyStagesOnAnIdleNetworkEachTakeTheirConfiguredDelayAndSumToTheNetworkLatency) {
  // One packet from node 0 to node 63 of an idle 8x8 mesh: 15 routers, 16 links
  // (injection, 14 between routers, ejection). Every stage is a distinct delay,
  // so a cycle booked to the wrong stage shows. Buffers deep enough (16 flits)
  // that the body streams behind the head: serialization is flits - 1.
  const Pipeline p{2, 3, 1, 2, 3, 16, 5};
  const std::string trace = test::scratch_dir() + "/stages.txt";
  std::ofstream(trace) << "5 0 63 5\n";
  auto o = base(p, trace);
  o.push_back("traffic.packet_size=5");
  // The same packet behind a shallow buffer (4 flits, link 3: the credit loop
  // is longer than the buffer) waits for credits: the stages still add up.
  auto shallow = o;
  shallow.push_back("router.buffer_depth=4");
  const auto results = run_scenarios({o, shallow});
  const unsigned routers = 15, links = 16;
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    ASSERT_EQ(results[i].problem, "");
    const auto& lat = results[i].results["result"]["latency"];
    const auto& st = lat["stages"];
    const double sum = network_stages(st);
    EXPECT_EQ(sum, lat["network"]["mean"].get<double>());
    EXPECT_EQ(st["source_queue"].get<double>() + sum, lat["packet"]["mean"].get<double>());
    EXPECT_EQ(st["source_queue"].get<double>(), 1.0);  // written in the creation cycle, sent the next
    EXPECT_EQ(st["links"].get<double>(), double(links * p.link));
    EXPECT_EQ(st["routing"].get<double>(), double(routers * p.rd));
    EXPECT_EQ(st["vc_alloc"].get<double>(), double(routers * p.va));
    EXPECT_EQ(st["sw_alloc"].get<double>(), double(routers * p.sa));
    EXPECT_EQ(st["traversal"].get<double>(), double(routers * p.st));
    if (i == 0) {
      EXPECT_EQ(st["serialization"].get<double>(), double(p.flits - 1));
      EXPECT_EQ(lat["network"]["mean"].get<double>(), double(zero_load_latency(p, routers) - 1));
    } else {
      EXPECT_GT(st["serialization"].get<double>(), double(p.flits - 1)) << "the body waits for credits";
    }
  }
}

TEST(VcRun, AHeadWaitingBehindThePacketBeforeItInItsVcIsBookedToRouting) {
  // Two 5-flit packets from node 0 to node 63, made in the same cycle, on one
  // VC: at each router the second head arrives while the first packet still
  // holds the input VC, and starts route computation only once the first's
  // tail has left (routers/vc/stage_log.hpp: routing includes that wait). The
  // first packet's routing is routers x routing_delay, so the mean is more;
  // the stages still add up.
  const Pipeline p{2, 3, 1, 2, 3, 16, 5};
  const std::string trace = test::scratch_dir() + "/behind.txt";
  std::ofstream(trace) << "5 0 63 5\n5 0 63 5\n";
  auto o = base(p, trace);
  o.push_back("traffic.packet_size=5");
  o.push_back("router.vcs=1");
  const auto results = run_scenarios({o});
  ASSERT_EQ(results[0].problem, "");
  const auto& lat = results[0].results["result"]["latency"];
  const auto& st = lat["stages"];
  const unsigned routers = 15;
  EXPECT_GT(st["routing"].get<double>(), double(routers * p.rd));
  EXPECT_EQ(st["traversal"].get<double>(), double(routers * p.st));  // never waits
  const double sum = network_stages(st);
  EXPECT_EQ(sum, lat["network"]["mean"].get<double>());
}

TEST(VcRun, LatencyStagesUnderLoadStillSumToTheNetworkLatency) {
  // Near saturation heads wait in VC and switch allocation: the waits show
  // in those stages, and the stages still account for every cycle.
  const auto results = run_scenarios({{"network.type=vc", "preset=booksim", "traffic.injection_rate=0.3",
                                       "measure.cycles=3000"}});
  ASSERT_EQ(results[0].problem, "");
  const auto& lat = results[0].results["result"]["latency"];
  const auto& st = lat["stages"];
  const double sum = network_stages(st);
  EXPECT_NEAR(sum, lat["network"]["mean"].get<double>(), 1e-9 * sum);
  EXPECT_NEAR(st["source_queue"].get<double>() + sum, lat["packet"]["mean"].get<double>(), 1e-9 * sum);
  const double hops = results[0].results["result"]["hops"]["mean"].get<double>();
  EXPECT_NEAR(st["links"].get<double>(), hops + 1, 1e-9);  // link latency 1, one more link than routers
  EXPECT_NEAR(st["traversal"].get<double>(), hops, 1e-9);  // st_delay 1, never waits
  EXPECT_GT(st["vc_alloc"].get<double>() + st["sw_alloc"].get<double>(), 2 * hops) << "contention shows as waiting";
}

TEST(VcRun, APacketHoldsItsVcUntilItsTailLeaves) {
  // Nodes 0 and 2 of a 3-router line each send one 8-flit packet to node 1 in
  // the same cycle: both reach router 1 at the same time and compete for its
  // ejection port. With one VC the first packet holds the ejection VC until its
  // tail has left, so the second follows it whole: its tail arrives at least
  // 8 cycles later. With two VCs the packets share the port flit by flit and
  // finish within a cycle or two of each other. In both cases every packet
  // arrives whole (the NIC counts the flits of each VC's packet).
  const std::string trace = test::scratch_dir() + "/two.txt";
  std::ofstream(trace) << "5 0 1 8\n5 2 1 8\n";
  std::vector<std::vector<std::string>> runs;
  for (const char* vcs : {"1", "2"})
    runs.push_back({"network.type=vc", "network.k=3", "network.n=1", std::string("router.vcs=") + vcs,
                    "router.buffer_depth=8", "traffic.pattern=trace", "traffic.trace_file=" + trace,
                    "measure.cycles=10"});
  const auto results = run_scenarios(runs);
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(results[i].problem, "") << i;
    const auto& lat = results[i].results["result"]["latency"]["packet"];
    ASSERT_EQ(lat["count"].get<unsigned>(), 2u);
    const unsigned spread = lat["max"].get<unsigned>() - lat["min"].get<unsigned>();
    if (i == 0) {
      EXPECT_GE(spread, 8u) << "one VC: the second packet waits for the whole first one";
    } else {
      EXPECT_LE(spread, 2u) << "two VCs: the packets interleave";
    }
    // One VC: the winner streams as if alone on an idle network. Two VCs: the
    // packets split the ejection port, so both are slower than alone.
    const unsigned alone = zero_load_latency({1, 1, 1, 1, 1, 8, 8}, 2);
    if (i == 0) {
      EXPECT_EQ(lat["min"].get<unsigned>(), alone);
    } else {
      EXPECT_GT(lat["min"].get<unsigned>(), alone);
    }
  }
}

TEST(VcRun, AcceptedThroughputEqualsOfferedBelowSaturationAndEveryFlitArrivesAtFullLoad) {
  const auto results = run_scenarios({
      {"network.type=vc", "preset=booksim", "traffic.injection_rate=0.2"},
      {"network.type=vc", "network.topology=torus", "preset=booksim", "traffic.injection_rate=0.1"},
      // Full load: far beyond saturation, a fixed window, then every packet drained.
      {"network.type=vc", "network.k=4", "traffic.injection_rate=1", "measure.cycles=1500"},
      {"network.type=vc", "network.k=4", "network.topology=torus", "traffic.pattern=tornado",
       "traffic.injection_rate=1", "measure.cycles=1500", "traffic.packet_size=[1,3,8]"},
      // West-first adaptive routing, also beyond saturation: deadlock free, nothing lost.
      {"network.type=vc", "network.k=4", "router.routing=adaptive", "traffic.pattern=transpose",
       "traffic.injection_rate=1", "measure.cycles=1500"},
  });
  for (int i = 0; i < 2; ++i) {
    const auto& t = results[i].results["result"]["throughput"];
    EXPECT_EQ(results[i].problem, "");
    EXPECT_TRUE(results[i].results["result"]["stable"].get<bool>());
    const double offered = t["offered"].get<double>(), accepted = t["accepted"].get<double>();
    EXPECT_NEAR(offered, i == 0 ? 0.2 : 0.1, 0.01);
    EXPECT_NEAR(accepted, offered, 0.02 * offered);
  }
  for (int i = 2; i < 5; ++i) {
    const auto& r = results[i].results["result"];
    EXPECT_EQ(results[i].problem, "") << i;
    EXPECT_EQ(r["packets"]["created"], r["packets"]["delivered"]) << i;
    EXPECT_EQ(r["packets"]["held_at_end"].get<unsigned>(), 0u) << i;
    EXPECT_LT(r["throughput"]["accepted"].get<double>(), 0.9) << "saturated, so accepted < offered";
    EXPECT_TRUE(r["verified"].get<bool>());
  }
}

TEST(VcRun, ABernoulliSourceOffersItsRateAtHighPacketRates) {
  // One-flit packets at 0.5 and 0.8 packets per node and cycle: a Bernoulli
  // process makes a packet in each cycle with that probability, so over
  // 16 nodes x 4000 cycles the offered load is the rate within 0.01 (about
  // 5 standard deviations). At such rates a gap between packets off by one
  // cycle (a rounding error in drawing the geometric gaps) would offer
  // p / (1 + p): 0.33 and 0.44.
  const auto results = run_scenarios({
      {"network.type=vc", "network.k=4", "traffic.injection_rate=0.5", "traffic.packet_size=1", "measure.cycles=4000"},
      {"network.type=vc", "network.k=4", "traffic.injection_rate=0.8", "traffic.packet_size=1", "measure.cycles=4000"},
  });
  for (int i = 0; i < 2; ++i)
    EXPECT_NEAR(results[i].results["result"]["throughput"]["offered"].get<double>(), i == 0 ? 0.5 : 0.8, 0.01);
}

TEST(VcRun, HotspotOnOffAndSizeListsOfferWhatTheyShould) {
  const auto results = run_scenarios({
      // Half the packets to node 5: node 5 accepts about 0.5 x 64 x rate + its uniform share.
      {"network.type=vc", "preset=booksim", "traffic.pattern=hotspot", "traffic.hotspot_fraction=0.5",
       "traffic.hotspot_nodes=[5]", "traffic.injection_rate=0.01", "measure.cycles=10000"},
      // Bursty on/off source with the same average load as Bernoulli.
      {"network.type=vc", "preset=booksim", "traffic.injection=onoff", "traffic.burst_alpha=0.02",
       "traffic.burst_beta=0.06", "traffic.injection_rate=0.1", "measure.cycles=10000"},
      // Sizes 1 and 7 with weights 3:1: mean 2.5 flits; the flit rate is what is offered.
      {"network.type=vc", "preset=booksim", "traffic.packet_size=[1,7]", "traffic.packet_size_weights=[3,1]",
       "traffic.injection_rate=0.1", "measure.cycles=10000"},
      {"network.type=vc", "preset=booksim", "traffic.injection_rate=0.1", "measure.cycles=10000"},
  });
  for (const auto& r : results) EXPECT_EQ(r.problem, "");
  const auto& hot = results[0].results["result"]["throughput"];
  // Expected at node 5: 64 nodes x 0.01 x (0.5 + 0.5 / 64) flits per cycle.
  EXPECT_NEAR(hot["accepted_max"].get<double>(), 64 * 0.01 * (0.5 + 0.5 / 64), 0.05);
  EXPECT_NEAR(results[1].results["result"]["throughput"]["offered"].get<double>(), 0.1, 0.01);
  EXPECT_NEAR(results[2].results["result"]["throughput"]["offered"].get<double>(), 0.1, 0.006);
  // Bursts queue at the source: the same load waits longer than Bernoulli's.
  EXPECT_GT(results[1].results["result"]["latency"]["packet"]["p99"].get<double>(),
            results[3].results["result"]["latency"]["packet"]["p99"].get<double>());
}

TEST(VcRun, TorusWithoutDatelinesDeadlocksAndTheWatchdogNamesTheWaitingCycle) {
  const std::string scenario = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/torus8_deadlock.yaml";
  const auto r = run_icnsim("run " + scenario, 60);
  EXPECT_EQ(r.exit_code, 1);
  const auto at = r.err.find("waiting cycle: ");
  ASSERT_NE(at, std::string::npos) << r.err;
  // The cycle closes: it ends at the channel it started from.
  std::string cycle = r.err.substr(at + 15);
  cycle = cycle.substr(0, cycle.find('\n'));
  const std::string first = cycle.substr(0, cycle.find(" -> "));
  EXPECT_EQ(cycle.substr(cycle.rfind(" -> ") + 4), first) << cycle;
  EXPECT_NE(r.err.find("stall"), std::string::npos);
  // With datelines the same traffic (lighter, to finish fast) completes.
  const auto ok = run_icnsim("run " + scenario + " --set router.dateline=true --set traffic.injection_rate=0.1", 60);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// The dateline classes are what keeps the ring free of deadlock, so they must
// hold where deadlock is likeliest: every node offering a flit every cycle,
// one flit of buffer per VC and packets twice as long as the ring. A VC
// allocator that granted a VC outside the routing function's mask (losing the
// classes) deadlocks here; at the light load of the test above it does not.
namespace {
// The dateline stress on torus8_deadlock.yaml with `sets` added: every node
// offering a flit every cycle, one-flit buffers, 16-flit packets; the run must
// complete verified and saturated (far less accepted than offered).
void expect_full_load_ring_completes(const std::string& sets, const std::string& json_name) {
  const std::string scenario = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/torus8_deadlock.yaml";
  const std::string json = test::scratch_dir() + "/" + json_name;
  const auto r = run_icnsim("run " + scenario + " --set router.dateline=true" + sets +
                                " --set traffic.injection_rate=1 --set router.buffer_depth=1"
                                " --set traffic.packet_size=16 --set measure.cycles=3000 --json " + json,
                            120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["result"]["status"], "completed");
  EXPECT_EQ(j["result"]["verified"], true);
  EXPECT_LT(j["result"]["throughput"]["accepted"].get<double>(), 0.5);
}
}  // namespace

TEST(VcRun, DatelineRingCompletesAtFullLoadWithOneFlitBuffersAndLongPackets) {
  expect_full_load_ring_completes("", "full.json");
}

// The same stress for BookSim 2's classes (one class per dimension, chosen by
// the coordinate order) with random ties, on the 8-ring and on an 8x8 torus:
// a class assignment that let one class close the ring deadlocks here.
TEST(VcRun, WholeDimensionClassesCompleteAtFullLoadWithOneFlitBuffersAndLongPackets) {
  for (const char* n : {"1", "2"}) {
    SCOPED_TRACE(n);
    expect_full_load_ring_completes(std::string(" --set router.dateline_classes=whole_dimension"
                                                " --set router.torus_ties=random --set network.n=") + n,
                                    std::string("whole") + n + ".json");
  }
}

namespace {
// Every number in a results file, with its path: no sentinel (an unsigned -1,
// or any value near 2^64) may ever reach the output.
void expect_no_sentinel(const nlohmann::json& j, const std::string& path) {
  if (j.is_object() || j.is_array()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      expect_no_sentinel(*it, path + "/" + (j.is_object() ? it.key() : std::to_string(std::distance(j.begin(), it))));
  } else if (j.is_number_unsigned()) {
    EXPECT_LT(j.get<std::uint64_t>(), std::uint64_t{1} << 62) << path;
  }
}
}  // namespace

// Past saturation the run turns unstable during warm-up. It must still say
// what the network did: the offered load it was given, the accepted
// throughput (under the bisection bound of an 8x8 mesh, 4/k = 0.5 flits per
// node and cycle for uniform traffic), and the latency of the packets that
// arrived, all marked unstable, with the window named.
TEST(VcRun, ASaturatedRunReportsWhatItMeasured) {
  const std::string json = test::scratch_dir() + "/sat.json";
  const auto r = run_icnsim("run " + std::string(ICNSIM_SOURCE_DIR) +
                            "/testbench/scenarios/mesh8x8_uniform.yaml --set traffic.injection_rate=0.7 --json " + json);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(test::read_file(json));
  const auto& res = j["result"];
  EXPECT_EQ(res["stable"], false);
  EXPECT_EQ(res["verified"], true);
  EXPECT_EQ(res["phases"]["window"], "last_warmup_period");
  const double offered = res["throughput"]["offered"].get<double>();
  const double accepted = res["throughput"]["accepted"].get<double>();
  EXPECT_NEAR(offered, 0.7, 0.7 * 0.05);
  EXPECT_GT(accepted, 0.2);
  EXPECT_LE(accepted, 0.5);
  EXPECT_GT(res["latency"]["packet"]["count"].get<std::uint64_t>(), 0u);
  EXPECT_GT(res["latency"]["packet"]["mean"].get<double>(), res["latency"]["network"]["mean"].get<double>());
  const auto start = res["phases"]["measure_start"].get<std::uint64_t>();
  const auto end = res["phases"]["measure_end"].get<std::uint64_t>();
  EXPECT_EQ(end - start, 1000u) << "one sample period";
  expect_no_sentinel(j, "");
  // The table shows the same figures, not zeros.
  EXPECT_EQ(r.out.find("0.0000   0.0000"), std::string::npos) << r.out;
}

TEST(VcRun, SameSeedSameResultsAndBothSchedulersAgree) {
  const std::string dir = test::scratch_dir();
  const std::string args = "run " + std::string(ICNSIM_SOURCE_DIR) +
                           "/testbench/scenarios/mesh8x8_uniform.yaml --set traffic.injection_rate=0.25 --json ";
  ASSERT_EQ(run_icnsim(args + dir + "/a.json").exit_code, 0);
  ASSERT_EQ(run_icnsim(args + dir + "/b.json").exit_code, 0);
  ASSERT_EQ(run_icnsim(args + dir + "/c.json --set run.scheduler=per_block_methods").exit_code, 0);
  ASSERT_EQ(run_icnsim(args + dir + "/d.json --set seed=2").exit_code, 0);
  auto load = [&](const char* f) {
    return test::deterministic_part(nlohmann::ordered_json::parse(test::read_file(dir + "/" + f)));
  };
  const auto a = load("a.json"), b = load("b.json"), c = load("c.json"), d = load("d.json");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a["result"], c["result"]);
  EXPECT_NE(a["result"]["latency"], d["result"]["latency"]);
}

// From 4096 routers the engine sweeps the VC routers in address order and
// loads each a few routers ahead (vc::sweep_for): the results
// are those of one SC_METHOD per block, which evaluates in SystemC's order.
TEST(VcRun, A64x64MeshSweptInAddressOrderAgreesWithPerBlockMethods) {
  const std::string dir = test::scratch_dir();
  const std::string args = "run " + std::string(ICNSIM_SOURCE_DIR) +
                           "/testbench/scenarios/mesh8x8_uniform.yaml --set network.k=64 "
                           "--set traffic.injection_rate=0.02 --set measure.cycles=100 --set measure.drain_all=false --json ";
  ASSERT_EQ(run_icnsim(args + dir + "/a.json").exit_code, 0);
  ASSERT_EQ(run_icnsim(args + dir + "/b.json --set run.scheduler=per_block_methods").exit_code, 0);
  auto load = [&](const char* f) {
    return test::deterministic_part(nlohmann::ordered_json::parse(test::read_file(dir + "/" + f)));
  };
  const auto a = load("a.json"), b = load("b.json");
  EXPECT_EQ(a["result"]["verified"], true);
  EXPECT_GT(a["result"]["packets"]["delivered"].get<std::uint64_t>(), 1000u);
  EXPECT_EQ(a["result"], b["result"]);
}

// The resource guard: the estimate printed when run.max_memory is too small is
// within a factor of 2 of the peak RSS the run then reports (release build;
// sanitizer builds use more memory, so only the refusal is checked there).
TEST(VcRun, ResourceEstimateIsWithinAFactorOfTwoOfMeasuredMemory) {
  const std::string scenario = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/mesh8x8_uniform.yaml";
  const std::string light = " --set preset=none --set traffic.injection_rate=0.01 --set measure.cycles=50 "
                            "--set measure.drain_all=false";
  const std::vector<std::string> runs = {
      "run " + scenario + light + " --set network.k=40",
      "run " + scenario + light + " --set network.k=32 --set router.vcs=8 --set router.buffer_depth=64",
      "run " + scenario + light + " --set network.k=12 --set network.n=3",
      "run " + scenario + light + " --set network.k=24 --set network.topology=torus --set router.vcs=4 "
                                  "--set router.buffer_depth=256",
  };
  const bool sanitized = std::getenv("ASAN_OPTIONS") != nullptr;
  for (const auto& args : runs) {
    SCOPED_TRACE(args);
    const auto refused = run_icnsim(args + " --set run.max_memory=1MiB");
    ASSERT_EQ(refused.exit_code, 2) << refused.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(refused.err, m, std::regex("needs about ([0-9.]+) (MiB|GiB)"))) << refused.err;
    EXPECT_NE(refused.err.find("raise run.max_memory"), std::string::npos) << refused.err;
    const double estimate = std::stod(m[1]) * (m[2] == "GiB" ? 1024.0 : 1.0);
    if (sanitized) continue;
    const std::string json = test::scratch_dir() + "/mem.json";
    ASSERT_EQ(run_icnsim(args + " --quiet --json " + json, 120).exit_code, 0);
    const double measured =
        nlohmann::json::parse(test::read_file(json))["sim"]["peak_rss_mb"].get<double>() * 1e6 / (1 << 20);
    EXPECT_GT(estimate, measured / 2) << "measured " << measured << " MiB";
    EXPECT_LT(estimate, measured * 2) << "measured " << measured << " MiB";
  }
  // 256x256 routers with 9 VCs x 1024 flits would need about 50 GB: refused at once.
  test::expect_rejected("run " + scenario + " --set network.k=256 --set router.vcs=9 --set router.buffer_depth=1024 "
                        "--set run.max_memory=2GiB",
                        "65536 routers");
  // A fixed window longer than run.max_cycles cannot finish.
  test::expect_rejected("run " + scenario + " --set measure.cycles=5000 --set run.max_cycles=4000",
                        "needs at least 5e+03 cycles");
}

// Fault injection: a failed link either blocks traffic, and the run ends
// unverified naming the place that waits on it, or (when nothing needs it)
// changes nothing. Never a silently verified run.
TEST(VcRun, AFailedLinkEndsInAClearVerdict) {
  const std::string scenario = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/mesh8x8_uniform.yaml";
  const std::string json = test::scratch_dir() + "/fault.json";
  struct Case {
    std::string args, needle;
  };
  const std::vector<Case> cases = {
      // Warm-up/measure/drain phases: the measured packets behind the link age
      // beyond the latency threshold.
      {"--set 'network.failed_links=[r3_3.x+]'", "r3_3 input local vc0 waits on the failed link r3_3.x+"},
      // A fixed window: the drain gives up once the stuck packets are older
      // than the latency threshold.
      {"--set 'network.failed_links=[r3_3.x+]' --set measure.cycles=2000", "waits on the failed link r3_3.x+"},
      {"--set 'network.failed_links=[nic5.up]'", "behind the failed link nic5.up"},
      {"--set 'network.failed_links=[r7_7.local]'", "waits on the failed link r7_7.local"},  // node 63's ejection
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const auto r = run_icnsim("run " + scenario + " --quiet --json " + json + " " + c.args, 120);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto j = nlohmann::json::parse(test::read_file(json))["result"];
    EXPECT_FALSE(j["verified"].get<bool>());
    EXPECT_NE(j["problem"].get<std::string>().find(c.needle), std::string::npos) << j["problem"];
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << r.err;
  }
  // Node 0 sends to node 1 only: a failed link on the far side of the mesh is
  // never needed, and the run completes verified with every packet delivered.
  const std::string trace = test::scratch_dir() + "/near.txt";
  std::ofstream(trace) << "5 0 1 4\n9 0 1 4\n";
  // Node 0 sends three packets to node 2 (X-Y routing: r0_0.x+, then
  // r1_0.x+): a failed r1_0.x+ is asked for by the first packet's head, which
  // then blocks the others behind it in the same VC; node 7 sends two packets
  // of its own on a failed injection link, both of which needed it.
  const std::string far = test::scratch_dir() + "/far.txt";
  std::ofstream(far) << "5 0 2 4\n6 0 2 4\n7 0 2 4\n5 7 3 4\n9 7 3 4\n";
  // One simulation per process: both runs in one kernel.
  const auto runs = run_scenarios({{"network.type=vc", "traffic.pattern=trace", "traffic.trace_file=" + trace,
                                    "measure.cycles=20", "network.failed_links=[r6_6.x+, nic40.up]"},
                                   {"network.type=vc", "traffic.pattern=trace", "traffic.trace_file=" + far,
                                    "measure.cycles=20", "network.failed_links=[r1_0.x+, nic7.up, r6_6.x+]"}});
  const auto& ok = runs;
  EXPECT_EQ(ok[0].problem, "");
  EXPECT_EQ(ok[0].results["result"]["packets"]["delivered"].get<unsigned>(), 2u);
  // Each failed link says whether anything asked for it: here nothing did.
  const auto& unused = ok[0].results["failed_links"];
  ASSERT_EQ(unused.size(), 2u) << ok[0].results.dump();
  for (const auto& l : unused) {
    EXPECT_EQ(l["requests"], 0) << l;
    EXPECT_EQ(l["status"], "unused") << l;
    EXPECT_EQ(l["unit"], "packets") << l;
  }
  EXPECT_EQ(unused[0]["link"], "r6_6.x+");
  EXPECT_EQ(unused[1]["link"], "nic40.up");

  EXPECT_NE(runs[1].problem, "");
  const auto& used = runs[1].results["failed_links"];
  ASSERT_EQ(used.size(), 3u) << runs[1].results.dump();
  EXPECT_EQ(used[0]["status"], "needed");
  EXPECT_GE(used[0]["requests"].get<unsigned>(), 1u);
  EXPECT_LE(used[0]["requests"].get<unsigned>(), 3u);
  EXPECT_EQ(used[1]["requests"], 2);
  EXPECT_EQ(used[2]["status"], "unused");
}

TEST(VcRun, FailedLinkNamesAreParsedOnceAndStrictly) {
  const std::string run = "run " + std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/mesh8x8_uniform.yaml ";
  // Out of range, a mesh edge without a link, leading zeros, signs, the wrong
  // number of coordinates, ports of another topology, no port at all.
  for (const char* bad : {"r8_0.x+", "r0_0.x-", "r7_3.x+", "r00_1.x+", "r+1_0.x+", "r1_-0.x+", "r0_1_2.x+", "r1.x+",
                          "nic64.up", "nic03.up", "nic3.down", "r1_0.up", "r1_0.z+", "r1_0", ".x+", "r4294967297_0.x+"})
    test::expect_rejected(run + "--set 'network.failed_links=[" + bad + "]'", std::string("'") + bad + "' is not a link");
  test::expect_rejected(run + "--set network.failed_links=r1_0.x+", "expected a list");
}

TEST(VcRun, BadParametersAreRejectedWithOneLine) {
  const std::string dir = test::scratch_dir();
  std::ofstream(dir + "/vc.yaml") << "network:\n  type: vc\n";
  const std::string run = "run " + dir + "/vc.yaml ";
  test::expect_rejected(run + "--set router.vcs=0", "router.vcs");
  test::expect_rejected(run + "--set router.buffer_depth=0", "router.buffer_depth");
  test::expect_rejected(run + "--set traffic.pattern=hotspot --set traffic.hotspot_fraction=1.5", "traffic.hotspot_fraction");
  test::expect_rejected(run + "--set network.topology=torus --set router.vcs=1", "router.vcs");
  test::expect_rejected(run + "--set traffic.pattern=bitrev --set network.k=5", "traffic.pattern");
  test::expect_rejected(run + "--set router.routing=adaptive --set network.topology=torus", "router.routing");
  test::expect_rejected(run + "--set network.channel_latency=65", "network.channel_latency");
  test::expect_rejected(run + "--set network.topology=torus --set router.dateline_classes=sideways",
                        "router.dateline_classes");
  test::expect_rejected(run + "--set network.topology=torus --set router.torus_ties=minus", "router.torus_ties");
  std::ofstream(dir + "/unknown.txt") << "10 0 64 4\n";
  test::expect_rejected(run + "--set traffic.pattern=trace --set traffic.trace_file=" + dir + "/unknown.txt", "unknown node");
  std::ofstream(dir + "/bad.txt") << "10 0 1 4\n12 zero 1 4\n";
  test::expect_rejected(run + "--set traffic.pattern=trace --set traffic.trace_file=" + dir + "/bad.txt", "line 2");
  // A directory, a device or an empty file is no trace (it used to run with no traffic, "verified").
  test::expect_rejected(run + "--set traffic.pattern=trace --set traffic.trace_file=" + dir, "not a regular file");
  test::expect_rejected(run + "--set traffic.pattern=trace --set traffic.trace_file=/dev/zero", "not a regular file");
  std::ofstream(dir + "/empty.txt") << "# nothing\n";
  test::expect_rejected(run + "--set traffic.pattern=trace --set traffic.trace_file=" + dir + "/empty.txt", "no packets");
}

}  // namespace icn
