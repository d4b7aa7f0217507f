// What network.type=hpam configures, shared by the family's files:
//   hpam_config.cpp      its keys and configure();
//   hpam_estimate.cpp    the memory and work a run will take (run.max_work);
//   hpam_experiment.cpp  the experiment (hpam_experiment.hpp): the machine,
//                        the processors' programs, trials; its registration;
//   hpam_results.cpp     the verdict, the JSON sections, the paper's
//                        equations beside the observed times, the table.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "power/keys.hpp"
#include "routers/hpam/hpam_geometry.hpp"
#include "routers/hpam/replicator_core.hpp"
#include "routers/vc/vc_link_address.hpp"
#include "routers/vc/vc_network.hpp"
#include "testbench/experiment.hpp"
#include "testbench/hpam_collectives.hpp"

namespace icn {

struct HpamSetup : ExperimentSetup {
  std::vector<hpam::LevelShape> levels;
  vc::NetworkParams net;
  std::vector<unsigned> flit_bytes;  // per level
  double lambda_us = 0.01, send_us = 2, copy_us = 0.01;
  unsigned q = 2;
  hpam::CollectiveSpec spec;
  std::vector<std::pair<unsigned, unsigned>> shapes;  // one trial per shape
  bool best = false;
  bool replication = false;
  hpam::ReplicatorImpl replicator_impl = hpam::ReplicatorImpl::kBehavioral;
  hpam::ReplicatorMode replicator_mode = hpam::ReplicatorMode::kLockstep;
  unsigned replicator_depth = 4;
  bool synchronous = false;  // nic.send_protocol
  std::vector<vc::VcLinkAddress> failed_links;  // parsed once (HpamTopology::parse_link)
  // power.*: the energy and area model (testbench/hpam_energy.hpp). Without
  // power.flit_bits the widest level's network.flit_bytes x 8 is priced.
  power::PowerSettings power;
  bool power_flit_bits_given = false;
  double cycle_us() const { return lambda_us * flit_bytes[0] / net.link_latency; }
  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  ResourceEstimate estimate() const override;
  void estimate_work(ResourceEstimate& e) const;
  double trial_work(const hpam::HpamGeometry& geo, const hpam::CollectivePlan& plan) const;
  std::vector<std::string> waveform_side_files(const std::string& waveform_file) const override;
  // outputs.trace_packet: a ledger message id, followed through the meshes
  // and every replicator to the destination it reached last (docs/waveforms/README.md).
  bool follows_packets() const override { return true; }
  // Replicators and combiners clone and merge with their worker's pool list
  // and add to the ledger in commit (docs/hpam.md, "Worker threads"); a
  // Verilated replicator is not thread-safe.
  std::string single_thread_reason() const override {
    return replication && replicator_impl == hpam::ReplicatorImpl::kRtl
               ? "network.replicator_model=rtl (Verilated replicators) runs on one thread"
               : "";
  }
};

// The keys (network and traffic groups), for `icnsim list`.
std::vector<ParamGroup> hpam_params();
// Declares every key, reads and validates them.
std::unique_ptr<ExperimentSetup> configure_hpam(Config& cfg);

// A replicator is named after the router it hangs below: repl_l<L>_r<row>_<col>.
std::string hpam_replicator_name(const hpam::Position& router);
// Each Verilated replicator writes its own VCD beside the waveform: FILE.rtl.vcd
// becomes FILE.<replicator>.rtl.vcd (a device such as /dev/null stays as it is).
std::string hpam_replicator_waveform_file(const std::string& waveform_file, const std::string& replicator);

// The paper's equation for one trial's program (its sub-mesh shape),
// evaluated from the configuration: its name and value, or why the paper has
// none.
struct HpamExpectation {
  std::string equation = "none";
  std::optional<double> us;
  std::string why_none;
};
HpamExpectation hpam_expectation(const HpamSetup& setup, std::pair<unsigned, unsigned> shape);

}  // namespace icn
