// An Experiment is one network with its traffic, elaborated as a SystemC module
// tree with its own CycleEngine. Several experiments can share one SystemC
// kernel (SystemC elaborates once per process), which is how `icnsim` with no
// arguments runs its whole default table in one simulation.
//
// Each network family registers a NetworkKind: the parameters it accepts (for
// `icnsim list` and validation) and a configure step that reads and validates
// them into an ExperimentSetup, before anything is elaborated.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "models/engine.hpp"
#include "models/trace.hpp"

namespace icn {

struct ParamGroup {
  std::string title;  // e.g. "network (type fattree_packet)"
  std::vector<ParamSpec> params;
};

struct RunContext {
  std::uint64_t seed = 1;
  CycleEngine::Options engine;
  WaveformTracer* tracer = nullptr;  // set when waveforms are requested
  // Packets (message ids) whose path gets its own save file (outputs.trace_packet).
  std::vector<std::uint32_t> trace_packets;
  // outputs.trace_window (cycles sampled, inclusive) and outputs.trace_routers
  // (the blocks whose rows are traced; empty: all).
  Cycle trace_from = 0, trace_to = kNever;
  std::vector<std::string> trace_blocks;
};

class Experiment : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;

  virtual CycleEngine& engine() = 0;
  // Writes the observed results ("result" and family-specific sections).
  virtual void write_results(nlohmann::ordered_json& out) const = 0;
  // "" if the run completed, every PE received exactly what it should and the
  // books balance; otherwise one line saying what went wrong.
  virtual std::string problem() const = 0;
  // Routers in the network (for router-cycles per second).
  virtual std::uint64_t routers() const = 0;
  // The fraction of the run's known work done so far (0..1), for the progress
  // line of long runs; negative where the family cannot tell.
  virtual double work_done() const { return -1; }
  // One line of a summary table.
  virtual std::vector<std::string> table_header() const = 0;
  virtual std::vector<std::string> table_row() const = 0;
};

// What elaborating and running a setup will cost, estimated from the
// configuration alone (nothing is built), for the resource guard: a run that
// would not fit in memory or cannot finish within run.max_cycles is refused
// before it starts. Each family calibrates its estimate against measured runs
// (tests/integration/robustness_test.cpp).
struct ResourceEstimate {
  double memory_bytes = 0;        // peak resident memory of the model and its traffic
  double cycles_lower_bound = 0;  // cycles the traffic needs at least; 0 when not known
  std::string what;               // what was counted, e.g. "4194304 routers, 8 ports"
  std::string cycles_why;         // why the traffic needs that many cycles
  // Simulated work: block evaluations the run is expected to take (blocks
  // active per cycle x cycles), 0 when not known. run.max_work refuses a run
  // beyond it before elaboration; sim.work_estimate reports it beside the
  // measured sim.block_evaluations so the estimate can be calibrated.
  double work = 0;
  std::string work_why;           // how it was counted
  // What its waveform will hold (outputs.max_trace_bytes); empty: not known,
  // and only the limit during the run guards the disk.
  TraceEstimate trace;
  // Block evaluations a second on one core of the development machine, for
  // the refusal's wording: 2-8 million over the families at mid sizes; a
  // family whose evaluations cost more (large state per block) says so.
  double evaluations_per_second = 2e6;
};

class ExperimentSetup {
 public:
  virtual ~ExperimentSetup() = default;
  virtual std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) = 0;
  // A family without an estimate (memory_bytes 0) is not guarded.
  virtual ResourceEstimate estimate() const { return {}; }
  // Files a run writes beside its waveform `waveform_file` (a Verilated
  // block's FILE.rtl.vcd), checked with the other outputs before elaboration.
  virtual std::vector<std::string> waveform_side_files(const std::string& waveform_file) const { return {}; }
  // Whether the family follows packets for outputs.trace_packet.
  virtual bool follows_packets() const { return false; }
  // Why this run cannot evaluate its network on several threads
  // (run.threads > 1), or "" if it can: its blocks then keep every effect on
  // shared state for Clocked::commit (models/engine.hpp). Every shipped
  // family says; a setup that does not (a user's own family: this header is
  // stable, docs/library.md) stays on one thread until its blocks follow
  // those rules (docs/architecture.md, "Several threads").
  virtual std::string single_thread_reason() const { return kSingleThreadFamily; }
  static constexpr const char* kSingleThreadFamily =
      "this network.type runs on one thread (its blocks are not known to commit their shared effects)";
};

// Where traffic was held when a run stopped (stall or cycle limit), for the
// JSON results: [{location, packets, head, since}, ...].
inline nlohmann::ordered_json held_json(const RunOutcome& outcome) {
  nlohmann::ordered_json held = nlohmann::ordered_json::array();
  for (const auto& h : outcome.held)
    held.push_back({{"location", h.location}, {"packets", h.packets}, {"head", h.head}, {"since", h.since}});
  return held;
}

struct NetworkKind {
  std::string type;
  std::string summary;
  std::function<std::vector<ParamGroup>()> params;
  // Declares this kind's keys in `cfg`, reads and validates them.
  std::function<std::unique_ptr<ExperimentSetup>(Config& cfg)> configure;
};

// Every network family, in the order `icnsim list` shows them.
const std::vector<NetworkKind>& network_kinds();

}  // namespace icn
