// The VC routers under open-loop synthetic traffic (network.type=vc without
// traffic.collective): the network, one source per node on the open-loop
// layer (open_loop_experiment.hpp), and what only this family measures: the
// time a packet spends in each router stage, VC occupancy and channel
// utilisation.
#include <array>
#include <memory>

#include "routers/vc/vc_network.hpp"
#include "testbench/vc_setup.hpp"

namespace icn {

namespace {

// The routers draw their random routing choices from the scenario's seed.
vc::NetworkParams seeded(vc::NetworkParams p, std::uint64_t seed) {
  p.router.seed = seed;
  return p;
}

class VcExperiment : public OpenLoopExperiment, public vc::ArrivalSink {
 public:
  VcExperiment(sc_core::sc_module_name name, const VcSyntheticSetup& setup, const RunContext& ctx)
      : OpenLoopExperiment(name, ctx.engine, setup.window, setup.network.nodes),
        setup_(setup),
        topo_(setup.network.make_topology()),
        network_("net", *topo_, seeded(setup.network.net, ctx.seed), engine_, pool_, ledger_) {
    setup.network.fail_links(network_);
    add_sources(setup_.traffic, ctx.seed, [this](NodeId node, OpenLoopSource& src) {
      src.socket.bind(network_.nic(node).socket);
      network_.nic(node).set_sink(*this);
    });
    start();
    if (ctx.tracer != nullptr) network_.trace(*ctx.tracer, std::string(this->name()));
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
            Column::yes_no("stable", "/result/stable"),
            Column::yes_no("verified", "/result/verified")};
  }

 private:
  const VcSyntheticSetup setup_;
  std::unique_ptr<vc::VcTopology> topo_;
  vc::VcNetwork network_;
  vc::PacketStages last_stages_;        // of the packet arrived() is about to report
  std::array<double, 7> stage_sums_{};  // result.latency.stages, summed over measured packets
  double occupancy_sum_ = 0;
  std::uint64_t occupancy_samples_ = 0;
};

}  // namespace

std::unique_ptr<Experiment> VcSyntheticSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<VcExperiment>(name.c_str(), *this, ctx);
}

}  // namespace icn
