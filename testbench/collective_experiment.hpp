// CollectiveExperiment: what every collective-traffic experiment shares.
//
// It owns the network's cycle engine, packet pool, conservation ledger and
// statistics registry, taps every delivery for message latency, and writes
// the parts of the results every family has: the verdict chain
// (run outcome -> conservation -> hardware protocol -> receipts), the `result`
// block's status / verified / conservation / problem / held / latency fields,
// and the comparison with a paper's value (only for a run that completed). A
// family supplies its parameters, its network builder (in its constructor, using
// engine_, pool_ and ledger_), and the hooks below.
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
#include "testbench/experiment.hpp"

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

class CollectiveExperiment : public Experiment {
 public:
  CycleEngine& engine() override { return engine_; }

  // "" if the run completed, the books balance, the hardware kept its protocol
  // and every processor received exactly its plan; else the first failure.
  std::string problem() const override {
    const RunOutcome& outcome = engine_.outcome();
    if (outcome.status != RunOutcome::Status::kCompleted) return outcome.diagnostic;
    const std::string books = conservation_problem();
    if (!books.empty()) return books;
    const std::string protocol = protocol_problem();
    if (!protocol.empty()) return protocol;
    return receipts_problem();
  }

  void write_results(nlohmann::ordered_json& out) const override {
    write_sections_before(out);
    nlohmann::ordered_json r;
    r["status"] = to_string(engine_.outcome().status);
    write_result_fields(r);
    r["verified"] = verified();
    if (!r.contains("conservation")) {
      const std::string books = conservation_problem();
      const std::string protocol = protocol_problem();
      r["conservation"] = books.empty() && protocol.empty() ? "ok" : (books.empty() ? protocol : books);
    }
    write_expected(r);
    const std::string why = problem();
    if (!why.empty()) r["problem"] = why;
    if (!engine_.outcome().held.empty()) r["held"] = held_json(engine_.outcome());
    r["latency"] = latency_json();
    out["result"] = r;
    write_sections(out);
    const nlohmann::ordered_json registered = stats_.to_json();
    if (!registered.empty()) out["stats"] = registered;
  }

 protected:
  CollectiveExperiment(sc_core::sc_module_name name, const CycleEngine::Options& options)
      : Experiment(name), engine_("engine", options), tap_(latency_) {}

  // The run ended because the traffic completed (not stalled, not cut off).
  bool completed() const { return engine_.outcome().status == RunOutcome::Status::kCompleted; }
  // A completed run whose books balance, whose hardware kept its protocol and
  // in which every processor received exactly its plan: a protocol fault (a
  // misrouted stream, a stray acknowledge) is never "verified".
  virtual bool verified() const { return completed() && problem().empty(); }

  // A paper's value beside the observed one: null when the paper gives none or
  // the run did not complete (an incomplete run agrees with nothing).
  std::optional<bool> matches(std::optional<std::uint64_t> paper, std::uint64_t observed) const {
    if (!paper || !completed()) return std::nullopt;
    return *paper == observed;
  }
  static nlohmann::ordered_json json_or_null(const std::optional<bool>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  }

  // --- supplied by the family ---
  // "" if every processor received exactly what it should.
  virtual std::string receipts_problem() const = 0;
  // Its fields of the `result` block (cycles, messages, ...), written after `status`.
  virtual void write_result_fields(nlohmann::ordered_json& r) const = 0;
  // Its `expected` block (paper values, bounds), written after `conservation`.
  virtual void write_expected(nlohmann::ordered_json& r) const {}
  // Its own JSON sections, before and after `result`.
  virtual void write_sections_before(nlohmann::ordered_json& out) const {}
  virtual void write_sections(nlohmann::ordered_json& out) const {}
  // Messages the network still holds (the ledger's "still held" check).
  virtual std::size_t held_in_network() const { return pool_.live(); }
  // Faults a correct network never commits (bit-serial protocol checks, ...).
  virtual std::string protocol_problem() const { return ""; }
  // "" when the books balance.
  virtual std::string conservation_problem() const { return ledger_.check(held_in_network()); }
  // The latency statistics to report (a family with several trials picks one).
  virtual const LatencyStats& reported_latency() const { return latency_; }

  nlohmann::ordered_json latency_json() const {
    const LatencyStats& l = reported_latency();
    return {{"network", l.network.to_json()}, {"hops", l.hops.to_json()}};
  }

  PacketPool pool_;
  TrafficLedger ledger_;
  CycleEngine engine_;
  LatencyStats latency_;
  DeliveryTap tap_;
  StatRegistry stats_;
};

}  // namespace icn
