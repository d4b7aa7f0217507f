// Sanders & Sibeyn's pipelined collectives on a full crossbar
// (network.type=crossbar) and an a x b hierarchical crossbar
// (network.type=hier_crossbar), on the pipelined-collective layer
// (pipelined_collective.hpp). What only these networks add: the crossbar's
// shape and links, the section-4 embedding over modules, and the congestion
// of the links between modules.
#include "testbench/fractional_experiment.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "models/params.hpp"
#include "models/wiring_fault.hpp"
#include "routers/crossbar/crossbar.hpp"
#include "testbench/crossbar_energy.hpp"
#include "testbench/family.hpp"
#include "testbench/fractional_embedding.hpp"
#include "testbench/pipelined_collective.hpp"
#include "testbench/link_names.hpp"

namespace icn {

namespace {

using namespace frac;

constexpr std::int64_t kMaxProcessors = 1 << 16;

const IntParam kProcessors{"network.processors", 16, 2, kMaxProcessors,
                           "P: processors, each with one port on the crossbar"};
const IntParam kModules{"network.modules", 4, 1, 4096, "a: module crossbars"};
const IntParam kModuleSize{"network.module_size", 8, 1, kMaxProcessors, "b: processors per module (P = a b <= 65536)"};
const IntParam kChannels{"network.inter_module_channels", 2, 1, 1,
                         "channels from each module to the global crossbar (each direction)", "", "1..b"};
const ChoiceParam kEmbedding{"traffic.embedding", "rank_order", {"rank_order", "modules"},
                             "where tree ranks go: in rank order over the modules, or the paper's section-4 embedding "
                             "(a global binary tree of one group per module, local fractional trees; binary or "
                             "fractional)",
                             "network.type=hier_crossbar or vc"};

RawParam failed_links_param(bool hier) {
  return {"network.failed_links", "[]",
          hier ? "list of links like pe3.in, pe3.out, up1.0, down2.1" : "list of links like pe3.in, pe3.out",
          "cut links (fault injection): pe<x>.in from processor x, pe<x>.out to it" +
              std::string(hier ? ", up<m>.<j>/down<m>.<j> module m's j-th channel to/from the global crossbar" : "") +
              "; traffic needing a cut link stalls and the watchdog names where it waits"};
}

std::vector<ParamSpec> network_params(bool hier) {
  if (!hier) return {kProcessors.spec(), failed_links_param(false).spec(), swap_ejection_param("processors")};
  return {kModules.spec(), kModuleSize.spec(), kChannels.spec(), failed_links_param(true).spec(),
          swap_ejection_param("processors")};
}

std::vector<ParamSpec> traffic_params() {
  std::vector<ParamSpec> t = program_traffic_params();
  t.push_back(kEmbedding.spec());
  return t;
}

struct CrossbarSetup : ExperimentSetup {
  bool hier = false;
  xbar::CrossbarNetwork::Shape shape;
  PipelinedProgram program;
  bool modules_embedding = false;  // traffic.embedding=modules
  std::vector<xbar::CrossbarLinkAddress> failed_links;
  EjectionSwap swap;
  CrossbarPower power;

  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  ResourceEstimate estimate() const override { return program_estimate(program, 0, 0, ""); }
  // outputs.trace_packet: a packet number 0..s-1, followed hop by hop (docs/waveforms/README.md).
  bool follows_packets() const override { return true; }
  // The NICs commit their effects on other blocks (SinglePortNic::commit);
  // the switches keep their arrivals per sending worker.
  std::string single_thread_reason() const override { return ""; }
};

// network.*: the crossbar's shape, its failed links and wiring fault.
void read_network(Config& cfg, CrossbarSetup& s) {
  cfg.declare(network_params(s.hier));
  if (s.hier) {
    const auto a = kModules.read(cfg);
    const auto b = kModuleSize.read(cfg);
    if (a * b < 2 || a * b > kMaxProcessors)
      cfg.fail("network.module_size", "a b = " + std::to_string(a * b) + " processors; allowed 2..65536");
    const auto c = kChannels.read(cfg, 1, std::max<std::int64_t>(1, b));
    s.shape = {static_cast<unsigned>(a), static_cast<unsigned>(b), static_cast<unsigned>(c)};
  } else {
    s.shape = {1, static_cast<unsigned>(kProcessors.read(cfg)), 0};
  }
  s.program.processors = s.shape.modules * s.shape.module_size;
  const YAML::Node failed = failed_links_param(s.hier).read(cfg);
  const std::string form = s.hier ? "pe<x>.in, pe<x>.out (x < P), up<m>.<j>, down<m>.<j> (m < a, j < c)"
                                  : "pe<x>.in, pe<x>.out (x < P)";
  if (!failed.IsSequence()) cfg.fail("network.failed_links", "expected a list of links: " + form);
  s.failed_links = parse_link_names(
      cfg, "network.failed_links", failed,
      [&](const std::string& name) { return xbar::CrossbarNetwork::parse_link(name, s.shape); },
      "' is not a link of this network (" + form + ")");
  s.swap = parse_swap_ejection(cfg, s.program.processors);
}

// traffic.embedding on the hierarchical crossbar.
void read_modules_embedding(Config& cfg, CrossbarSetup& s) {
  s.modules_embedding = kEmbedding.read(cfg) == "modules";
  if (!s.modules_embedding) return;
  if (s.program.algorithm == Algorithm::kChain)
    cfg.fail("traffic.embedding", "modules applies to binary and fractional trees (a chain in rank order already "
                                  "crosses each module boundary once); allowed: rank_order");
  if (s.program.couples()) cfg.fail("traffic.embedding", "modules does not take simplex couples; use nic.simplex_schedule=direct");
  if (s.program.r > s.shape.module_size)
    cfg.fail("traffic.embedding", "modules needs r <= b (r = " + std::to_string(s.program.r) +
                                      ", b = " + std::to_string(s.shape.module_size) + ")");
}

std::unique_ptr<ExperimentSetup> configure(Config& cfg, bool hier) {
  auto s = std::make_unique<CrossbarSetup>();
  s->hier = hier;
  read_network(cfg, *s);
  read_program(cfg, s->program, xbar::CrossbarNetwork::kLocalPathLinks, false);
  if (hier) read_modules_embedding(cfg, *s);
  else declare_no_embedding(cfg, "applies only to network.type=hier_crossbar and vc");
  if (hier && s->program.algorithm != Algorithm::kChain && s->program.r > 1 && s->shape.modules > 1 &&
      s->shape.channels < 2)
    cfg.fail("network.inter_module_channels", "a fractional tree with r > 1 needs at least 2 channels per module; allowed 2..b");
  check_program_limits(cfg, s->program);
  s->power = CrossbarPower::read(cfg);
  return s;
}

// The section-4 embedding, turned so that the root's module and slot take the
// place of module 0, slot 0 (modules stay whole).
Placement modules_placement(const CrossbarSetup& s, std::uint32_t& inter_module_edges) {
  ModuleEmbedding e = embed_in_modules(s.shape.modules, s.shape.module_size, s.program.r);
  const std::uint32_t a = s.shape.modules, b = s.shape.module_size;
  const std::uint32_t m0 = s.program.root / b, o = s.program.root % b;
  Placement p{std::move(e.layout), std::vector<std::uint32_t>(s.program.logical_processors())};
  for (std::uint32_t x = 0; x < p.pu_of_rank.size(); ++x) {
    const std::uint32_t base = e.pu_of_rank[x];
    p.pu_of_rank[x] = ((base / b + m0) % a) * b + (base % b + o) % b;
  }
  inter_module_edges = e.inter_module_edges;
  return p;
}

class CrossbarExperiment : public PipelinedCollectiveExperiment {
 public:
  CrossbarExperiment(sc_core::sc_module_name name, const CrossbarSetup& setup, const RunContext& ctx, Placement placement,
                     std::uint32_t inter_module_edges)
      : PipelinedCollectiveExperiment(name, ctx.engine, setup.program, std::move(placement), ctx.seed),
        setup_(setup),
        inter_module_edges_(inter_module_edges),
        network_(setup.shape, run_.pool, engine_) {
    build_processors(network_, setup.swap);
    energy_.register_stats(stats_);
    for (const auto& link : setup.failed_links) network_.fail(link);
    if (ctx.tracer != nullptr) {
      run_.trace(*ctx.tracer, std::string(this->name()), program_.s);
      if (!ctx.trace_packets.empty()) run_.follow(*ctx.tracer, std::string(this->name()), ctx.trace_packets, program_);
    }
  }

  std::uint64_t routers() const override { return network_.switches(); }

 protected:
  void write_result_fields(nlohmann::ordered_json& r) const override {
    PipelinedCollectiveExperiment::write_result_fields(r);
    energy_.write(r, cycles());
  }

  void write_sections(nlohmann::ordered_json& out) const override {
    nlohmann::ordered_json links;
    std::uint64_t wait = 0, max_queue = 0;
    for (const auto* l : network_.ejection_links()) {
      wait += l->wait_cycles;
      max_queue = std::max<std::uint64_t>(max_queue, l->max_queue);
    }
    links["processor_ports"] = {{"wait_cycles", wait}, {"max_queue", max_queue}};
    if (setup_.hier) write_inter_module(links);
    links["cycles_over_pseudocode"] = static_cast<std::int64_t>(cycles()) -
                                      static_cast<std::int64_t>(pseudocode_steps() * step_cycles());
    out["congestion"] = links;
    out["processors"] = {{"count", program_.processors}, {"packets_held_per_pe", shape_.window}};
    if (setup_.failed_links.empty()) return;
    nlohmann::ordered_json failed = nlohmann::ordered_json::array();
    for (const auto& link : setup_.failed_links)
      failed.push_back(failed_link_json(link.name(), network_.failed_link_requests(link), "packets"));
    out["failed_links"] = failed;
  }

  // The links between modules: flows and tree edges each carried, against the
  // paper's "two channels suffice".
  void write_inter_module(nlohmann::ordered_json& links) const {
    nlohmann::ordered_json inter = nlohmann::ordered_json::array();
    std::size_t edge_congestion = 0, tree_edge_congestion = 0;
    std::map<std::string, std::set<std::uint64_t>> module_edges;
    std::uint64_t inter_wait = 0;
    for (const auto* l : network_.inter_module_links()) {
      edge_congestion = std::max(edge_congestion, l->flows.size());
      // Tree edges (parent group -> child group) the link carried: a right
      // edge is r flows (every member feeds the child's top) but one edge.
      std::set<std::uint64_t> edges;
      for (std::uint64_t f : l->flows) {
        const std::uint32_t a = layout_.group_of[shape_.rank(static_cast<NodeId>(f >> 32))];
        const std::uint32_t b = layout_.group_of[shape_.rank(static_cast<NodeId>(f & 0xffffffffu))];
        edges.insert(static_cast<std::uint64_t>(std::min(a, b)) << 32 | std::max(a, b));
      }
      tree_edge_congestion = std::max(tree_edge_congestion, edges.size());
      // Links "up<m>.<i>" / "down<m>.<i>": module m's channel group in one direction.
      auto& group_edges = module_edges[l->name.substr(0, l->name.find('.'))];
      group_edges.insert(edges.begin(), edges.end());
      inter_wait += l->wait_cycles;
      inter.push_back({{"link", l->name}, {"packets", l->packets}, {"busy_cycles", l->busy_cycles},
                       {"wait_cycles", l->wait_cycles}, {"max_queue", l->max_queue}, {"flows", l->flows.size()},
                       {"tree_edges", edges.size()}});
    }
    links["embedding"] = setup_.modules_embedding ? "modules" : "rank_order";
    if (setup_.modules_embedding) links["inter_module_tree_edges"] = inter_module_edges_;
    links["edge_congestion"] = edge_congestion;
    links["tree_edge_congestion"] = tree_edge_congestion;
    // The most tree edges any module sends (or receives) between modules,
    // against its channels.
    std::size_t per_module = 0;
    for (const auto& [name, edges] : module_edges) per_module = std::max(per_module, edges.size());
    links["max_tree_edges_per_module_direction"] = per_module;
    links["channels_per_module_direction"] = setup_.shape.channels;
    links["inter_module_wait_cycles"] = inter_wait;
    links["inter_module"] = inter;
  }

  std::vector<Column> columns() const override {
    std::vector<Column> c{Column::text(
        "network", network_cell(setup_.hier ? std::to_string(setup_.shape.modules) + "x" +
                                                  std::to_string(setup_.shape.module_size) + " hier_crossbar"
                                            : "crossbar"))};
    for (auto& p : program_columns()) c.push_back(std::move(p));
    c.push_back(Column::integer("cycles", "/result/cycles"));
    c.push_back(Column::integer("steps", "/result/steps"));
    // Simplex: the duplex count x 2 only bounds the steps.
    const std::string pointer = program_.simplex ? "/result/expected/twice_duplex_steps" : "/result/expected/pseudocode_steps";
    c.push_back({"pseudocode", [p = nlohmann::ordered_json::json_pointer(pointer), simplex = program_.simplex](
                                   const nlohmann::ordered_json& j) {
                   return (simplex ? "<= " : "") + std::to_string(j.at(p).get<std::uint64_t>());
                 }});
    c.push_back(Column::yes_no("verified", "/result/verified"));
    c.push_back(CrossbarEnergy::column());
    return c;
  }

 private:
  const CrossbarSetup setup_;
  const std::uint32_t inter_module_edges_;  // the embedding's tree edges between modules
  xbar::CrossbarNetwork network_;
  CrossbarEnergy energy_{setup_.power, network_};  // result.energy, result.area, stats.activity
};

std::unique_ptr<Experiment> CrossbarSetup::elaborate(const std::string& name, const RunContext& ctx) {
  std::uint32_t edges = 0;
  Placement placement = modules_embedding ? modules_placement(*this, edges) : rank_order_placement(program);
  return std::make_unique<CrossbarExperiment>(name.c_str(), *this, ctx, std::move(placement), edges);
}

NetworkKind make_kind(bool hier) {
  return {hier ? "hier_crossbar" : "crossbar",
          hier ? "a x b hierarchical crossbar of single-port processors: pipelined broadcast and reduction (Sanders & Sibeyn)"
               : "full crossbar of single-port processors: chain, binary and fractional tree broadcast and reduction (Sanders & Sibeyn)",
          [hier] {
            return std::vector<ParamGroup>{
                {"network", network_params(hier)}, {"traffic", traffic_params()}, {"nic", program_nic_params(false)},
                {"power", CrossbarPower::params()}};
          },
          [hier](Config& cfg) { return configure(cfg, hier); }};
}

}  // namespace

NetworkKind crossbar_kind() { return make_kind(false); }
NetworkKind hier_crossbar_kind() { return make_kind(true); }

}  // namespace icn

namespace icn {
namespace {

// Its section of the default table (`icnsim` with no arguments).
DemoRows fractional_demo() {
  DemoRows frac{"Pipelined broadcast on a 64-port crossbar of single-port processors, k = 2048, t = 16 (Sanders & Sibeyn)",
                "testbench/scenarios/fractional_crossbar_broadcast.yaml",
                {},
                "paper: each tree's step count from its recurrence and Fig. 2 (eq. (7) counts one step more; docs/fractional_tree.md)"};
  for (const char* algorithm : {"chain", "binary", "fractional"}) {
    DemoCase c{std::string("crossbar64_") + algorithm,
               {"network.type=crossbar", "network.processors=64", "traffic.collective=broadcast",
                std::string("traffic.algorithm=") + algorithm, "traffic.packets=32", "traffic.message_units=2048",
                "nic.startup=16"}};
    if (std::string(algorithm) == "fractional") c.overrides.push_back("traffic.group=4");
    frac.cases.push_back(c);
  }
  return frac;
}

const RegisterFamily kFractionalRegistered{40, {crossbar_kind, hier_crossbar_kind}, fractional_demo};

}  // namespace
}  // namespace icn
