#include "testbench/ibt_experiment.hpp"

#include <algorithm>
#include <memory>

#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/rng.hpp"
#include "routers/ibt/broadcast_nic.hpp"
#include "routers/ibt/ibt_network.hpp"
#include "routers/ibt/ibt_topology.hpp"
#include "testbench/collective_experiment.hpp"
#include "testbench/family.hpp"
#include "testbench/ibt_broadcast.hpp"
#include "testbench/ibt_energy.hpp"
#include "testbench/ibt_setup.hpp"
#include "testbench/ibt_trial.hpp"

namespace icn {

namespace {

constexpr NodeId kMaxTracedNodes = IbtSetup::kMaxTracedRouters;

std::string list_text(const std::vector<unsigned>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

// Routers are allocated in node order, so evaluating them in address order
// sweeps memory sequentially, and the sweep loads each router a few routers
// ahead (docs/performance.md, "Torus and iBT").
CycleEngine::Options engine_options(CycleEngine::Options options) {
  options.address_order = true;
  options.look_ahead = true;
  return options;
}

class IbtExperiment : public CollectiveExperiment {
 public:
  IbtExperiment(sc_core::sc_module_name name, const IbtSetup& setup, const RunContext& ctx)
      : CollectiveExperiment(name, engine_options(ctx.engine)),
        setup_(setup),
        topo_(setup.n, setup.d, setup.bypass),
        metrics_(distance_metrics(topo_)) {
    engine_.set_in_flight_probe([this] { return copies_held(); });
    if (setup_.collective == IbtCollective::kNone) {
      for (std::uint32_t id : ctx.trace_packets)  // nothing to follow: each save file says so
        if (ctx.tracer != nullptr)
          ctx.tracer->add_save_file(WaveformTracer::packet_save_file_for(ctx.tracer->path(), id), [t = ctx.tracer, id] {
            return ibt::unsent_packet_save_file(*t, id, "traffic.collective=none: no broadcast");
          });
      return;
    }
    const std::uint64_t content_key = mix64(ctx.seed, 0x1b7);
    unsigned index = 0;
    for (const auto& patterns : setup_.pattern_options) {
      for (const auto& split : setup_.split_options) {
        IbtBroadcastPlan plan = setup_.base;
        plan.patterns = patterns;
        plan.split = split;
        trials_.push_back(std::make_unique<BroadcastTrial>(("trial" + std::to_string(index++)).c_str(), topo_, setup_,
                                                           plan, engine_, pool_, content_key));
      }
    }
    stats_.derived(
        "activity",
        [this] { return IbtEnergy::activity_json(setup_.power, power_activity(), best().ledger().injected); },
        "what the best trial's hardware did, per router block and per link kind and length (docs/energy.md)");
    if (ctx.tracer != nullptr) {
      // Waveforms of at most kMaxTracedNodes routers: the broadcast group's first, by node id.
      const IbtBroadcastPlan& plan = trials_.front()->plan();
      for (int pass = 0; pass < 2; ++pass) {
        for (NodeId x = 0; x < topo_.nodes() && traced_.size() < kMaxTracedNodes; ++x)
          if (plan.in_group(topo_, x) == (pass == 0)) traced_.push_back(x);
      }
      trials_.front()->trace(*ctx.tracer, std::string(this->name()), traced_, ctx.trace_packets);
    }
  }

  std::uint64_t routers() const override { return static_cast<std::uint64_t>(topo_.nodes()) * trials_.size(); }

  // The fastest verified trial (the first one if none verified).
  const BroadcastTrial& best() const {
    const BroadcastTrial* best = trials_.front().get();
    for (const auto& t : trials_) {
      const bool ok = t->verification_problem().empty(), best_ok = best->verification_problem().empty();
      if ((ok && !best_ok) || (ok == best_ok && t->cycles() < best->cycles())) best = t.get();
    }
    return *best;
  }

  // Every trial must balance its books and deliver to its whole group.
  std::string receipts_problem() const override {
    for (const auto& t : trials_) {
      const std::string books = t->ledger().check(0);
      if (!books.empty()) return std::string(t->name()) + ": " + books;
      const std::string v = t->verification_problem();
      if (!v.empty()) return std::string(t->name()) + ": " + v;
    }
    return "";
  }
  std::string conservation_problem() const override {
    if (copies_held() != 0) return std::to_string(copies_held()) + " packet(s) still held in the network";
    return "";
  }
  // Copies in the trials' routers and links. The pool keeps each broadcast's
  // k packets as their sources wrote them (the routers' copies refer to them).
  std::size_t copies_held() const {
    std::size_t held = 0;
    for (const auto& t : trials_) held += t->network().copies_held();
    return held;
  }
  bool verified() const override { return problem().empty(); }
  const LatencyStats& reported_latency() const override {
    return trials_.empty() ? latency_ : best().latency();
  }

  void write_sections_before(nlohmann::ordered_json& out) const override {
    nlohmann::ordered_json topo;
    topo["type"] = topo_.has_bypass() ? "ibt" : "torus";
    topo["label"] = topo_.label();
    topo["n"] = topo_.n();
    topo["d"] = topo_.d();
    topo["bypass"] = topo_.bypass();
    topo["nodes"] = topo_.nodes();
    topo["ports_per_router"] = topo_.ports();
    topo["classes"] = topo_.classes();
    topo["diameter"] = metrics_.diameter;
    topo["average_distance"] = metrics_.average;
    topo["distance_sum"] = metrics_.distance_sum;
    topo["bfs_sources"] = metrics_.bfs_sources;
    out["topology"] = topo;
  }

  void write_result_fields(nlohmann::ordered_json& r) const override {
    if (setup_.collective == IbtCollective::kNone) {
      r["cycles"] = 0;
      return;
    }
    const BroadcastTrial& b = best();
    r["cycles"] = b.cycles();
    const std::string books = b.ledger().check(copies_held());
    r["conservation"] = books.empty() ? "ok" : books;
    r["messages"] = {{"injected", b.ledger().injected},
                     {"deliveries_expected", b.ledger().deliveries_expected},
                     {"delivered", b.ledger().delivered},
                     {"verified_receipts", b.receipts().received()},
                     {"lost", b.ledger().lost}};
    IbtEnergy::write(r, setup_.power, topo_, b.plan().packets, power_activity(), b.cycles());
  }

  // The best trial's activity, summed once (a million routers' counters).
  const ibt::IbtNetworkActivity& power_activity() const {
    if (activity_of_ != &best()) activity_ = (activity_of_ = &best())->network().power_activity();
    return activity_;
  }

  void write_expected(nlohmann::ordered_json& r) const override {
    if (setup_.collective == IbtCollective::kNone) return;
    const BroadcastTrial& b = best();
    const auto paper = paper_steps(topo_, b.plan());
    nlohmann::ordered_json expected;
    expected["paper"] = paper ? nlohmann::ordered_json(paper->steps) : nlohmann::ordered_json(nullptr);
    expected["paper_source"] = paper ? paper->source : "";
    // An incomplete run is compared with nothing.
    expected["difference"] = paper && completed() ? nlohmann::ordered_json(static_cast<std::int64_t>(b.cycles()) -
                                                                           static_cast<std::int64_t>(paper->steps))
                                                  : nlohmann::ordered_json(nullptr);
    r["expected"] = expected;
  }

  void write_sections(nlohmann::ordered_json& out) const override {
    if (setup_.collective != IbtCollective::kNone) {
      write_broadcast(out);
      write_link_activity(out);
    }
    write_failed_links(out);
  }

  // The broadcast the best trial ran, and every trial's outcome.
  void write_broadcast(nlohmann::ordered_json& out) const {
    const IbtBroadcastPlan& plan = best().plan();
    nlohmann::ordered_json bc;
    bc["collective"] = to_string(plan.collective);
    bc["algorithm"] = plan.scheme == ibt::ColourScheme::kDirectedTorus ? "directed torus colours (2m arc-disjoint trees)"
                      : plan.dims.size() == 1                          ? "line broadcast"
                                                                       : "dimension-ordered colours (Zhang & Deng)";
    bc["source"] = topo_.coords(plan.source);
    bc["source_id"] = plan.source;
    std::vector<unsigned> dims1;
    for (unsigned dim : plan.dims) dims1.push_back(dim + 1);
    bc["dimensions"] = dims1;
    bc["group_size"] = plan.group_size(topo_);
    bc["packets"] = plan.packets;
    bc["forward_order"] = ibt::to_string(setup_.order);
    nlohmann::ordered_json colours = nlohmann::ordered_json::array();
    for (unsigned c = 0; c < plan.colours(); ++c)
      colours.push_back({{"colour", c + 1}, {"order", plan.colour_label(c)}, {"packets", plan.split[c]},
                         {"pattern", plan.patterns[c]}});
    bc["colours"] = colours;
    nlohmann::ordered_json trials = nlohmann::ordered_json::array();
    for (const auto& t : trials_) {
      trials.push_back({{"patterns", t->plan().patterns}, {"split", t->plan().split}, {"cycles", t->cycles()},
                        {"verified", t->verification_problem().empty()}, {"transfers", t->network().transfers()},
                        {"duplicates", t->network().duplicates()}});
    }
    bc["trials"] = trials;
    out["broadcast"] = bc;
  }

  // What the best trial's links, ports and routers did.
  void write_link_activity(nlohmann::ordered_json& out) const {
    const BroadcastTrial& b = best();
    const ibt::IbtNetwork& net = b.network();
    const ibt::LinkActivity activity = net.activity();
    const auto& torus = activity.torus();
    const auto& bypass = activity.bypass();
    const Cycle cycles = b.cycles();
    const std::uint64_t directed = net.directed_links(), bypass_links = net.bypass_links();
    std::uint64_t transfers = 0;
    nlohmann::ordered_json by_cycle = nlohmann::ordered_json::array(), torus_by_cycle = by_cycle, bypass_by_cycle = by_cycle;
    nlohmann::ordered_json utilisation_by_cycle = nlohmann::ordered_json::array();
    for (Cycle t = 1; t <= cycles; ++t) {
      const std::uint64_t a = t < torus.size() ? torus[t] : 0, bp = t < bypass.size() ? bypass[t] : 0;
      transfers += a + bp;
      torus_by_cycle.push_back(a);
      bypass_by_cycle.push_back(bp);
      utilisation_by_cycle.push_back(static_cast<double>(a + bp) / static_cast<double>(directed));
    }
    nlohmann::ordered_json links;
    links["directed_links"] = directed;
    links["directed_bypass_links"] = bypass_links;
    links["transfers"] = net.transfers();
    links["duplicates_discarded"] = net.duplicates();
    links["utilisation"] = cycles > 0 ? static_cast<double>(transfers) / (static_cast<double>(directed) * cycles) : 0.0;
    links["utilisation_by_cycle"] = utilisation_by_cycle;
    links["torus_transfers_by_cycle"] = torus_by_cycle;
    links["bypass_transfers_by_cycle"] = bypass_by_cycle;
    out["links"] = links;
    nlohmann::ordered_json ports = nlohmann::ordered_json::array();
    for (const auto& p : net.port_stats())
      ports.push_back({{"port", p.port}, {"transfers", p.transfers}, {"max_queue", p.max_queue}});
    out["ports"] = ports;
    out["routers"] = {{"max_buffer", net.max_buffer()}};
    if (!traced_.empty()) {
      out["waveforms"] = {{"traced_routers", traced_.size()}, {"all_routers", traced_.size() == topo_.nodes()},
                          {"limit", kMaxTracedNodes}};
    }
  }

  // Each failed link and the packets its router owed it in the best trial
  // (none without a broadcast).
  void write_failed_links(nlohmann::ordered_json& out) const {
    if (setup_.failed_links.empty()) return;
    nlohmann::ordered_json failed = nlohmann::ordered_json::array();
    for (const auto& a : setup_.failed_links) {
      const auto node = static_cast<NodeId>(a.node);
      const std::uint64_t requests = trials_.empty() ? 0 : best().network().failed_link_requests(node, a.port);
      failed.push_back(failed_link_json(std::to_string(node) + "." + topo_.port_name(a.port), requests, "packets"));
    }
    out["failed_links"] = failed;
  }

  std::vector<Column> columns() const override {
    using Json = nlohmann::ordered_json;
    std::vector<Column> c{Column::text("network", topo_.label())};
    const bool none = setup_.collective == IbtCollective::kNone;
    if (none) {
      c.push_back(Column::text("collective", "none"));
      for (const char* h : {"source", "k", "steps", "paper"}) c.push_back(Column::text(h, "-"));
    } else {
      // The collective, and with several trials the best one's patterns and split.
      c.push_back({"collective", [](const Json& j) {
                     const Json& bc = j.at("broadcast");
                     std::string cell = bc.at("collective").get<std::string>();
                     if (bc.at("trials").size() < 2) return cell;
                     std::vector<unsigned> patterns, split;
                     for (const Json& colour : bc.at("colours")) {
                       patterns.push_back(colour.at("pattern").get<unsigned>());
                       split.push_back(colour.at("packets").get<unsigned>());
                     }
                     return cell + " (best of " + std::to_string(bc.at("trials").size()) + ": pn " +
                            list_text(patterns) + ", split " + list_text(split) + ")";
                   }});
      c.push_back(Column::text("source", topo_.coords_text(setup_.base.source)));
      c.push_back(Column::integer("k", "/broadcast/packets"));
      c.push_back(Column::integer("steps", "/result/cycles"));
      c.push_back({"paper", [](const Json& j) {
                     const Json& paper = j.at("result").at("expected").at("paper");
                     return paper.is_null() ? std::string("-") : std::to_string(paper.get<std::uint64_t>());
                   }});
    }
    c.push_back(Column::integer("diameter", "/topology/diameter"));
    c.push_back(Column::fixed("avg distance", "/topology/average_distance", 4));
    if (none) {
      c.push_back(Column::text("max queue", "-"));
    } else {
      // The most packets any port owed its neighbour (the best trial's).
      c.push_back({"max queue", [](const Json& j) {
                     std::uint64_t most = 0;
                     for (const Json& p : j.at("ports")) most = std::max(most, p.at("max_queue").get<std::uint64_t>());
                     return std::to_string(most);
                   }});
    }
    c.push_back(IbtEnergy::column());
    c.push_back(Column::yes_no("verified", "/result/verified"));
    return c;
  }

 private:
  const IbtSetup setup_;
  IbtTopology topo_;
  DistanceMetrics metrics_;
  std::vector<std::unique_ptr<BroadcastTrial>> trials_;
  std::vector<NodeId> traced_;
  mutable ibt::IbtNetworkActivity activity_;
  mutable const BroadcastTrial* activity_of_ = nullptr;
};

}  // namespace

std::unique_ptr<Experiment> IbtSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<IbtExperiment>(name.c_str(), *this, ctx);
}

namespace {

NetworkKind make_kind(bool ibt) {
  return {ibt ? "ibt" : "torus",
          ibt ? "interlaced bypass torus iBT(n^d; b), all-port routers, pipelined broadcasts (Zhang & Deng)"
                : "torus Torus(n^d), all-port routers, pipelined broadcasts (Zhang & Deng's baseline)",
          [ibt] { return ibt_params(ibt); }, [ibt](Config& cfg) { return configure_ibt(cfg, ibt); }};
}

}  // namespace

NetworkKind torus_kind() { return make_kind(false); }
NetworkKind ibt_kind() { return make_kind(true); }

}  // namespace icn

namespace icn {
namespace {

// Its section of the default table (`icnsim` with no arguments).
DemoRows ibt_demo() {
  return {"Interlaced bypass torus and torus, pipelined broadcast of 32 packets (Zhang & Deng)",
          "testbench/scenarios/ibt_table1_line.yaml",
          {{"ibt_line", {"network.type=ibt", "network.n=64", "network.d=2", "network.bypass=[8,24]",
                         "traffic.collective=line_broadcast", "traffic.packets=32", "traffic.source=0",
                         "traffic.pattern=best"}},
           {"torus_global", {"network.type=torus", "network.n=12", "network.d=3",
                             "traffic.collective=global_broadcast", "traffic.packets=32",
                             "traffic.source=[3,7,1]"}}},
          "paper: Table 1 (iBT, its own step-level simulator; differences: docs/ibt.md) and eq. (5) (torus)"};
}

const RegisterFamily kIbtRegistered{30, {torus_kind, ibt_kind}, ibt_demo};

}  // namespace
}  // namespace icn
