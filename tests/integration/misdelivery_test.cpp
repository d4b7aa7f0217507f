// Delivery is checked where the packet arrived, in every family: with the
// wiring fault network.swap_ejection=[a, b] (nodes a and b's ejection links
// crossed) every family's run must end `verified no`, naming the message, the
// node it was meant for and the node that received it. The verdict compares
// the receiving interface's own node with the destination the source meant,
// kept apart from the packet in flight; a check that trusted the packet's own
// destination field would pass these runs.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

struct MisdeliveryCase {
  std::string family;
  std::string scenario;
  unsigned a, b;  // the crossed nodes
  // How the family names nodes in its problem line: "node" (numbers),
  // "processor" (HPAM's positions) or "group" (iBT/torus broadcasts, whose
  // receivers are a group, not one node: the problem names the node that is
  // not among them).
  std::string naming;
};

void PrintTo(const MisdeliveryCase& c, std::ostream* os) { *os << c.family; }

nlohmann::json run_with_fault(const MisdeliveryCase& c, int& exit_code) {
  const std::string json = scratch_dir() + "/miswired.json";
  const CommandResult r = run_icnsim("run " + kScenarios + c.scenario + " --set 'network.swap_ejection=[" +
                                         std::to_string(c.a) + "," + std::to_string(c.b) + "]' --json " + json,
                                     240);
  exit_code = r.exit_code;
  std::ifstream in(json);
  return nlohmann::json::parse(in);
}
}  // namespace

class Misdelivery : public ::testing::TestWithParam<MisdeliveryCase> {};

TEST_P(Misdelivery, CrossedEjectionLinksMakeTheRunUnverifiedAndNameBothNodes) {
  const MisdeliveryCase& c = GetParam();
  int exit_code = -1;
  const nlohmann::json j = run_with_fault(c, exit_code);
  EXPECT_EQ(exit_code, 1);  // a run that does not verify
  const nlohmann::json& r = j["result"];
  EXPECT_EQ(r["verified"], false);
  ASSERT_TRUE(r.contains("problem")) << r.dump();
  const std::string problem = r["problem"].get<std::string>();
  if (c.naming == "group") {
    // A broadcast copy delivered to the source's own processor (b is the source).
    EXPECT_NE(problem.find("unexpected packet"), std::string::npos) << problem;
    EXPECT_NE(problem.find("not for node"), std::string::npos) << problem;
    return;
  }
  const std::regex named(" meant for " + c.naming + " (\\S+) and received by " + c.naming + " (\\S+)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(problem, m, named)) << problem;
  EXPECT_NE(m[1].str(), m[2].str()) << problem;
  if (c.naming == "node") {  // the two crossed nodes, one meant and the other receiving
    const std::set<std::string> got{m[1].str(), m[2].str()};
    EXPECT_EQ(got, (std::set<std::string>{std::to_string(c.a), std::to_string(c.b)})) << problem;
  }
}

// Without the fault the same scenarios verify (so the check above is not a
// verdict that always says no).
TEST_P(Misdelivery, TheSameRunWithoutTheFaultVerifies) {
  const MisdeliveryCase& c = GetParam();
  const std::string json = scratch_dir() + "/wired.json";
  const CommandResult r = run_icnsim("run " + kScenarios + c.scenario + " --json " + json, 240);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["result"]["verified"], true);
}

INSTANTIATE_TEST_SUITE_P(
    EveryFamily, Misdelivery,
    ::testing::Values(MisdeliveryCase{"vc_mesh", "mesh8x8_uniform.yaml", 3, 4, "node"},
                      MisdeliveryCase{"vc_torus", "torus8x8_uniform.yaml", 0, 9, "node"},
                      MisdeliveryCase{"vc_fattree", "fattree16_uniform.yaml", 0, 1, "node"},  // siblings under one router
                      MisdeliveryCase{"vc_single_port", "fractional_mesh_htree.yaml", 0, 5, "node"},
                      MisdeliveryCase{"crossbar", "fractional_crossbar_broadcast.yaml", 0, 5, "node"},
                      MisdeliveryCase{"crossbar_reduction", "fractional_crossbar_binary_reduction.yaml", 0, 5, "node"},
                      MisdeliveryCase{"hier_crossbar", "fractional_hier_crossbar.yaml", 0, 5, "node"},
                      MisdeliveryCase{"hpam_broadcast", "hpam_broadcast_hybrid.yaml", 0, 5, "processor"},
                      MisdeliveryCase{"hpam_gather", "hpam_gather_multicast.yaml", 0, 5, "processor"},
                      MisdeliveryCase{"ibt", "ibt_table1_line.yaml", 1, 0, "group"},
                      MisdeliveryCase{"packet_fattree", "fattree_cbft16_total_exchange.yaml", 2, 5, "node"},
                      MisdeliveryCase{"bitserial_fattree", "fattree_bitserial_doubling64_random.yaml", 2, 5, "node"}),
    [](const ::testing::TestParamInfo<MisdeliveryCase>& info) { return info.param.family; });

TEST(Misdelivery, SwapEjectionRefusesAnythingButTwoDifferentNodes) {
  expect_rejected("run " + kScenarios + "mesh8x8_uniform.yaml --set 'network.swap_ejection=[3]'", "two different nodes");
  expect_rejected("run " + kScenarios + "mesh8x8_uniform.yaml --set 'network.swap_ejection=[3,3]'", "two different nodes");
  expect_rejected("run " + kScenarios + "mesh8x8_uniform.yaml --set 'network.swap_ejection=[3,64]'", "out of range");
}

}  // namespace icn::test
