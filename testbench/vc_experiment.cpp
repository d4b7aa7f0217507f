#include "testbench/vc_experiment.hpp"

#include <array>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>
#include <unordered_map>

#include "models/ledger.hpp"
#include "models/open_loop.hpp"
#include "models/params.hpp"
#include "models/packet.hpp"
#include "models/stats.hpp"
#include "models/wiring_fault.hpp"
#include "models/fat_tree.hpp"
#include "routers/vc/fattree_topology.hpp"
#include "routers/vc/vc_link_address.hpp"
#include "routers/vc/vc_network.hpp"
#include "routers/vc/vc_router.hpp"
#include "testbench/family.hpp"
#include "testbench/fractional_experiment.hpp"
#include "testbench/open_loop_source.hpp"
#include "testbench/synthetic_traffic.hpp"

namespace icn {

namespace {

using vc::TopologyKind;

// Every key is declared once, with its range: the spec that `icnsim list`
// and docs/keys.md show is the one that validates (models/params.hpp).
// Keys with a union type (a number or a list) stay raw specs, read below.
const ChoiceParam kPreset{"preset", "none", {"none", "booksim"},
                          "booksim: every key below that the scenario does not give takes BookSim 2's default "
                          "(iq router, docs/vc_router.md)"};
const ChoiceParam kTopology{"network.topology", "mesh", {"mesh", "torus", "fattree"},
                            "k-ary n-dimensional mesh or torus, or the binary fat tree"};
const IntParam kK{"network.k", 8, 2, 256,
                  "mesh/torus: routers per dimension (a list: per dimension, x first; network.n is its length)", "",
                  "2..256, or with traffic.collective a list of sides [k0, k1, ...]", "network.topology=mesh or torus"};
const IntParam kN{"network.n", 2, 1, 3, "mesh/torus: dimensions", "", "", "network.topology=mesh or torus"};
const IntParam kLeaves{"network.leaves", 16, 2, 65536, "fattree: processing nodes n at the leaves", "",
                       "2..65536, a power of two", "network.topology=fattree"};
const IntParam kLinkLatency{"network.link_latency", 1, 1, 64, "cycles for a flit (or credit) to cross a link"};
const IntParam kVcs{"router.vcs", 2, 1, 16, "virtual channels per input port", "", "1..16 (ports x vcs <= 4096)"};
const IntParam kBufferDepth{"router.buffer_depth", 4, 1, 1024, "flits of buffer per VC"};
const ChoiceParam kRouting{"router.routing", "dor", {"dor", "adaptive"},
                           "dor: dimension order (datelines on the torus; up*/down* on the fat tree); adaptive: "
                           "west-first, 2-D mesh only"};
const BoolParam kDateline{"router.dateline", true, "torus: split the VCs into dateline classes (false can deadlock)",
                          "network.topology=torus"};
const IntParam kRoutingDelay{"router.routing_delay", 1, 1, 16, "route computation stage, cycles"};
const IntParam kVcAllocDelay{"router.vc_alloc_delay", 1, 1, 16, "VC allocation stage, cycles"};
const IntParam kSwAllocDelay{"router.sw_alloc_delay", 1, 1, 16, "switch allocation stage, cycles"};
const IntParam kStDelay{"router.st_delay", 1, 1, 16, "switch traversal stage, cycles"};
const IntParam kCreditDelay{"router.credit_delay", 0, 0, 64, "extra cycles before a freed buffer entry's credit leaves"};
const ChoiceParam kVcAllocator{"router.vc_allocator", "islip", {"islip", "round_robin"},
                               "separable input-first VC allocator"};
const IntParam kAllocIterations{"router.alloc_iterations", 1, 1, 8, "iSLIP iterations of the VC allocator"};

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

std::vector<ParamSpec> network_params() {
  return {
      kPreset.spec(),
      kTopology.spec(),
      kK.spec(),
      kN.spec(),
      kLeaves.spec(),
      {"network.capacities", "cbft", "cbft|ebft|[c1,...,c_log n], non-decreasing, c1 = 1",
       "fattree: branch capacities c_l between levels l-1 and l (physical links, as network.type=fattree_packet)",
       "network.topology=fattree"},
      kLinkLatency.spec(),
      {"network.failed_links", "[]",
       "list of links like nic3.up, r3_3.x+ (router r3_3's output toward x+), r2_1.down0, r1_0.up (fat tree)",
       "links that never carry a flit (fault injection: the run ends unverified, naming where traffic waits)"},
      swap_ejection_param(),
      kVcs.spec(),
      kBufferDepth.spec(),
      kRouting.spec(),
      kDateline.spec(),
      kRoutingDelay.spec(),
      kVcAllocDelay.spec(),
      kSwAllocDelay.spec(),
      kStDelay.spec(),
      kCreditDelay.spec(),
      kVcAllocator.spec(),
      kAllocIterations.spec(),
  };
}

std::vector<ParamSpec> traffic_params() {
  return {
      {"traffic.pattern", "uniform", join_choices(pattern_names()), "destination pattern"},
      kInjectionRate.spec(),
      {"traffic.packet_size", "4", "1..65536, or a list of sizes", "packet length in flits"},
      {"traffic.packet_size_weights", "[]", "list of weights > 0, one per size (empty: equal)",
       "probabilities of the sizes in traffic.packet_size", "traffic.packet_size given as a list"},
      kSelfTraffic.spec(),
      kInjection.spec(),
      kBurstAlpha.spec(),
      kBurstBeta.spec(),
      kHotspotFraction.spec(),
      {"traffic.hotspot_nodes", "[0]", "list of nodes 0..N-1", "hotspot: the hotspot nodes", "traffic.pattern=hotspot"},
      {"traffic.trace_file", "", "a file of 'cycle source destination size' lines", "trace: the trace", "traffic.pattern=trace"},
      kSamplePeriod.spec(),
      kWarmupPeriods.spec(),
      kMaxSamples.spec(),
      kLatencyThreshold.spec(),
      kStoppingThreshold.spec(),
      kMeasureCycles.spec(),
      kDrainAll.spec(),
  };
}

// BookSim 2's defaults for the iq router and sim_type latency.
const std::vector<std::pair<std::string, std::string>>& booksim_preset() {
  static const std::vector<std::pair<std::string, std::string>> p{
      {"router.vcs", "2"},
      {"router.buffer_depth", "4"},
      {"router.routing", "dor"},
      {"router.routing_delay", "1"},
      {"router.vc_alloc_delay", "1"},
      {"router.sw_alloc_delay", "1"},
      {"router.st_delay", "1"},
      {"router.credit_delay", "0"},
      {"router.vc_allocator", "islip"},
      {"router.alloc_iterations", "1"},
      {"network.link_latency", "1"},
      {"traffic.packet_size", "4"},
      {"traffic.self_traffic", "true"},
      {"traffic.injection", "bernoulli"},
      {"measure.sample_period", "1000"},
      {"measure.warmup_periods", "3"},
      {"measure.max_samples", "10"},
      {"measure.latency_threshold", "500"},
      {"measure.stopping_threshold", "0.05"},
  };
  return p;
}

struct VcSetup : ExperimentSetup {
  TopologyKind topology = TopologyKind::kMesh;
  bool fattree = false;
  unsigned height = 0;               // fat tree: log2 leaves
  std::vector<unsigned> capacities;  // fat tree: c_1..c_h
  unsigned k = 8, n = 2;
  std::vector<unsigned> sides;       // mesh/torus: routers per dimension (k, n times, unless given as a list)
  bool dateline = true;
  bool adaptive = false;
  vc::NetworkParams net;
  DestinationPattern pattern;
  PacketSizes sizes;
  InjectionProcess process;
  double rate = 0;
  std::vector<TraceEntry> trace;
  OpenLoopPhases::Params phases;
  Cycle fixed_cycles = 0;
  bool drain_all = true;
  std::vector<vc::VcLinkAddress> failed_links;  // parsed once (routers/vc/vc_link_address.hpp)

  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  ResourceEstimate estimate() const override;
};

// network.leaves and network.capacities, with the packet fat tree's syntax
// and presets (models/fat_tree.hpp).
void read_fat_tree(Config& cfg, VcSetup& s) {
  const std::int64_t leaves = kLeaves.read(cfg);
  if ((leaves & (leaves - 1)) != 0) cfg.fail("network.leaves", "must be a power of two, 2..65536");
  while ((std::int64_t{1} << s.height) < leaves) ++s.height;
  const YAML::Node caps = cfg.node("network.capacities");
  if (caps.IsScalar() && (caps.Scalar() == "cbft" || caps.Scalar() == "ebft")) {
    s.capacities = capacity_preset(caps.Scalar(), s.height);
  } else if (caps.IsSequence()) {
    const auto list = cfg.integer_list("network.capacities", -(1ll << 40), 1ll << 40);
    const std::string problem = capacity_list_problem(list, s.height);
    if (!problem.empty()) cfg.fail("network.capacities", problem);
    for (auto c : list) s.capacities.push_back(static_cast<unsigned>(c));
  } else {
    cfg.fail("network.capacities", "expected cbft, ebft or a list [c1,...,c_log n]");
  }
  if (s.capacities[0] != 1)
    cfg.fail("network.capacities", "c1 must be 1: a leaf's NIC has one injection and one ejection port");
  // The width of a branch is bounded by the largest router's ports x VCs, below.
}

std::unique_ptr<vc::VcTopology> make_topology(const VcSetup& s);

// network.failed_links: each name parsed once into a typed link address.
void read_failed_links(Config& cfg, VcSetup& s) {
  const YAML::Node failed = cfg.node("network.failed_links");
  if (!failed.IsSequence()) cfg.fail("network.failed_links", "expected a list of link names like nic3.up or r3_3.x+");
  if (failed.size() == 0) return;
  const std::unique_ptr<vc::VcTopology> shape = make_topology(s);
  const vc::VcTopology& topo = *shape;
  vc::VcLinkNames names;
  names.nodes = topo.nodes();
  if (s.fattree) {
    const auto& ft = static_cast<const vc::FatTreeTopology&>(topo);
    names.router_of = [&ft](const std::vector<std::uint64_t>& x) -> std::optional<unsigned> {
      if (x.size() != 2 || x[0] < 1 || x[0] > ft.height()) return std::nullopt;
      if (x[1] >= (std::uint64_t{1} << (ft.height() - x[0]))) return std::nullopt;
      return ft.router_at(static_cast<unsigned>(x[0]), static_cast<unsigned>(x[1]));
    };
    names.connected = [&ft](unsigned r, unsigned p) { return ft.neighbor(r, p).has_value() || ft.level(r) == 1; };
  } else {
    names.connected = [&topo](unsigned r, unsigned p) { return p == 0 || topo.neighbor(r, p).has_value(); };
  }
  if (!s.fattree) names.router_of = [&](const std::vector<std::uint64_t>& x) -> std::optional<unsigned> {
    if (x.size() != s.n) return std::nullopt;
    std::uint64_t r = 0, stride = 1;
    for (std::size_t d = 0; d < x.size(); ++d) {
      if (x[d] >= s.sides[d]) return std::nullopt;
      r += x[d] * stride;
      stride *= s.sides[d];
    }
    return static_cast<unsigned>(r);
  };
  names.router_name = [&](unsigned r) { return topo.router_name(r); };
  names.ports = [&](unsigned r) { return topo.ports(r); };
  names.port_name = [&](unsigned r, unsigned p) { return topo.port_name(r, p); };
  for (const auto& item : failed) {
    const auto address = item.IsScalar() ? vc::parse_vc_link(item.Scalar(), names) : std::nullopt;
    if (!address)
      cfg.fail("network.failed_links", "'" + (item.IsScalar() ? item.Scalar() : std::string("?")) +
                                           (s.fattree ? "' is not a link of this network (nic<k>.up, r<l>_<j>.up, "
                                                        "r<l>_<j>.down0|down1; with several links up<i>, down<s>_<i>)"
                                                      : "' is not a link of this network (nic<k>.up, or r<coordinates>.<port> "
                                                        "with port local|x+|x-|y+|y-|z+|z- where a link exists)"));
    s.failed_links.push_back(*address);
  }
}

std::unique_ptr<ExperimentSetup> configure(Config& cfg) {
  auto s = std::make_unique<VcSetup>();
  // traffic.collective: Sanders & Sibeyn's broadcast and reduction of single-port
  // processors over these routers (testbench/fractional_experiment.cpp), instead
  // of open-loop synthetic traffic.
  const bool collective = cfg.given("traffic.collective");
  cfg.declare(network_params());
  if (!collective) cfg.declare(traffic_params());
  if (kPreset.read(cfg) == "booksim")
    for (const auto& [key, value] : booksim_preset())
      if (!collective || (key.rfind("traffic.", 0) != 0 && key.rfind("measure.", 0) != 0))
        cfg.apply_preset(key, value);  // fills only what the scenario does not give

  const std::string topology = kTopology.read(cfg);
  s->topology = topology == "torus" ? TopologyKind::kTorus : TopologyKind::kMesh;
  s->fattree = topology == "fattree";
  double routers = 0;
  unsigned max_ports = 0;
  if (s->fattree) {
    read_fat_tree(cfg, *s);
    routers = std::ldexp(1.0, static_cast<int>(s->height));  // nodes
    for (unsigned l = 1; l <= s->height; ++l)
      max_ports = std::max(max_ports, 2 * s->capacities[l - 1] + (l < s->height ? s->capacities[l] : 0));
    s->k = static_cast<unsigned>(routers);  // patterns see the leaves as one ring (tornado, neighbor)
    s->n = 1;
  } else {
    if (cfg.node("network.k").IsSequence()) {
      if (!collective)
        cfg.fail("network.k", "a list of sides applies only with traffic.collective (the synthetic patterns need k^n); "
                              "give one k, 2..256");
      for (auto side : cfg.integer_list("network.k", 2, 256)) s->sides.push_back(static_cast<unsigned>(side));
      if (s->sides.empty() || s->sides.size() > 3) cfg.fail("network.k", "a list of 1..3 sides, each 2..256");
      if (cfg.given("network.n") && kN.read(cfg) != static_cast<std::int64_t>(s->sides.size()))
        cfg.fail("network.n", "must equal the number of sides in network.k (" + std::to_string(s->sides.size()) + ")");
      s->k = s->sides[0];
      s->n = static_cast<unsigned>(s->sides.size());
    } else {
      s->k = static_cast<unsigned>(kK.read(cfg));
      s->n = static_cast<unsigned>(kN.read(cfg));
      s->sides.assign(s->n, s->k);
    }
    routers = 1;
    for (unsigned side : s->sides) routers *= side;
    if (routers > (1 << 20)) cfg.fail("network.k", "k^n must be at most 1048576 routers");
    max_ports = 2 * s->n + 1;
  }
  s->net.link_latency = static_cast<unsigned>(kLinkLatency.read(cfg));
  auto& r = s->net.router;
  r.vcs = static_cast<unsigned>(kVcs.read(cfg));
  // The shared router's allocators take any number of requesters; its state
  // is bounded per router (vc::kMaxRouterInputVcs).
  if (max_ports * r.vcs > vc::kMaxRouterInputVcs)
    cfg.fail(s->fattree ? "network.capacities" : "router.vcs",
             "ports x vcs must be <= " + std::to_string(vc::kMaxRouterInputVcs) + " (largest router: " +
                 std::to_string(max_ports) + " ports, " +
                 std::to_string(r.vcs) + " VCs)");
  r.buffer_depth = static_cast<unsigned>(kBufferDepth.read(cfg));
  s->adaptive = kRouting.read(cfg) == "adaptive";
  if (s->adaptive && (s->fattree || s->topology != TopologyKind::kMesh || s->n != 2))
    cfg.fail("router.routing", "adaptive (west-first) needs network.topology=mesh and network.n=2; use dor");
  if (s->topology == TopologyKind::kTorus && !s->fattree) {
    s->dateline = kDateline.read(cfg);
    if (s->dateline && r.vcs < 2) cfg.fail("router.vcs", "the torus with datelines needs at least 2 VCs (or router.dateline=false)");
  } else {
    s->dateline = false;
  }
  read_failed_links(cfg, *s);
  s->net.swap_ejection = parse_swap_ejection(cfg, static_cast<std::uint64_t>(routers));
  r.routing_delay = static_cast<unsigned>(kRoutingDelay.read(cfg));
  r.vc_alloc_delay = static_cast<unsigned>(kVcAllocDelay.read(cfg));
  r.sw_alloc_delay = static_cast<unsigned>(kSwAllocDelay.read(cfg));
  r.st_delay = static_cast<unsigned>(kStDelay.read(cfg));
  s->net.credit_delay = static_cast<unsigned>(kCreditDelay.read(cfg));
  r.vc_allocator.islip = kVcAllocator.read(cfg) == "islip";
  r.vc_allocator.iterations = static_cast<unsigned>(kAllocIterations.read(cfg));
  if (collective) {
    VcFabricSpec spec;
    const VcSetup shape = *s;
    spec.make_topology = [shape] { return make_topology(shape); };
    spec.params = s->net;
    spec.fattree = s->fattree;
    spec.torus = !s->fattree && s->topology == TopologyKind::kTorus;
    if (!s->fattree) spec.sides = s->sides;
    spec.nodes = static_cast<unsigned>(routers);
    spec.failed_links = s->failed_links;
    return configure_vc_collective(cfg, std::move(spec));
  }

  // Traffic.
  const unsigned nodes = static_cast<unsigned>(routers);
  const std::string pattern = cfg.choice("traffic.pattern", pattern_names());
  for (std::size_t i = 0; i < pattern_names().size(); ++i)
    if (pattern_names()[i] == pattern) s->pattern.kind = static_cast<PatternKind>(i);
  s->pattern.nodes = nodes;
  s->pattern.k = s->k;
  s->pattern.n = s->n;
  s->pattern.self_traffic = kSelfTraffic.read(cfg);
  const std::string why = s->pattern.problem();
  if (!why.empty()) cfg.fail("traffic.pattern", pattern + " " + why);

  const YAML::Node size_node = cfg.node("traffic.packet_size");
  if (size_node.IsSequence()) {
    s->sizes.sizes.clear();
    for (auto v : cfg.integer_list("traffic.packet_size", 1, 65536)) s->sizes.sizes.push_back(static_cast<unsigned>(v));
    if (s->sizes.sizes.empty()) cfg.fail("traffic.packet_size", "a list needs at least one size (1..65536)");
    const YAML::Node w = cfg.node("traffic.packet_size_weights");
    s->sizes.weights.assign(s->sizes.sizes.size(), 1.0);
    const std::string weights_allowed = "a list of " + std::to_string(s->sizes.sizes.size()) +
                                        " numbers in (0, 1e9], one per size in traffic.packet_size, or [] for equal weights";
    if (!w.IsNull() && !w.IsSequence()) cfg.fail("traffic.packet_size_weights", "expected " + weights_allowed);
    if (w.IsSequence() && w.size() != 0) {
      if (w.size() != s->sizes.sizes.size()) cfg.fail("traffic.packet_size_weights", "expected " + weights_allowed);
      for (std::size_t i = 0; i < w.size(); ++i) {
        double x = -1;
        if (!w[i].IsScalar() || !parse_decimal_real(w[i].Scalar(), x) || !(x > 0) || x > 1e9)
          cfg.fail("traffic.packet_size_weights", "expected " + weights_allowed);
        s->sizes.weights[i] = x;
      }
    }
  } else {
    s->sizes.sizes = {static_cast<unsigned>(cfg.integer("traffic.packet_size", 1, 65536))};
    s->sizes.weights = {1.0};
  }
  unsigned max_size = 0;
  for (unsigned z : s->sizes.sizes) max_size = std::max(max_size, z);
  s->net.max_packet_flits = std::max(max_size, 65536u);

  if (s->pattern.kind == PatternKind::kHotspot) {
    s->pattern.hotspot_fraction = kHotspotFraction.read(cfg);
    for (auto v : cfg.integer_list("traffic.hotspot_nodes", 0, nodes - 1)) s->pattern.hotspots.push_back(static_cast<NodeId>(v));
    if (s->pattern.hotspots.empty()) cfg.fail("traffic.hotspot_nodes", "needs at least one node 0.." + std::to_string(nodes - 1));
  }
  if (s->pattern.kind == PatternKind::kTrace) {
    const std::string path = cfg.text("traffic.trace_file");
    if (path.empty()) cfg.fail("traffic.trace_file", "traffic.pattern=trace needs a trace file");
    s->trace = read_trace(path, nodes, 65536);
    cfg.declare_unused("traffic.injection_rate", "the trace gives the packets");
  } else {
    s->rate = kInjectionRate.read(cfg);
    s->process.packet_rate = s->rate / s->sizes.mean();
    if (s->process.packet_rate > 1)
      cfg.fail("traffic.injection_rate", "at most one packet per node per cycle (rate / mean packet size <= 1)");
    if (kInjection.read(cfg) == "onoff") {
      s->process.kind = InjectionProcess::Kind::kOnOff;
      s->process.alpha = kBurstAlpha.read(cfg);
      s->process.beta = kBurstBeta.read(cfg);
      if (s->process.alpha <= 0) cfg.fail("traffic.burst_alpha", "must be > 0 (0 < alpha <= 1)");
      if (s->process.beta <= 0) cfg.fail("traffic.burst_beta", "must be > 0 (0 < beta <= 1)");
      if (s->process.packet_rate * (s->process.alpha + s->process.beta) / s->process.alpha > 1)
        cfg.fail("traffic.injection_rate", "too high for this burstiness: rate (alpha+beta)/alpha must be <= 1 packet/cycle");
    }
  }

  s->phases.sample_period = static_cast<Cycle>(kSamplePeriod.read(cfg));
  s->phases.warmup_periods = static_cast<unsigned>(kWarmupPeriods.read(cfg));
  s->phases.max_samples = static_cast<unsigned>(kMaxSamples.read(cfg));
  s->phases.latency_threshold = kLatencyThreshold.read(cfg);
  s->phases.stopping_threshold = kStoppingThreshold.read(cfg);
  s->phases.acc_stopping_threshold = s->phases.stopping_threshold;
  s->phases.warmup_threshold = s->phases.stopping_threshold;
  s->fixed_cycles = static_cast<Cycle>(kMeasureCycles.read(cfg));
  s->drain_all = kDrainAll.read(cfg);
  return s;
}

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

// Watches the network in sample periods, runs the open-loop phase controller
// and collects the statistics of the measured packets.
std::unique_ptr<vc::VcTopology> make_topology(const VcSetup& s) {
  if (s.fattree) return std::make_unique<vc::FatTreeTopology>(s.height, s.capacities, s.net.router.vcs);
  return std::make_unique<vc::MeshTorusTopology>(s.topology, s.sides, s.net.router.vcs, s.dateline, s.adaptive);
}

// The routers draw their random routing choices from the scenario's seed.
vc::NetworkParams seeded(vc::NetworkParams p, std::uint64_t seed) {
  p.router.seed = seed;
  return p;
}

class VcExperiment : public Experiment, public vc::ArrivalSink, public Clocked {
 public:
  VcExperiment(sc_core::sc_module_name name, const VcSetup& setup, const RunContext& ctx)
      : Experiment(name),
        Clocked(Phase::kProcessor),
        setup_(setup),
        engine_("engine", ctx.engine),
        topo_(make_topology(setup)),
        network_("net", *topo_, seeded(setup.net, ctx.seed), engine_, pool_, ledger_),
        phases_(setup.phases),
        node_accepted_(topo_->nodes(), 0) {
    engine_.set_in_flight_probe([this] { return pool_.live(); });
    engine_.add(*this);
    for (const auto& link : setup.failed_links) {
      if (link.injection) network_.fail_injection(link.node);
      else network_.fail_router_output(link.router, link.port);
    }
    std::vector<std::vector<TraceEntry>> per_node(topo_->nodes());
    for (const auto& e : setup.trace) per_node[e.src].push_back(e);
    for (NodeId node = 0; node < topo_->nodes(); ++node) {
      sources_.push_back(std::make_unique<OpenLoopSource>(
          ("pe" + std::to_string(node)).c_str(), node, setup_.pattern, setup_.sizes, setup_.process, ctx.seed,
          std::move(per_node[node]), [this](const IntendedPacket& p) { created(p); }));
      OpenLoopSource& src = *sources_.back();
      src.socket.bind(network_.nic(node).socket);
      network_.nic(node).set_sink(*this);
      engine_.add(src);
      src.start();
    }
    if (setup.fixed_cycles > 0) {
      measure_start_ = 1;
      measure_end_ = setup.fixed_cycles + 1;
      next_tick_ = measure_end_;
    } else {
      measure_start_ = 1;  // tentative: each warm-up period is measured, and kept if the run goes unstable in it
      next_tick_ = setup.phases.sample_period;
    }
    engine_.wake(*this, next_tick_);
    if (ctx.tracer != nullptr) network_.trace(*ctx.tracer, std::string(this->name()));
  }

  // --- the testbench's own block: period boundaries ---
  Cycle tick(Cycle now) override {
    if (done_) return kNever;
    if (now < next_tick_) return next_tick_;  // the per-block scheduler calls every cycle
    next_tick_ = now + 1;
    if (all_sources_stopped_) {  // draining everything: done when the network is empty
      if (pool_.live() == 0) {
        finish();
        return kNever;
      }
      return now + 1;
    }
    if (setup_.fixed_cycles > 0) {  // fixed window, then drain
      draining_ = true;
      maybe_finish(now);
      if (!done_ && !setup_.failed_links.empty() && outstanding_ != 0 &&
          double(now) - outstanding_created_sum_ / double(outstanding_) > setup_.phases.latency_threshold) {
        finish();  // behind a failed link: measured packets would wait for ever
        return kNever;
      }
      return done_ ? kNever : (next_tick_ = now + setup_.phases.sample_period);
    }
    occupancy_sum_ += double(network_.flits_buffered());  // VC occupancy, sampled per period
    ++occupancy_samples_;
    const double window_latency = ratio(window_latency_sum_, window_packets_);
    const double accepted = ratio(window_flits_, double(topo_->nodes()) * setup_.phases.sample_period);
    window_latency_sum_ = 0;
    window_packets_ = 0;
    window_flits_ = 0;
    using S = OpenLoopPhases::State;
    const S before = phases_.state();
    S state;
    if (before == S::kDraining) {
      double age = 0;
      const double sum = packet_latency_.mean() * packet_latency_.count() + (double(now) * outstanding_ - outstanding_created_sum_);
      age = ratio(sum, double(packet_latency_.count() + outstanding_));
      state = phases_.drain_check(age);
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
    return done_ ? kNever : (next_tick_ = now + setup_.phases.sample_period);
  }
  std::string block_name() const override { return std::string(name()) + ".measurement"; }

  // --- packets created and delivered ---
  void created(const IntendedPacket& p) {
    const unsigned flits = p.flits;
    const Cycle c = p.created;
    intended_.emplace(flow_key(p.src, p.seq), Intended{p.dst, p.flits});
    ++created_packets_;
    if (c >= measure_start_ && c < measure_end_) {
      ++outstanding_;
      outstanding_created_sum_ += double(c);
      offered_flits_ += flits;
    }
  }

  void arrived_stages(const Packet&, const vc::PacketStages& st, Cycle) override { last_stages_ = st; }

  static std::uint64_t flow_key(NodeId src, std::uint32_t seq) { return std::uint64_t{src} << 32 | seq; }

  // The receiving NIC's node and the flits it counted against what the
  // source meant (kept here since the packet was made): a packet that reaches
  // the wrong node, arrives short or long, or that no source made, makes the
  // run unverified, named.
  void check_receipt(const Packet& p, unsigned flits, NodeId at) {
    const auto it = intended_.find(flow_key(p.src, p.seq));
    const bool made = it != intended_.end();
    const Intended meant = made ? it->second : Intended{};
    if (made) intended_.erase(it);
    if (!wrong_.empty() || (made && meant.dst == at && meant.flits == flits)) return;  // the first problem is reported
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

  void arrived(const Packet& p, unsigned flits, Cycle tail, NodeId at) override {
    const Cycle now = tail;
    check_receipt(p, flits, at);
    window_latency_sum_ += double(tail - p.created);
    ++window_packets_;
    window_flits_ += flits;
    delivered_flits_ += flits;
    if (now >= measure_start_ && now < measure_end_) {
      accepted_flits_ += flits;
      node_accepted_[at] += flits;
    }
    if (p.created >= measure_start_ && p.created < measure_end_) {
      if (p.hops >= by_hops_.size()) by_hops_.resize(p.hops + 1);
      by_hops_[p.hops].add(tail - p.injected);
      packet_latency_.add(tail - p.created);
      network_latency_.add(tail - p.injected);
      hops_.add(p.hops);
      const vc::PacketStages& st = last_stages_;
      stage_sums_[0] += double(p.injected - p.created);
      stage_sums_[1] += st.links;
      stage_sums_[2] += st.routing;
      stage_sums_[3] += st.vc_alloc;
      stage_sums_[4] += st.sw_alloc;
      stage_sums_[5] += st.traversal;
      stage_sums_[6] += double(tail - st.head_ejected);
      --outstanding_;
      outstanding_created_sum_ -= double(p.created);
    }
    if (draining_) maybe_finish(now);
  }

  // Starts the measurement window afresh at `start`. While warming up every
  // period is a tentative window: a run that turns unstable before its
  // measurement began still reports what its last period measured (the
  // accepted throughput at saturation, the latency of the packets that did
  // arrive), marked unstable.
  void restart_measurement(Cycle start) {
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
    stage_sums_ = {};
  }

  void maybe_finish(Cycle now) {
    if (done_ || outstanding_ != 0) return;
    if (!all_sources_stopped_) {
      phases_.drained();
      measured_drained_at_ = now;
      if (!setup_.drain_all) {
        finish();
        return;
      }
      for (auto& s : sources_) s->stop_injecting();
      all_sources_stopped_ = true;
    }
    next_tick_ = std::min(next_tick_, now + 1);
    engine_.wake(*this, now + 1);  // the packet that just arrived is released after this call
  }

  void finish() {
    done_ = true;
    engine_.stop();
  }

  // --- Experiment ---
  CycleEngine& engine() override { return engine_; }
  std::uint64_t routers() const override { return topo_->routers(); }

  bool stable() const { return phases_.stable() && engine_.outcome().status == RunOutcome::Status::kCompleted; }

  std::string problem() const override {
    const RunOutcome& o = engine_.outcome();
    if (o.status != RunOutcome::Status::kCompleted) {
      std::string d = o.diagnostic;
      const std::string cyc = network_.waiting_cycle();
      if (!cyc.empty()) d += "; waiting cycle: " + cyc;
      return d;
    }
    if (!wrong_.empty()) return wrong_;
    if (!setup_.failed_links.empty()) {
      // Measured packets that never arrived, or traffic left waiting on a
      // failed link: the fault blocked the network.
      const std::string where = network_.stuck_at_failed_link();
      if (outstanding_ != 0 || !where.empty()) {
        std::string names;
        for (const auto& l : setup_.failed_links) names += (names.empty() ? "" : ", ") + l.name;
        return "failed link(s) " + names + ": " + std::to_string(pool_.live()) + " packet(s) never arrived" +
               (where.empty() ? "" : "; " + where);
      }
    }
    if (ledger_.delivered + pool_.live() != ledger_.injected)
      return "conservation violated: " + std::to_string(ledger_.injected) + " packets injected, " +
             std::to_string(ledger_.delivered) + " delivered, " + std::to_string(pool_.live()) + " held";
    if (phases_.stable() && outstanding_ != 0) return std::to_string(outstanding_) + " measured packet(s) never arrived";
    return "";
  }

  Cycle measured_cycles() const {
    // An interrupted run measured only up to its last cycle.
    const Cycle end = std::min(measure_end_, engine_.outcome().last_cycle + 1);
    return end > measure_start_ ? end - measure_start_ : 0;
  }

  static nlohmann::ordered_json summary(const Histogram& h) {
    return {{"mean", h.mean()}, {"p50", h.percentile(50)}, {"p99", h.percentile(99)}, {"max", h.max()},
            {"min", h.min()}, {"count", h.count()}};
  }

  void write_results(nlohmann::ordered_json& out) const override {
    const double nodes = topo_->nodes();
    const double cycles = double(measured_cycles());
    nlohmann::ordered_json r;
    r["status"] = to_string(engine_.outcome().status);
    r["stable"] = stable();
    r["verified"] = problem().empty();
    r["conservation"] = problem().empty() ? "ok" : problem();
    r["latency"]["packet"] = summary(packet_latency_);
    r["latency"]["packet"]["histogram"] = packet_latency_.to_json()["bins"];
    r["latency"]["network"] = summary(network_latency_);
    // Mean cycles per measured packet in each stage (routers/vc/stage_log.hpp):
    // source_queue is packet minus network latency; the others sum to the
    // network latency (links include each buffer-write cycle; serialization
    // is the tail's lag behind the head at the destination).
    static const char* const kStages[] = {"source_queue", "links",     "routing",      "vc_alloc",
                                          "sw_alloc",     "traversal", "serialization"};
    for (std::size_t i = 0; i < stage_sums_.size(); ++i)
      r["latency"]["stages"][kStages[i]] = ratio(stage_sums_[i], double(packet_latency_.count()));
    r["throughput"]["offered"] = ratio(double(offered_flits_), nodes * cycles);
    r["throughput"]["accepted"] = ratio(double(accepted_flits_), nodes * cycles);
    std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
    for (auto a : node_accepted_) {
      lo = std::min(lo, a);
      hi = std::max(hi, a);
    }
    r["throughput"]["accepted_min"] = ratio(double(lo), cycles);
    r["throughput"]["accepted_max"] = ratio(double(hi), cycles);
    r["hops"] = summary(hops_);
    r["packets"] = {{"created", created_packets_}, {"delivered", ledger_.delivered},
                    {"measured", packet_latency_.count()}, {"held_at_end", pool_.live()}};
    r["phases"] = {{"warmup_end", warmup_end_}, {"measure_start", measure_start_},
                   {"measure_end", measure_end_ == kNever ? 0 : measure_end_},
                   {"measured_drained", measured_drained_at_}, {"periods", phases_.periods()},
                   {"converged", phases_.converged()}};
    // Which window the figures above cover.
    r["phases"]["window"] = setup_.fixed_cycles > 0 ? "fixed"
                            : warmup_end_ == 0 && !phases_.stable() ? "last_warmup_period"
                                                                    : "measurement";
    const std::string why = problem();
    if (!why.empty()) r["problem"] = why;
    const std::string cyc = engine_.outcome().status == RunOutcome::Status::kStalled ? network_.waiting_cycle() : "";
    if (!cyc.empty()) r["waiting_cycle"] = cyc;
    if (!engine_.outcome().held.empty()) r["held"] = held_json(engine_.outcome());
    nlohmann::ordered_json hops = nlohmann::ordered_json::array();
    for (std::size_t h = 0; h < by_hops_.size(); ++h)
      if (by_hops_[h].count() != 0)
        hops.push_back({{"routers", h}, {"packets", by_hops_[h].count()}, {"network_latency_mean", by_hops_[h].mean()},
                        {"per_router", by_hops_[h].mean() / double(h)}});
    r["latency"]["network"]["by_hops"] = hops;
    out["result"] = r;

    const double run_cycles = double(engine_.outcome().last_cycle);
    double usum = 0, umax = 0;
    for (const auto& c : network_.channels()) {
      const double u = ratio(double(c.link->transfers()), run_cycles);
      usum += u;
      umax = std::max(umax, u);
    }
    std::size_t max_q = 0;
    for (NodeId n = 0; n < topo_->nodes(); ++n) max_q = std::max(max_q, network_.nic(n).max_queue());
    out["vc"] = {{"channels", network_.channels().size()},
                 {"channel_utilisation_mean", ratio(usum, double(network_.channels().size()))},
                 {"channel_utilisation_max", umax},
                 {"max_injection_queue", max_q},
                 {"vc_occupancy_mean", ratio(occupancy_sum_, double(occupancy_samples_) * router_ports() *
                                                                 setup_.net.router.vcs)},
                 {"routers", topo_->routers()}};
  }

  double router_ports() const {
    double n = 0;
    for (unsigned r = 0; r < topo_->routers(); ++r) n += topo_->ports(r);
    return n;
  }

  std::vector<std::string> table_header() const override {
    return {"network", "pattern", "offered", "accepted", "packet lat", "network lat", "p99", "hops", "stable", "verified"};
  }
  std::vector<std::string> table_row() const override {
    auto f = [](double x, int digits) {
      std::ostringstream s;
      s << std::fixed << std::setprecision(digits) << x;
      return s.str();
    };
    nlohmann::ordered_json j;
    write_results(j);
    const auto& r = j["result"];
    return {topo_->describe(),
            pattern_names()[static_cast<std::size_t>(setup_.pattern.kind)],
            f(r["throughput"]["offered"].get<double>(), 4),
            f(r["throughput"]["accepted"].get<double>(), 4),
            f(r["latency"]["packet"]["mean"].get<double>(), 2),
            f(r["latency"]["network"]["mean"].get<double>(), 2),
            std::to_string(r["latency"]["packet"]["p99"].get<std::uint64_t>()),
            f(r["hops"]["mean"].get<double>(), 2),
            stable() ? "yes" : "NO",
            problem().empty() ? "yes" : "NO"};
  }

 private:
  const VcSetup setup_;
  PacketPool pool_;
  TrafficLedger ledger_;
  CycleEngine engine_;
  std::unique_ptr<vc::VcTopology> topo_;
  vc::VcNetwork network_;
  OpenLoopPhases phases_;
  std::vector<std::unique_ptr<OpenLoopSource>> sources_;
  Cycle measure_start_ = kNever;
  Cycle measure_end_ = kNever;
  Cycle warmup_end_ = 0;
  Cycle measured_drained_at_ = 0;
  Cycle next_tick_ = 1;
  bool draining_ = false;
  bool done_ = false;
  bool all_sources_stopped_ = false;
  std::uint64_t outstanding_ = 0;
  double outstanding_created_sum_ = 0;
  std::uint64_t created_packets_ = 0;
  std::uint64_t offered_flits_ = 0;
  std::uint64_t accepted_flits_ = 0;
  std::uint64_t delivered_flits_ = 0;
  double window_latency_sum_ = 0;
  std::uint64_t window_packets_ = 0;
  std::uint64_t window_flits_ = 0;
  std::vector<std::uint64_t> node_accepted_;
  Histogram packet_latency_, network_latency_, hops_;
  std::vector<Histogram> by_hops_;  // network latency by routers traversed
  vc::PacketStages last_stages_;     // of the packet arrived() is about to report
  std::array<double, 7> stage_sums_{};  // result.latency.stages, summed over measured packets
  double occupancy_sum_ = 0;
  std::uint64_t occupancy_samples_ = 0;
  std::string wrong_;
  // Packets made and not yet received: (source, its sequence number) -> the
  // destination it meant. Bounded by the packets in flight.
  struct Intended {
    NodeId dst = kNoNode;
    unsigned flits = 0;
  };
  std::unordered_map<std::uint64_t, Intended> intended_;
};

// The resource guard's estimate. Calibrated with the results' peak RSS
// (VmHWM, release build, light load so the injection queues stay short): 9 MB
// for the program, about 15 KB per node (router, NIC, processing element and
// their SystemC modules and links: 8x8 11 MB, 32x32 25 MB, 64x64 74 MB,
// 100x100 181 MB, 16^3 72 MB) and 16.5 bytes per buffered flit slot
// (ports x VCs x depth per router: 64x64 with 8 VCs x 64 flits 244 MB, with
// 9 x 1024 3.0 GB). Packets waiting in the unbounded injection queues are not
// counted: beyond saturation they grow until the latency threshold stops the
// run (tests/integration/vc_run_test.cpp checks the estimate within 2x).
ResourceEstimate VcSetup::estimate() const {
  ResourceEstimate e;
  const double nodes = std::pow(static_cast<double>(k), static_cast<double>(n));
  double ports = 2.0 * n + 1;
  if (fattree) {  // n - 1 routers: per node, the mean of 2 c_l + c_(l+1) over the routers
    double total = 0;
    for (unsigned l = 1; l <= height; ++l)
      total += std::ldexp(1.0, static_cast<int>(height - l)) * (2.0 * capacities[l - 1] + (l < height ? capacities[l] : 0));
    ports = total / nodes;
  }
  const double slots = ports * net.router.vcs * net.router.buffer_depth;
  e.memory_bytes = 9e6 + nodes * (15e3 + 16.5 * slots) + 2.0 * sizeof(TraceEntry) * double(trace.size());
  e.what = std::to_string(static_cast<std::uint64_t>(nodes)) + " routers with " +
           std::to_string(static_cast<std::uint64_t>(slots)) + " flit buffer slots each";
  // The fixed window (or the trace's last packet) must be simulated whole.
  Cycle last = fixed_cycles;
  for (const auto& t : trace) last = std::max(last, t.cycle);
  if (last > 0) {
    e.cycles_lower_bound = double(last);
    e.cycles_why = fixed_cycles >= last ? "measure.cycles = " + std::to_string(fixed_cycles)
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
  const double routers = fattree ? nodes - 1 : nodes;
  e.work = (routers + nodes) * cycles;
  e.work_why = std::to_string(static_cast<std::uint64_t>(routers)) + " routers and " +
               std::to_string(static_cast<std::uint64_t>(nodes)) + " nodes over up to " +
               std::to_string(static_cast<std::uint64_t>(cycles)) + " cycles";
  return e;
}

std::unique_ptr<Experiment> VcSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<VcExperiment>(name.c_str(), *this, ctx);
}

}  // namespace

NetworkKind vc_kind() {
  NetworkKind kind;
  kind.type = "vc";
  kind.summary = "input-queued virtual-channel wormhole router on a k-ary n-mesh, torus or fat tree: open-loop "
                 "synthetic traffic, or with traffic.collective Sanders & Sibeyn's pipelined broadcast and reduction";
  kind.params = [] {
    std::vector<ParamGroup> groups{{"network", network_params()}, {"traffic", traffic_params()}};
    for (auto& g : vc_collective_params()) groups.push_back(std::move(g));
    return groups;
  };
  kind.configure = configure;
  return kind;
}

}  // namespace icn

namespace icn {
namespace {

// Its section of the default table (`icnsim` with no arguments).
DemoRows vc_demo() {
  DemoRows vc{"Virtual-channel wormhole routers, 8x8 mesh, uniform random traffic, BookSim-equivalent timing",
              "testbench/scenarios/mesh8x8_uniform.yaml",
              {},
              "BookSim 2 (iq router, same configuration): packet latency 37.2 at 0.05 and 38.7 at 0.15 (docs/vc_router.md)"};
  for (const char* rate : {"0.05", "0.15"})
    vc.cases.push_back({std::string("mesh8x8_load") + (rate + 2),  // module names take no dots
                        {"network.type=vc", "network.topology=mesh", "network.k=8", "network.n=2", "preset=booksim",
                         "traffic.pattern=uniform", std::string("traffic.injection_rate=") + rate}});
  return vc;
}

const RegisterFamily kRegistered{50, {vc_kind}, vc_demo};

}  // namespace
}  // namespace icn
