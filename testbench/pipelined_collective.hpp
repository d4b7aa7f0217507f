// The pipelined-collective layer: Sanders & Sibeyn's broadcast and reduction
// of single-port processors (chain, binary tree, fractional tree), on any
// network that offers a SinglePortFabric: a full or hierarchical crossbar
// (fractional_experiment.cpp) or the VC routers (vc_collective_experiment.cpp).
//
// It reads the program's keys (traffic.* and nic.*), builds the processors
// (a SinglePortNic and a FractionalPe per PU, placed by rank), and on top of
// the collective layer (collective_experiment.hpp) supplies the verdict every
// such run shares: where packets arrived, the processors' books and programs,
// the root's reduction results against an independent oracle, and the lower
// bounds no hardware may beat; and the `result` fields: cycles, steps, r, s,
// the tuning, the paper's expected values. docs/fractional_tree.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/ledger.hpp"
#include "models/wiring_fault.hpp"
#include "nics/single_port_nic.hpp"
#include "nics/transfer_follower.hpp"
#include "testbench/collective_experiment.hpp"
#include "testbench/fractional_pe.hpp"
#include "testbench/fractional_tree.hpp"

namespace icn {

// The program every PU runs, as traffic.* and nic.* give it.
struct PipelinedProgram {
  std::uint32_t processors = 2;
  bool reduction = false;
  frac::Algorithm algorithm = frac::Algorithm::kFractional;
  unsigned r = 1;
  std::uint32_t s = 1;
  std::uint64_t k = 1, t = 2;
  std::uint32_t units = 1;       // ceil(k/s): every packet's units but the last's
  std::uint32_t last_units = 1;  // the last packet's: units, or what is left of k (traffic.last_packet=short)
  frac::LastPacket last_packet = frac::LastPacket::kPadded;
  std::uint32_t root = 0;
  frac::Operator op = frac::Operator::kSum;
  bool simplex = false;
  bool direct = false;  // simplex by split lines, not couples
  bool tuned = false;
  std::string tuning;
  frac::Choice exhaustive, fast, paper;

  bool couples() const { return simplex && !direct; }
  std::uint32_t logical_processors() const { return couples() ? processors / 2 : processors; }
  // Packets a PE keeps: it forwards at most 2r packet numbers behind the
  // newest it received (a chain member only the one before).
  std::uint32_t window() const;
};

// The program's keys, for `icnsim list` (embedding keys are the network's).
std::vector<ParamSpec> program_traffic_params();
std::vector<ParamSpec> program_nic_params(bool vc);

// Reads the program's keys for `processors` PUs on a network whose nearest
// pair is `pipeline` cycles apart (the least start-up). The embedding is read
// by the network's family, then check_program_limits().
void read_program(Config& cfg, PipelinedProgram& p, unsigned pipeline, bool vc);
// The run's size limits (transfers, units per packet, packets held).
void check_program_limits(Config& cfg, PipelinedProgram& p);
// Declares traffic.embedding as not applying to this network.
void declare_no_embedding(Config& cfg, const std::string& why);

// The resource guard's estimate of the processors and their program:
// `network_bytes_per_pu` and `blocks_per_pu` (clocked blocks busy each cycle)
// are the network's.
ResourceEstimate program_estimate(const PipelinedProgram& p, double network_bytes_per_pu, double blocks_per_pu,
                                  const std::string& network_what);

// Where each rank runs: a layout and its placement (rank -> PU; empty: rank x
// on PU (root + x) mod P).
struct Placement {
  frac::Layout layout;
  std::vector<std::uint32_t> pu_of_rank;
};
// The layout in rank order (chain, or the fractional tree of r; r = 1 binary).
Placement rank_order_placement(const PipelinedProgram& p);

// The processors of one run, their NICs and PEs, over a fabric.
struct ProcessorSet {
  UnitPacketPool pool;
  TrafficLedger ledger;
  std::vector<SinglePortNic*> directory;
  std::vector<std::unique_ptr<SinglePortNic>> nics;
  std::vector<std::unique_ptr<frac::FractionalPe>> pes;  // by rank
  std::unique_ptr<TransferFollower> follower;             // null unless outputs.trace_packet

  // `prefix` names the blocks ("" for the run, "crossbar_" for a reference);
  // deliveries go through `tap` when given; `swap` crosses two ejection links.
  void build(const std::string& prefix, const PipelinedProgram& program, const frac::Layout& layout,
             const frac::RunShape& shape, const frac::DirectSimplexSchedule* direct, SinglePortFabric& fabric,
             CycleEngine& engine, DeliveryTap* tap, const EjectionSwap& swap = {});
  // Per processor port: the packet it sends (to whom, which) and the one it
  // receives (from whom, which), as waveform rows.
  void trace(WaveformTracer& tracer, const std::string& prefix, std::uint32_t packets) const;
  // outputs.trace_packet: records the transfers of these packet numbers and
  // adds a save file per packet that follows it over the rows of trace().
  void follow(WaveformTracer& tracer, const std::string& prefix, const std::vector<std::uint32_t>& ids,
              const PipelinedProgram& program);
  // The last packet's arrival.
  Cycle cycles() const;
  // The first packet received by another node than its sender meant, or "".
  std::string misdelivery() const;
  // "" or the first thing that went wrong: where a packet arrived, the books,
  // a PE, the simplex model.
  std::string problem() const;
};

class PipelinedCollectiveExperiment : public CollectiveExperiment {
 protected:
  PipelinedCollectiveExperiment(sc_core::sc_module_name name, const CycleEngine::Options& options,
                                const PipelinedProgram& program, Placement placement, std::uint64_t seed);

  // Builds the run's processors over `fabric`.
  void build_processors(SinglePortFabric& fabric, const EjectionSwap& swap = {});

  Cycle cycles() const { return run_.cycles(); }
  std::uint64_t step_cycles() const { return program_.t + program_.units; }
  std::uint64_t steps() const { return (cycles() + step_cycles() - 1) / step_cycles(); }
  std::uint64_t pseudocode_steps() const;
  std::uint64_t log_p() const;
  double bound5() const;
  // The root's reduction results against reduction_oracle.hpp, or "".
  std::string reduction_problem(const ProcessorSet& set) const;
  // Lower bounds no hardware may beat (a model error if it does), or "".
  std::string bound_problem() const;
  // The tree edge a flow between two PUs belongs to (congestion counts).
  std::uint64_t tree_edge(NodeId src, NodeId dst) const;
  // The table cells every such network shares: the program's parameters.
  std::vector<Column> program_columns() const;
  // The network cell, with the processors' port model.
  std::string network_cell(std::string net) const;

  // --- ExperimentBase ---
  std::string misdelivery_problem() const override { return run_.misdelivery(); }
  std::string conservation_problem() const override { return run_.ledger.check(run_.pool.live()); }
  std::string receipts_problem() const override;
  void write_result_fields(nlohmann::ordered_json& r) const override;
  void write_expected(nlohmann::ordered_json& r) const override;

  const PipelinedProgram program_;
  frac::Layout layout_;
  frac::RunShape shape_;
  std::unique_ptr<frac::DirectSimplexSchedule> direct_;  // simplex direct: each line's half order (outlives the PEs)
  ProcessorSet run_;

 private:
  static CycleEngine::Options options(CycleEngine::Options o, const PipelinedProgram& p);
};

}  // namespace icn
