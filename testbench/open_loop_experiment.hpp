// OpenLoopExperiment: the open-loop traffic layer on ExperimentBase.
//
// One OpenLoopSource per node makes packets by a Bernoulli or on/off process
// (or replays a trace) and never waits for the network. This layer is the
// testbench's measurement block: it watches the network in sample periods,
// runs the warm-up / measurement / drain controller (models/open_loop.hpp,
// BookSim's), keeps what every source meant to send (the receipts are checked
// against it, not against the packet's own fields) and the statistics of the
// measured packets, and writes the open-loop `result` fields: stable,
// latency, throughput (offered and accepted over the measured window), hops,
// packets and phases.
//
// A family builds its network in its constructor, hands each node's NIC to
// add_sources(), reports every arrival to arrived(), starts the measurement
// with start(), and declares its table columns and its own JSON section.
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/open_loop.hpp"
#include "models/packet.hpp"
#include "models/stats.hpp"
#include "testbench/experiment_base.hpp"
#include "testbench/open_loop_source.hpp"

namespace icn {

// The measurement window an open-loop run is asked for.
struct OpenLoopWindow {
  OpenLoopPhases::Params phases;
  Cycle fixed_cycles = 0;         // measure.cycles: a fixed window instead of the phase controller
  bool drain_all = true;          // after the measured packets, drain every packet
  bool may_block = false;         // faults present: measured packets may wait for ever behind them
};

// The traffic every source draws from.
struct OpenLoopTraffic {
  DestinationPattern pattern;
  PacketSizes sizes;
  InjectionProcess process;
  std::vector<TraceEntry> trace;
};

class OpenLoopExperiment : public ExperimentBase {
 protected:
  OpenLoopExperiment(sc_core::sc_module_name name, const CycleEngine::Options& options, const OpenLoopWindow& window,
                     unsigned nodes);

  // One source per node, each connected to its NIC by `bind` (which also
  // registers the family's arrival path); the sources draw from `traffic`,
  // which must outlive the experiment.
  void add_sources(const OpenLoopTraffic& traffic, std::uint64_t seed,
                   const std::function<void(NodeId, OpenLoopSource&)>& bind);
  // Starts the measurement (after the network and sources are built).
  void start();
  // A packet's tail arrived at node `at` with `flits` flits in cycle `tail`.
  void arrived_packet(const Packet& p, unsigned flits, Cycle tail, NodeId at);

  // --- hooks for the family ---
  // A measured packet arrived (after the layer recorded it), for the
  // family's own per-packet statistics.
  virtual void measured_arrival(const Packet& p, Cycle tail) {}
  // The measurement window restarted: clear the family's per-packet statistics.
  virtual void restart_family_measurement() {}
  // The end of each sample period of the phase controller.
  virtual void sample_period_end() {}
  // More fields of result.latency (after packet and network).
  virtual void write_latency_detail(nlohmann::ordered_json& latency) const {}

  // --- ExperimentBase ---
  std::string misdelivery_problem() const override { return wrong_; }
  std::string conservation_problem() const override;
  std::string receipts_problem() const override;
  void write_result_fields(nlohmann::ordered_json& r) const override;

  // The run is stable: the controller saw it converge and the run completed.
  bool stable() const { return phases_.stable() && completed(); }
  Cycle measured_cycles() const;
  std::uint64_t measured_packets() const { return packet_latency_.count(); }
  static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

  PacketPool pool_;
  TrafficLedger ledger_;
  const unsigned nodes_;
  std::uint64_t outstanding_ = 0;  // measured packets not yet arrived

 private:
  struct Intended {
    NodeId dst = kNoNode;
    unsigned flits = 0;
  };
  static std::uint64_t flow_key(NodeId src, std::uint32_t seq) { return std::uint64_t{src} << 32 | seq; }

  // The testbench's own clocked block: sample-period boundaries.
  class MeasurementBlock : public Clocked {
   public:
    explicit MeasurementBlock(OpenLoopExperiment& x) : Clocked(Phase::kProcessor), x_(x) {}
    Cycle tick(Cycle now) override { return x_.tick(now); }
    std::string block_name() const override { return std::string(x_.name()) + ".measurement"; }

   private:
    OpenLoopExperiment& x_;
  };

  Cycle tick(Cycle now);
  void created(const IntendedPacket& p);
  void check_receipt(const Packet& p, unsigned flits, NodeId at, Cycle tail);
  Cycle fixed_window_tick(Cycle now);
  Cycle drain_tick(Cycle now);
  void restart_measurement(Cycle start);
  void maybe_finish(Cycle now);
  void finish();

  const OpenLoopWindow window_;
  MeasurementBlock block_{*this};
  OpenLoopPhases phases_;
  const std::function<void(const IntendedPacket&)> created_ = [this](const IntendedPacket& p) { created(p); };
  SourceWrite write_;                   // every source's write to its NIC
  std::deque<OpenLoopSource> sources_;  // one per node, each in place (a Clocked block does not move)
  Cycle measure_start_ = kNever;
  Cycle measure_end_ = kNever;
  Cycle warmup_end_ = 0;
  Cycle measured_drained_at_ = 0;
  Cycle next_tick_ = 1;
  bool draining_ = false;
  bool done_ = false;
  bool all_sources_stopped_ = false;
  double outstanding_created_sum_ = 0;
  std::uint64_t created_packets_ = 0;
  std::uint64_t offered_flits_ = 0;
  std::uint64_t accepted_flits_ = 0;
  double window_latency_sum_ = 0;
  std::uint64_t window_packets_ = 0;
  std::uint64_t window_flits_ = 0;
  std::vector<std::uint64_t> node_accepted_;
  Histogram packet_latency_, network_latency_, hops_;
  std::vector<Histogram> by_hops_;  // network latency by routers traversed
  std::string wrong_;
  Cycle wrong_tail_ = 0;  // the cycle and node of the problem in wrong_
  NodeId wrong_at_ = 0;
  // Packets made and not yet received: (source, its sequence number) -> what
  // it meant. Bounded by the packets in flight.
  std::unordered_map<std::uint64_t, Intended> intended_;
};

}  // namespace icn
