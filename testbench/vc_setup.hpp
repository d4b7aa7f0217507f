// What network.type=vc configures (testbench/vc_experiment.cpp) and its two
// kinds of traffic elaborate: open-loop synthetic traffic
// (vc_synthetic_experiment.cpp) and, with traffic.collective, Sanders &
// Sibeyn's pipelined collectives of single-port processors
// (vc_collective_experiment.cpp).
#pragma once

#include <memory>
#include <vector>

#include "power/keys.hpp"
#include "routers/vc/vc_link_address.hpp"
#include "routers/vc/vc_network.hpp"
#include "routers/vc/vc_topology.hpp"
#include "testbench/experiment_base.hpp"
#include "testbench/open_loop_experiment.hpp"

namespace icn {

// The VC network, as network.* and router.* give it.
struct VcNetworkSpec {
  vc::TopologyKind topology = vc::TopologyKind::kMesh;
  bool fattree = false;
  unsigned height = 0;               // fat tree: log2 leaves
  std::vector<unsigned> capacities;  // fat tree: c_1..c_h
  bool ibt = false;                  // network.topology=ibt: the interlaced bypass torus (k^n, bypass)
  unsigned k = 8, n = 2;
  std::vector<unsigned> sides;       // mesh/torus/ibt: routers per dimension (k, n times, unless given as a list)
  std::vector<unsigned> bypass;      // ibt: network.bypass, b_1..b_k
  bool dateline = true;
  bool adaptive = false;
  vc::TorusOptions torus_options;    // router.dateline_classes, router.torus_ties
  unsigned nodes = 0;
  vc::NetworkParams net;
  std::vector<vc::VcLinkAddress> failed_links;  // parsed once (routers/vc/vc_link_address.hpp)
  power::PowerSettings power;        // power.*: the energy and area model (testbench/vc_energy.hpp)

  bool torus() const { return !fattree && topology == vc::TopologyKind::kTorus; }
  // The network's parameters, its routers drawing their random routing
  // choices from the scenario's seed.
  vc::NetworkParams seeded(std::uint64_t seed) const {
    vc::NetworkParams p = net;
    p.router.seed = seed;
    return p;
  }
  std::unique_ptr<vc::VcTopology> make_topology() const;
  // router.model=rtl with a traceable module: each RTL router's waveform
  // beside `waveform_file` (testbench/vc_rtl.cpp).
  std::vector<std::string> rtl_waveform_files(const std::string& waveform_file) const;
  // Cuts the failed links in a built network.
  void fail_links(vc::VcNetwork& network) const;
  // Each failed link and the packets routed to it (the `failed_links` section).
  nlohmann::ordered_json failed_links_json(const vc::VcNetwork& network) const;
};

// The allocators and their arbiters (testbench/vc_allocator_keys.cpp):
// router.vc_allocator, alloc_iterations, vc_arbiter and sw_arbiter, for a
// network whose largest router has `max_ports` ports; the keys, for `icnsim list`.
void read_vc_allocators(Config& cfg, vc::RouterParams& r, unsigned max_ports);
std::vector<ParamSpec> vc_allocator_params();

// network.topology=ibt (testbench/vc_ibt.cpp): network.bypass, checked with
// network.k and network.n by IbtTopology's rules; the key, for `icnsim list`.
void read_vc_ibt(Config& cfg, VcNetworkSpec& s, bool collective);
ParamSpec vc_bypass_param();

// router.model=rtl (testbench/vc_rtl.cpp): loads router.rtl's module, checks
// it against the network and fills net.rtl_module and net.rtl_routers; the
// keys, for `icnsim list`.
void read_vc_rtl(Config& cfg, VcNetworkSpec& s);
std::vector<ParamSpec> vc_rtl_params();

// Open-loop synthetic traffic on the network.
struct VcSyntheticSetup : ExperimentSetup {
  bool follows_packets() const override { return true; }
  // Its routers and NICs commit their shared effects (VcNic::commit); the
  // Verilated routers are not thread-safe.
  std::string single_thread_reason() const override {
    return network.net.rtl_module ? "router.model=rtl runs on one thread" : "";
  }
  VcNetworkSpec network;
  OpenLoopTraffic traffic;
  double rate = 0;  // traffic.injection_rate, flits per node per cycle
  OpenLoopWindow window;

  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  ResourceEstimate estimate() const override;
  std::vector<std::string> waveform_side_files(const std::string& waveform_file) const override {
    return network.rtl_waveform_files(waveform_file);
  }
};

// Without traffic.collective: reads the open-loop traffic's keys (traffic.*,
// measure.*) for this network.
std::unique_ptr<ExperimentSetup> configure_vc_synthetic(Config& cfg, VcNetworkSpec network);
// Those keys, for `icnsim list`.
std::vector<ParamSpec> vc_synthetic_params();

// traffic.collective given: reads the collective's keys (the crossbar runs'
// traffic.* and nic.* keys, and traffic.embedding) for this network.
std::unique_ptr<ExperimentSetup> configure_vc_collective(Config& cfg, const VcNetworkSpec& network);
// Those keys, for `icnsim list`.
std::vector<ParamGroup> vc_collective_params();

}  // namespace icn
