// The VC routers under open-loop synthetic traffic (network.type=vc without
// traffic.collective): the network, one source per node on the open-loop
// layer (open_loop_experiment.hpp), and what only this family measures: the
// time a packet spends in each router stage, VC occupancy and channel
// utilisation.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>

#include "models/config.hpp"
#include "models/params.hpp"
#include "models/trace.hpp"
#include "routers/vc/vc_network.hpp"
#include "testbench/vc_energy.hpp"
#include "testbench/vc_setup.hpp"

namespace icn {

namespace {

// Keys with a union type (one size or a list) or a range known only from
// other keys are raw specs, declared here once and read by name below.
ChoiceParam pattern_param() { return {"traffic.pattern", "uniform", pattern_names(), "destination pattern"}; }
const RawParam kPacketSize{"traffic.packet_size", "4", "1..65536, or a list of sizes", "packet length in flits"};
const RawParam kPacketSizeWeights{"traffic.packet_size_weights", "[]", "list of weights > 0, one per size (empty: equal)",
                                  "probabilities of the sizes in traffic.packet_size",
                                  "traffic.packet_size given as a list"};
const RawParam kHotspotNodes{"traffic.hotspot_nodes", "[0]", "list of nodes 0..N-1", "hotspot: the hotspot nodes",
                             "traffic.pattern=hotspot"};
const RawParam kTraceFile{"traffic.trace_file", "", "a file of 'cycle source destination size' lines", "trace: the trace",
                          "traffic.pattern=trace"};
const RealParam kInjectionRate{"traffic.injection_rate", "0.05", 0, 1, "offered load in flits per node per cycle",
                               "0..1 (flits/node/cycle; packets/node/cycle <= 1)", "traffic.pattern other than trace"};
const BoolParam kSelfTraffic{"traffic.self_traffic", true, "uniform: a node may draw itself (BookSim: true)"};
const ChoiceParam kInjection{"traffic.injection", "bernoulli", {"bernoulli", "onoff"}, "injection process"};
const RealParam kBurstAlpha{"traffic.burst_alpha", "0.1", 0, 1, "on/off: probability per cycle of turning on",
                            "0 < alpha <= 1", "traffic.injection=onoff"};
const RealParam kBurstBeta{"traffic.burst_beta", "0.1", 0, 1, "on/off: probability per cycle of turning off",
                           "0 < beta <= 1", "traffic.injection=onoff"};
const RealParam kHotspotFraction{"traffic.hotspot_fraction", "0.1", 0, 1,
                                 "hotspot: fraction of packets sent to a hotspot node", "0..1", "traffic.pattern=hotspot"};
const IntParam kSamplePeriod{"measure.sample_period", 1000, 1, 1000000000, "cycles per sample period", "", "1..10^9"};
const IntParam kWarmupPeriods{"measure.warmup_periods", 0, 0, 1000, "warm-up periods; 0 = until latency is steady"};
const IntParam kMaxSamples{"measure.max_samples", 10, 1, 10000,
                           "sample periods of measurement before giving up converging"};
const RealParam kLatencyThreshold{"measure.latency_threshold", "500", 1, 1e9,
                                  "average latency above which the run is unstable", "1..10^9"};
const RealParam kStoppingThreshold{"measure.stopping_threshold", "0.05", 0, 1,
                                   "relative change of latency that counts as converged", "0..1"};
const IntParam kMeasureCycles{"measure.cycles", 0, 0, std::int64_t{1} << 40,
                              "0: warm-up/measure/drain phases; > 0: measure every packet created in cycles 1..cycles "
                              "(no warm-up)",
                              "", "0..2^40"};
const BoolParam kDrainAll{"measure.drain_all", true,
                          "after the measured packets, stop the sources and drain every packet"};

// traffic.packet_size (one size or a list) and traffic.packet_size_weights.
PacketSizes read_packet_sizes(Config& cfg) {
  PacketSizes sizes;
  if (!kPacketSize.read(cfg).IsSequence()) {
    sizes.sizes = {static_cast<unsigned>(cfg.integer(kPacketSize.key, 1, 65536))};
    sizes.weights = {1.0};
    return sizes;
  }
  sizes.sizes.clear();
  for (auto v : cfg.integer_list(kPacketSize.key, 1, 65536)) sizes.sizes.push_back(static_cast<unsigned>(v));
  if (sizes.sizes.empty()) cfg.fail("traffic.packet_size", "a list needs at least one size (1..65536)");
  const YAML::Node w = cfg.node(kPacketSizeWeights.key);
  sizes.weights.assign(sizes.sizes.size(), 1.0);
  const std::string allowed = "a list of " + std::to_string(sizes.sizes.size()) +
                              " numbers in (0, 1e9], one per size in traffic.packet_size, or [] for equal weights";
  if (!w.IsNull() && !w.IsSequence()) cfg.fail("traffic.packet_size_weights", "expected " + allowed);
  if (w.IsSequence() && w.size() != 0) {
    if (w.size() != sizes.sizes.size()) cfg.fail("traffic.packet_size_weights", "expected " + allowed);
    for (std::size_t i = 0; i < w.size(); ++i) {
      double x = -1;
      if (!w[i].IsScalar() || !parse_decimal_real(w[i].Scalar(), x) || !(x > 0) || x > 1e9)
        cfg.fail("traffic.packet_size_weights", "expected " + allowed);
      sizes.weights[i] = x;
    }
  }
  return sizes;
}

// traffic.injection_rate and the injection process.
void read_injection(Config& cfg, VcSyntheticSetup& s) {
  InjectionProcess& process = s.traffic.process;
  s.rate = kInjectionRate.read(cfg);
  process.packet_rate = s.rate / s.traffic.sizes.mean();
  if (process.packet_rate > 1)
    cfg.fail("traffic.injection_rate", "at most one packet per node per cycle (rate / mean packet size <= 1)");
  if (kInjection.read(cfg) != "onoff") return;
  process.kind = InjectionProcess::Kind::kOnOff;
  process.alpha = kBurstAlpha.read(cfg);
  process.beta = kBurstBeta.read(cfg);
  if (process.alpha <= 0) cfg.fail("traffic.burst_alpha", "must be > 0 (0 < alpha <= 1)");
  if (process.beta <= 0) cfg.fail("traffic.burst_beta", "must be > 0 (0 < beta <= 1)");
  if (process.packet_rate * (process.alpha + process.beta) / process.alpha > 1)
    cfg.fail("traffic.injection_rate", "too high for this burstiness: rate (alpha+beta)/alpha must be <= 1 packet/cycle");
}

// traffic.*: the destination pattern, packet sizes and injection process.
void read_traffic(Config& cfg, VcSyntheticSetup& s) {
  const unsigned nodes = s.network.nodes;
  DestinationPattern& pattern = s.traffic.pattern;
  const std::string name = pattern_param().read(cfg);
  for (std::size_t i = 0; i < pattern_names().size(); ++i)
    if (pattern_names()[i] == name) pattern.kind = static_cast<PatternKind>(i);
  pattern.nodes = nodes;
  pattern.k = s.network.k;
  pattern.n = s.network.n;
  pattern.self_traffic = kSelfTraffic.read(cfg);
  const std::string why = pattern.problem();
  if (!why.empty()) cfg.fail("traffic.pattern", name + " " + why);

  s.traffic.sizes = read_packet_sizes(cfg);
  unsigned max_size = 0;
  for (unsigned z : s.traffic.sizes.sizes) max_size = std::max(max_size, z);
  s.network.net.max_packet_flits = std::max(max_size, 65536u);

  if (pattern.kind == PatternKind::kHotspot) {
    pattern.hotspot_fraction = kHotspotFraction.read(cfg);
    for (auto v : cfg.integer_list(kHotspotNodes.key, 0, nodes - 1)) pattern.hotspots.push_back(static_cast<NodeId>(v));
    if (pattern.hotspots.empty()) cfg.fail("traffic.hotspot_nodes", "needs at least one node 0.." + std::to_string(nodes - 1));
  }
  if (pattern.kind == PatternKind::kTrace) {
    const std::string path = cfg.text(kTraceFile.key);
    if (path.empty()) cfg.fail("traffic.trace_file", "traffic.pattern=trace needs a trace file");
    s.traffic.trace = read_trace(path, nodes, 65536);
    cfg.declare_unused("traffic.injection_rate", "the trace gives the packets");
  } else {
    read_injection(cfg, s);
  }
}

// measure.*: the measurement window.
OpenLoopWindow read_window(Config& cfg, bool may_block) {
  OpenLoopWindow w;
  w.phases.sample_period = static_cast<Cycle>(kSamplePeriod.read(cfg));
  w.phases.warmup_periods = static_cast<unsigned>(kWarmupPeriods.read(cfg));
  w.phases.max_samples = static_cast<unsigned>(kMaxSamples.read(cfg));
  w.phases.latency_threshold = kLatencyThreshold.read(cfg);
  w.phases.stopping_threshold = kStoppingThreshold.read(cfg);
  w.phases.acc_stopping_threshold = w.phases.stopping_threshold;
  w.phases.warmup_threshold = w.phases.stopping_threshold;
  w.fixed_cycles = static_cast<Cycle>(kMeasureCycles.read(cfg));
  w.drain_all = kDrainAll.read(cfg);
  w.may_block = may_block;
  return w;
}

class VcExperiment : public OpenLoopExperiment, public vc::ArrivalSink {
 public:
  VcExperiment(sc_core::sc_module_name name, const VcSyntheticSetup& setup, const RunContext& ctx)
      : OpenLoopExperiment(name, vc::sweep_for(ctx.engine, setup.network.nodes), setup.window, setup.network.nodes),
        setup_(setup),
        topo_(setup.network.make_topology()),
        network_("net", *topo_, setup.network.seeded(ctx.seed), engine_, pool_, ledger_) {
    setup.network.fail_links(network_);
    energy_.register_stats(stats_);
    add_sources(setup_.traffic, ctx.seed, [this](NodeId node, OpenLoopSource& src) {
      src.connect(network_.nic(node).target());
      network_.nic(node).set_sink(*this);
    });
    start();
    if (ctx.tracer != nullptr) {
      network_.follow(ctx.trace_packets);
      network_.trace(*ctx.tracer, std::string(this->name()));
    }
  }

  std::uint64_t routers() const override { return topo_->routers(); }

  // --- vc::ArrivalSink ---
  void arrived_stages(const Packet&, const vc::PacketStages& st, Cycle) override { last_stages_ = st; }
  void arrived(const Packet& p, unsigned flits, Cycle tail, NodeId at) override { arrived_packet(p, flits, tail, at); }

 protected:
  // --- open-loop hooks ---
  void measured_arrival(const Packet& p, Cycle tail) override {
    const vc::PacketStages& st = last_stages_;
    stage_sums_[0] += double(p.injected - p.created);
    stage_sums_[1] += st.links;
    stage_sums_[2] += st.routing;
    stage_sums_[3] += st.vc_alloc;
    stage_sums_[4] += st.sw_alloc;
    stage_sums_[5] += st.traversal;
    stage_sums_[6] += double(tail - st.head_ejected);
  }
  void restart_family_measurement() override { stage_sums_ = {}; }
  void sample_period_end() override {
    occupancy_sum_ += double(network_.flits_buffered());  // VC occupancy, sampled per period
    ++occupancy_samples_;
  }
  // Mean cycles per measured packet in each stage (routers/vc/stage_log.hpp):
  // source_queue is packet minus network latency; the others sum to the
  // network latency (links include each buffer-write cycle; serialization is
  // the tail's lag behind the head at the destination).
  void write_latency_detail(nlohmann::ordered_json& latency) const override {
    static const char* const kStages[] = {"source_queue", "links",     "routing",      "vc_alloc",
                                          "sw_alloc",     "traversal", "serialization"};
    for (std::size_t i = 0; i < stage_sums_.size(); ++i)
      latency["stages"][kStages[i]] = ratio(stage_sums_[i], double(measured_packets()));
  }

  // --- the verdict ---
  std::string outcome_problem() const override {
    std::string d = engine_.outcome().diagnostic;
    const std::string cyc = network_.waiting_cycle();
    if (!cyc.empty()) d += "; waiting cycle: " + cyc;
    return d;
  }
  // Measured packets that never arrived, or traffic left waiting on a failed
  // link: the fault blocked the network.
  std::string protocol_problem() const override {
    if (setup_.network.failed_links.empty()) return "";
    const std::string where = network_.stuck_at_failed_link();
    if (outstanding_ == 0 && where.empty()) return "";
    std::string names;
    for (const auto& l : setup_.network.failed_links) names += (names.empty() ? "" : ", ") + l.name;
    return "failed link(s) " + names + ": " + std::to_string(pool_.live()) + " packet(s) never arrived" +
           (where.empty() ? "" : "; " + where);
  }

  // --- the results ---
  void write_result_fields(nlohmann::ordered_json& r) const override {
    OpenLoopExperiment::write_result_fields(r);
    const std::string cyc = engine_.outcome().status == RunOutcome::Status::kStalled ? network_.waiting_cycle() : "";
    if (!cyc.empty()) r["waiting_cycle"] = cyc;
    energy_.write(r, engine_.outcome().last_cycle);
  }
  void write_sections(nlohmann::ordered_json& out) const override {
    const double run_cycles = double(engine_.outcome().last_cycle);
    double usum = 0, umax = 0;
    for (const auto& c : network_.channels()) {
      const double u = ratio(double(c.link->transfers()), run_cycles);
      usum += u;
      umax = std::max(umax, u);
    }
    std::size_t max_q = 0;
    for (NodeId n = 0; n < topo_->nodes(); ++n) max_q = std::max(max_q, network_.nic(n).max_queue());
    double ports = 0;
    for (unsigned r = 0; r < topo_->routers(); ++r) ports += topo_->ports(r);
    out["vc"] = {{"channels", network_.channels().size()},
                 {"channel_utilisation_mean", ratio(usum, double(network_.channels().size()))},
                 {"channel_utilisation_max", umax},
                 {"max_injection_queue", max_q},
                 {"vc_occupancy_mean",
                  ratio(occupancy_sum_, double(occupancy_samples_) * ports * setup_.network.net.router.vcs)},
                 {"routers", topo_->routers()}};
    if (!setup_.network.failed_links.empty()) out["failed_links"] = setup_.network.failed_links_json(network_);
  }
  std::vector<Column> columns() const override {
    return {Column::text("network", topo_->describe()),
            Column::text("pattern", pattern_names()[static_cast<std::size_t>(setup_.traffic.pattern.kind)]),
            Column::fixed("offered", "/result/throughput/offered", 4),
            Column::fixed("accepted", "/result/throughput/accepted", 4),
            Column::fixed("packet lat", "/result/latency/packet/mean", 2),
            Column::fixed("network lat", "/result/latency/network/mean", 2),
            Column::integer("p99", "/result/latency/packet/p99"),
            Column::fixed("hops", "/result/hops/mean", 2),
            VcEnergy::column(),
            Column::yes_no("stable", "/result/stable"),
            Column::yes_no("verified", "/result/verified")};
  }

 private:
  const VcSyntheticSetup setup_;
  std::unique_ptr<vc::VcTopology> topo_;
  vc::VcNetwork network_;
  VcEnergy energy_{setup_.network, network_};  // result.energy, result.area, stats.activity
  vc::PacketStages last_stages_;        // of the packet arrived() is about to report
  std::array<double, 7> stage_sums_{};  // result.latency.stages, summed over measured packets
  double occupancy_sum_ = 0;
  std::uint64_t occupancy_samples_ = 0;
};

}  // namespace

std::vector<ParamSpec> vc_synthetic_params() {
  return {
      pattern_param().spec(),
      kInjectionRate.spec(),
      kPacketSize.spec(),
      kPacketSizeWeights.spec(),
      kSelfTraffic.spec(),
      kInjection.spec(),
      kBurstAlpha.spec(),
      kBurstBeta.spec(),
      kHotspotFraction.spec(),
      kHotspotNodes.spec(),
      kTraceFile.spec(),
      kSamplePeriod.spec(),
      kWarmupPeriods.spec(),
      kMaxSamples.spec(),
      kLatencyThreshold.spec(),
      kStoppingThreshold.spec(),
      kMeasureCycles.spec(),
      kDrainAll.spec(),
  };
}


std::unique_ptr<ExperimentSetup> configure_vc_synthetic(Config& cfg, VcNetworkSpec network) {
  auto s = std::make_unique<VcSyntheticSetup>();
  s->network = std::move(network);
  read_traffic(cfg, *s);
  s->window = read_window(cfg, !s->network.failed_links.empty());
  return s;
}

// The resource guard's estimate. Calibrated with the results' peak RSS
// (VmHWM, release build, light load so the injection queues stay short): 11 MB
// for the program, about 4.9 KB per node (router, NIC, processing element,
// links; session 44: 8x8 13 MB, 32x32 18 MB, 64x64 35 MB, 100x100 67 MB,
// 128x128 103 MB, 16^3 39 MB) and 16.5 bytes per buffered flit slot
// (ports x VCs x depth per router: 64x64 with 8 VCs x 64 flits 244 MB, with
// 9 x 1024 3.0 GB). Packets waiting in the unbounded injection queues are not
// counted: beyond saturation they grow until the latency threshold stops the
// run (tests/integration/vc_run_test.cpp checks the estimate within 2x).
ResourceEstimate VcSyntheticSetup::estimate() const {
  ResourceEstimate e;
  const VcNetworkSpec& s = network;
  const OpenLoopPhases::Params& phases = window.phases;
  const double nodes = std::pow(static_cast<double>(s.k), static_cast<double>(s.n));
  double ports = 2.0 * s.n + (s.ibt ? 3 : 1);
  if (s.fattree) {  // n - 1 routers: per node, the mean of 2 c_l + c_(l+1) over the routers
    double total = 0;
    for (unsigned l = 1; l <= s.height; ++l)
      total += std::ldexp(1.0, static_cast<int>(s.height - l)) *
               (2.0 * s.capacities[l - 1] + (l < s.height ? s.capacities[l] : 0));
    ports = total / nodes;
  }
  const double slots = ports * s.net.router.vcs * s.net.router.buffer_depth;
  e.memory_bytes = 11e6 + nodes * (4.9e3 + 16.5 * slots) + 2.0 * sizeof(TraceEntry) * double(traffic.trace.size());
  e.what = std::to_string(static_cast<std::uint64_t>(nodes)) + " routers with " +
           std::to_string(static_cast<std::uint64_t>(slots)) + " flit buffer slots each";
  // The fixed window (or the trace's last packet) must be simulated whole.
  Cycle last = window.fixed_cycles;
  for (const auto& t : traffic.trace) last = std::max(last, t.cycle);
  if (last > 0) {
    e.cycles_lower_bound = double(last);
    e.cycles_why = window.fixed_cycles >= last ? "measure.cycles = " + std::to_string(window.fixed_cycles)
                                               : "the trace's last packet is created in cycle " + std::to_string(last);
  } else if (phases.warmup_periods > 0) {
    e.cycles_lower_bound = double(phases.warmup_periods + 1) * double(phases.sample_period);
    e.cycles_why = std::to_string(phases.warmup_periods) + " warm-up periods and one measured period of " +
                   std::to_string(phases.sample_period) + " cycles";
  }
  // Work: under load about one evaluation per router and one per node (its
  // NIC or source) each cycle (an 8x8 mesh at 0.15 measured 85 a cycle
  // against 128 counted), over at most every warm-up and measured period
  // (or the fixed window), plus a drain of one period.
  const double periods = (phases.warmup_periods > 0 ? phases.warmup_periods : phases.max_samples) + phases.max_samples + 1;
  const double cycles = last > 0 ? double(last) + double(phases.sample_period) : periods * double(phases.sample_period);
  const double routers = s.fattree ? nodes - 1 : nodes;
  e.work = (routers + nodes) * cycles;
  e.work_why = std::to_string(static_cast<std::uint64_t>(routers)) + " routers and " +
               std::to_string(static_cast<std::uint64_t>(nodes)) + " nodes over up to " +
               std::to_string(static_cast<std::uint64_t>(cycles)) + " cycles";
  // The waveform: every flit crosses its injection link, the router-to-router
  // links of its route and its ejection link. Routes are counted at their
  // mean length under uniform traffic (per dimension (k^2 - 1) / 3k on a
  // mesh, k / 4 on an even torus), in a fat tree at their longest (2h).
  double hops = 0;
  if (s.fattree) {
    hops = 2.0 * s.height;
  } else {
    for (unsigned d = 0; d < s.n; ++d) {
      const double k = d < s.sides.size() ? s.sides[d] : s.k;
      hops += s.torus() || s.ibt ? (static_cast<unsigned>(k) % 2 == 0 ? k / 4 : (k * k - 1) / (4 * k)) : (k * k - 1) / (3 * k);
    }
  }
  double flits = 0;
  for (const auto& t : traffic.trace) flits += t.size;
  const double injecting = last > 0 && window.fixed_cycles >= last ? double(last) : cycles;
  if (traffic.trace.empty()) flits = rate * nodes * injecting;
  // The network drains after the window: about a route's length and a packet.
  e.trace.cycles = injecting + 4 * (hops + 2) + 16;
  e.trace.transfers = flits * (hops + 2);
  // Per flit-link crossing: the flit bus, the downstream VC's occupancy and
  // state, the credits and the grant change. Measured 41-62 bytes on 4x4
  // and 8x8 meshes at 0.05-0.3 flits/node/cycle (docs/waveforms/README.md).
  e.trace.bytes_per_transfer = 48;
  char why[160];
  std::snprintf(why, sizeof why, "%.3g flits over %.2f links each%s", flits, hops + 2,
                window.fixed_cycles >= last && last > 0 ? "" : ", over the longest run the measurement may take");
  e.trace.why = why;
  return e;
}

std::unique_ptr<Experiment> VcSyntheticSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<VcExperiment>(name.c_str(), *this, ctx);
}

}  // namespace icn
