#include "testbench/hpam_experiment.hpp"

#include <cmath>
#include <memory>

#include <tlm_utils/simple_initiator_socket.h>

#include "models/params.hpp"
#include "models/wiring_fault.hpp"
#include "routers/hpam/hpam_geometry.hpp"
#include "routers/hpam/hpam_nic.hpp"
#include "routers/hpam/hpam_topology.hpp"
#include "routers/hpam/inter_level_combiner.hpp"
#include "routers/hpam/inter_level_replicator.hpp"
#include "routers/hpam/replicator_core.hpp"
#include "routers/vc/vc_network.hpp"
#include "testbench/collective_experiment.hpp"
#include "testbench/family.hpp"
#include "testbench/hpam_analytic.hpp"
#include "testbench/hpam_collectives.hpp"

namespace icn {

namespace {

using hpam::Algorithm;
using hpam::Collective;

const RawParam kLevels{"network.levels", "[[1,1],[4,4]]",
                       "[[r1,c1],[r2,c2]]: 2 levels, rows and columns powers of two, c1 <= c2",
                       "the processor mesh of each level, top (fast) level first"};
const BoolParam kReplication{"network.replication", false,
                             "the inter-level replication hardware (the paper's multicast support)"};
const ChoiceParam kReplicatorModel{"network.replicator_model", "behavioral", {"behavioral", "rtl"},
                                   "the replicator's model: the C++ one or the Verilated RTL", "network.replication=true"};
const ChoiceParam kReplicatorMode{"network.replicator_mode", "lockstep", {"lockstep", "buffered"},
                                  "lockstep: a flit advances when every branch has a credit; buffered: a FIFO per branch",
                                  "network.replication=true"};
const IntParam kReplicatorDepth{"network.replicator_depth", 4, 1, 1024, "flits per branch FIFO (buffered)", "", "",
                                "network.replication=true with network.replicator_mode=buffered"};
const RawParam kFlitBytes{"network.flit_bytes", "8", "1..4096 bytes, one value or a list with one per level",
                          "W_l: bytes per flit; a message of S bytes from level l is ceil(S/W_l) flits"};
const IntParam kLinkLatency{"network.link_latency", 1, 1, 64, "lambda: cycles for a flit to cross a link"};
const RealParam kLambdaUs{"network.lambda_us_per_byte", "0.01", 1e-6, 1e3,
                          "Lambda = lambda/W (Table 1): sets the clock, one cycle = Lambda W_1 / link_latency",
                          "1e-6..1e3 microseconds per byte"};
const IntParam kVcs{"router.vcs", 2, 1, 8, "virtual channels per input port"};
const IntParam kBufferDepth{"router.buffer_depth", 4, 1, 1024, "flits of buffer per VC"};
const IntParam kQ{"nic.q", 2, 1, 1024, "Q: level-l software costs are Q^(l-1) times level 1's (Table 1)"};
const RealParam kSendUs{"nic.c_send_us", "2", 0, 1e6, "C_send^1 = C_recv^1 in microseconds (Table 1)",
                        "0..1e6 microseconds"};
const RealParam kCopyUs{"nic.copy_us_per_byte", "0.01", 0, 1e3, "lambda'_1/W_1: copy cost per byte in level 1 (Table 1)",
                        "0..1e3 microseconds per byte"};
const ChoiceParam kSendProtocol{"nic.send_protocol", "eager", {"eager", "synchronous"},
                                "eager: a send ends when its tail has left the NIC; synchronous: when every "
                                "receiver's acknowledgement (a one-flit packet) has come back (the paper's eq. 5)"};
const RawParam kFailedLinks{"network.failed_links", "[]",
                            "list of links like nic3.up, l1_r0_0.down1, l2_r0_3.up, l2_r1_2.east, l2_r3_3.local",
                            "links that never carry a flit (fault injection; the watchdog names where traffic waits)"};

const ChoiceParam kCollective{"traffic.collective", "broadcast", {"broadcast", "scatter", "gather"}, "the collective"};
const ChoiceParam kAlgorithm{"traffic.algorithm", "hybrid", {"brute_force", "hybrid", "multicast"},
                             "brute_force: the source sends to every destination; hybrid: to sub-mesh roots, then "
                             "binary trees; multicast: through the replication hardware"};
const RawParam kSubmesh{"traffic.submesh", "best", "[p2,q2] powers of two dividing r2 x c2, or best",
                        "level-2 sub-mesh; best runs every shape in turn and reports the fastest",
                        "traffic.algorithm=hybrid or multicast"};
const IntParam kBytes{"traffic.message_bytes", 1024, 0, std::int64_t{1} << 30, "S: bytes at each final destination"};
const RawParam kSource{"traffic.source", "[0,0,1]", "[row,col,1]: a processor of level 1",
                       "the source of a broadcast or scatter, the sink of a gather"};
const ChoiceParam kDestinations{"traffic.destinations", "level2", {"level2", "all"},
                                "level2: the processors of level 2; all: of both levels"};
const ChoiceParam kFinalSizes{"traffic.final_sizes", "equal", {"equal", "scaled"},
                              "scatter/gather to all: level-1 pieces are S (equal) or Q S (scaled) bytes",
                              "a scatter or gather with traffic.destinations=all"};

struct HpamSetup : ExperimentSetup {
  std::vector<hpam::LevelShape> levels;
  vc::NetworkParams net;
  std::vector<unsigned> flit_bytes;  // per level
  double lambda_us = 0.01, send_us = 2, copy_us = 0.01;
  unsigned q = 2;
  hpam::CollectiveSpec spec;
  std::vector<std::pair<unsigned, unsigned>> shapes;  // one trial per shape
  bool best = false;
  bool replication = false;
  hpam::ReplicatorImpl replicator_impl = hpam::ReplicatorImpl::kBehavioral;
  hpam::ReplicatorMode replicator_mode = hpam::ReplicatorMode::kLockstep;
  unsigned replicator_depth = 4;
  bool synchronous = false;  // nic.send_protocol
  std::vector<vc::VcLinkAddress> failed_links;  // parsed once (HpamTopology::parse_link)
  double cycle_us() const { return lambda_us * flit_bytes[0] / net.link_latency; }
  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  ResourceEstimate estimate() const override;
  void estimate_work(ResourceEstimate& e) const;
  double trial_work(const hpam::HpamGeometry& geo, const hpam::CollectivePlan& plan) const;
  std::vector<std::string> waveform_side_files(const std::string& waveform_file) const override;
};

// Each Verilated replicator writes its own VCD beside the waveform: FILE.rtl.vcd
// becomes FILE.<replicator>.rtl.vcd (a device such as /dev/null stays as it is).
std::string replicator_waveform_file(const std::string& waveform_file, const std::string& replicator) {
  const std::string rtl = WaveformTracer::rtl_file_for(waveform_file), suffix = ".rtl.vcd";
  if (rtl.size() < suffix.size() || rtl.compare(rtl.size() - suffix.size(), suffix.size(), suffix) != 0) return rtl;
  return rtl.substr(0, rtl.size() - suffix.size()) + "." + replicator + suffix;
}

// A replicator is named after the router it hangs below: repl_l<L>_r<row>_<col>.
std::string replicator_name(const hpam::Position& router) { return "repl_" + hpam::HpamTopology::name_of(router); }

// One replicator hangs below every bottom-row router of every level but the
// last (HpamTopology::replicate_port).
std::vector<std::string> HpamSetup::waveform_side_files(const std::string& waveform_file) const {
  std::vector<std::string> files;
  if (!replication || replicator_impl != hpam::ReplicatorImpl::kRtl) return files;
  for (unsigned l = 0; l + 1 < levels.size(); ++l)
    for (unsigned c = 0; c < levels[l].cols; ++c)
      files.push_back(replicator_waveform_file(waveform_file, replicator_name({l, levels[l].rows - 1, c})));
  return files;
}

bool power_of_two(std::int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

std::vector<ParamSpec> network_params() {
  return {kLevels.spec(), kReplication.spec(), kReplicatorModel.spec(), kReplicatorMode.spec(),
          kReplicatorDepth.spec(), kFlitBytes.spec(), kLinkLatency.spec(), kLambdaUs.spec(), kVcs.spec(),
          kBufferDepth.spec(), kQ.spec(), kSendUs.spec(), kCopyUs.spec(), kSendProtocol.spec(),
          kFailedLinks.spec(), swap_ejection_param("processors (node numbers)")};
}
std::vector<ParamSpec> traffic_params() {
  return {kCollective.spec(), kAlgorithm.spec(), kSubmesh.spec(), kBytes.spec(),
          kSource.spec(), kDestinations.spec(), kFinalSizes.spec()};
}

std::int64_t as_int(const YAML::Node& n, bool& ok) {
  try {
    return n.as<std::int64_t>();
  } catch (...) {
    ok = false;
    return 0;
  }
}

// network.levels: two levels of processor meshes, checked against the geometry's rules.
void read_levels(Config& cfg, HpamSetup& s) {
  const YAML::Node lv = kLevels.read(cfg);
  const std::string levels_allowed = kLevels.allowed;
  if (!lv.IsSequence()) cfg.fail(kLevels.key, levels_allowed);
  for (const YAML::Node& l : lv) {
    bool ok = l.IsSequence() && l.size() == 2;
    const std::int64_t r = ok ? as_int(l[0], ok) : 0, c = ok ? as_int(l[1], ok) : 0;
    if (!ok || r < 1 || c < 1 || r > hpam::HpamGeometry::kMaxSide || c > hpam::HpamGeometry::kMaxSide)
      cfg.fail(kLevels.key, levels_allowed);
    s.levels.push_back({static_cast<unsigned>(r), static_cast<unsigned>(c)});
  }
  if (const std::string why = hpam::HpamGeometry::problem(s.levels); !why.empty()) cfg.fail(kLevels.key, why);
  if (s.levels.size() != 2)
    cfg.fail(kLevels.key, "the collectives (the paper's sections 3-5) run on two levels: give [[r1,c1],[r2,c2]]");
}

// network.replication and, with it, the replicator's model, mode and depth.
void read_replication(Config& cfg, HpamSetup& s) {
  s.replication = kReplication.read(cfg);
  if (!s.replication) return;
  if (kReplicatorModel.read(cfg) == "rtl") {
    if (!hpam::rtl_replicator_available())
      cfg.fail(kReplicatorModel.key, "rtl needs a build with the Verilated replicator (not in this build); use behavioral");
    s.replicator_impl = hpam::ReplicatorImpl::kRtl;
  }
  s.replicator_mode = kReplicatorMode.read(cfg) == "buffered" ? hpam::ReplicatorMode::kBuffered
                                                                : hpam::ReplicatorMode::kLockstep;
  if (s.replicator_mode == hpam::ReplicatorMode::kBuffered)
    s.replicator_depth = static_cast<unsigned>(kReplicatorDepth.read(cfg));
  const unsigned f = s.levels[1].cols / s.levels[0].cols;
  if (f > hpam::kMaxReplicatorBranches)
    cfg.fail(kReplication.key, "the replicator has at most " + std::to_string(hpam::kMaxReplicatorBranches) +
                                   " branches; this machine needs c2/c1 = " + std::to_string(f) +
                                   " (make c1 larger or c2 smaller)");
  if (s.replicator_impl == hpam::ReplicatorImpl::kRtl && f > hpam::rtl_replicator_branches())
    cfg.fail(kReplicatorModel.key, "the RTL replicator was verilated with " +
                                       std::to_string(hpam::rtl_replicator_branches()) +
                                       " branches; this machine needs c2/c1 = " + std::to_string(f) +
                                       " (use behavioral, or reconfigure with -DICNSIM_RTL_REPLICATOR_BRANCHES=" +
                                       std::to_string(f) + ")");
}

// network.flit_bytes: one width for every level, or one per level.
void read_flit_bytes(Config& cfg, HpamSetup& s) {
  const YAML::Node fb = kFlitBytes.read(cfg);
  const std::string fb_allowed = "1..4096 bytes, one value or a list of " + std::to_string(s.levels.size());
  if (fb.IsSequence()) {
    if (fb.size() != s.levels.size()) cfg.fail(kFlitBytes.key, fb_allowed);
    for (const YAML::Node& x : fb) {
      bool ok = true;
      const std::int64_t v = as_int(x, ok);
      if (!ok || v < 1 || v > 4096) cfg.fail(kFlitBytes.key, fb_allowed);
      s.flit_bytes.push_back(static_cast<unsigned>(v));
    }
  } else {
    bool ok = fb.IsScalar();
    const std::int64_t v = ok ? as_int(fb, ok) : 0;
    if (!ok || v < 1 || v > 4096) cfg.fail(kFlitBytes.key, fb_allowed);
    s.flit_bytes.assign(s.levels.size(), static_cast<unsigned>(v));
  }
}

// The shared VcRouter arbitrates over at most vc::kMaxRouterInputVcs input
// VCs: the bottom-row routers of level 1 have 5 + f (+1 up, +2 replication) ports.
void check_router_ports(Config& cfg, const HpamSetup& s) {
  const unsigned f = s.levels[1].cols / s.levels[0].cols;
  const unsigned ports = 5 + f + (s.replication ? 2u : 0u);
  const unsigned top = 5 + 1 + (s.replication ? 1u : 0u);
  const unsigned worst = std::max(ports, top);
  if (worst * s.net.router.vcs > vc::kMaxRouterInputVcs)
    cfg.fail(kLevels.key, "the inter-level routers would have " + std::to_string(worst) + " ports x " +
                              std::to_string(s.net.router.vcs) + " VCs; the VC router takes at most " +
                              std::to_string(vc::kMaxRouterInputVcs) + " (make c2/c1 smaller or router.vcs fewer)");
}

// network.failed_links: each name parsed once into a typed link address.
void read_failed_links(Config& cfg, HpamSetup& s) {
  const YAML::Node failed = kFailedLinks.read(cfg);
  if (!failed.IsSequence()) cfg.fail(kFailedLinks.key, "expected a list of link names like nic3.up or l2_r0_1.east");
  if (failed.size() == 0) return;
  const hpam::HpamGeometry geo(s.levels);
  const hpam::HpamTopology topo(geo, s.net.router.vcs, s.replication);
  for (const YAML::Node& item : failed) {
    const auto address = item.IsScalar() ? topo.parse_link(item.Scalar()) : std::nullopt;
    if (!address)
      cfg.fail(kFailedLinks.key, "'" + (item.IsScalar() ? item.Scalar() : std::string("?")) +
                                     "' is not a link of this network (nic<k>.up, or l<level>_r<row>_<col>.<port> "
                                     "with port local|east|west|south|north|up|down<b> where a link exists)");
    s.failed_links.push_back(*address);
  }
}

// The machine: its meshes, replication hardware, links, routers and software costs.
void read_network(Config& cfg, HpamSetup& s) {
  read_levels(cfg, s);
  read_replication(cfg, s);
  read_flit_bytes(cfg, s);
  s.net.link_latency = static_cast<unsigned>(kLinkLatency.read(cfg));
  s.lambda_us = kLambdaUs.read(cfg);
  s.net.router.vcs = static_cast<unsigned>(kVcs.read(cfg));
  s.net.router.buffer_depth = static_cast<unsigned>(kBufferDepth.read(cfg));
  check_router_ports(cfg, s);
  s.q = static_cast<unsigned>(kQ.read(cfg));
  s.send_us = kSendUs.read(cfg);
  s.copy_us = kCopyUs.read(cfg);
  s.synchronous = kSendProtocol.read(cfg) == "synchronous";
  read_failed_links(cfg, s);
  s.net.swap_ejection = parse_swap_ejection(cfg, hpam::HpamGeometry(s.levels).nodes());
}

// traffic.source: a processor of level 1, [row,col,1].
hpam::Position read_source(Config& cfg, const HpamSetup& s) {
  const YAML::Node src = kSource.read(cfg);
  bool ok = src.IsSequence() && src.size() == 3;
  const std::int64_t r = ok ? as_int(src[0], ok) : -1, c = ok ? as_int(src[1], ok) : -1, l = ok ? as_int(src[2], ok) : -1;
  const auto& top = s.levels[0];
  const std::string allowed = "[row,col,1] with row 0.." + std::to_string(top.rows - 1) + ", col 0.." +
                              std::to_string(top.cols - 1) + " (a level-1 processor)";
  if (!ok || l != 1 || r < 0 || c < 0 || r >= top.rows || c >= top.cols) cfg.fail(kSource.key, allowed);
  return {0, static_cast<unsigned>(r), static_cast<unsigned>(c)};
}

// traffic.submesh: the level-2 sub-mesh shape of the hybrid and multicast
// algorithms, or every shape in turn (best).
void read_submesh(Config& cfg, HpamSetup& s) {
  const Algorithm algorithm = s.spec.algorithm;
  if (algorithm == Algorithm::kBruteForce) {
    s.shapes = {{1, 1}};
    return;
  }
  const auto& low = s.levels[1];
  const YAML::Node sm = kSubmesh.read(cfg);
  const std::string allowed = "[p2,q2] with p2 a power of two dividing " + std::to_string(low.rows) +
                              " and q2 one dividing " + std::to_string(low.cols) + ", or best";
  if (sm.IsScalar() && sm.as<std::string>() == "best") {
    s.best = true;
    s.shapes = hpam::submesh_shapes(hpam::HpamGeometry(s.levels), algorithm);
    return;
  }
  bool ok = sm.IsSequence() && sm.size() == 2;
  const std::int64_t p = ok ? as_int(sm[0], ok) : 0, q = ok ? as_int(sm[1], ok) : 0;
  if (!ok || !power_of_two(p) || !power_of_two(q) || p > low.rows || q > low.cols) cfg.fail(kSubmesh.key, allowed);
  if (algorithm == Algorithm::kMulticast && q != 1)
    cfg.fail(kSubmesh.key, "multicast sub-meshes are one column wide: [p2,1] with p2 dividing " +
                               std::to_string(low.rows) + ", or best");
  s.shapes = {{static_cast<unsigned>(p), static_cast<unsigned>(q)}};
}

// The largest message, the source's to a whole sub-mesh (scatter, gather) or
// level, must fit the NIC's flit count.
void check_message_size(Config& cfg, HpamSetup& s) {
  const auto& sp = s.spec;
  const auto& top = s.levels[0];
  const auto& low = s.levels[1];
  std::uint64_t biggest = sp.piece_bytes;
  if (sp.collective != Collective::kBroadcast) {
    std::uint64_t region = 0;
    for (auto [p, q] : s.shapes) region = std::max<std::uint64_t>(region, std::uint64_t{p} * q);
    biggest = sp.piece_bytes * std::max<std::uint64_t>(region, top.rows * top.cols * (sp.scaled ? s.q : 1));
    // The relay's first message along the source's row: half of level 2 (and of level 1).
    if (top.rows * top.cols > 1 && sp.algorithm != Algorithm::kBruteForce) {
      const std::uint64_t half = std::uint64_t{low.rows} * low.cols / 2 +
                                 (sp.all_levels ? std::uint64_t{top.rows} * top.cols / 2 * (sp.scaled ? s.q : 1) : 0);
      biggest = std::max(biggest, sp.piece_bytes * half);
    }
  }
  const unsigned w_min = *std::min_element(s.flit_bytes.begin(), s.flit_bytes.end());
  if (biggest / w_min >= hpam::HpamNic::kMaxFlits)
    cfg.fail(kBytes.key, "a message of this collective would exceed 2^31 flits; make S or the sub-mesh smaller");
  s.net.max_packet_flits = static_cast<unsigned>(std::min<std::uint64_t>(hpam::HpamNic::kMaxFlits, 0xffffffffu));
}

// The collective, its algorithm, message size, source, destinations and sub-meshes.
void read_traffic(Config& cfg, HpamSetup& s) {
  auto& sp = s.spec;
  const std::string collective = kCollective.read(cfg);
  sp.collective = collective == "broadcast" ? Collective::kBroadcast
                  : collective == "scatter" ? Collective::kScatter : Collective::kGather;
  const std::string algorithm = kAlgorithm.read(cfg);
  sp.algorithm = algorithm == "brute_force" ? Algorithm::kBruteForce
                 : algorithm == "hybrid"    ? Algorithm::kHybrid : Algorithm::kMulticast;
  if (sp.algorithm == Algorithm::kMulticast && !s.replication)
    cfg.fail(kAlgorithm.key, "multicast needs the inter-level replication hardware (network.replication=true); "
                             "or use brute_force|hybrid");
  sp.piece_bytes = static_cast<std::uint64_t>(kBytes.read(cfg));
  sp.q = s.q;
  sp.source = read_source(cfg, s);
  sp.all_levels = kDestinations.read(cfg) == "all";
  if (sp.collective != Collective::kBroadcast && sp.all_levels) sp.scaled = kFinalSizes.read(cfg) == "scaled";
  read_submesh(cfg, s);
  check_message_size(cfg, s);
}

// Every key is declared up front: one that the configuration does not read
// is refused with its spec's applies condition.
std::unique_ptr<ExperimentSetup> configure(Config& cfg) {
  auto s = std::make_unique<HpamSetup>();
  cfg.declare(network_params());
  cfg.declare(traffic_params());
  read_network(cfg, *s);
  read_traffic(cfg, *s);
  return s;
}

ResourceEstimate HpamSetup::estimate() const {
  ResourceEstimate e;
  std::uint64_t nodes = 0;
  for (const auto& l : levels) nodes += std::uint64_t{l.rows} * l.cols;
  // VcRouter (5-7 ports, VC buffers), VcNic and HpamNic with their TLM
  // sockets, links: about 21 KB per node measured (4112 nodes: 88 MB).
  e.memory_bytes = static_cast<double>(nodes) * (20000.0 + 64.0 * net.router.vcs * net.router.buffer_depth);
  e.what = std::to_string(nodes) + " routers and NICs";
  estimate_work(e);
  return e;
}

// Links from a to b on the extended X-Y routes of a two-level machine
// (HpamGeometry::route, without walking them): within a level X then Y;
// down, X to the column above b's, Y to the bottom row, the link down, Y to
// b's row; up, X into the columns below b's, Y to the top row, the link up,
// Y to b's row. (Equal to HpamGeometry::hops for every pair of processors of
// [[1,1],[4,4]], [[4,4],[16,16]], [[2,2],[4,8]], [[2,4],[8,16]], [[1,1],[8,2]]
// and [[4,2],[4,8]], checked when it was written.)
std::uint64_t route_links(const hpam::HpamGeometry& geo, NodeId a, NodeId b) {
  const hpam::Position p = geo.position(a), q = geo.position(b);
  auto gap = [](unsigned x, unsigned y) { return x > y ? x - y : y - x; };
  if (p.level == q.level) return gap(p.row, q.row) + gap(p.col, q.col);
  const unsigned f = geo.fanout(1), top_rows = geo.level(0).rows;
  if (p.level < q.level) return gap(p.col, q.col / f) + (top_rows - 1 - p.row) + 1 + q.row;
  const unsigned first = q.col * f, last = first + f - 1;
  const unsigned x = p.col < first ? first - p.col : p.col > last ? p.col - last : 0;
  return x + p.row + 1 + (top_rows - 1 - q.row);
}

// What HpamSetup::estimate_work counts, per trial.
namespace work {

struct Arrival {
  NodeId src, dst;
  double flits, links;  // links: routers on the route
};

// Every message as it arrives, a replicated one at the same row of the f
// columns from its destination's on.
std::vector<Arrival> arrivals(const hpam::HpamGeometry& geo, const hpam::CollectivePlan& plan,
                              const std::vector<unsigned>& flit_bytes) {
  const unsigned f = geo.fanout(1);
  std::vector<Arrival> out;
  for (const auto& sends : plan.sends) {
    for (const hpam::PlannedMessage& m : sends) {
      const unsigned w = flit_bytes[geo.position(m.src).level];
      const double flits = static_cast<double>(std::max<std::uint64_t>(1, (m.bytes + w - 1) / w));
      const hpam::Position to = geo.position(m.dst);
      for (unsigned b = 0; b < (m.replicate ? f : 1); ++b) {
        const NodeId dst = geo.node({to.level, to.row, to.col + b});
        out.push_back({m.src, dst, flits, static_cast<double>(route_links(geo, m.src, dst)) + 1});
      }
    }
  }
  return out;
}

// Each processor's round in the program: 0 if it receives nothing, else
// one more than the latest round of the processors it receives from.
std::vector<unsigned> rounds(NodeId nodes, const std::vector<Arrival>& arrivals) {
  std::vector<unsigned> pending(nodes, 0), first(nodes + 1, 0), round(nodes, 0);
  for (const Arrival& a : arrivals) ++pending[a.dst], ++first[a.src + 1];
  for (NodeId n = 0; n < nodes; ++n) first[n + 1] += first[n];
  std::vector<std::size_t> by_src(arrivals.size());  // arrivals grouped by sender
  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < arrivals.size(); ++i) by_src[next[arrivals[i].src]++] = i;
  std::vector<NodeId> ready;
  for (NodeId n = 0; n < nodes; ++n)
    if (pending[n] == 0) ready.push_back(n);
  while (!ready.empty()) {
    const NodeId n = ready.back();
    ready.pop_back();
    for (std::size_t k = first[n]; k < first[n + 1]; ++k) {
      const NodeId d = arrivals[by_src[k]].dst;
      round[d] = std::max(round[d], round[n] + 1);
      if (--pending[d] == 0) ready.push_back(d);
    }
  }
  return round;
}

}  // namespace work

double HpamSetup::trial_work(const hpam::HpamGeometry& geo, const hpam::CollectivePlan& plan) const {
  std::vector<work::Arrival> arrivals = work::arrivals(geo, plan, flit_bytes);
  const std::vector<unsigned> round = work::rounds(geo.nodes(), arrivals);
  std::sort(arrivals.begin(), arrivals.end(), [&](const work::Arrival& a, const work::Arrival& b) {
    return a.dst != b.dst ? a.dst < b.dst : round[a.src] < round[b.src];
  });
  double total = 0;
  const double ack = synchronous ? 2 + 7 : 0;  // a one-flit acknowledgement back
  for (std::size_t i = 0; i < arrivals.size();) {
    // The arrivals at one processor from one round.
    double links = 0, flits = 0, longest = 0;
    std::size_t j = i;
    for (; j < arrivals.size() && arrivals[j].dst == arrivals[i].dst && round[arrivals[j].src] == round[arrivals[i].src];
         ++j) {
      total += arrivals[j].links * (2 * arrivals[j].flits + 7 + ack);
      links += arrivals[j].links;
      flits += arrivals[j].flits;
      longest = std::max(longest, arrivals[j].flits);
    }
    total += std::min(links, static_cast<double>(geo.nodes())) * (flits - longest);  // waiting for the ejection port
    i = j;
  }
  return total;
}

// Work: a message of F flits keeps each router on its route, and the NICs
// at its ends, busy for about 2 F + 7 evaluations (a flit, then its credit,
// and the router's pipeline; 1x1 over 4x4, S = 8, 64, 1024 bytes: 8, 26, 241
// per router and message). Messages that reach one processor in the same
// round of the program (sent by processors equally far from its start, as a
// gather's leaves or sub-mesh roots) wait for its ejection port one after
// the other, and while they wait every router holding their flits
// evaluates each cycle: the routers on all their routes (at most every
// router) are busy while the others' flits go in. A replicated message counts
// once per branch below the replicator, an acknowledgement as one flit. The
// processors' software costs pass without evaluations (a NIC sleeps until
// its software is done). Every trial is planned, as the run will plan it
// (about 35 ms for 65537 processors). Estimate / measured block evaluations
// over the shipped scenarios: 1.0 to 1.5; over 32 more (brute force, hybrid
// and multicast broadcast, scatter and gather on 1x1 over 8x8 to 32x32,
// 8x8 over 32x32, S = 8 to 8192 bytes, eager and synchronous): 0.84 to 2.9.
void HpamSetup::estimate_work(ResourceEstimate& e) const {
  const hpam::HpamGeometry geo(levels);
  for (const auto& [p2, q2] : shapes) {
    hpam::CollectiveSpec trial = spec;
    trial.p2 = p2;
    trial.q2 = q2;
    e.work += trial_work(geo, hpam::plan_collective(geo, trial));
  }
  e.work_why = std::to_string(shapes.size()) + " trial(s) on " + std::to_string(geo.nodes()) +
               " processors, counted as the routers on the planned messages' routes, each busy while their flits "
               "pass or wait";
}

// The processors of the machine, running one collective program per trial:
// a processor sends its planned messages (through its NIC's TLM socket) once
// it has received what the plan says it waits for, and checks every message.
// Routers and NICs are allocated in node order, so evaluating a cycle's
// blocks in address order sweeps memory sequentially: at 256x256 the model
// (1.2 GB) is far beyond the caches (docs/performance.md, "HPAM at 256x256").
CycleEngine::Options address_ordered(CycleEngine::Options options) {
  options.address_order = true;
  return options;
}

class HpamExperiment : public CollectiveExperiment, public Clocked, public DeliverySink {
 public:
  HpamExperiment(sc_core::sc_module_name name, const HpamSetup& setup, const RunContext& ctx)
      : CollectiveExperiment(name, address_ordered(ctx.engine)),
        Clocked(Phase::kProcessor),
        setup_(setup),
        seed_(ctx.seed),
        geo_(setup.levels),
        topo_(geo_, setup.net.router.vcs, setup.replication),
        network_("net", topo_, setup.net, CollectiveExperiment::engine_, pool_, ledger_) {
    if (setup.replication) build_replicators();
    for (const auto& link : setup.failed_links) {
      if (link.injection) network_.fail_injection(link.node);
      else network_.fail_router_output(link.router, link.port);
    }
    CollectiveExperiment::engine_.set_in_flight_probe([this] { return pool_.live(); });
    CollectiveExperiment::engine_.add(*this);
    const double cycle = setup.cycle_us();
    for (NodeId n = 0; n < geo_.nodes(); ++n) {
      const unsigned level = geo_.position(n).level;
      const double scale = std::pow(static_cast<double>(setup.q), level);
      hpam::NicCosts c;
      c.send_fixed = c.recv_fixed = static_cast<Cycle>(std::llround(setup.send_us * scale / cycle));
      c.copy_per_byte = setup.copy_us * scale / cycle;
      c.flit_bytes = setup.flit_bytes[level];
      nics_.push_back(std::make_unique<hpam::HpamNic>(("pnic" + std::to_string(n)).c_str(), n, c, network_.nic(n)));
      nics_.back()->set_sink(tap_);
      if (setup.synchronous)
        nics_.back()->set_synchronous([this](NodeId address) {
          // A replicated message reaches one processor in each column below the replicator.
          if ((address & hpam::HpamTopology::kReplicateBit) == 0) return 1u;
          return geo_.fanout(geo_.position(address & ~hpam::HpamTopology::kGroupBits).level);
        });
      cpu_.push_back(std::make_unique<tlm_utils::simple_initiator_socket<HpamExperiment>>(
          ("cpu" + std::to_string(n)).c_str()));
      cpu_.back()->bind(nics_.back()->socket);
      CollectiveExperiment::engine_.add(*nics_.back());
    }
    tap_.route_all(*this);
    if (ctx.tracer != nullptr) {
      network_.trace(*ctx.tracer, std::string(this->name()));
      // Each replicator beside the router it hangs from: <exp>.repl_<router>.*;
      // a Verilated one also dumps its ports and registers to a file of its
      // own, on the same clock (docs/rtl.md).
      const auto period_ps = static_cast<std::uint64_t>(ctx.engine.period.to_seconds() * 1e12 + 0.5);
      const CycleEngine* engine = &(CollectiveExperiment::engine_);
      for (const auto& rep : replicators_) {
        rep->trace(*ctx.tracer, std::string(this->name()) + "." + rep->basename());
        if (setup.replicator_impl != hpam::ReplicatorImpl::kRtl) continue;
        hpam::ReplicatorCore* core = &rep->core();
        core->trace_waveform(replicator_waveform_file(ctx.tracer->path(), rep->basename()),
                             [engine, period_ps] { return engine->now() * period_ps; }, period_ps);
        ctx.tracer->add_companion([core] { return core->finish_waveform(); });
      }
    }
    trials_.resize(setup.shapes.size());
    CollectiveExperiment::engine_.wake(*this, 1);
  }

  std::uint64_t routers() const override { return geo_.nodes(); }

  // A run stopped by the watchdog with traffic waiting on a failed link says
  // which link.
  std::string problem() const override {
    std::string why = CollectiveExperiment::problem();
    if (!why.empty() && !completed() && !setup_.failed_links.empty()) {
      const std::string where = network_.stuck_at_failed_link();
      if (!where.empty()) why += "; " + where;
    }
    return why;
  }

  Cycle tick(Cycle now) override {
    // Synchronous sends: the next trial starts once the last acknowledgements are in.
    const bool acks_out = setup_.synchronous && current_ >= 0 && trials_[current_].end != 0 && pool_.live() != 0;
    if (current_ < 0 || (trials_[current_].end != 0 && now > trials_[current_].end && !acks_out)) start_trial(now);
    // Processors whose plan was satisfied in an earlier cycle send now (a
    // delivery in this cycle is acted on in the next, whatever the order of
    // blocks within the phase).
    std::vector<std::pair<Cycle, NodeId>> later;
    for (const auto& [when, n] : ready_) {
      if (when < now) {
        for (const hpam::PlannedMessage& m : plan_.sends[n]) send(m);
      } else {
        later.push_back({when, n});
      }
    }
    ready_.swap(later);
    if (acks_out && static_cast<std::size_t>(current_) + 1 < trials_.size()) return now + 1;  // watch them drain
    return ready_.empty() ? kNever : now + 1;
  }
  std::string block_name() const override { return name(); }

  void deliver(const Delivery& d) override {
    Trial& t = trials_[current_];
    const hpam::MessageWord w = hpam::MessageWord::load(d.payload);
    // d.dst is the receiving NIC's own node; the plan, made before the run,
    // says what each processor is to receive.
    auto planned = [&](NodeId n) {
      auto& expect = plan_.receives[n];
      return std::find_if(expect.begin(), expect.end(), [&](const hpam::PlannedMessage& m) {
        return m.src == d.src && m.tag == w.tag && m.bytes == w.bytes;
      });
    };
    auto& expect = plan_.receives[d.dst];
    auto it = planned(d.dst);
    if (it == expect.end()) {
      if (t.problem.empty()) {
        const std::string at = hpam::HpamGeometry::name(geo_.position(d.dst));
        const std::string from = hpam::HpamGeometry::name(geo_.position(d.src));
        NodeId meant = kNoNode;  // the processor whose plan still waits for it
        for (NodeId n = 0; n < geo_.nodes() && meant == kNoNode; ++n)
          if (planned(n) != plan_.receives[n].end()) meant = n;
        t.problem = meant != kNoNode ? "message " + std::to_string(w.tag) + " from " + from + " (" +
                                           std::to_string(w.bytes) + " bytes) was meant for processor " +
                                           hpam::HpamGeometry::name(geo_.position(meant)) +
                                           " and received by processor " + at
                                     : "processor " + at + " received an unexpected or corrupted message from " + from;
      }
      return;
    }
    expect.erase(it);
    ++t.received;
    const Cycle now = CollectiveExperiment::engine_.now();
    if (++got_[d.dst] == plan_.waits[d.dst] && !plan_.sends[d.dst].empty()) {
      ready_.push_back({now, d.dst});
      CollectiveExperiment::engine_.wake(*this, now + 1);
    }
    if (t.received == plan_.messages) {
      t.end = now;
      if (static_cast<std::size_t>(current_) + 1 < trials_.size()) CollectiveExperiment::engine_.wake(*this, now + 1);
    }
  }

 protected:
  std::string receipts_problem() const override {
    for (std::size_t i = 0; i < trials_.size(); ++i) {
      const Trial& t = trials_[i];
      const std::string shape = shape_text(i);
      if (!t.problem.empty()) return "trial " + shape + ": " + t.problem;
      if (t.end == 0) return "trial " + shape + ": " + std::to_string(t.received) + " of " +
                             std::to_string(t.messages) + " messages received";
    }
    return "";
  }

  void write_result_fields(nlohmann::ordered_json& r) const override {
    const std::size_t b = best();
    const Trial& t = trials_[b];
    r["cycles"] = t.cycles();
    r["time_us"] = t.cycles() * setup_.cycle_us();
    r["submesh"] = {setup_.shapes[b].first, setup_.shapes[b].second};
    r["messages"] = t.messages;
    r["bytes"] = t.bytes;
  }

  void write_expected(nlohmann::ordered_json& r) const override {
    const std::size_t b = best();
    nlohmann::ordered_json e;
    const Expectation x = expectation(b);
    const auto a = x.us;
    e["equation"] = x.equation;
    e["analytic_us"] = a ? nlohmann::ordered_json(*a) : nlohmann::ordered_json(nullptr);
    e["observed_us"] = completed() ? nlohmann::ordered_json(trials_[b].cycles() * setup_.cycle_us())
                                   : nlohmann::ordered_json(nullptr);
    if (a && completed())
      e["difference_percent"] = 100.0 * (trials_[b].cycles() * setup_.cycle_us() - *a) / *a;
    else
      e["difference_percent"] = nullptr;
    if (!a) e["why_none"] = x.why_none;
    r["expected"] = e;
  }

  void write_sections(nlohmann::ordered_json& out) const override {
    nlohmann::ordered_json h;
    h["machine"] = topo_.describe();
    h["collective"] = hpam::to_string(setup_.spec.collective);
    h["algorithm"] = hpam::to_string(setup_.spec.algorithm);
    h["cycle_us"] = setup_.cycle_us();
    h["best_of"] = setup_.best ? "every sub-mesh shape" : "the given sub-mesh";
    nlohmann::ordered_json trials = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < trials_.size(); ++i) {
      const Trial& t = trials_[i];
      const auto a = analytic(i);
      trials.push_back({{"submesh", {setup_.shapes[i].first, setup_.shapes[i].second}},
                        {"cycles", t.end != 0 ? nlohmann::ordered_json(t.cycles()) : nlohmann::ordered_json(nullptr)},
                        {"time_us", t.end != 0 ? nlohmann::ordered_json(t.cycles() * setup_.cycle_us())
                                               : nlohmann::ordered_json(nullptr)},
                        {"analytic_us", a ? nlohmann::ordered_json(*a) : nlohmann::ordered_json(nullptr)}});
    }
    h["trials"] = trials;
    std::size_t max_send_wait = 0, max_recv_wait = 0;
    for (const auto& n : nics_) {
      max_send_wait = std::max(max_send_wait, n->max_send_wait());
      max_recv_wait = std::max(max_recv_wait, n->max_recv_wait());
    }
    h["max_messages_waiting_to_send"] = max_send_wait;
    h["max_messages_waiting_to_receive"] = max_recv_wait;
    if (setup_.synchronous) {
      std::uint64_t sent = 0, received = 0, awaited = 0;
      for (const auto& n : nics_) {
        sent += n->acks_sent();
        received += n->acks_received();
        awaited += n->acks_awaited();
      }
      h["acknowledgements"] = {{"sent", sent}, {"received", received}, {"still_awaited", awaited}};
    }
    if (setup_.replication) {
      std::uint64_t in = 0, out = 0, stalled = 0;
      unsigned occupancy = 0;
      for (const auto& r : replicators_) {
        in += r->flits_in();
        for (unsigned i = 0; i < r->branches(); ++i) out += r->flits_out(i);
        stalled += r->stalled_cycles();
        occupancy = std::max(occupancy, r->max_occupancy());
      }
      h["replication"] = {{"replicators", replicators_.size()},
                          {"mode", setup_.replicator_mode == hpam::ReplicatorMode::kLockstep ? "lockstep" : "buffered"},
                          {"model", setup_.replicator_impl == hpam::ReplicatorImpl::kRtl ? "rtl" : "behavioral"},
                          {"flits_in", in},
                          {"flits_out", out},
                          {"stalled_cycles", stalled},
                          {"max_branch_occupancy", occupancy}};
      std::uint64_t cin = 0, cout = 0, stored = 0, fin = 0, fout = 0;
      for (const auto& c : combiners_) {
        cin += c->messages_in();
        cout += c->messages_out();
        fin += c->flits_in();
        fout += c->flits_out();
        stored = std::max(stored, c->max_stored_flits());
      }
      h["combining"] = {{"messages_in", cin}, {"messages_out", cout}, {"flits_in", fin}, {"flits_out", fout},
                        {"max_stored_flits", stored}};
    }
    out["hpam"] = h;
    if (!setup_.failed_links.empty()) {
      std::vector<std::string> names;
      for (const auto& l : setup_.failed_links) names.push_back(l.name);
      out["faults"] = {{"failed_links", names}};
    }
  }

 public:
  // The table reads the reported (best) trial from the results: cycles and
  // time from `result`, the paper's time from `result.expected`.
  std::vector<Column> columns() const override {
    return {Column::text("machine", topo_.describe()),
            Column::text("collective", hpam::to_string(setup_.spec.collective)),
            Column::text("algorithm", hpam::to_string(setup_.spec.algorithm)),
            Column::text("S", std::to_string(setup_.spec.piece_bytes)),
            Column::text("Q", std::to_string(setup_.q)),
            {"submesh",
             [](const nlohmann::ordered_json& j) {
               const auto& s = j.at("result").at("submesh");
               return std::to_string(s.at(0).get<unsigned>()) + "x" + std::to_string(s.at(1).get<unsigned>());
             }},
            Column::integer("cycles", "/result/cycles"),
            Column::fixed("time us", "/result/time_us", 1),
            {"paper us",
             [](const nlohmann::ordered_json& j) {
               const auto& a = j.at("result").at("expected").at("analytic_us");
               return a.is_null() ? std::string("-") : Column::format_fixed(a.get<double>(), 1);
             }},
            Column::yes_no("verified", "/result/verified")};
  }

 private:
  struct Trial {
    Cycle start = 0, end = 0;
    std::size_t received = 0, messages = 0;
    std::uint64_t bytes = 0;
    std::string problem;
    Cycle cycles() const { return end >= start && end != 0 ? end - start + 1 : 0; }
  };

  void start_trial(Cycle now) {
    ++current_;
    Trial& t = trials_[current_];
    hpam::CollectiveSpec spec = setup_.spec;
    spec.p2 = setup_.shapes[current_].first;
    spec.q2 = setup_.shapes[current_].second;
    spec.seed = seed_ * 1000003u + static_cast<std::uint64_t>(current_);
    plan_ = hpam::plan_collective(geo_, spec);
    got_.assign(geo_.nodes(), 0);
    t.start = now;
    t.messages = plan_.messages;
    t.bytes = plan_.bytes;
    ready_.clear();
    for (NodeId n = 0; n < geo_.nodes(); ++n)
      if (plan_.waits[n] == 0 && !plan_.sends[n].empty()) ready_.push_back({now - 1, n});
  }

  // One InterLevelReplicator behind the replicate port of every bottom-row
  // router of level 1, its branches into the from_replicator ports below.
  void build_replicators() {
    const unsigned L = setup_.net.link_latency, LC = L + setup_.net.credit_delay;
    const unsigned depth = setup_.net.router.buffer_depth;
    for (NodeId n = 0; n < geo_.nodes(); ++n) network_.nic(n).accept_group_bits(hpam::HpamTopology::kGroupBits);
    for (unsigned r = 0; r < topo_.routers(); ++r) {
      const auto rp = topo_.replicate_port(r);
      if (!rp) continue;
      const hpam::Position at = geo_.position(r);
      const unsigned f = topo_.down_ports(r);
      auto core = hpam::make_replicator(setup_.replicator_impl, f, setup_.replicator_mode, setup_.replicator_depth);
      if (!core) throw std::logic_error("hpam: no RTL replicator in this build");
      replicators_.push_back(std::make_unique<hpam::InterLevelReplicator>(
          replicator_name(at).c_str(), std::move(core), geo_, at, setup_.net.router.vcs, depth, pool_,
          ledger_));
      hpam::InterLevelReplicator& rep = *replicators_.back();
      flit_links_.push_back(std::make_unique<vc::FlitLink>(1, L));
      flit_links_.back()->set_strict(true);
      credit_links_.push_back(std::make_unique<vc::CreditLink>(1, LC));
      vc::FlitLink* to_rep = flit_links_.back().get();
      vc::CreditLink* rep_credit = credit_links_.back().get();
      rep.connect_input(to_rep, rep_credit);
      // The combining unit: fed by the combine port, answering into the
      // replicate port's input side.
      combiners_.push_back(std::make_unique<hpam::InterLevelCombiner>(("comb_" + topo_.router_name(r)).c_str(), geo_,
                                                                      at, f, setup_.net.router.vcs, pool_, ledger_));
      hpam::InterLevelCombiner& comb = *combiners_.back();
      auto link_pair = [&] {
        flit_links_.push_back(std::make_unique<vc::FlitLink>(1, L));
        flit_links_.back()->set_strict(true);
        credit_links_.push_back(std::make_unique<vc::CreditLink>(1, LC));
      };
      link_pair();
      vc::FlitLink* to_comb = flit_links_.back().get();
      vc::CreditLink* comb_credit = credit_links_.back().get();
      link_pair();
      vc::FlitLink* from_comb = flit_links_.back().get();
      vc::CreditLink* from_comb_credit = credit_links_.back().get();
      network_.router(r).connect(*rp, from_comb, to_rep, rep_credit, from_comb_credit, depth);
      network_.router(r).connect(*topo_.combine_port(r), nullptr, to_comb, comb_credit, nullptr, depth);
      comb.connect_input(to_comb, comb_credit);
      comb.connect_output(from_comb, from_comb_credit, depth);
      CollectiveExperiment::engine_.add(comb);
      for (unsigned i = 0; i < f; ++i) {
        const unsigned b = geo_.node(geo_.below(at, i));
        flit_links_.push_back(std::make_unique<vc::FlitLink>(1, L));
        flit_links_.back()->set_strict(true);
        credit_links_.push_back(std::make_unique<vc::CreditLink>(1, LC));
        network_.router(b).connect(*topo_.from_replicator_port(b), flit_links_.back().get(), nullptr, nullptr,
                                   credit_links_.back().get(), depth);
        rep.connect_branch(i, flit_links_.back().get(), credit_links_.back().get(), depth);
      }
      CollectiveExperiment::engine_.add(rep);
    }
  }

  void send(const hpam::PlannedMessage& m) {
    unsigned char data[16];
    hpam::MessageWord{m.tag, m.bytes}.store(data);
    tlm::tlm_generic_payload trans;
    IcnExtension ext;
    trans.set_extension(&ext);
    const NodeId address = m.dst | (m.replicate ? hpam::HpamTopology::kReplicateBit : 0) |
                           (m.combine ? hpam::HpamTopology::kCombineBit : 0);
    prepare_message_write(trans, ext, address, data, 16, seq_++);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    (*cpu_[m.src])->b_transport(trans, delay);
    trans.clear_extension(&ext);
    if (trans.get_response_status() != tlm::TLM_OK_RESPONSE)
      throw std::logic_error("hpam: NIC " + std::to_string(m.src) + " refused a message");
  }

  std::size_t best() const {
    std::size_t b = 0;
    for (std::size_t i = 1; i < trials_.size(); ++i) {
      const bool ok = trials_[i].end != 0 && trials_[i].problem.empty();
      const bool best_ok = trials_[b].end != 0 && trials_[b].problem.empty();
      if ((ok && !best_ok) || (ok == best_ok && trials_[i].cycles() < trials_[b].cycles())) b = i;
    }
    return b;
  }
  std::string shape_text(std::size_t i) const {
    return std::to_string(setup_.shapes[i].first) + "x" + std::to_string(setup_.shapes[i].second);
  }
  // The paper's equation for trial i's program, evaluated from the
  // configuration: its name and value, or why the paper has none.
  struct Expectation {
    std::string equation = "none";
    std::optional<double> us;
    std::string why_none;
  };
  Expectation expectation(std::size_t i) const {
    Expectation x;
    hpam::PaperCosts k;
    k.c1_us = setup_.send_us;
    k.copy1_us = setup_.copy_us;
    k.lambda_us = setup_.lambda_us;
    k.q = setup_.q;
    const auto& top = setup_.levels[0];
    const auto& low = setup_.levels[1];
    const unsigned p2 = setup_.shapes[i].first, q2 = setup_.shapes[i].second;
    const bool bc = setup_.spec.collective == Collective::kBroadcast;
    const bool multicast = setup_.spec.algorithm == Algorithm::kMulticast;
    auto set = [&](const char* eq, double us) {
      x.equation = eq;
      x.us = us;
    };
    if (top.rows * top.cols == 1) {
      if (setup_.spec.all_levels) {
        x.why_none = "the paper gives no equation for destinations in both levels with one level-1 processor";
        return x;
      }
      hpam::PaperCase c{low.rows, low.cols, p2, q2, static_cast<double>(setup_.spec.piece_bytes)};
      if (multicast) set(bc ? "eq. (6)" : "eq. (11)", bc ? hpam::eq6_multicast_broadcast(k, c) : hpam::eq11_multicast_scatter(k, c));
      else set(bc ? "eq. (5)" : "eq. (10)", bc ? hpam::eq5_hybrid_broadcast(k, c) : hpam::eq10_hybrid_scatter(k, c));
      return x;
    }
    // Several level-1 processors: the relay programs of sections 3.2 and 4.2.
    if (setup_.spec.algorithm == Algorithm::kBruteForce) {
      x.why_none = "the paper gives no equation for the brute force with several level-1 processors";
      return x;
    }
    hpam::RelayCase c;
    c.r1 = top.rows;
    c.c1 = top.cols;
    c.r2 = low.rows;
    c.c2 = low.cols;
    c.p2 = p2;
    c.q2 = q2;
    c.source_row = setup_.spec.source.row;
    c.all_levels = setup_.spec.all_levels;
    c.s = static_cast<double>(setup_.spec.piece_bytes);
    if (bc && !multicast) {
      if (top.cols < 2 || low.cols < 2 || p2 != low.rows || q2 != low.cols / 2)
        x.why_none = "eq. (7) describes the two sub-meshes r2 x c2/2 fed by two level-1 processors of one row "
                     "(c1 >= 2); this shape or machine has no equation";
      else
        set("eq. (7)", hpam::eq7_relay_hybrid_broadcast(k, c));
    } else if (bc) {
      if (low.rows < 2 || p2 != low.rows / 2)
        x.why_none = "eq. (8) describes the sub-meshes r2/2 x 1; this shape has no equation";
      else
        set("eq. (8)", hpam::eq8_relay_multicast_broadcast(k, c));
    } else if (setup_.spec.all_levels) {
      x.why_none = "the paper gives no equation for a scatter or gather to both levels";
    } else if (multicast) {
      set("eq. (14)", hpam::eq14_relay_multicast_scatter(k, c));
    } else {
      set(q2 <= low.cols / top.cols ? "eq. (12)" : "eq. (13)", hpam::eq12_13_relay_hybrid_scatter(k, c));
    }
    return x;
  }
  std::optional<double> analytic(std::size_t i) const { return expectation(i).us; }

  const HpamSetup setup_;  // a copy: the setup may go before the experiment
  std::uint64_t seed_;
  hpam::HpamGeometry geo_;
  hpam::HpamTopology topo_;
  vc::VcNetwork network_;
  std::vector<std::unique_ptr<hpam::HpamNic>> nics_;
  std::vector<std::unique_ptr<hpam::InterLevelReplicator>> replicators_;
  std::vector<std::unique_ptr<hpam::InterLevelCombiner>> combiners_;
  std::vector<std::unique_ptr<vc::FlitLink>> flit_links_;      // replicator links
  std::vector<std::unique_ptr<vc::CreditLink>> credit_links_;
  // The processors' side of their NICs: one TLM-2.0 initiator socket each.
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<HpamExperiment>>> cpu_;
  std::vector<Trial> trials_;
  int current_ = -1;
  hpam::CollectivePlan plan_;
  std::vector<unsigned> got_;
  std::vector<std::pair<Cycle, NodeId>> ready_;  // (cycle its plan was satisfied, processor)
  std::uint32_t seq_ = 0;
};

std::unique_ptr<Experiment> HpamSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<HpamExperiment>(name.c_str(), *this, ctx);
}

}  // namespace

NetworkKind hpam_kind() {
  return {"hpam",
          "HPAM: multi-level processor meshes, extended X-Y routing, uni-port NICs, broadcast/scatter/gather "
          "(Ben Miled et al.)",
          [] { return std::vector<ParamGroup>{{"network", network_params()}, {"traffic", traffic_params()}}; },
          [](Config& cfg) { return configure(cfg); }};
}

}  // namespace icn

namespace icn {
namespace {

// Its section of the default table (`icnsim` with no arguments).
DemoRows hpam_demo() {
  DemoRows hpam{"HPAM: one processor over a 4x4 level-2 mesh, broadcast of 1 KiB, Q = 2 (Ben Miled et al.)",
                "testbench/scenarios/hpam_broadcast_multicast.yaml",
                {},
                "paper us: eqs. (5) and (6) for the same sub-mesh; the routers overlap what the equations serialise "
                "(docs/hpam.md)"};
  for (const char* algorithm : {"hybrid", "multicast"}) {
    const bool multicast = std::string(algorithm) == "multicast";
    hpam.cases.push_back({std::string("hpam4x4_") + algorithm,
                          {"network.type=hpam", "network.levels=[[1,1],[4,4]]", "nic.q=2",
                           "traffic.collective=broadcast", std::string("traffic.algorithm=") + algorithm,
                           "traffic.message_bytes=1024", multicast ? "traffic.submesh=[2,1]" : "traffic.submesh=[4,2]",
                           multicast ? "network.replication=true" : "network.replication=false"}});
  }
  return hpam;
}

const RegisterFamily kRegistered{60, {hpam_kind}, hpam_demo};

}  // namespace
}  // namespace icn
