// network.type=hpam: its keys and configure() (testbench/hpam_setup.hpp).
#include <algorithm>
#include <cmath>
#include <memory>

#include "models/params.hpp"
#include "models/wiring_fault.hpp"
#include "routers/hpam/hpam_nic.hpp"
#include "routers/hpam/hpam_topology.hpp"
#include "testbench/hpam_setup.hpp"
#include "testbench/link_names.hpp"

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
  s.failed_links = parse_link_names(cfg, kFailedLinks.key, failed,
                                    [&](const std::string& name) { return topo.parse_link(name); },
                                    "' is not a link of this network (nic<k>.up, or l<level>_r<row>_<col>.<port> "
                                    "with port local|east|west|south|north|up|down<b> where a link exists)");
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

}  // namespace

// The power model's keys; here power.flit_bits defaults to the flits the
// machine carries (network.flit_bytes) and power.link_mm is a tile of the floor plan.
std::vector<ParamSpec> hpam_power_params() {
  std::vector<ParamSpec> p = power::power_params();
  for (ParamSpec& s : p) {
    if (s.key == "power.flit_bits")
      s.help = "flit and link width priced, bits; not given: 8 x the widest level's network.flit_bytes (a flit "
               "crosses levels unchanged)";
    if (s.key == "power.link_mm")
      s.help = "floor plan: every row power.link_mm tall, the bottom level's tiles power.link_mm wide, level l's "
               "c_bottom / c_l times as wide; a link spans the Manhattan distance of its routers' tiles";
  }
  return p;
}

std::vector<ParamGroup> hpam_params() {
  return {{"network", network_params()}, {"power", hpam_power_params()}, {"traffic", traffic_params()}};
}

// Every key is declared up front: one that the configuration does not read
// is refused with its spec's applies condition.
std::unique_ptr<ExperimentSetup> configure_hpam(Config& cfg) {
  auto s = std::make_unique<HpamSetup>();
  cfg.declare(network_params());
  cfg.declare(traffic_params());
  read_network(cfg, *s);
  s->power = power::read_power(cfg);
  cfg.declare(hpam_power_params());
  s->power_flit_bits_given = cfg.given(power::kFlitBits.key);
  read_traffic(cfg, *s);
  return s;
}

std::string hpam_replicator_waveform_file(const std::string& waveform_file, const std::string& replicator) {
  const std::string rtl = WaveformTracer::rtl_file_for(waveform_file), suffix = ".rtl.vcd";
  if (rtl.size() < suffix.size() || rtl.compare(rtl.size() - suffix.size(), suffix.size(), suffix) != 0) return rtl;
  return rtl.substr(0, rtl.size() - suffix.size()) + "." + replicator + suffix;
}

std::string hpam_replicator_name(const hpam::Position& router) { return "repl_" + hpam::HpamTopology::name_of(router); }

// One replicator hangs below every bottom-row router of every level but the
// last (HpamTopology::replicate_port).
std::vector<std::string> HpamSetup::waveform_side_files(const std::string& waveform_file) const {
  std::vector<std::string> files;
  if (!replication || replicator_impl != hpam::ReplicatorImpl::kRtl) return files;
  for (unsigned l = 0; l + 1 < levels.size(); ++l)
    for (unsigned c = 0; c < levels[l].cols; ++c)
      files.push_back(hpam_replicator_waveform_file(waveform_file, hpam_replicator_name({l, levels[l].rows - 1, c})));
  return files;
}

}  // namespace icn
