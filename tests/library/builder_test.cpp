// NetworkBuilder (testbench/network_builder.hpp): every family built in code
// runs the network `icnsim run` runs on the same keys written as a scenario
// file, and a bad value set in code is refused with the line the command
// prints for the same value given with --set.
//
// The oracle is the icnsim command on YAML text this test writes by hand: a
// builder that sent a value of the wrong type, dropped a key, or read its
// own defaults would give other results or another error.
#include <gtest/gtest.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nics/icn_extension.hpp"
#include "testbench/network_builder.hpp"
#include "testbench/vc_platform.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn {
namespace {

struct Case {
  std::string name;
  std::function<NetworkBuilder()> build;
  std::string yaml;  // the same network as a scenario, written independently
};

// Small instances of every family, each with a few keys beyond its factory's
// (an integer, a real, a word, a list and a bool among them).
std::vector<Case> cases() {
  return {
      {"vc_mesh",
       [] {
         return NetworkBuilder::vc_mesh(4, 2).preset("booksim").set("traffic.injection_rate", 0.15)
             .set("traffic.pattern", "transpose").set("measure.sample_period", 300).set("seed", 7);
       },
       "seed: 7\npreset: booksim\nnetwork: {type: vc, topology: mesh, k: 4, n: 2}\n"
       "traffic: {injection_rate: 0.15, pattern: transpose}\nmeasure: {sample_period: 300}\n"},
      {"vc_torus",
       [] {
         return NetworkBuilder::vc_torus(4, 2).set("router.vcs", 4).set("traffic.packet_size", std::vector<std::int64_t>{1, 5})
             .set("measure.sample_period", 300);
       },
       "network: {type: vc, topology: torus, k: 4, n: 2}\nrouter: {vcs: 4}\n"
       "traffic: {packet_size: [1, 5]}\nmeasure: {sample_period: 300}\n"},
      {"vc_fattree",
       [] { return NetworkBuilder::vc_fattree(8).set("network.capacities", "ebft").set("measure.sample_period", 300); },
       "network: {type: vc, topology: fattree, leaves: 8, capacities: ebft}\nmeasure: {sample_period: 300}\n"},
      {"vc_ibt",
       [] { return NetworkBuilder::vc_ibt(8, 2, {2}).set("traffic.injection_rate", 0.2).set("measure.sample_period", 300); },
       "network: {type: vc, topology: ibt, k: 8, n: 2, bypass: [2]}\ntraffic: {injection_rate: 0.2}\nmeasure: {sample_period: 300}\n"},
      {"fattree_packet",
       [] { return NetworkBuilder::fattree_packet(16).set("traffic.collective", "total_exchange").set("traffic.pipelined", false); },
       "network: {type: fattree_packet, leaves: 16}\ntraffic: {collective: total_exchange, pipelined: false}\n"},
      {"fattree_bitserial",
       [] { return NetworkBuilder::fattree_bitserial(16).set("traffic.pattern", "random").set("traffic.load_factor", 1.5).set("seed", 3); },
       "seed: 3\nnetwork: {type: fattree_bitserial, processors: 16}\ntraffic: {pattern: random, load_factor: 1.5}\n"},
      {"torus",
       [] { return NetworkBuilder::torus(6, 2).set("traffic.collective", "global_broadcast").set("traffic.packets", 6); },
       "network: {type: torus, n: 6, d: 2}\ntraffic: {collective: global_broadcast, packets: 6}\n"},
      {"ibt",
       [] { return NetworkBuilder::ibt(16, 2, {4}).set("traffic.packets", 8).set("traffic.source", std::vector<std::int64_t>{3, 5}); },
       "network: {type: ibt, n: 16, d: 2, bypass: [4]}\ntraffic: {packets: 8, source: [3, 5]}\n"},
      {"crossbar",
       [] { return NetworkBuilder::crossbar(12).set("traffic.algorithm", "binary").set("traffic.collective", "reduction"); },
       "network: {type: crossbar, processors: 12}\ntraffic: {algorithm: binary, collective: reduction}\n"},
      {"hier_crossbar",
       [] { return NetworkBuilder::hier_crossbar(3, 4).set("network.inter_module_channels", 3); },
       "network: {type: hier_crossbar, modules: 3, module_size: 4, inter_module_channels: 3}\n"},
      {"hpam",
       [] {
         return NetworkBuilder::hpam({{1, 2}, {4, 4}}).set("network.replication", true)
             .set("traffic.collective", "scatter");
       },
       "network: {type: hpam, levels: [[1, 2], [4, 4]], replication: true}\ntraffic: {collective: scatter}\n"},
  };
}

// A node of the test's own: at time 0 it writes one message to node `to`,
// and it counts the messages that arrive, checking who sent them.
struct Node : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Node> out{"out"};
  tlm_utils::simple_target_socket<Node> in{"in"};
  unsigned to = 0, from = 0, received = 0, wrong = 0;
  SC_HAS_PROCESS(Node);
  explicit Node(sc_core::sc_module_name name) : sc_core::sc_module(name) {
    in.register_b_transport(this, &Node::deliver);
    SC_THREAD(send);
  }
  void send() {
    unsigned char data[4] = {1, 2, 3, 4};
    tlm::tlm_generic_payload t;
    IcnExtension ext;
    prepare_message_write(t, ext, to, data, sizeof data, 0, false, 2);
    t.set_extension(&ext);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    out->b_transport(t, delay);
    t.clear_extension(&ext);
  }
  void deliver(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    ++received;
    if (t.get_address() != from) ++wrong;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

std::string write_scenario(const std::string& dir, const Case& c) {
  const std::string path = dir + "/" + c.name + ".yaml";
  std::ofstream(path) << c.yaml;
  return path;
}

TEST(Builder, EveryFamilyBuiltInCodeRunsTheNetworkTheCommandRunsOnTheSameKeys) {
  const std::vector<Case> all = cases();
  std::vector<NetworkBuilder> builders;
  std::vector<std::unique_ptr<Experiment>> runs;
  for (const Case& c : all) {
    builders.push_back(c.build());
    runs.push_back(builders.back().elaborate(c.name));
  }
  // The VC family's platform network from a builder: its nodes, and an
  // empty run that ends when the traffic is declared over.
  VcPlatformNetwork platform("platform", NetworkBuilder::vc_torus(3, 2).preset("booksim"));
  ASSERT_EQ(platform.nodes(), 9u);
  std::vector<std::unique_ptr<Node>> nodes;
  for (unsigned n = 0; n < 9; ++n) {
    nodes.push_back(std::make_unique<Node>(("node" + std::to_string(n)).c_str()));
    nodes.back()->to = (n + 4) % 9;
    nodes.back()->from = (n + 5) % 9;
    nodes.back()->out.bind(platform.port(n).inject);
    platform.port(n).deliver.bind(nodes.back()->in);
  }
  sc_core::sc_spawn([&] {
    sc_core::wait(platform.period());  // every node has written its message
    platform.end_of_traffic();
  });
  sc_core::sc_start();
  EXPECT_EQ(platform.problem(), "");
  EXPECT_EQ(platform.summary()["messages"]["delivered"], 9);
  for (const auto& node : nodes) EXPECT_EQ(node->received - node->wrong, 1u) << node->name();

  const std::string dir = test::scratch_dir();
  for (std::size_t i = 0; i < all.size(); ++i) {
    SCOPED_TRACE(all[i].name);
    nlohmann::ordered_json mine;
    mine["scenario"] = builders[i].resolved();
    runs[i]->write_results(mine);
    EXPECT_EQ(runs[i]->problem(), "");

    const std::string json = dir + "/" + all[i].name + ".json";
    const auto cmd = test::run_icnsim("run " + write_scenario(dir, all[i]) + " --quiet --json " + json, 120);
    ASSERT_EQ(cmd.exit_code, 0) << cmd.err;
    nlohmann::ordered_json theirs = test::deterministic_part(nlohmann::ordered_json::parse(test::read_file(json)));
    theirs.erase("icnsim");
    theirs["scenario"]["outputs"].erase("json");  // where the command wrote it
    mine["scenario"]["outputs"].erase("json");
    EXPECT_TRUE(mine == theirs) << nlohmann::ordered_json::diff(theirs, mine).dump();
  }
}

// Each bad value, set in code and given with --set on the command line.
struct BadValue {
  std::function<void(NetworkBuilder&)> set;
  std::string flag;  // the same as --set or --unset words
};

TEST(Builder, ABadValueSetInCodeIsRefusedWithTheCommandsLine) {
  const std::string dir = test::scratch_dir();
  const Case mesh = cases().front();
  const std::string scenario = write_scenario(dir, mesh);
  const std::vector<BadValue> bad = {
      {[](NetworkBuilder& b) { b.set("network.k", 1); }, "--set network.k=1"},
      {[](NetworkBuilder& b) { b.set("network.k", "eight"); }, "--set network.k=eight"},
      {[](NetworkBuilder& b) { b.set("network.kk", 8); }, "--set network.kk=8"},
      {[](NetworkBuilder& b) { b.set("network.leaves", 16); }, "--set network.leaves=16"},
      {[](NetworkBuilder& b) { b.set("traffic.injection_rate", 1.5); }, "--set traffic.injection_rate=1.5"},
      {[](NetworkBuilder& b) { b.set("traffic.injection_rate", -0.25); }, "--set traffic.injection_rate=-0.25"},
      {[](NetworkBuilder& b) { b.set("router.vcs", std::vector<std::int64_t>{2, 4}); }, "--set router.vcs=[2,4]"},
      {[](NetworkBuilder& b) { b.set("traffic.pattern", "sideways"); }, "--set traffic.pattern=sideways"},
      {[](NetworkBuilder& b) { b.set("traffic.self_traffic", 1); }, "--set traffic.self_traffic=1"},
      {[](NetworkBuilder& b) { b.set("preset", "garnet"); }, "--set preset=garnet"},
  };
  for (const BadValue& v : bad) {
    SCOPED_TRACE(v.flag);
    NetworkBuilder b = mesh.build();
    v.set(b);
    std::string mine;
    try {
      b.prepare();
    } catch (const ConfigError& e) {
      mine = e.what();
    }
    ASSERT_FALSE(mine.empty()) << "prepared without an error";
    const auto cmd = test::run_icnsim("run " + scenario + " " + v.flag);
    EXPECT_EQ(cmd.exit_code, 2);
    EXPECT_EQ(cmd.err, "icnsim: error: " + mine + "\n");
  }
  // A value's NaN is refused as a number, never read as one.
  NetworkBuilder nan = mesh.build();
  nan.set("traffic.injection_rate", std::nan(""));
  EXPECT_THROW(nan.prepare(), ConfigError);
  // The builder is unchanged by prepare(): after fixing the value it prepares.
  NetworkBuilder again = mesh.build();
  again.set("network.k", 1);
  EXPECT_THROW(again.prepare(), ConfigError);
  again.set("network.k", 4);
  EXPECT_NO_THROW(again.prepare());
  EXPECT_EQ(again.resolved()["network"]["k"], 4);
}

}  // namespace
}  // namespace icn
