// The torus and iBT keys (network.type=torus|ibt), their reading into an
// IbtSetup (ibt_setup.hpp), and the resource guard's estimate of memory and
// work.
#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "models/link_address.hpp"
#include "models/params.hpp"
#include "routers/ibt/ibt_topology.hpp"
#include "testbench/ibt_broadcast.hpp"
#include "testbench/ibt_setup.hpp"
#include "testbench/link_names.hpp"

namespace icn {

namespace {

constexpr unsigned kMaxTrials = 256;
constexpr std::int64_t kMaxPackets = 4096;
constexpr std::int64_t kMaxPattern = 15;  // rRLl: four bits

// Every key is declared once, with its range: the spec that `icnsim list`
// and docs/keys.md show is the one that validates (models/params.hpp). Keys
// with a union type (a number, a list or a word) stay raw specs, read below
// with the ranges the other keys give them.
const std::string kNodesHelp = "nodes per dimension";
const IntParam kNTorus{"network.n", 8, 1, std::int64_t{1} << 22, kNodesHelp, "", "3.."};
const IntParam kNIbt{"network.n", 16, 1, std::int64_t{1} << 22, kNodesHelp, "", "3..; d*k must divide n"};
const IntParam kD{"network.d", 2, 1, IbtTopology::kMaxDims, "dimensions"};
const RawParam kBypass{"network.bypass", "[4]", "[b_1,...,b_k]: each 1..n-1, a multiple of d*k, 2*b_j != 0 mod n",
                       "bypass lengths b = <b_1..b_k>"};
const ChoiceParam kForwardOrder{
    "network.forward_order", "directional", {"directional", "pattern", "arrival"},
    "what a port of a router other than the source sends first: directional = + ports lowest packet, "
    "- ports highest; pattern = the source's rRLl pattern at every node; arrival = first come first sent"};
const RawParam kFailedLinks{"network.failed_links", "[]", "list of <node id>.<port>, e.g. 5.x+ or 12.b-",
                            "links that never transmit (fault injection; the watchdog reports the stall)"};

const std::string kBroadcasts = "traffic.collective other than none";
const ChoiceParam kCollective{"traffic.collective", "line_broadcast", ibt_collective_names(),
                              "broadcast along a line, over a rectangle, to all nodes, or none (topology metrics only)"};
const IntParam kPackets{"traffic.packets", 32, 1, kMaxPackets, "k: packets in the broadcast message", "", "", kBroadcasts};
const RawParam kSource{"traffic.source", "0", "a node id, or a list of d coordinates", "the broadcasting node s",
                       kBroadcasts};
const IntParam kDimension{"traffic.dimension", 1, 1, IbtTopology::kMaxDims, "line_broadcast: the dimension of the line",
                          "", "1..d", "traffic.collective=line_broadcast"};
const RawParam kDimensions{"traffic.dimensions", "[1,2]", "two distinct dimensions 1..d",
                           "rect_broadcast: the rectangle's dimensions (the first is colour 1's first line)",
                           "traffic.collective=rect_broadcast"};
const RawParam kPattern{"traffic.pattern", "3",
                        "0.." + std::to_string(kMaxPattern) + ", a list with one per colour, best or favourable",
                        "packet-sending pattern rRLl of the source's links (bit 3 r, 2 R, 1 L, 0 l; 1 = reverse order); "
                        "best tries 0..7 (line) or 1,3,5,7 (colours), favourable tries 1,3,5,7, and both report the "
                        "fastest",
                        kBroadcasts};
const RawParam kSplit{"traffic.split", "even", "even, or a list of packets per colour summing to k",
                      "how the k packets are shared among the colours", kBroadcasts};
const IntParam kSplitTolerance{"traffic.split_tolerance", 0, 0, kMaxPackets,
                               "with split=even: try every split whose parts differ by at most d_k and report the "
                               "fastest",
                               "", "0..k", "traffic.split=even"};

std::vector<ParamSpec> network_params(bool ibt) {
  std::vector<ParamSpec> p{(ibt ? kNIbt : kNTorus).spec(), kD.spec()};
  if (ibt) p.push_back(kBypass.spec());
  p.push_back(kForwardOrder.spec());
  p.push_back(kFailedLinks.spec());
  p.push_back(swap_ejection_param("node ids"));
  return p;
}

std::vector<ParamSpec> traffic_params() {
  return {kCollective.spec(), kPackets.spec(),  kSource.spec(), kDimension.spec(),
          kDimensions.spec(), kPattern.spec(), kSplit.spec(),  kSplitTolerance.spec()};
}

ibt::ForwardOrder order_from_name(const std::string& s) {
  if (s == "pattern") return ibt::ForwardOrder::kPattern;
  if (s == "arrival") return ibt::ForwardOrder::kArrival;
  return ibt::ForwardOrder::kDirectional;
}

std::optional<NodePortAddress> parse_link(const std::string& name, const IbtTopology& topo) {
  return parse_node_port_link(name, topo.nodes(), topo.ports(), [&](unsigned q) { return topo.port_name(q); });
}

// network.n, network.d and (iBT) network.bypass, checked together.
void read_shape(Config& cfg, IbtSetup& s) {
  const std::int64_t d = kD.read(cfg);
  const std::int64_t n = (s.ibt ? kNIbt : kNTorus).read(cfg);
  std::vector<std::int64_t> bypass;
  if (s.ibt) {
    kBypass.read(cfg);
    bypass = cfg.integer_list(kBypass.key, -(1ll << 40), 1ll << 40);  // any integers; check() names the rule broken
    if (bypass.empty()) cfg.fail(kBypass.key, "an iBT needs at least one bypass length (a torus is network.type=torus)");
    std::set<std::int64_t> lengths;
    for (auto b : bypass)
      if (!lengths.insert(b).second)
        cfg.fail(kBypass.key, "length " + std::to_string(b) + " is listed twice; give each bypass length once");
  } else {
    cfg.declare_unused(kBypass.key, "a torus has no bypass links (use network.type=ibt)");
  }
  const IbtTopology::Problem problem = IbtTopology::check(n, d, bypass);
  if (!problem.why.empty()) cfg.fail(problem.key, problem.why);
  s.n = static_cast<unsigned>(n);
  s.d = static_cast<unsigned>(d);
  for (auto b : bypass) s.bypass.push_back(static_cast<unsigned>(b));
}

// network.failed_links: each name parsed once into a node and port.
void read_failed_links(Config& cfg, const IbtTopology& topo, IbtSetup& s) {
  const YAML::Node failed = kFailedLinks.read(cfg);
  if (!failed.IsSequence()) cfg.fail(kFailedLinks.key, "expected a list like [5.x+, 12.b-]");
  s.failed_links = parse_link_names(cfg, kFailedLinks.key, failed,
                                    [&](const std::string& name) { return parse_link(name, topo); },
                                    "' is not a link of this network (<node id 0..N-1>.<port " + topo.port_name(0) +
                                        ".." + topo.port_name(topo.ports() - 1) + ">)");
}

// traffic.source: a node id or d coordinates.
NodeId read_source(Config& cfg, const IbtTopology& topo) {
  const YAML::Node source = kSource.read(cfg);
  if (source.IsScalar())
    return static_cast<NodeId>(cfg.integer(kSource.key, 0, static_cast<std::int64_t>(topo.nodes()) - 1));
  if (!source.IsSequence()) cfg.fail(kSource.key, "expected a node id or a list of d coordinates");
  const auto coords = cfg.integer_list(kSource.key, 0, static_cast<std::int64_t>(topo.n()) - 1);
  if (coords.size() != topo.d())
    cfg.fail(kSource.key, "needs exactly d = " + std::to_string(topo.d()) + " coordinates, each 0..n-1");
  return topo.node(std::vector<unsigned>(coords.begin(), coords.end()));
}

// traffic.dimension or traffic.dimensions: the dimensions the broadcast covers.
std::vector<unsigned> read_dims(Config& cfg, IbtCollective collective, unsigned d) {
  if (collective == IbtCollective::kLine) return {static_cast<unsigned>(kDimension.read(cfg, 1, d) - 1)};
  if (collective == IbtCollective::kRectangle) {
    if (d < 2) cfg.fail(kCollective.key, "rect_broadcast needs d >= 2");
    kDimensions.read(cfg);
    const auto dims = cfg.integer_list(kDimensions.key, 1, d);
    if (dims.size() != 2 || dims[0] == dims[1])
      cfg.fail(kDimensions.key, "expected two distinct dimensions 1..d, e.g. [1,2]");
    return {static_cast<unsigned>(dims[0] - 1), static_cast<unsigned>(dims[1] - 1)};
  }
  std::vector<unsigned> all;
  for (unsigned i = 0; i < d; ++i) all.push_back(i);
  return all;
}

// traffic.pattern: one number for every colour, one per colour, or the paper's favourable set.
std::vector<std::vector<unsigned>> read_patterns(Config& cfg, unsigned colours) {
  std::vector<std::vector<unsigned>> options;
  const YAML::Node pattern = kPattern.read(cfg);
  if (pattern.IsScalar() && (pattern.Scalar() == "best" || pattern.Scalar() == "favourable")) {
    std::vector<unsigned> candidates{1, 3, 5, 7};  // sections 4.2 and 5.1: "Int(pn) in {1,3,5,7}"
    if (colours == 1 && pattern.Scalar() == "best") candidates = {0, 1, 2, 3, 4, 5, 6, 7};  // Table 1: min over 0..7
    for (unsigned pn : candidates) options.push_back(std::vector<unsigned>(colours, pn));
  } else if (pattern.IsScalar()) {
    const auto pn = static_cast<unsigned>(cfg.integer(kPattern.key, 0, kMaxPattern));
    options.push_back(std::vector<unsigned>(colours, pn));
  } else if (pattern.IsSequence()) {
    const auto list = cfg.integer_list(kPattern.key, 0, kMaxPattern);
    if (list.size() != colours)
      cfg.fail(kPattern.key, "needs one pattern per colour (" + std::to_string(colours) + " colours here)");
    options.push_back(std::vector<unsigned>(list.begin(), list.end()));
  } else {
    cfg.fail(kPattern.key, "expected 0..15, a list of patterns per colour, best or favourable");
  }
  return options;
}

// traffic.split and traffic.split_tolerance: how the k packets are shared among the colours.
std::vector<std::vector<unsigned>> read_splits(Config& cfg, unsigned packets, unsigned colours) {
  std::vector<std::vector<unsigned>> options;
  const YAML::Node split = kSplit.read(cfg);
  const auto tolerance = static_cast<unsigned>(kSplitTolerance.read(cfg, 0, packets));
  if (split.IsScalar() && split.Scalar() == "even") {
    if (tolerance == 0) options.push_back(even_split(packets, colours));
    else options = splits_within(packets, colours, tolerance, kMaxTrials);
  } else if (split.IsSequence()) {
    if (tolerance != 0) cfg.fail(kSplitTolerance.key, "only applies with traffic.split=even");
    const auto list = cfg.integer_list(kSplit.key, 0, packets);
    std::int64_t sum = 0;
    for (auto v : list) sum += v;
    if (list.size() != colours || sum != packets)
      cfg.fail(kSplit.key, "needs " + std::to_string(colours) + " numbers (one per colour) summing to k = " +
                               std::to_string(packets));
    options.push_back(std::vector<unsigned>(list.begin(), list.end()));
  } else {
    cfg.fail(kSplit.key, "expected even or a list of packets per colour");
  }
  return options;
}

// The broadcast: its source, dimensions and colours, and the (pattern,
// split) trials to run.
void read_broadcast(Config& cfg, const IbtTopology& topo, IbtSetup& s) {
  IbtBroadcastPlan& plan = s.base;
  plan.packets = static_cast<unsigned>(kPackets.read(cfg));
  plan.source = read_source(cfg, topo);
  const bool directed_colours = !s.ibt && s.collective != IbtCollective::kLine;
  plan.scheme = directed_colours ? ibt::ColourScheme::kDirectedTorus : ibt::ColourScheme::kDimensionOrdered;
  plan.dims = read_dims(cfg, s.collective, s.d);
  const unsigned colours = colours_for(plan.scheme, static_cast<unsigned>(plan.dims.size()));
  s.pattern_options = read_patterns(cfg, colours);
  s.split_options = read_splits(cfg, plan.packets, colours);
  const std::size_t trials = s.pattern_options.size() * s.split_options.size();
  if (trials > kMaxTrials) {
    const bool counted = s.split_options.size() <= kMaxTrials;  // splits_within stops past the limit
    cfg.fail(kSplitTolerance.key, (counted ? "" : "over ") + std::to_string(trials) +
                                      " pattern/split combinations to try; at most " + std::to_string(kMaxTrials));
  }
}

}  // namespace

std::vector<ParamGroup> ibt_params(bool ibt) {
  return {{"network", network_params(ibt)}, {"power", power::power_params()}, {"traffic", traffic_params()}};
}

std::unique_ptr<ExperimentSetup> configure_ibt(Config& cfg, bool ibt) {
  auto setup = std::make_unique<IbtSetup>();
  setup->ibt = ibt;
  cfg.declare(network_params(ibt));
  cfg.declare(traffic_params());
  read_shape(cfg, *setup);
  const IbtTopology topo(setup->n, setup->d, setup->bypass);
  setup->ports = topo.ports();
  setup->order = order_from_name(kForwardOrder.read(cfg));
  read_failed_links(cfg, topo, *setup);
  setup->swap = parse_swap_ejection(cfg, topo.nodes());
  setup->power = power::read_power(cfg);

  setup->collective = ibt_collective_from_name(kCollective.read(cfg));
  setup->base.collective = setup->collective;
  if (setup->collective == IbtCollective::kNone) {
    for (const auto& s : traffic_params())
      if (s.key != kCollective.key) cfg.declare_unused(s.key, "traffic.collective=none only computes the topology metrics");
    return setup;
  }
  read_broadcast(cfg, topo, *setup);
  return setup;
}

// The resource guard's estimate: every (pattern, split) trial is a whole
// network. Calibrated with /usr/bin/time peak RSS (release build, session
// 39, routers in one array): a router takes about 280 + 127 bytes per port
// + 1.7 bytes per packet of k (slopes between two sizes: Torus(n^2), n =
// 300, 500: 788 bytes a router; Torus(n^3), n = 40, 60: 1022; Torus(n^4),
// n = 12, 16: 1295; Torus(20^3) k = 256: 1390; iBT(n^2; <8,24>), n = 96,
// 192, five trials: 1085). The estimate adds a margin of about 10 %, and
// past k = 64 the packet sets' extra words (stored, two per port, two of
// holdings: W = ceil(k/64) words each); Torus(100^3) takes 0.97 GiB
// (docs/performance.md).
ResourceEstimate IbtSetup::estimate() const {
  ResourceEstimate e;
  const double nodes = std::pow(static_cast<double>(n), static_cast<double>(d));
  const double trials = collective == IbtCollective::kNone
                            ? 0.0
                            : static_cast<double>(pattern_options.size() * split_options.size());
  const double extra_words = std::ceil(base.packets / 64.0) - 1.0;
  const double router = 300.0 + 130.0 * ports + 2.0 * base.packets + (3.0 + 2.0 * ports) * 8.0 * extra_words;
  e.memory_bytes = 10e6 + 16 * nodes + trials * nodes * router;
  e.what = std::to_string(static_cast<std::uint64_t>(trials)) + " network(s) of " +
           std::to_string(static_cast<std::uint64_t>(nodes)) + " routers with " + std::to_string(ports) + " ports";
  if (collective != IbtCollective::kNone) estimate_work(e);
  return e;
}

// Work: only the routers of the broadcast group evaluate, each while it
// forwards its colours' packets. The packets of the colours reach a router
// on one link per dimension and direction, one a cycle, so a router is busy
// for about (largest colour's share) x colours / (2 dims) cycles, plus the
// spread of the colours' arrival times, up to half the source's distance to
// its farthest group member (one breadth-first search), and never more than
// k cycles (a packet a cycle). Estimate / measured block evaluations:
// Torus(12^3) global k = 1, 4, 32, 256, 1024: 2.0, 1.4, 0.88, 0.93, 0.98;
// Torus(32^2) global k = 1, 32, 256: 2.0, 0.97, 0.86; Torus(40^3) global:
// 1.2; iBT(64^2; <8,24>) line k = 1, 32, 1024: 1.6, 1.1, 1.0; iBT(64^2;
// <6>) rect k = 1, 32, 256: 1.5, 1.1, 1.0; iBT(256^2; <8,32>) global: 1.25.
void IbtSetup::estimate_work(ResourceEstimate& e) const {
  const IbtTopology topo(n, d, bypass);
  const std::vector<std::uint32_t> distance = bfs_distances(topo, base.source);
  std::uint32_t reach = 0;  // the source's distance to its farthest group member
  for (NodeId x = 0; x < topo.nodes(); ++x)
    if (base.in_group(topo, x)) reach = std::max(reach, distance[x]);
  const double group = static_cast<double>(base.group_size(topo));
  const double k = base.packets, dims = static_cast<double>(base.dims.size());
  double busy_sum = 0, busy_max = 0;
  for (const auto& split : split_options) {
    const double largest = *std::max_element(split.begin(), split.end());
    const double busy = std::min(k, largest * static_cast<double>(split.size()) / (2 * dims) + reach / 2.0) + 1;
    busy_sum += busy;
    busy_max = std::max(busy_max, busy);
  }
  const double trials = static_cast<double>(pattern_options.size() * split_options.size());
  e.work = static_cast<double>(pattern_options.size()) * group * busy_sum;
  // The waveform shows the first trial's routers, the group's first
  // (ibt_experiment.cpp, at most kMaxTracedRouters): each receives each of
  // the k packets about once, and each arrival writes the sender's port
  // bus (packet, colour, source, hops, valid) and the receiver's queue and
  // holdings: about 22 bytes, plus a part per router whatever k (measured
  // on Torus(12^3) at k = 4 and 32: about 12 arrivals' worth).
  // docs/waveforms/README.md has estimate / written.
  const auto& first = split_options.front();
  const double first_busy =
      std::min(k, *std::max_element(first.begin(), first.end()) * static_cast<double>(first.size()) / (2 * dims)) + 1;
  const double traced = std::min(group, static_cast<double>(kMaxTracedRouters));
  e.trace.cycles = reach + first_busy;
  e.trace.transfers = traced * (k + 12);
  e.trace.bytes_per_transfer = 22;
  e.trace.why = std::to_string(static_cast<std::uint64_t>(e.trace.transfers)) + " packet arrivals at " +
                std::to_string(static_cast<std::uint64_t>(traced)) + " traced routers";
  e.work_why = std::to_string(static_cast<std::uint64_t>(trials)) + " trial(s) of " +
               std::to_string(static_cast<std::uint64_t>(group)) + " broadcasting routers, each busy up to " +
               std::to_string(static_cast<std::uint64_t>(busy_max)) + " cycles (k = " + std::to_string(base.packets) +
               ", the farthest " + std::to_string(reach) + " hops from the source)";
}

}  // namespace icn
