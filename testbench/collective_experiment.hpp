// CollectiveExperiment: the collective-traffic layer on ExperimentBase.
//
// It adds the packet pool and conservation ledger the books are checked
// against, and taps every delivery for message latency (written last in the
// `result` block). A family supplies its parameters, its network builder (in
// its constructor, using engine_, pool_ and ledger_), receipts_problem(),
// write_result_fields() and its own sections (experiment_base.hpp).
#pragma once

#include <systemc>

#include <optional>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/stats.hpp"
#include "nics/icn_extension.hpp"
#include "testbench/experiment_base.hpp"

namespace icn {

// A probe on the ejection side of every NIC: records each delivery's latency
// and hop count, then hands it to the processor of the receiving node.
class DeliveryTap : public DeliverySink {
 public:
  explicit DeliveryTap(LatencyStats& stats) : stats_(stats) {}

  // Deliveries to `node` go on to `sink` (one sink may serve every node).
  void route(NodeId node, DeliverySink& sink) {
    if (node >= sinks_.size()) sinks_.resize(node + 1, nullptr);
    sinks_[node] = &sink;
  }
  void route_all(DeliverySink& sink) { all_ = &sink; }

  void deliver(const Delivery& d) override {
    stats_.record(d.injected, d.arrived, d.hops);
    DeliverySink* next = d.dst < sinks_.size() && sinks_[d.dst] != nullptr ? sinks_[d.dst] : all_;
    if (next != nullptr) next->deliver(d);
  }

 private:
  LatencyStats& stats_;
  std::vector<DeliverySink*> sinks_;
  DeliverySink* all_ = nullptr;
};

class CollectiveExperiment : public ExperimentBase {
 protected:
  CollectiveExperiment(sc_core::sc_module_name name, const CycleEngine::Options& options)
      : ExperimentBase(name, options), tap_(latency_) {
    pool_.set_workers(engine_.threads());  // blocks on worker threads use their own free lists
  }

  // Messages the network still holds (the ledger's "still held" check).
  virtual std::size_t held_in_network() const { return pool_.live(); }
  std::string conservation_problem() const override { return ledger_.check(held_in_network()); }
  // The latency statistics to report (a family with several trials picks one).
  virtual const LatencyStats& reported_latency() const { return latency_; }
  void write_result_tail(nlohmann::ordered_json& r) const override { r["latency"] = latency_json(); }

  nlohmann::ordered_json latency_json() const {
    const LatencyStats& l = reported_latency();
    return {{"network", l.network.to_json()}, {"hops", l.hops.to_json()}};
  }

  PacketPool pool_;
  TrafficLedger ledger_;
  LatencyStats latency_;
  DeliveryTap tap_;
};

}  // namespace icn
