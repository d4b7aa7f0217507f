// Fault injection on every family: a failed link ends in a clear verdict — a
// stall the watchdog names, or lost messages counted and a cycle limit —
// never a crash and never a "verified" run.
#include <gtest/gtest.h>

#include <fstream>
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
const std::string kScenarios = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/";
}  // namespace

TEST(Faults, PacketFatTreeStallIsNamedAndComparesWithNoPaperValue) {
  const auto j = run_json("run " + kScenarios + "fattree_cbft16_total_exchange.yaml --set 'network.failed_links=[nic3.up]'", 1);
  EXPECT_EQ(j["result"]["status"], "stalled");
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_TRUE(j["result"]["expected"]["matches_paper"].is_null());
  EXPECT_NE(j["result"]["problem"].get<std::string>().find("nic3"), std::string::npos);
}

TEST(Faults, TorusStallIsNamedAndHasNoDifferenceFromThePaper) {
  const auto j = run_json("run " + kScenarios + "torus_global_3d.yaml --set 'network.failed_links=[0.x+]'", 1);
  EXPECT_NE(j["result"]["status"], "completed");
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_TRUE(j["result"]["expected"]["difference"].is_null());
}

TEST(Faults, BitSerialCutDataWireLosesMessagesUntilTheCycleLimit) {
  const auto j = run_json("run " + kScenarios + "fattree_bitserial_doubling64_random.yaml"
                          " --set 'network.failed_links=[nic3.up]' --set run.max_cycles=100000", 1);
  EXPECT_EQ(j["result"]["status"], "cycle_limit");
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_GT(j["result"]["messages"]["lost"].get<int>(), 0);
  EXPECT_TRUE(j["result"]["expected"]["meets_lower_bound"].is_null());
  EXPECT_NE(j["result"]["problem"].get<std::string>().find("pe3"), std::string::npos);
}

TEST(Faults, BitSerialCutAcknowledgeWireMakesSendersRetryDeliveredMessages) {
  // The receiver gets the stream but the sender never hears of it: it counts
  // the message lost and sends it again, so the receiver sees duplicates.
  const auto j = run_json("run " + kScenarios + "fattree_bitserial_doubling64_random.yaml"
                          " --set 'network.failed_links=[s1_1.up.ack]' --set run.max_cycles=100000", 1);
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_GT(j["result"]["messages"]["lost"].get<int>(), 0);
}

// Stuck-at faults on a data path of a 16-processor tree (H = 4), permutation traffic.
const std::string kBitSerial16 = "run /dev/null --set network.type=fattree_bitserial --set network.processors=16";

TEST(Faults, BitSerialStuckAtZeroHidesTheMessageBitAndMessagesAreLostUntilTheCycleLimit) {
  // M = 1 arrives as 0: the switch never sees a stream start, no acknowledge
  // comes back, and processor 3 retries its message until run.max_cycles.
  const auto j = run_json(kBitSerial16 + " --set 'network.stuck_bits=[nic3.up.p0:0]' --set run.max_cycles=20000", 1);
  EXPECT_EQ(j["result"]["status"], "cycle_limit");
  EXPECT_EQ(j["result"]["verified"], false);
  EXPECT_GT(j["result"]["messages"]["lost"].get<int>(), 0);
  EXPECT_EQ(j["result"]["messages"]["lost"], j["result"]["messages"]["retried"]);
  EXPECT_EQ(j["result"]["messages"]["delivered"], 15);  // everybody else's message
  EXPECT_NE(j["result"]["problem"].get<std::string>().find("pe3"), std::string::npos);
  EXPECT_EQ(j["faults"]["stuck_bits"][0]["wire"], "nic3.up.p0");
  EXPECT_GT(j["faults"]["stuck_bits"][0]["bits_changed"].get<int>(), 0);
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
  for (const auto& l : one["congestion"]["inter_module"])
    if (l["link"] == "down2.1") EXPECT_EQ(l["packets"], 0);
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
