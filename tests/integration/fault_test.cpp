// Fault injection on every family: a failed link ends in a clear verdict — a
// stall the watchdog names, or lost messages counted and a cycle limit —
// never a crash and never a "verified" run.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <nlohmann/json.hpp>

#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {
nlohmann::json run_json(const std::string& args, int expect_exit) {
  const std::string json = scratch_dir() + "/fault.json";
  const CommandResult r = run_icnsim(args + " --json " + json);
  EXPECT_EQ(r.exit_code, expect_exit) << r.err;
  std::ifstream in(json);
  return nlohmann::json::parse(in);
}
}  // namespace

TEST(Faults, PacketFatTreeStallIsNamedAndComparesWithNoPaperValue) {
  const auto j = run_json("run " + kScenarios + "fattree_cbft16_total_exchange.yaml --set 'network.failed_links=[nic3.up]'", 1);
  EXPECT_EQ(j["result"]["status"], "stalled");
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_TRUE(j["result"]["expected"]["matches_paper"].is_null());
  EXPECT_NE(j["result"]["problem"].get<std::string>().find("nic3"), std::string::npos);
}

// Packet fat tree (16 leaves, CBFT): each failed channel reports the packets
// the block driving it routed to it (a router's output, a NIC's link up).
TEST(Faults, PacketFatTreeFailedChannelsReportThePacketsRoutedToThem) {
  const std::string tree = "run /dev/null --set network.type=fattree_packet --set network.leaves=16";
  // A broadcast from leaf 0 climbs from r1_0 to the root and comes down every
  // other branch: nothing ever goes up from r1_3 (leaves 6 and 7), and leaf 5
  // sends nothing. The run is verified and both cuts say they were not tested.
  const auto unused = run_json(tree + " --set traffic.collective=broadcast --set 'network.failed_links=[r1_3.up, nic5.up]'", 0);
  EXPECT_EQ(unused["result"]["verified"], true);
  ASSERT_EQ(unused["failed_links"].size(), 2u) << unused.dump();
  EXPECT_EQ(unused["failed_links"][0]["link"], "r1_3.up");
  EXPECT_EQ(unused["failed_links"][1]["link"], "nic5.up");
  for (const auto& l : unused["failed_links"]) {
    EXPECT_EQ(l["requests"], 0) << l;
    EXPECT_EQ(l["status"], "unused") << l;
    EXPECT_EQ(l["unit"], "packets") << l;
  }
  // A multinode broadcast: every leaf broadcasts one packet. r2_1.down0 leads
  // to r1_2 (leaves 4 and 5); the packets of the 14 other leaves reach r2_1
  // from its up port or from r1_3 and are routed down it, while 4's and 5's
  // come up through it and turn at r1_2. Output queues are unbounded, so all
  // 14 get there although the cut stalls the run.
  const auto needed =
      run_json(tree + " --set traffic.collective=multinode_broadcast --set 'network.failed_links=[r2_1.down0]'", 1);
  EXPECT_EQ(needed["result"]["verified"], false);
  ASSERT_EQ(needed["failed_links"].size(), 1u) << needed.dump();
  const auto& cut = needed["failed_links"][0];
  EXPECT_EQ(cut["status"], "needed");
  EXPECT_EQ(cut["requests"], 14);
  // Independently: each of those packets misses both leaves 4 and 5, and the
  // stall report finds them all held at the cut.
  const auto& m = needed["result"]["messages"];
  EXPECT_EQ(m["deliveries_expected"].get<std::uint64_t>() - m["delivered"].get<std::uint64_t>(),
            2 * cut["requests"].get<std::uint64_t>());
  EXPECT_EQ(needed["result"]["held"][0]["packets"], cut["requests"]) << needed["result"]["held"];
}

TEST(Faults, TorusStallIsNamedAndHasNoDifferenceFromThePaper) {
  const auto j = run_json("run " + kScenarios + "torus_global_3d.yaml --set 'network.failed_links=[0.x+]'", 1);
  EXPECT_NE(j["result"]["status"], "completed");
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_TRUE(j["result"]["expected"]["difference"].is_null());
}

// Torus/iBT: a failed link reports the packets its router owed it, i.e. took
// while the neighbour (as its status showed) did not hold them, on a port the
// packet's colour may use. A line broadcast of k = 32 packets along x from
// node 0 = (0,0) in Torus(8^2) (node 1 = (1,0), node 9 = (1,1)).
TEST(Faults, TorusFailedLinkReportsThePacketsItsRouterOwedIt) {
  const std::string line = "run /dev/null --set network.type=torus --set network.n=8 --set network.d=2"
                           " --set traffic.collective=line_broadcast --set traffic.packets=32";
  // The line's colour uses only x ports, so node 0 never wants 0.y+; node 9 is
  // off the line and gets nothing; node 1 may send back along x-, but every
  // packet it gets comes from node 0, which holds it already. The run is verified.
  const auto unused = run_json(line + " --set 'network.failed_links=[0.y+, 1.x-, 9.x+]'", 0);
  EXPECT_EQ(unused["result"]["verified"], true);
  ASSERT_EQ(unused["failed_links"].size(), 3u) << unused.dump();
  EXPECT_EQ(unused["failed_links"][1]["link"], "1.x-");
  for (const auto& l : unused["failed_links"]) {
    EXPECT_EQ(l["requests"], 0) << l;
    EXPECT_EQ(l["status"], "unused") << l;
    EXPECT_EQ(l["unit"], "packets") << l;
  }
  // Cut 0.x+: the source owes node 1 each of its k packets when it takes it
  // (node 1 can get a packet only after node 0 has sent it the other way
  // round the ring), so requests = k exactly; the ring carries them round to
  // node 1 and the run completes verified, later than without the fault.
  const auto healthy = run_json(line, 0);
  const auto needed = run_json(line + " --set 'network.failed_links=[0.x+]'", 0);
  EXPECT_EQ(needed["result"]["verified"], true);
  EXPECT_GT(needed["result"]["cycles"].get<int>(), healthy["result"]["cycles"].get<int>());
  ASSERT_EQ(needed["failed_links"].size(), 1u) << needed.dump();
  EXPECT_EQ(needed["failed_links"][0]["status"], "needed");
  EXPECT_EQ(needed["failed_links"][0]["requests"], needed["broadcast"]["packets"]);
  EXPECT_EQ(needed["failed_links"][0]["requests"], 32);
}

// Bit-serial trees: a message whose streams vanish on a cut or stuck wire is
// retried (greedy routing), but a fault-free tree acknowledges at least one
// stream in every delivery cycle that sends any, so once nothing is
// acknowledged for run.watchdog_cycles the watchdog stops the run, long before
// run.max_cycles, and names the wire where the streams vanished.
TEST(Faults, BitSerialCutDataWireStopsTheRunAtTheWatchdogNamingTheWire) {
  const auto j = run_json("run " + kScenarios + "fattree_bitserial_doubling64_random.yaml"
                          " --set 'network.failed_links=[nic3.up]' --set run.max_cycles=10000000", 1);
  EXPECT_EQ(j["result"]["status"], "stalled");
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_GT(j["result"]["messages"]["lost"].get<int>(), 0);
  EXPECT_LT(j["sim"]["simulated_cycles"].get<double>(), 1e6);
  EXPECT_TRUE(j["result"]["expected"]["meets_lower_bound"].is_null());
  const std::string problem = j["result"]["problem"].get<std::string>();
  EXPECT_NE(problem.find("pe3"), std::string::npos) << problem;
  EXPECT_NE(problem.find("streams vanish on nic3.up (cut)"), std::string::npos) << problem;
}

TEST(Faults, BitSerialCutAcknowledgeWireMakesSendersRetryDeliveredMessages) {
  // The receiver gets the stream but the sender never hears of it: it counts
  // the message lost and sends it again, so the receiver sees duplicates; the
  // watchdog names the acknowledge wire where the acknowledges vanish.
  const auto j = run_json("run " + kScenarios + "fattree_bitserial_doubling64_random.yaml"
                          " --set 'network.failed_links=[s1_1.up.ack]' --set run.max_cycles=10000000", 1);
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_EQ(j["result"]["status"], "stalled");
  EXPECT_GT(j["result"]["messages"]["lost"].get<int>(), 0);
  const std::string problem = j["result"]["problem"].get<std::string>();
  EXPECT_NE(problem.find("s1_1.up.ack (cut)"), std::string::npos) << problem;
  EXPECT_NE(problem.find("acknowledge(s)"), std::string::npos) << problem;
}

// Stuck-at faults on a data path of a 16-processor tree (H = 4), permutation traffic.
const std::string kBitSerial16 = "run /dev/null --set network.type=fattree_bitserial --set network.processors=16";

TEST(Faults, BitSerialStuckAtZeroHidesTheMessageBitAndTheWatchdogNamesTheWire) {
  // M = 1 arrives as 0: the switch never sees a stream start, no acknowledge
  // comes back, and processor 3 retries its message until the watchdog, with
  // no acknowledged message for run.watchdog_cycles, stops the run.
  const auto j = run_json(kBitSerial16 + " --set 'network.stuck_bits=[nic3.up.p0:0]' --set run.max_cycles=10000000"
                          " --set run.watchdog_cycles=5000", 1);
  EXPECT_EQ(j["result"]["status"], "stalled");
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_GT(j["result"]["messages"]["lost"].get<int>(), 0);
  EXPECT_EQ(j["result"]["messages"]["lost"], j["result"]["messages"]["retried"]);
  EXPECT_EQ(j["result"]["messages"]["delivered"], 15);  // everybody else's message
  // Every stream sent and not delivered vanished on the wire (the last one
  // still in flight when the watchdog fired), and nothing else did.
  const std::string problem = j["result"]["problem"].get<std::string>();
  EXPECT_NE(problem.find("pe3"), std::string::npos) << problem;
  const int vanished = j["result"]["messages"]["sent"].get<int>() - j["result"]["messages"]["delivered"].get<int>();
  const std::string wire = "streams vanish on nic3.up.p0 (stuck at 0): " + std::to_string(vanished) + " stream(s)";
  EXPECT_NE(problem.find(wire), std::string::npos) << problem;
  // The run ended within a watchdog period (plus a delivery cycle) of the last acknowledge.
  const int last_cycle = j["sim"]["simulated_cycles"].get<int>();
  EXPECT_LE(last_cycle, j["result"]["cycles"].get<int>() + 5000 + j["result"]["delivery_cycle_length"].get<int>());
  EXPECT_EQ(j["faults"]["stuck_bits"][0]["wire"], "nic3.up.p0");
  EXPECT_GT(j["faults"]["stuck_bits"][0]["bits_changed"].get<int>(), 0);
}

TEST(Faults, BitSerialHealthyTreesAcknowledgeAMessageInEveryDeliveryCycle) {
  // The watchdog's premise: with run.watchdog_cycles as small as it may be
  // (two delivery cycles), no fault-free run is stopped, whatever the traffic,
  // contention (all to one: one stream gets through per delivery cycle) included.
  for (const char* traffic : {"traffic.pattern=permutation", "traffic.pattern=all_to_one", "traffic.pattern=random",
                              "traffic.pattern=random --set traffic.load_factor=4"}) {
    SCOPED_TRACE(traffic);
    const auto j = run_json(kBitSerial16 + " --set " + traffic + " --set run.watchdog_cycles=1", 0);
    EXPECT_EQ(j["result"]["status"], "completed");
    EXPECT_EQ(j["result"]["verified"], true);
  }
}

TEST(Faults, BitSerialStuckAtOneMisdeliversACorruptedMessage) {
  // Every bit of processor 3's stream arrives as 1. Scheme 1 (Ishii, section 2):
  // from branch 1 a routing bit 1 leads to branch 0, so the stream turns at
  // level 1 into processor 2 (3 xor 1); its message bits, all ones, read as
  // source 15 and sequence number 65535: processor 2 reports a message it
  // never expected, and the run is not verified.
  const auto j = run_json(kBitSerial16 + " --set 'network.stuck_bits=[nic3.up.p0:1]'", 1);
  EXPECT_EQ(j["result"]["verified"], false);
  const std::string problem = j["result"]["problem"].get<std::string>();
  EXPECT_NE(problem.find("pe2: unexpected message from 15 seq 65535"), std::string::npos) << problem;
}

TEST(Faults, BitSerialStuckAtOneAboveLevelOneSteersAStreamOutOfTheRoot) {
  // Path 1 of s2_0.up carries a stream only when path 0 is taken (doubling:
  // two paths); every routing bit reads 1, and from a branch bit 1 leads up
  // the trunk, so the stream climbs to the root and asks for its missing trunk.
  const auto j = run_json(kBitSerial16 + " --set 'network.stuck_bits=[s2_0.up.p1:1]'", 1);
  EXPECT_EQ(j["result"]["verified"], false);
  const std::string problem = j["result"]["problem"].get<std::string>();
  EXPECT_NE(problem.find("steered to a port that does not exist"), std::string::npos) << problem;
}

// Each cut channel reports what the block driving it asked of it: streams a
// switch routed to it (or a NIC started on it), acknowledges for a cut
// acknowledge wire. Processor 0 sends one message to processor 1: up nic0.up,
// turned by s1_0 down s1_0.down1; processor 1 acknowledges on
// s1_0.down1.ack, and s1_0 passes it on along nic0.up.ack.
TEST(Faults, BitSerialFailedChannelsReportWhatWasAskedOfThem) {
  const std::string pair = kBitSerial16 + " --set traffic.pattern=pairs --set 'traffic.pairs=[[0,1]]'";
  // Nothing else moves: the cuts elsewhere are never asked for, and the run is verified.
  const auto unused = run_json(pair + " --set 'network.failed_links=[nic2.up, s1_1.down0, s1_0.up, s1_0.down0.ack]'", 0);
  EXPECT_EQ(unused["result"]["verified"], true);
  ASSERT_EQ(unused["failed_links"].size(), 4u) << unused.dump();
  for (const auto& l : unused["failed_links"]) {
    EXPECT_EQ(l["requests"], 0) << l;
    EXPECT_EQ(l["status"], "unused") << l;
  }
  EXPECT_EQ(unused["failed_links"][0]["unit"], "streams");
  EXPECT_EQ(unused["failed_links"][3]["unit"], "acknowledges");
  // faults.failed_links keeps listing the names.
  EXPECT_EQ(unused["faults"]["failed_links"][2], "s1_0.up");

  // With a cut channel on the route, processor 0 retries its message in every
  // delivery cycle until the watchdog stops the run (mid-way through a
  // delivery cycle of 109 clocks: after its stream was routed at clock 3 and
  // vanished at clock 15, before a message could arrive near clock 100).
  const std::string cut = pair + " --set run.watchdog_cycles=2000 --set 'network.failed_links=[";
  auto vanished = [](const nlohmann::json& j, const std::string& wire) {  // the channel's own count
    const std::string problem = j["result"]["problem"].get<std::string>();
    const std::size_t at = problem.find("vanish on " + wire + " (cut): ");
    return at == std::string::npos ? -1 : std::stoll(problem.substr(problem.find(": ", at) + 2));
  };
  for (const char* wire : {"s1_0.down1", "nic0.up"}) {
    SCOPED_TRACE(wire);
    // Every stream processor 0 sends wants the wire: s1_0 routes each one to
    // s1_0.down1; nic0 starts each one on nic0.up.
    const auto j = run_json(cut + wire + "]'", 1);
    const auto& l = j["failed_links"][0];
    EXPECT_EQ(l["status"], "needed");
    EXPECT_EQ(l["unit"], "streams");
    EXPECT_GT(l["requests"].get<int>(), 1);
    EXPECT_EQ(l["requests"], j["result"]["messages"]["sent"]);
    EXPECT_EQ(l["requests"].get<long long>(), vanished(j, wire));
  }
  // A cut acknowledge wire: every stream arrives and is acknowledged, and s1_0
  // has each acknowledge to send back on nic0.up.ack.
  const auto ack = run_json(cut + "nic0.up.ack]'", 1);
  const auto& l = ack["failed_links"][0];
  EXPECT_EQ(l["status"], "needed");
  EXPECT_EQ(l["unit"], "acknowledges");
  EXPECT_GT(l["requests"].get<int>(), 1);
  EXPECT_EQ(l["requests"], ack["result"]["messages"]["delivered"]);
  EXPECT_EQ(l["requests"].get<long long>(), vanished(ack, "nic0.up.ack"));
}

TEST(Faults, BitSerialStuckBitNamesAreChecked) {
  for (const char* bad : {"nic3.up:1", "nic3.up.p0", "nic3.up.p0:2", "nic3.up.p1:0", "s4_0.up.p0:1", "s3_0.down1.p4:1",
                          "nic3.up.p00:1", "nic16.up.p0:1"}) {
    const CommandResult r = run_icnsim(kBitSerial16 + " --set 'network.stuck_bits=[" + std::string(bad) + "]'");
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("network.stuck_bits"), std::string::npos) << bad;
  }
  const CommandResult twice = run_icnsim(kBitSerial16 + " --set 'network.stuck_bits=[nic3.up.p0:1, nic3.up.p0:0]'");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("listed twice"), std::string::npos) << twice.err;
}

// Crossbars (Sanders & Sibeyn): a broadcast from PU 0 reaches every PU, so a
// cut port stalls the run and the watchdog names it; a cut inter-module
// channel with a spare beside it only slows the run down.
TEST(Faults, CrossbarCutProcessorPortStallsAndIsNamed) {
  for (const char* link : {"pe3.in", "pe3.out"}) {
    SCOPED_TRACE(link);
    const auto j = run_json("run /dev/null --set network.type=crossbar --set 'network.failed_links=[" + std::string(link) + "]'", 1);
    EXPECT_EQ(j["result"]["status"], "stalled");
    EXPECT_EQ(j["result"]["verified"], false);
    const std::string where = j["result"]["held"][0]["location"].get<std::string>();
    EXPECT_NE(where.find(std::string(link) == "pe3.in" ? "pe3.in (failed link)" : "output pe3"), std::string::npos) << where;
  }
}

TEST(Faults, HierCrossbarSpareChannelCarriesTheTrafficAndAllCutStalls) {
  const std::string hier = "run /dev/null --set network.type=hier_crossbar";  // 4 modules of 8, 2 channels each way
  const auto healthy = run_json(hier, 0);
  const auto one = run_json(hier + " --set 'network.failed_links=[down2.1]'", 0);
  EXPECT_EQ(one["result"]["verified"], true);
  EXPECT_GE(one["result"]["cycles"].get<int>(), healthy["result"]["cycles"].get<int>());
  std::uint64_t into_module_2 = 0;  // packets the global crossbar sent down to module 2, on either channel
  for (const auto& l : one["congestion"]["inter_module"]) {
    if (l["link"] == "down2.1") {
      EXPECT_EQ(l["packets"], 0);
    }
    if (l["link"] == "down2.0" || l["link"] == "down2.1") into_module_2 += l["packets"].get<std::uint64_t>();
  }
  // The cut channel reports what its group was asked to carry: every packet
  // into module 2, all of which its spare carried.
  ASSERT_EQ(one["failed_links"].size(), 1u);
  EXPECT_EQ(one["failed_links"][0]["link"], "down2.1");
  EXPECT_EQ(one["failed_links"][0]["status"], "needed");
  EXPECT_GT(into_module_2, 0u);
  EXPECT_EQ(one["failed_links"][0]["requests"].get<std::uint64_t>(), into_module_2);
  // The root's module receives nothing in a broadcast from PU 0: a cut
  // channel into it is never put to the test, and the run says so.
  const auto unused = run_json(hier + " --set 'network.failed_links=[down0.1]'", 0);
  EXPECT_EQ(unused["result"]["verified"], true);
  EXPECT_EQ(unused["failed_links"][0]["status"], "unused");
  EXPECT_EQ(unused["failed_links"][0]["requests"], 0);
  const auto both = run_json(hier + " --set 'network.failed_links=[down2.0, down2.1]'", 1);
  EXPECT_EQ(both["result"]["status"], "stalled");
  EXPECT_EQ(both["result"]["verified"], false);
  EXPECT_NE(both["result"]["held"][0]["location"].get<std::string>().find("global output down2.0"), std::string::npos);
  for (const char* bad : {"up4.0", "up0.2", "pe32.in", "pe3.up", "down01.0"}) {
    const CommandResult r = run_icnsim(hier + " --set 'network.failed_links=[" + std::string(bad) + "]'");
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("network.failed_links"), std::string::npos) << bad;
  }
  EXPECT_EQ(run_icnsim("run /dev/null --set network.type=crossbar --set 'network.failed_links=[up0.0]'").exit_code, 2);
}

// HPAM (Ben Miled et al.): the default machine is one level-1 processor over a
// 4x4 level 2, broadcasting from (0,0)_1 to every level-2 processor. With a
// link the broadcast needs cut, the run stalls and the watchdog names the link.
const std::string kHpam = "run /dev/null --set network.type=hpam";

TEST(Faults, HpamCutLinkStallsAndTheWatchdogNamesIt) {
  const struct {
    const char* link;
    const char* where;
  } cases[] = {
      {"l1_r0_0.down0", "l1_r0_0 input local vc0 waits on the failed link l1_r0_0.down0"},  // inter-level, down
      {"l2_r0_1.south", "waits on the failed link l2_r0_1.south"},                           // a level-2 mesh link
      {"nic0.up", "behind the failed link nic0.up"},                                        // the source's injection
      {"l2_r3_3.local", "waits on the failed link l2_r3_3.local"},                           // an ejection link
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.link);
    for (const char* algorithm : {"brute_force", "hybrid"}) {
      SCOPED_TRACE(algorithm);
      const auto j = run_json(kHpam + " --set traffic.algorithm=" + algorithm + " --set 'network.failed_links=[" + c.link + "]'", 1);
      EXPECT_EQ(j["result"]["status"], "stalled");
      EXPECT_EQ(j["result"]["verified"], false);
      EXPECT_TRUE(j["result"]["expected"]["observed_us"].is_null());
      EXPECT_TRUE(j["result"]["expected"]["difference_percent"].is_null());
      EXPECT_EQ(j["faults"]["failed_links"][0], c.link);
      const std::string problem = j["result"]["problem"].get<std::string>();
      if (std::string(algorithm) == "brute_force" || std::string(c.link) != "l2_r0_1.south") {
        EXPECT_NE(problem.find(c.where), std::string::npos) << problem;
      } else {
        EXPECT_NE(problem.find("failed link"), std::string::npos) << problem;
      }
    }
  }
}

TEST(Faults, HpamLinkNoMessageCrossesLeavesTheRunVerified) {
  // X-Y routing from level 1 down the columns never goes north in level 2
  // (eager sends: no acknowledgements come back).
  const auto healthy = run_json(kHpam + " --set traffic.algorithm=brute_force", 0);
  const auto j = run_json(kHpam + " --set traffic.algorithm=brute_force --set 'network.failed_links=[l2_r3_3.north]'", 0);
  EXPECT_EQ(j["result"]["verified"], true);
  EXPECT_EQ(j["result"]["cycles"], healthy["result"]["cycles"]);
  EXPECT_EQ(j["faults"]["failed_links"][0], "l2_r3_3.north");
}

// The `failed_links` section: per failed link, the packets the hardware
// asked of it, worked out here from the routes and the NIC alone.
namespace {
void expect_failed_links(const nlohmann::json& j, const std::vector<std::string>& links, const char* status) {
  ASSERT_EQ(j["failed_links"].size(), links.size()) << j.dump();
  for (std::size_t i = 0; i < links.size(); ++i) {
    const auto& l = j["failed_links"][i];
    EXPECT_EQ(l["link"], links[i]) << l;
    EXPECT_EQ(l["unit"], "packets") << l;
    EXPECT_EQ(l["status"], status) << l;
    EXPECT_EQ(l["requests"].get<std::uint64_t>() == 0, std::string(status) == "unused") << l;
  }
}
}  // namespace

TEST(Faults, HpamFailedLinksNothingNeedsReportUnused) {
  // The broadcast from level 1's only processor goes down its column and then
  // south (X-Y routes from level 1): no level-2 north or up link carries
  // anything (eager sends: no acknowledgements come back), and in the brute
  // force no level-2 processor sends (nic5 is processor (1,0)_2).
  const std::string brute = kHpam + " --set traffic.algorithm=brute_force";
  const auto healthy = run_json(brute, 0);
  const std::vector<std::string> links = {"l2_r3_3.north", "l2_r0_2.up", "nic5.up"};
  const auto j = run_json(brute + " --set 'network.failed_links=[l2_r3_3.north, l2_r0_2.up, nic5.up]'", 0);
  EXPECT_EQ(j["result"]["verified"], true);
  EXPECT_EQ(j["result"]["cycles"], healthy["result"]["cycles"]);
  expect_failed_links(j, links, "unused");
  // With the replication hardware the multicast broadcast goes down through
  // the level-1 router's replicate port and its replicator, never through its
  // four down links.
  const std::string multicast =
      kHpam + " --set network.replication=true --set traffic.algorithm=multicast --set 'traffic.submesh=[2,1]'";
  const auto multicast_healthy = run_json(multicast, 0);
  const std::vector<std::string> down = {"l1_r0_0.down0", "l1_r0_0.down1", "l1_r0_0.down2", "l1_r0_0.down3"};
  const auto m = run_json(multicast + " --set 'network.failed_links=[l1_r0_0.down0, l1_r0_0.down1, l1_r0_0.down2, "
                                      "l1_r0_0.down3]'", 0);
  EXPECT_EQ(m["result"]["verified"], true);
  EXPECT_EQ(m["result"]["cycles"], multicast_healthy["result"]["cycles"]);
  expect_failed_links(m, down, "unused");
}

TEST(Faults, HpamFailedLinksTrafficNeedsCountWhatHadToCrossThem) {
  // The source's injection link under the brute force: its processor hands
  // all 16 messages (one per level-2 processor) to its uni-port NIC, which
  // gives the network one at a time, the next once this one's tail has left.
  // The first never leaves, so exactly one packet asked for the link and the
  // other 15 still wait in the NIC's send queue.
  const auto source = run_json(kHpam + " --set traffic.algorithm=brute_force --set 'network.failed_links=[nic0.up]'", 1);
  EXPECT_EQ(source["result"]["verified"], false);
  expect_failed_links(source, {"nic0.up"}, "needed");
  const auto messages = source["result"]["messages"].get<std::uint64_t>();
  EXPECT_EQ(messages, 16u);
  EXPECT_EQ(source["failed_links"][0]["requests"], 1);
  std::uint64_t queued = 0;
  for (const auto& h : source["result"]["held"])
    if (h["location"].get<std::string>().find("pnic0 send queue") != std::string::npos) queued += h["packets"].get<std::uint64_t>();
  EXPECT_EQ(source["failed_links"][0]["requests"].get<std::uint64_t>() + queued, messages) << source["result"].dump();

  // A brute-force gather to level 1's only processor: every level-2
  // processor sends one message up. Its X-Y route goes north up its own
  // column (every column lies below the sink, so no X) and across that
  // column's top-row up link, so each up link is crossed by exactly its
  // column's four messages, and the four links by all 16. Three of them
  // enter the top-row router from the south: with router.vcs=4 each finds a
  // VC of its own, none waits behind another's blocked head, and every head
  // reaches the failed link.
  const std::vector<std::string> up = {"l2_r0_0.up", "l2_r0_1.up", "l2_r0_2.up", "l2_r0_3.up"};
  const auto gather = run_json(kHpam + " --set traffic.collective=gather --set traffic.algorithm=brute_force "
                                       "--set router.vcs=4 --set 'network.failed_links=[l2_r0_0.up, l2_r0_1.up, "
                                       "l2_r0_2.up, l2_r0_3.up]'", 1);
  EXPECT_EQ(gather["result"]["status"], "stalled");
  expect_failed_links(gather, up, "needed");
  std::uint64_t asked = 0;
  for (const auto& l : gather["failed_links"]) {
    EXPECT_EQ(l["requests"], 4) << l;
    asked += l["requests"].get<std::uint64_t>();
  }
  EXPECT_EQ(asked, gather["result"]["messages"].get<std::uint64_t>());
  // With the default two VCs only two of the three from the south find one;
  // the third waits a router below and never asks: a lower bound, 1 + 2.
  const auto two = run_json(kHpam + " --set traffic.collective=gather --set traffic.algorithm=brute_force "
                                    "--set 'network.failed_links=[l2_r0_0.up, l2_r0_1.up, l2_r0_2.up, l2_r0_3.up]'", 1);
  expect_failed_links(two, up, "needed");
  for (const auto& l : two["failed_links"]) EXPECT_EQ(l["requests"], 3) << l;
}

TEST(Faults, HpamBadLinkNamesExitTwoWithOneLine) {
  for (const char* bad : {"l1_r0_0.east", "l1_r0_0.up", "l2_r0_0.north", "l2_r4_0.local", "l3_r0_0.local", "l0_r0_0.local",
                          "l2_r3_0.down0", "l2_r01_0.south", "l2_r+1_0.south", "nic17.up", "nic01.up", "r0_0.x+",
                          "l1_r0_0.replicate", "l2_r0_0"}) {
    const CommandResult r = run_icnsim(kHpam + " --set 'network.failed_links=[" + std::string(bad) + "]'");
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("network.failed_links"), std::string::npos) << bad;
    EXPECT_NE(r.err.find(std::string("'") + bad + "' is not a link"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  const CommandResult replication = run_icnsim(kHpam + " --set network.replication=true --set 'network.failed_links=[l1_r0_0.replicate]'");
  EXPECT_EQ(replication.exit_code, 2) << replication.err;
  EXPECT_EQ(run_icnsim(kHpam + " --set network.failed_links=l2_r0_0.south").exit_code, 2);
}

TEST(Faults, NamesThatOnceCrashedTheLookupAreRejected) {
  for (const char* bad : {"nic03.up", "nic 3.up", "nic+3.up", "nic4294967299.up", "r1_00.down0", "r01_0.up",
                          "r+1_0.up", "r1_-0.down1", "r1_4294967296.down0", "r4294967297_0.up"}) {
    const CommandResult r = run_icnsim("run " + kScenarios + "fattree_cbft16_total_exchange.yaml --set 'network.failed_links=[" +
                                       std::string(bad) + "]'");
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_NE(r.err.find("network.failed_links"), std::string::npos) << bad;
  }
}

}  // namespace icn::test
