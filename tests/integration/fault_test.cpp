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
