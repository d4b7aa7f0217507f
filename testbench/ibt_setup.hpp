// What network.type=torus and network.type=ibt configure and their
// experiment elaborates, shared by the family's files: ibt_config.cpp (the
// keys, their reading and the resource estimate) and ibt_experiment.cpp (the
// experiment, the network kinds and their registration).
#pragma once

#include <memory>
#include <vector>

#include "models/link_address.hpp"
#include "models/wiring_fault.hpp"
#include "power/keys.hpp"
#include "routers/ibt/ibt_router.hpp"
#include "testbench/experiment.hpp"
#include "testbench/ibt_broadcast.hpp"

namespace icn {

struct IbtSetup : ExperimentSetup {
  bool ibt = false;
  unsigned n = 0, d = 0;
  std::vector<unsigned> bypass;
  ibt::ForwardOrder order = ibt::ForwardOrder::kDirectional;
  std::vector<NodePortAddress> failed_links;
  EjectionSwap swap;
  IbtCollective collective = IbtCollective::kLine;
  IbtBroadcastPlan base;                            // source, k, scheme, dims
  std::vector<std::vector<unsigned>> pattern_options;  // per trial: per colour
  std::vector<std::vector<unsigned>> split_options;
  unsigned ports = 0;  // per router, for the resource estimate
  power::PowerSettings power;  // power.*: the energy and area model (testbench/ibt_energy.hpp)

  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  ResourceEstimate estimate() const override;
  // outputs.trace_packet: a packet number 0..k-1, followed to one node (docs/waveforms/README.md).
  bool follows_packets() const override { return true; }
  // Its routers queue their deliveries and statistics for commit
  // (IbtRouter::commit), read neighbours' holdings registers one cycle late,
  // and allocate nothing while the network phase runs.
  std::string single_thread_reason() const override { return ""; }
  void estimate_work(ResourceEstimate& e) const;
  // Routers the waveform shows at most (the rest of a larger network is not traced).
  static constexpr NodeId kMaxTracedRouters = 4096;
};

// The keys of a torus (ibt = false) or an iBT (`icnsim list`), and their
// reading into a setup.
std::vector<ParamGroup> ibt_params(bool ibt);
std::unique_ptr<ExperimentSetup> configure_ibt(Config& cfg, bool ibt);

}  // namespace icn
