// HPAM (Ben Miled et al.): a hierarchy of processor meshes joined by the
// inter-level links of eq. (1), VcRouters with extended X-Y routing, uni-port
// NICs with the paper's software costs, and its broadcast, scatter and gather
// programs: network.type=hpam. docs/hpam.md describes the hardware.
//
// The experiment's running part (the machine, the processors, the trials) is
// in hpam_experiment.cpp, its results (verdict, JSON, table) in
// hpam_results.cpp; hpam_setup.hpp lists the family's other files.
#pragma once

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "routers/hpam/hpam_nic.hpp"
#include "routers/hpam/hpam_topology.hpp"
#include "routers/hpam/inter_level_combiner.hpp"
#include "routers/hpam/inter_level_replicator.hpp"
#include "routers/vc/vc_network.hpp"
#include "testbench/collective_experiment.hpp"
#include "testbench/hpam_energy.hpp"
#include "testbench/hpam_setup.hpp"

namespace icn {

NetworkKind hpam_kind();

// The processors of the machine, running one collective program per trial
// (one trial per sub-mesh shape): a processor sends its planned messages
// (through its NIC's TLM socket) once it has received what the plan says it
// waits for, and checks every message.
class HpamExperiment : public CollectiveExperiment, public Clocked, public DeliverySink {
 public:
  HpamExperiment(sc_core::sc_module_name name, const HpamSetup& setup, const RunContext& ctx);

  std::uint64_t routers() const override { return geo_.nodes(); }
  // A run stopped by the watchdog with traffic waiting on a failed link says
  // which link.
  std::string problem() const override;

  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name(); }
  void deliver(const Delivery& d) override;

 protected:
  // hpam_results.cpp
  std::string receipts_problem() const override;
  void write_result_fields(nlohmann::ordered_json& r) const override;
  void write_expected(nlohmann::ordered_json& r) const override;
  void write_sections(nlohmann::ordered_json& out) const override;
  std::vector<Column> columns() const override;

 private:
  struct Trial {
    Cycle start = 0, end = 0;
    std::size_t received = 0, messages = 0;
    std::uint64_t bytes = 0;
    std::string problem;
    Cycle cycles() const { return end >= start && end != 0 ? end - start + 1 : 0; }
  };

  // hpam_experiment.cpp
  // One InterLevelReplicator behind the replicate port of every bottom-row
  // router of level 1, its branches into the from_replicator ports below.
  void build_replicators();
  void start_trial(Cycle now);
  void send(const hpam::PlannedMessage& m);

  // hpam_results.cpp
  // The trial reported: the fastest of those that completed without a problem.
  std::size_t best() const;
  std::string shape_text(std::size_t i) const;
  nlohmann::ordered_json trials_json() const;
  nlohmann::ordered_json replication_json() const;
  nlohmann::ordered_json combining_json() const;
  nlohmann::ordered_json failed_links_json() const;
  // What the hardware did during the reported trial: from its start to the
  // next trial's start (or the end of the run).
  HpamActivity trial_activity() const;

  const HpamSetup setup_;  // a copy: the setup may go before the experiment
  std::uint64_t seed_;
  hpam::HpamGeometry geo_;
  hpam::HpamTopology topo_;
  vc::VcNetwork network_;
  std::vector<std::unique_ptr<hpam::HpamNic>> nics_;
  std::vector<std::unique_ptr<hpam::InterLevelReplicator>> replicators_;
  std::vector<std::unique_ptr<hpam::InterLevelCombiner>> combiners_;
  std::vector<std::unique_ptr<vc::FlitLink>> flit_links_;      // replicator links
  std::vector<std::unique_ptr<vc::CreditLink>> credit_links_;
  // The processors' side of their NICs: one TLM-2.0 initiator socket each.
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<HpamExperiment>>> cpu_;
  std::vector<Trial> trials_;
  int current_ = -1;
  hpam::CollectivePlan plan_;
  std::vector<unsigned> got_;
  std::vector<std::pair<Cycle, NodeId>> ready_;  // (cycle its plan was satisfied, processor)
  std::uint32_t seq_ = 0;
  // Energy and area (issue 23): built once the replicators are, read at every trial's start.
  std::unique_ptr<HpamEnergy> energy_;
  std::vector<HpamActivity> trial_start_activity_;
};

}  // namespace icn
