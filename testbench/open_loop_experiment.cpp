#include "testbench/open_loop_experiment.hpp"

#include <algorithm>
#include <utility>

namespace icn {

OpenLoopExperiment::OpenLoopExperiment(sc_core::sc_module_name name, const CycleEngine::Options& options,
                                       const OpenLoopWindow& window, unsigned nodes)
    : ExperimentBase(name, options),
      nodes_(nodes),
      window_(window),
      phases_(window.phases),
      node_accepted_(nodes, 0) {
  engine_.set_in_flight_probe([this] { return pool_.live(); });
  engine_.add(block_);
}

void OpenLoopExperiment::add_sources(const OpenLoopTraffic& traffic, std::uint64_t seed,
                                     const std::function<void(NodeId, OpenLoopSource&)>& bind) {
  std::vector<std::vector<TraceEntry>> per_node(nodes_);
  for (const auto& e : traffic.trace) per_node[e.src].push_back(e);
  for (NodeId node = 0; node < nodes_; ++node) {
    OpenLoopSource& src = sources_.emplace_back(name(), node, traffic.pattern, traffic.sizes, traffic.process,
                                                seed, std::move(per_node[node]), created_, write_);
    bind(node, src);
    engine_.add(src);
    src.start();
  }
}

void OpenLoopExperiment::start() {
  measure_start_ = 1;  // with the phase controller tentative: each warm-up period is measured, and kept
                       // if the run goes unstable in it
  if (window_.fixed_cycles > 0) {
    measure_end_ = window_.fixed_cycles + 1;
    next_tick_ = measure_end_;
  } else {
    next_tick_ = window_.phases.sample_period;
  }
  engine_.wake(block_, next_tick_);
}

Cycle OpenLoopExperiment::tick(Cycle now) {
  if (done_) return kNever;
  if (now < next_tick_) return next_tick_;  // the per-block scheduler calls every cycle
  next_tick_ = now + 1;
  if (all_sources_stopped_) return drain_tick(now);
  if (window_.fixed_cycles > 0) return fixed_window_tick(now);
  sample_period_end();
  const double window_latency = ratio(window_latency_sum_, double(window_packets_));
  const double accepted = ratio(double(window_flits_), double(nodes_) * double(window_.phases.sample_period));
  window_latency_sum_ = 0;
  window_packets_ = 0;
  window_flits_ = 0;
  using S = OpenLoopPhases::State;
  const S before = phases_.state();
  S state;
  if (before == S::kDraining) {
    const double sum = packet_latency_.mean() * double(packet_latency_.count()) +
                       (double(now) * double(outstanding_) - outstanding_created_sum_);
    state = phases_.drain_check(ratio(sum, double(packet_latency_.count() + outstanding_)));
  } else {
    const double latency = before == S::kMeasuring && packet_latency_.count() > 0 ? packet_latency_.mean() : window_latency;
    state = phases_.end_of_period(latency, accepted);
  }
  if (before == S::kWarmingUp && state == S::kMeasuring) {
    restart_measurement(now + 1);
    warmup_end_ = now;
  }
  if (before == S::kWarmingUp && state == S::kWarmingUp) restart_measurement(now + 1);
  if (before == S::kMeasuring && state != S::kMeasuring) measure_end_ = now + 1;
  if (state == S::kDone && !phases_.stable()) {  // unstable: stop at once
    if (measure_end_ == kNever) measure_end_ = now + 1;
    finish();
    return kNever;
  }
  if (state == S::kDraining) {
    draining_ = true;
    maybe_finish(now);
  }
  return done_ ? kNever : (next_tick_ = now + window_.phases.sample_period);
}

// Every source stopped: done when the network is empty.
Cycle OpenLoopExperiment::drain_tick(Cycle now) {
  if (pool_.live() == 0) {
    finish();
    return kNever;
  }
  return now + 1;
}

// The fixed window ended: drain the measured packets.
Cycle OpenLoopExperiment::fixed_window_tick(Cycle now) {
  draining_ = true;
  maybe_finish(now);
  if (!done_ && window_.may_block && outstanding_ != 0 &&
      double(now) - outstanding_created_sum_ / double(outstanding_) > window_.phases.latency_threshold) {
    finish();  // behind a failed link: measured packets would wait for ever
    return kNever;
  }
  return done_ ? kNever : (next_tick_ = now + window_.phases.sample_period);
}

void OpenLoopExperiment::created(const IntendedPacket& p) {
  intended_.emplace(flow_key(p.src, p.seq), Intended{p.dst, p.flits});
  ++created_packets_;
  if (p.created >= measure_start_ && p.created < measure_end_) {
    ++outstanding_;
    outstanding_created_sum_ += double(p.created);
    offered_flits_ += p.flits;
  }
}

// The receiving NIC's node and the flits it counted against what the source
// meant (kept here since the packet was made): a packet that reaches the wrong
// node, arrives short or long, or that no source made, makes the run
// unverified, named. The first problem is reported, first by cycle and then
// by receiving node: within a cycle the NICs deliver in an order that depends
// on the run's thread count (run.threads).
void OpenLoopExperiment::check_receipt(const Packet& p, unsigned flits, NodeId at, Cycle tail) {
  const auto it = intended_.find(flow_key(p.src, p.seq));
  const bool made = it != intended_.end();
  const Intended meant = made ? it->second : Intended{};
  if (made) intended_.erase(it);
  if (made && meant.dst == at && meant.flits == flits) return;
  if (!wrong_.empty() && std::make_pair(tail, at) >= std::make_pair(wrong_tail_, wrong_at_)) return;
  wrong_tail_ = tail;
  wrong_at_ = at;
  const std::string which = "packet " + std::to_string(p.seq) + " of node " + std::to_string(p.src);
  if (!made)
    wrong_ = "node " + std::to_string(at) + " received " + which +
             ", which that node never sent (or which was already delivered)";
  else if (meant.dst != at)
    wrong_ = which + " was meant for node " + std::to_string(meant.dst) + " and received by node " + std::to_string(at);
  else
    wrong_ = which + " to node " + std::to_string(at) + " arrived with " + std::to_string(flits) + " of its " +
             std::to_string(meant.flits) + " flits";
}

void OpenLoopExperiment::arrived_packet(const Packet& p, unsigned flits, Cycle tail, NodeId at) {
  check_receipt(p, flits, at, tail);
  window_latency_sum_ += double(tail - p.created);
  ++window_packets_;
  window_flits_ += flits;
  if (tail >= measure_start_ && tail < measure_end_) {
    accepted_flits_ += flits;
    node_accepted_[at] += flits;
  }
  if (p.created >= measure_start_ && p.created < measure_end_) {
    if (p.hops >= by_hops_.size()) by_hops_.resize(p.hops + 1);
    by_hops_[p.hops].add(tail - p.injected);
    packet_latency_.add(tail - p.created);
    network_latency_.add(tail - p.injected);
    hops_.add(p.hops);
    measured_arrival(p, tail);
    --outstanding_;
    outstanding_created_sum_ -= double(p.created);
  }
  if (draining_) maybe_finish(tail);
}

// Starts the measurement window afresh at `start`. While warming up every
// period is a tentative window: a run that turns unstable before its
// measurement began still reports what its last period measured (the accepted
// throughput at saturation, the latency of the packets that did arrive),
// marked unstable.
void OpenLoopExperiment::restart_measurement(Cycle start) {
  measure_start_ = start;
  outstanding_ = 0;
  outstanding_created_sum_ = 0;
  offered_flits_ = 0;
  accepted_flits_ = 0;
  std::fill(node_accepted_.begin(), node_accepted_.end(), 0);
  packet_latency_ = Histogram();
  network_latency_ = Histogram();
  hops_ = Histogram();
  by_hops_.clear();
  restart_family_measurement();
}

void OpenLoopExperiment::maybe_finish(Cycle now) {
  if (done_ || outstanding_ != 0) return;
  if (!all_sources_stopped_) {
    phases_.drained();
    measured_drained_at_ = now;
    if (!window_.drain_all) {
      finish();
      return;
    }
    for (auto& s : sources_) s.stop_injecting();
    all_sources_stopped_ = true;
  }
  next_tick_ = std::min(next_tick_, now + 1);
  engine_.wake(block_, now + 1);  // the packet that just arrived is released after this call
}

void OpenLoopExperiment::finish() {
  done_ = true;
  engine_.stop();
}

std::string OpenLoopExperiment::conservation_problem() const {
  if (ledger_.delivered + pool_.live() == ledger_.injected) return "";
  return "conservation violated: " + std::to_string(ledger_.injected) + " packets injected, " +
         std::to_string(ledger_.delivered) + " delivered, " + std::to_string(pool_.live()) + " held";
}

std::string OpenLoopExperiment::receipts_problem() const {
  if (phases_.stable() && outstanding_ != 0) return std::to_string(outstanding_) + " measured packet(s) never arrived";
  return "";
}

Cycle OpenLoopExperiment::measured_cycles() const {
  // An interrupted run measured only up to its last cycle.
  const Cycle end = std::min(measure_end_, engine_.outcome().last_cycle + 1);
  return end > measure_start_ ? end - measure_start_ : 0;
}

void OpenLoopExperiment::write_result_fields(nlohmann::ordered_json& r) const {
  const double nodes = nodes_;
  const double cycles = double(measured_cycles());
  r["stable"] = stable();
  r["latency"]["packet"] = packet_latency_.summary();
  r["latency"]["packet"]["histogram"] = packet_latency_.to_json()["bins"];
  r["latency"]["network"] = network_latency_.summary();
  nlohmann::ordered_json hops = nlohmann::ordered_json::array();
  for (std::size_t h = 0; h < by_hops_.size(); ++h)
    if (by_hops_[h].count() != 0)
      hops.push_back({{"routers", h}, {"packets", by_hops_[h].count()}, {"network_latency_mean", by_hops_[h].mean()},
                      {"per_router", by_hops_[h].mean() / double(h)}});
  r["latency"]["network"]["by_hops"] = hops;
  write_latency_detail(r["latency"]);
  r["throughput"]["offered"] = ratio(double(offered_flits_), nodes * cycles);
  r["throughput"]["accepted"] = ratio(double(accepted_flits_), nodes * cycles);
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
  for (auto a : node_accepted_) {
    lo = std::min(lo, a);
    hi = std::max(hi, a);
  }
  r["throughput"]["accepted_min"] = ratio(double(lo), cycles);
  r["throughput"]["accepted_max"] = ratio(double(hi), cycles);
  r["hops"] = hops_.summary();
  r["packets"] = {{"created", created_packets_}, {"delivered", ledger_.delivered},
                  {"measured", packet_latency_.count()}, {"held_at_end", pool_.live()}};
  r["phases"] = {{"warmup_end", warmup_end_}, {"measure_start", measure_start_},
                 {"measure_end", measure_end_ == kNever ? 0 : measure_end_},
                 {"measured_drained", measured_drained_at_}, {"periods", phases_.periods()},
                 {"converged", phases_.converged()}};
  // Which window the figures above cover.
  r["phases"]["window"] = window_.fixed_cycles > 0                        ? "fixed"
                          : warmup_end_ == 0 && !phases_.stable() ? "last_warmup_period"
                                                                  : "measurement";
}

}  // namespace icn
