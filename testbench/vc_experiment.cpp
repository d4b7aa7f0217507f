#include "testbench/vc_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "models/params.hpp"
#include "models/wiring_fault.hpp"
#include "models/fat_tree.hpp"
#include "routers/vc/fattree_topology.hpp"
#include "routers/vc/ibt_vc_topology.hpp"
#include "routers/vc/vc_link_address.hpp"
#include "routers/vc/vc_network.hpp"
#include "routers/vc/vc_router.hpp"
#include "testbench/family.hpp"
#include "testbench/vc_setup.hpp"
#include "testbench/synthetic_traffic.hpp"
#include "testbench/link_names.hpp"

namespace icn {

namespace {

using vc::TopologyKind;

// Every key is declared once, with its range: the spec that `icnsim list`
// and docs/keys.md show is the one that validates (models/params.hpp).
// Keys with a union type (a number or a list) stay raw specs, read below.
const ChoiceParam kPreset{"preset", "none", {"none", "booksim"},
                          "booksim: every key below that the scenario does not give takes BookSim 2's default "
                          "(iq router, docs/vc_router.md)"};
const ChoiceParam kTopology{"network.topology", "mesh", {"mesh", "torus", "ibt", "fattree"},
                            "k-ary n-dimensional mesh, torus or interlaced bypass torus (iBT), or the binary fat tree"};
const IntParam kK{"network.k", 8, 2, 256,
                  "mesh/torus/ibt: routers per dimension (a list: per dimension, x first; network.n is its length)", "",
                  "2..256, or with traffic.collective a list of sides [k0, k1, ...]", "network.topology=mesh, torus or ibt"};
const IntParam kN{"network.n", 2, 1, 3, "mesh/torus/ibt: dimensions", "", "", "network.topology=mesh, torus or ibt"};
const IntParam kLeaves{"network.leaves", 16, 2, 65536, "fattree: processing nodes n at the leaves", "",
                       "2..65536, a power of two", "network.topology=fattree"};
const RawParam kCapacities{"network.capacities", "cbft", "cbft|ebft|[c1,...,c_log n], non-decreasing, c1 = 1",
                           "fattree: branch capacities c_l between levels l-1 and l (physical links, as "
                           "network.type=fattree_packet)",
                           "network.topology=fattree"};
const RawParam kFailedLinks{"network.failed_links", "[]",
                            "list of links like nic3.up, r3_3.x+ (router r3_3's output toward x+), r2_1.down0, r1_0.up "
                            "(fat tree)",
                            "links that never carry a flit (fault injection: the run ends unverified, naming where "
                            "traffic waits)"};
const IntParam kLinkLatency{"network.link_latency", 1, 1, 64, "cycles for a flit (or credit) to cross a link"};
const IntParam kChannelLatency{"network.channel_latency", 0, 0, 64,
                               "cycles for a flit (or credit) to cross a link between two routers; 0: "
                               "network.link_latency (the NICs' links always take network.link_latency)"};
const IntParam kVcs{"router.vcs", 2, 1, 16, "virtual channels per input port", "", "1..16 (ports x vcs <= 4096)"};
const IntParam kBufferDepth{"router.buffer_depth", 4, 1, 1024, "flits of buffer per VC"};
const ChoiceParam kRouting{"router.routing", "dor", {"dor", "adaptive"},
                           "dor: dimension order (datelines on the torus; up*/down* on the fat tree); adaptive: "
                           "west-first, 2-D mesh only"};
const BoolParam kDateline{"router.dateline", true, "torus/ibt: split the VCs into dateline classes (false can deadlock)",
                          "network.topology=torus or ibt"};
const ChoiceParam kDatelineClasses{"router.dateline_classes", "after_crossing", {"after_crossing", "whole_dimension"},
                                   "torus: after_crossing: the lower half of the VCs until the dimension's wrap link "
                                   "is crossed, the upper half after; whole_dimension (BookSim 2): one half for the "
                                   "whole dimension, the upper iff the destination coordinate is below the source's",
                                   "network.topology=torus"};
const ChoiceParam kTorusTies{"router.torus_ties", "plus", {"plus", "random"},
                             "torus: a destination k/2 away either way is reached going + (plus) or the way a coin "
                             "of the router's generator says (random, BookSim 2)",
                             "network.topology=torus"};
const IntParam kRoutingDelay{"router.routing_delay", 1, 1, 16, "route computation stage, cycles"};
const IntParam kVcAllocDelay{"router.vc_alloc_delay", 1, 1, 16, "VC allocation stage, cycles"};
const IntParam kSwAllocDelay{"router.sw_alloc_delay", 1, 1, 16, "switch allocation stage, cycles"};
const IntParam kStDelay{"router.st_delay", 1, 1, 16, "switch traversal stage, cycles"};
const IntParam kCreditDelay{"router.credit_delay", 0, 0, 64, "extra cycles before a freed buffer entry's credit leaves"};
std::vector<ParamSpec> network_params() {
  std::vector<ParamSpec> v{
      kPreset.spec(),
      kTopology.spec(),
      kK.spec(),
      kN.spec(),
      vc_bypass_param(),
      kLeaves.spec(),
      kCapacities.spec(),
      kLinkLatency.spec(),
      kChannelLatency.spec(),
      kFailedLinks.spec(),
      swap_ejection_param(),
      kVcs.spec(),
      kBufferDepth.spec(),
      kRouting.spec(),
      kDateline.spec(),
      kDatelineClasses.spec(),
      kTorusTies.spec(),
      kRoutingDelay.spec(),
      kVcAllocDelay.spec(),
      kSwAllocDelay.spec(),
      kStDelay.spec(),
      kCreditDelay.spec(),
  };
  for (ParamSpec& p : vc_allocator_params()) v.push_back(std::move(p));  // router.vc_allocator, ... sw_arbiter
  for (ParamSpec& p : vc_rtl_params()) v.push_back(std::move(p));  // router.model, .rtl, .rtl_routers
  return v;
}

// BookSim 2's defaults for the iq router and sim_type latency. Its credit
// loop is one cycle longer than icnsim's with credit_delay 0 (a buffer slot
// returns one cycle later; zero-load latency is unaffected): one flow per
// channel is accepted at 4/7 flits per cycle there on the mesh (4/9 on the
// torus's 2-cycle channels) against icnsim's 4/6 with credit_delay 0 and 4/7
// with 1 (docs/vc_router.md). Near saturation it matters: on the 8x8 mesh at
// uniform 0.3 BookSim's mean latency is 70.3, icnsim's 55.6 with 0, 71.6 with 1.
const std::vector<std::pair<std::string, std::string>>& booksim_preset() {
  static const std::vector<std::pair<std::string, std::string>> p{
      {"router.vcs", "2"},
      {"router.buffer_depth", "4"},
      {"router.routing", "dor"},
      {"router.routing_delay", "1"},
      {"router.vc_alloc_delay", "1"},
      {"router.sw_alloc_delay", "1"},
      {"router.st_delay", "1"},
      {"router.credit_delay", "1"},  // BookSim's credit loop, below
      {"router.vc_allocator", "islip"},
      {"router.alloc_iterations", "1"},
      {"router.vc_arbiter", "round_robin"},  // BookSim's vc_alloc_arb_type and sw_alloc_arb_type
      {"router.sw_arbiter", "round_robin"},
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

// BookSim 2's torus (kncube with its default use_noc_latency 1, dim_order
// routing): channels between routers take 2 cycles (flits and credits; the
// NICs' channels 1), a packet keeps one dateline class per dimension, ties go
// either way at random. A mesh's channels take 1 there, as icnsim's.
const std::vector<std::pair<std::string, std::string>>& booksim_torus_preset() {
  static const std::vector<std::pair<std::string, std::string>> p{
      {"network.channel_latency", "2"},
      {"router.dateline_classes", "whole_dimension"},
      {"router.torus_ties", "random"},
  };
  return p;
}

// network.leaves and network.capacities, with the packet fat tree's syntax
// and presets (models/fat_tree.hpp).
void read_fat_tree(Config& cfg, VcNetworkSpec& s) {
  const std::int64_t leaves = kLeaves.read(cfg);
  if ((leaves & (leaves - 1)) != 0) cfg.fail("network.leaves", "must be a power of two, 2..65536");
  while ((std::int64_t{1} << s.height) < leaves) ++s.height;
  const YAML::Node caps = kCapacities.read(cfg);
  if (caps.IsScalar() && (caps.Scalar() == "cbft" || caps.Scalar() == "ebft")) {
    s.capacities = capacity_preset(caps.Scalar(), s.height);
  } else if (caps.IsSequence()) {
    const auto list = cfg.integer_list(kCapacities.key, -(1ll << 40), 1ll << 40);  // capacity_list_problem says the rule
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

// The names of this network's links, for network.failed_links.
vc::VcLinkNames link_names(const VcNetworkSpec& s, const vc::VcTopology& topo) {
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
    names.router_of = [sides = s.sides](const std::vector<std::uint64_t>& x) -> std::optional<unsigned> {
      if (x.size() != sides.size()) return std::nullopt;
      std::uint64_t r = 0, stride = 1;
      for (std::size_t d = 0; d < x.size(); ++d) {
        if (x[d] >= sides[d]) return std::nullopt;
        r += x[d] * stride;
        stride *= sides[d];
      }
      return static_cast<unsigned>(r);
    };
  }
  names.router_name = [&topo](unsigned r) { return topo.router_name(r); };
  names.ports = [&topo](unsigned r) { return topo.ports(r); };
  names.port_name = [&topo](unsigned r, unsigned p) { return topo.port_name(r, p); };
  return names;
}

// network.failed_links: each name parsed once into a typed link address.
void read_failed_links(Config& cfg, VcNetworkSpec& s) {
  const YAML::Node failed = kFailedLinks.read(cfg);
  if (!failed.IsSequence()) cfg.fail("network.failed_links", "expected a list of link names like nic3.up or r3_3.x+");
  if (failed.size() == 0) return;
  const std::unique_ptr<vc::VcTopology> topo = s.make_topology();
  const vc::VcLinkNames names = link_names(s, *topo);
  s.failed_links = parse_link_names(cfg, kFailedLinks.key, failed,
                                    [&](const std::string& name) { return vc::parse_vc_link(name, names); },
                                    s.fattree ? "' is not a link of this network (nic<k>.up, r<l>_<j>.up, "
                                                "r<l>_<j>.down0|down1; with several links up<i>, down<s>_<i>)"
                                              : "' is not a link of this network (nic<k>.up, or r<coordinates>.<port> "
                                                "with port local|x+|x-|y+|y-|z+|z- (ibt: also b+|b-) where a link exists)");
}

// network.k and network.n of a mesh or torus (k may be a list of sides with
// traffic.collective).
void read_sides(Config& cfg, VcNetworkSpec& s, bool collective) {
  if (cfg.node(kK.key).IsSequence()) {
    if (!collective)
      cfg.fail("network.k", "a list of sides applies only with traffic.collective (the synthetic patterns need k^n); "
                            "give one k, 2..256");
    for (auto side : cfg.integer_list(kK.key, 2, 256)) s.sides.push_back(static_cast<unsigned>(side));
    if (s.sides.empty() || s.sides.size() > 3) cfg.fail("network.k", "a list of 1..3 sides, each 2..256");
    if (cfg.given("network.n") && kN.read(cfg) != static_cast<std::int64_t>(s.sides.size()))
      cfg.fail("network.n", "must equal the number of sides in network.k (" + std::to_string(s.sides.size()) + ")");
    s.k = s.sides[0];
    s.n = static_cast<unsigned>(s.sides.size());
  } else {
    s.k = static_cast<unsigned>(kK.read(cfg));
    s.n = static_cast<unsigned>(kN.read(cfg));
    s.sides.assign(s.n, s.k);
  }
}

// The router's keys.
void read_router(Config& cfg, VcNetworkSpec& s, unsigned max_ports) {
  auto& r = s.net.router;
  r.vcs = static_cast<unsigned>(kVcs.read(cfg));
  // The shared router's allocators take any number of requesters; its state
  // is bounded per router (vc::kMaxRouterInputVcs).
  if (max_ports * r.vcs > vc::kMaxRouterInputVcs)
    cfg.fail(s.fattree ? "network.capacities" : "router.vcs",
             "ports x vcs must be <= " + std::to_string(vc::kMaxRouterInputVcs) + " (largest router: " +
                 std::to_string(max_ports) + " ports, " + std::to_string(r.vcs) + " VCs)");
  r.buffer_depth = static_cast<unsigned>(kBufferDepth.read(cfg));
  s.adaptive = kRouting.read(cfg) == "adaptive";
  if (s.adaptive && (s.fattree || s.ibt || s.topology != TopologyKind::kMesh || s.n != 2))
    cfg.fail("router.routing", "adaptive (west-first) needs network.topology=mesh and network.n=2; use dor");
  s.dateline = (s.torus() || s.ibt) && kDateline.read(cfg);
  if (s.dateline && r.vcs < 2)
    cfg.fail("router.vcs", std::string(s.ibt ? "the iBT" : "the torus") + " with datelines needs at least 2 VCs (or router.dateline=false)");
  if (s.torus()) {
    s.torus_options.classes = kDatelineClasses.read(cfg) == "whole_dimension" ? vc::DatelineClasses::kWholeDimension
                                                                              : vc::DatelineClasses::kAfterCrossing;
    s.torus_options.random_ties = kTorusTies.read(cfg) == "random";
  }
}

// network.* and router.*: the network, whatever traffic it carries.
VcNetworkSpec read_network(Config& cfg, bool collective) {
  VcNetworkSpec s;
  const std::string topology = kTopology.read(cfg);
  s.topology = topology == "torus" ? TopologyKind::kTorus : TopologyKind::kMesh;
  s.fattree = topology == "fattree";
  s.ibt = topology == "ibt";
  double routers = 0;
  unsigned max_ports = 0;
  if (s.fattree) {
    read_fat_tree(cfg, s);
    routers = std::ldexp(1.0, static_cast<int>(s.height));  // nodes
    for (unsigned l = 1; l <= s.height; ++l)
      max_ports = std::max(max_ports, 2 * s.capacities[l - 1] + (l < s.height ? s.capacities[l] : 0));
    s.k = static_cast<unsigned>(routers);  // patterns see the leaves as one ring (tornado, neighbor)
    s.n = 1;
  } else {
    read_sides(cfg, s, collective);
    routers = 1;
    for (unsigned side : s.sides) routers *= side;
    if (routers > (1 << 20)) cfg.fail("network.k", "k^n must be at most 1048576 routers");
    max_ports = 2 * s.n + 1;
    if (s.ibt) read_vc_ibt(cfg, s, collective), max_ports += 2;  // the two bypass ports
  }
  s.nodes = static_cast<unsigned>(routers);
  s.net.link_latency = static_cast<unsigned>(kLinkLatency.read(cfg));
  s.net.channel_latency = static_cast<unsigned>(kChannelLatency.read(cfg));
  read_router(cfg, s, max_ports);
  read_failed_links(cfg, s);
  s.net.swap_ejection = parse_swap_ejection(cfg, static_cast<std::uint64_t>(routers));
  s.power = power::read_power(cfg);
  auto& r = s.net.router;
  r.routing_delay = static_cast<unsigned>(kRoutingDelay.read(cfg));
  r.vc_alloc_delay = static_cast<unsigned>(kVcAllocDelay.read(cfg));
  r.sw_alloc_delay = static_cast<unsigned>(kSwAllocDelay.read(cfg));
  r.st_delay = static_cast<unsigned>(kStDelay.read(cfg));
  s.net.credit_delay = static_cast<unsigned>(kCreditDelay.read(cfg));
  read_vc_allocators(cfg, r, max_ports);
  read_vc_rtl(cfg, s);
  return s;
}

std::unique_ptr<ExperimentSetup> configure(Config& cfg) {
  // traffic.collective: Sanders & Sibeyn's broadcast and reduction of single-port
  // processors over these routers (testbench/vc_collective_experiment.cpp),
  // instead of open-loop synthetic traffic.
  const bool collective = cfg.given("traffic.collective");
  cfg.declare(network_params());
  if (!collective) cfg.declare(vc_synthetic_params());
  if (kPreset.read(cfg) == "booksim") {
    // The torus's keys first: each fills only what is not given yet, so they
    // would win over the general preset's.
    if (kTopology.read(cfg) == "torus")
      for (const auto& [key, value] : booksim_torus_preset()) cfg.apply_preset(key, value);
    for (const auto& [key, value] : booksim_preset())
      if (!collective || (key.rfind("traffic.", 0) != 0 && key.rfind("measure.", 0) != 0))
        cfg.apply_preset(key, value);  // fills only what the scenario does not give
  }
  VcNetworkSpec network = read_network(cfg, collective);
  if (collective) return configure_vc_collective(cfg, network);
  return configure_vc_synthetic(cfg, std::move(network));
}

}  // namespace

std::unique_ptr<vc::VcTopology> VcNetworkSpec::make_topology() const {
  if (fattree) return std::make_unique<vc::FatTreeTopology>(height, capacities, net.router.vcs);
  if (ibt) return std::make_unique<vc::IbtVcTopology>(k, n, bypass, net.router.vcs, dateline);
  auto t = std::make_unique<vc::MeshTorusTopology>(topology, sides, net.router.vcs, dateline, adaptive);
  t->set_torus_options(torus_options);
  return t;
}

void VcNetworkSpec::fail_links(vc::VcNetwork& network) const {
  for (const auto& link : failed_links) {
    if (link.injection) network.fail_injection(link.node);
    else network.fail_router_output(link.router, link.port);
  }
}

nlohmann::ordered_json VcNetworkSpec::failed_links_json(const vc::VcNetwork& network) const {
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (const auto& link : failed_links)
    links.push_back(failed_link_json(link.name,
                                     link.injection ? network.failed_injection_requests(link.node)
                                                    : network.failed_output_requests(link.router, link.port),
                                     "packets"));
  return links;
}

NetworkKind vc_kind() {
  NetworkKind kind;
  kind.type = "vc";
  kind.summary = "input-queued virtual-channel wormhole router on a k-ary n-mesh, torus or fat tree: open-loop "
                 "synthetic traffic, or with traffic.collective Sanders & Sibeyn's pipelined broadcast and reduction";
  kind.params = [] {
    std::vector<ParamGroup> groups{
        {"network", network_params()}, {"power", power::power_params()}, {"traffic", vc_synthetic_params()}};
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

const RegisterFamily kVcRegistered{50, {vc_kind}, vc_demo};

}  // namespace
}  // namespace icn
