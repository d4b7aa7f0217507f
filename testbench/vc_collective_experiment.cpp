// Sanders & Sibeyn's pipelined collectives over the VC routers
// (network.type=vc with traffic.collective): the single-port processors of the
// pipelined-collective layer (pipelined_collective.hpp) on a VC mesh, torus or
// fat tree, and beside them the same program on a full crossbar with the same
// start-up, the reference the routers' contention is measured against. What
// only this network adds: where tree ranks are placed in the mesh
// (traffic.embedding) and the congestion of its links.
#include <algorithm>
#include <memory>
#include <set>

#include "models/params.hpp"
#include "routers/crossbar/crossbar.hpp"
#include "routers/vc/vc_single_port_fabric.hpp"
#include "testbench/fractional_embedding.hpp"
#include "testbench/pipelined_collective.hpp"
#include "testbench/vc_energy.hpp"
#include "testbench/vc_setup.hpp"

namespace icn {

namespace {

using namespace frac;

const ChoiceParam kEmbedding{"traffic.embedding", "rank_order", {"rank_order", "snake", "htree"},
                             "where tree ranks go: rank x on node (root + x) mod P; along the boustrophedon row path; "
                             "or the paper's Fig. 4 H-tree of groups (r1 x r2 submeshes, W/r2 = H/r1 a power of two); "
                             "snake and htree on a 2-D mesh or torus only"};

enum class Embedding { kRankOrder, kSnake, kHtree };

struct VcCollectiveSetup : ExperimentSetup {
  bool follows_packets() const override { return true; }
  VcNetworkSpec network;
  PipelinedProgram program;
  Embedding embedding = Embedding::kRankOrder;

  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  // The VC routers (15 KB per node, the VC family's estimate before session
  // 43 cut it to 10.5 KB; not re-measured here, so kept on the safe side, and
  // 16.5 bytes per flit buffer slot, up to 7 ports) and the reference crossbar's
  // NICs and PEs. Work: two network blocks busy per processor (its router and
  // the routers on its packets' paths; measured against this estimate: 0.97
  // on the 16 x 8 mesh, 1.6 on the 128-leaf fat tree, whose paths are longer).
  ResourceEstimate estimate() const override {
    const double slots = 7.0 * network.net.router.vcs * network.net.router.buffer_depth;
    return program_estimate(program, 10e3 + 15e3 + 16.5 * slots, 2, ", VC routers and the reference crossbar");
  }
  std::vector<std::string> waveform_side_files(const std::string& waveform_file) const override {
    return network.rtl_waveform_files(waveform_file);
  }
  // The single-port NICs, the VC NICs and the routers commit their shared
  // effects; the Verilated routers are not thread-safe.
  std::string single_thread_reason() const override {
    return network.net.rtl_module ? "router.model=rtl runs on one thread" : "";
  }
};

const char* to_string(Embedding e) {
  return e == Embedding::kHtree ? "htree" : e == Embedding::kSnake ? "snake" : "rank_order";
}

// traffic.embedding on a VC network; htree fixes the root.
void read_embedding(Config& cfg, VcCollectiveSetup& s) {
  const VcNetworkSpec& net = s.network;
  const bool plane = !net.fattree && net.sides.size() == 2;
  // Off a 2-D mesh or torus only rank order is allowed.
  cfg.declare({kEmbedding.spec()});
  const std::string e = plane ? kEmbedding.read(cfg) : cfg.choice(kEmbedding.key, {"rank_order"});
  s.embedding = e == "htree" ? Embedding::kHtree : e == "snake" ? Embedding::kSnake : Embedding::kRankOrder;
  if (s.embedding != Embedding::kHtree) return;
  PipelinedProgram& p = s.program;
  if (p.algorithm == Algorithm::kChain)
    cfg.fail("traffic.embedding", "htree applies to binary and fractional trees (a chain has no tree of groups); "
                                  "allowed for the chain: rank_order, snake");
  if (p.couples()) cfg.fail("traffic.embedding", "htree does not take simplex couples; use nic.simplex_schedule=direct");
  const std::string why = htree_fit_problem(net.sides[0], net.sides[1], p.r);
  if (!why.empty()) cfg.fail("network.k", why);
  // The embedding fixes the root: its root group's first PU.
  const NodeId root = embed_htree(net.sides[0], net.sides[1], p.r).pu_of_rank[0];
  if (cfg.given("traffic.root") && p.root != root)
    cfg.fail("traffic.root", "the htree embedding of this mesh broadcasts from PU " + std::to_string(root) +
                                 " (its root group's first PU); allowed: " + std::to_string(root));
  p.root = root;
}

// Fig. 4's H-tree of groups, or rank order along the row snake starting at
// the root (node = x + W y).
Placement mesh_placement(const VcCollectiveSetup& s) {
  const unsigned W = s.network.sides[0], H = s.network.sides[1];
  if (s.embedding == Embedding::kHtree) {
    MeshEmbedding e = embed_htree(W, H, s.program.r);
    return {std::move(e.layout), std::move(e.pu_of_rank)};
  }
  Placement p = rank_order_placement(s.program);
  const std::vector<std::uint32_t> snake = snake_order(W, H);
  const std::size_t at =
      static_cast<std::size_t>(std::find(snake.begin(), snake.end(), s.program.root) - snake.begin());
  for (std::size_t x = 0; x < snake.size(); ++x) p.pu_of_rank.push_back(snake[(at + x) % snake.size()]);
  return p;
}

class VcCollectiveExperiment : public PipelinedCollectiveExperiment {
 public:
  VcCollectiveExperiment(sc_core::sc_module_name name, const VcCollectiveSetup& setup, const RunContext& ctx)
      : PipelinedCollectiveExperiment(
            name, ctx.engine, setup.program,
            setup.embedding == Embedding::kRankOrder ? rank_order_placement(setup.program) : mesh_placement(setup),
            ctx.seed),
        setup_(setup),
        topology_(setup.network.make_topology()),
        fabric_("fabric", *topology_, setup.network.seeded(ctx.seed), engine_, run_.pool) {
    engine_.set_in_flight_probe([this] { return run_.pool.live() + reference_.pool.live(); });
    setup.network.fail_links(fabric_.network());
    energy_.register_stats(stats_);
    build_processors(fabric_);
    if (ctx.tracer != nullptr) {
      fabric_.network().follow(ctx.trace_packets);
      fabric_.network().trace(*ctx.tracer, std::string(this->name()));
      run_.trace(*ctx.tracer, std::string(this->name()) + ".pu", program_.s);
    }
    reference_network_ = std::make_unique<xbar::CrossbarNetwork>(
        xbar::CrossbarNetwork::Shape{1, setup.program.processors, 0}, reference_.pool, engine_);
    reference_.build("crossbar_", program_, layout_, shape_, direct_.get(), *reference_network_, engine_, nullptr);
  }

  std::uint64_t routers() const override { return topology_->routers(); }

 protected:
  // A misdelivery usually stalls the processors that waited for the packet:
  // name the cause, not the stall.
  std::string misdelivery_problem() const override {
    if (!fabric_.misdelivery().empty()) return fabric_.misdelivery();
    return PipelinedCollectiveExperiment::misdelivery_problem();
  }
  std::string protocol_problem() const override { return fabric_.problem(); }
  // The run, then the reference crossbar run: it must be right too.
  std::string receipts_problem() const override {
    const std::string why = PipelinedCollectiveExperiment::receipts_problem();
    if (!why.empty()) return why;
    const std::string ref = reference_.problem();
    if (!ref.empty()) return "the reference crossbar run: " + ref;
    if (program_.reduction && !reduction_problem(reference_).empty())
      return "the reference crossbar run: " + reduction_problem(reference_);
    return "";
  }

  void write_result_fields(nlohmann::ordered_json& r) const override {
    PipelinedCollectiveExperiment::write_result_fields(r);
    const Cycle crossbar = reference_.cycles();
    r["crossbar_cycles"] = crossbar;
    r["lost_cycles"] = static_cast<std::int64_t>(cycles()) - static_cast<std::int64_t>(crossbar);
    r["lost_percent"] = crossbar > 0 ? 100.0 * (double(cycles()) - double(crossbar)) / double(crossbar) : 0.0;
    energy_.write(r, cycles());  // the routers' run, not the reference crossbar's
  }

  struct Congestion {
    std::size_t flows = 0, tree_edges = 0, packets = 0;
  };
  std::size_t tree_edges(const vc::VcSinglePortFabric::LinkLoad& l) const {
    std::set<std::uint64_t> edges;
    for (std::uint64_t f : l.flows) edges.insert(tree_edge(static_cast<NodeId>(f >> 32), static_cast<NodeId>(f & 0xffffffffu)));
    return edges.size();
  }
  Congestion congestion_max() const {
    Congestion m;
    for (const auto& l : fabric_.links()) {
      m.flows = std::max(m.flows, l.flows.size());
      m.packets = std::max<std::size_t>(m.packets, l.max_open);
      if (!program_.couples()) m.tree_edges = std::max(m.tree_edges, tree_edges(l));
    }
    return m;
  }

  void write_sections(nlohmann::ordered_json& out) const override {
    nlohmann::ordered_json c;
    c["network"] = topology_->describe();
    c["embedding"] = to_string(setup_.embedding);
    const Congestion m = congestion_max();
    if (!program_.couples()) c["tree_edge_congestion"] = m.tree_edges;
    c["edge_congestion"] = m.flows;
    c["max_packets_on_link"] = m.packets;
    c["wait_cycles"] = fabric_.wait_cycles();
    c["max_packet_wait_cycles"] = fabric_.max_wait_cycles();
    c["pipeline_cycles"] = fabric_.pipeline_cycles();
    nlohmann::ordered_json links = nlohmann::ordered_json::array();
    std::size_t used = 0;
    for (const auto& l : fabric_.links()) {
      if (l.packets == 0) continue;
      ++used;
      nlohmann::ordered_json j{{"link", l.name}, {"packets", l.packets}, {"flows", l.flows.size()}};
      if (!program_.couples()) j["tree_edges"] = tree_edges(l);
      j["max_packets"] = l.max_open;
      links.push_back(j);
    }
    c["links_used"] = used;
    c["links"] = links;
    out["congestion"] = c;
    out["processors"] = {{"count", program_.processors}, {"packets_held_per_pe", shape_.window}};
    if (!setup_.network.failed_links.empty()) out["failed_links"] = setup_.network.failed_links_json(fabric_.network());
  }

  std::vector<Column> columns() const override {
    std::vector<Column> c{Column::text("network", network_cell(topology_->describe())),
                          Column::text("embedding", to_string(setup_.embedding))};
    for (auto& p : program_columns()) c.push_back(std::move(p));
    c.push_back(Column::integer("cycles", "/result/cycles"));
    c.push_back(Column::integer("crossbar", "/result/crossbar_cycles"));
    // An unfinished run lost nothing measurable.
    c.push_back({"lost", [](const nlohmann::ordered_json& j) {
                   return j.at("result").contains("problem")
                              ? std::string("-")
                              : Column::format_fixed(j.at("result").at("lost_percent").get<double>(), 1) + " %";
                 }});
    c.push_back({"tree edges/link", [couples = program_.couples()](const nlohmann::ordered_json& j) {
                   return couples ? std::string("-")
                                  : std::to_string(j.at("congestion").at("tree_edge_congestion").get<std::uint64_t>());
                 }});
    c.push_back(Column::integer("packets/link", "/congestion/max_packets_on_link"));
    c.push_back(VcEnergy::column());
    c.push_back(Column::yes_no("verified", "/result/verified"));
    return c;
  }

 private:
  const VcCollectiveSetup setup_;
  std::unique_ptr<vc::VcTopology> topology_;
  vc::VcSinglePortFabric fabric_;
  VcEnergy energy_{setup_.network, fabric_.network()};  // result.energy, result.area, stats.activity
  ProcessorSet reference_;  // the same program on a full crossbar
  std::unique_ptr<xbar::CrossbarNetwork> reference_network_;
};

std::unique_ptr<Experiment> VcCollectiveSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<VcCollectiveExperiment>(name.c_str(), *this, ctx);
}

}  // namespace

std::unique_ptr<ExperimentSetup> configure_vc_collective(Config& cfg, const VcNetworkSpec& network) {
  auto s = std::make_unique<VcCollectiveSetup>();
  s->network = network;
  s->program.processors = network.nodes;
  const unsigned pipeline = vc::VcSinglePortFabric::zero_load_cycles(network.net, network.fattree ? 1 : 2);
  read_program(cfg, s->program, pipeline, true);
  read_embedding(cfg, *s);
  check_program_limits(cfg, s->program);
  return s;
}

std::vector<ParamGroup> vc_collective_params() {
  std::vector<ParamSpec> traffic;
  for (auto p : program_traffic_params()) {
    if (p.key == "traffic.collective")
      p.help = "given: single-port processors run this collective over the routers (instead of synthetic traffic)";
    traffic.push_back(p);
  }
  traffic.push_back(kEmbedding.spec());
  return {{"traffic (with traffic.collective: Sanders & Sibeyn's pipelined broadcast and reduction)", traffic},
          {"nic (with traffic.collective)", program_nic_params(true)}};
}

}  // namespace icn
