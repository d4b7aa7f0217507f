// The bit-serial fat tree's keys (network.type=fattree_bitserial), their
// reading into a BitSerialSetup (fattree_bitserial_setup.hpp), and the
// resource guard's estimate of memory and work.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "models/fat_tree.hpp"
#include "models/link_address.hpp"
#include "models/params.hpp"
#include "routers/fattree_bitserial/bit_serial_fat_tree.hpp"
#include "routers/fattree_bitserial/load_factor.hpp"
#include "testbench/fattree_bitserial_setup.hpp"
#include "testbench/link_names.hpp"
#ifdef ICNSIM_HAVE_RTL
#include "routers/fattree_bitserial/rtl_route_stream_generator.hpp"
#endif

namespace icn {

namespace {

using bitserial::Arbitration;
using bitserial::BufferFill;
using bitserial::SyncScheme;

constexpr std::int64_t kMaxProcessors = 65536;

// Every key is declared once, with its range: the spec that `icnsim list`
// and docs/keys.md show is the one that validates (models/params.hpp).
// Lists and keys with a union type stay raw specs, checked below.
const IntParam kProcessors{"network.processors", 16, 2, kMaxProcessors, "processors n at the leaves", "a power of two"};
const RawParam kCapacities{"network.capacities", "doubling",
                           "constant|doubling|cbft|ebft|[c1,...,c_log n], non-decreasing, >= 1",
                           "paths per direction of the channel between levels l-1 and l: constant = all 1 (cbft), "
                           "doubling = 2^(l-1) (ebft)"};
const ChoiceParam kArbitration{"network.arbitration", "random", {"random", "trunk_priority"},
                               "concentrator switches: uniformly random grants, or streams from the trunk first"};
const ChoiceParam kBufferFill{"network.buffer_fill", "zero", {"zero", "turn_bit"},
                              "value of buffering bits (ignored by switches): all 0, or the last repeats the turning bit "
                              "(figures 6-8)",
                              "network.sync_scheme=midstream"};
const ChoiceParam kSyncScheme{"network.sync_scheme", "midstream", {"midstream", "prefix", "flush", "store"},
                              "Ishii 2.1's answer to synchronisation: buffering bits mid-stream (2.1.4), at the front "
                              "without flushing (2.1.3, fails), flushing turning streams for trunk ones (2.1.1), or "
                              "storing them in the switches (2.1.2)"};
const RawParam kFailedLinks{"network.failed_links", "[]",
                            "list of channels like nic3.up, s2_1.down0, s1_0.up, or one of those + .ack",
                            "cut wires (fault injection): every path of the channel (or of its acknowledge wire) carries "
                            "nothing; streams on it are lost and retried; if no message gets through for "
                            "run.watchdog_cycles the run stops, naming where streams vanish"};
const RawParam kStuckBits{"network.stuck_bits", "[]",
                          "list of CHANNEL.p<k>:0|1, CHANNEL as in network.failed_links, k < its capacity",
                          "stuck-at faults (fault injection): every bit driven on path k of the channel (or of its "
                          "acknowledge wire) arrives as the stuck value; misrouted, lost or corrupted messages end the "
                          "run unverified"};

const ChoiceParam kGenerator{"nic.generator", "behavioral", {"behavioral", "rtl"},
                             "routing-bit stream generator in every NIC: the behavioural C++ model, or the Verilated RTL "
                             "of rtl/route_stream (co-simulated; the results are identical)"};

const ChoiceParam kPattern{"traffic.pattern", "permutation", {"permutation", "random", "all_to_one", "pairs"},
                           "the message set M"};
// The range the tree allows is checked once the capacities are known.
const RealParam kLoadFactor{"traffic.load_factor", "2", 1e-9, 1e12,
                            "random: keep random pairs while every channel stays at load <= floor(X cap(c))",
                            "a number with 1/c_1 <= X <= the tree's largest possible load factor",
                            "traffic.pattern=random"};
const IntParam kRoot{"traffic.root", 0, 0, kMaxProcessors - 1, "all_to_one: the processor every other one sends to", "",
                     "0..n-1", "traffic.pattern=all_to_one"};
const RawParam kPairs{"traffic.pairs", "[]", "a list of [source, destination] pairs, 0..n-1, source != destination",
                      "pairs: the message set; a pair listed k times is k messages", "traffic.pattern=pairs"};

std::vector<ParamSpec> network_params() {
  return {kProcessors.spec(),  kCapacities.spec(), kArbitration.spec(),
          kBufferFill.spec(),  kSyncScheme.spec(), kFailedLinks.spec(), kStuckBits.spec(),
          swap_ejection_param("processors")};
}

std::vector<ParamSpec> nic_params() { return {kGenerator.spec()}; }

std::vector<ParamSpec> traffic_params() { return {kPattern.spec(), kLoadFactor.spec(), kRoot.spec(), kPairs.spec()}; }

// network.capacities: a preset or a list, one per level.
void read_capacities(Config& cfg, BitSerialSetup& s) {
  const YAML::Node caps = kCapacities.read(cfg);
  const std::vector<std::string> presets{"constant", "doubling", "cbft", "ebft"};
  if (caps.IsScalar() && std::find(presets.begin(), presets.end(), caps.Scalar()) != presets.end()) {
    const bool constant = caps.Scalar() == "constant" || caps.Scalar() == "cbft";
    s.capacities = capacity_preset(constant ? "cbft" : "ebft", s.height);
    s.capacity_label = constant ? "constant" : "doubling";
  } else if (caps.IsSequence()) {
    const auto list = cfg.integer_list(kCapacities.key, -(1ll << 40), 1ll << 40);  // capacity_list_problem says the rule
    const std::string problem = capacity_list_problem(list, s.height);
    if (!problem.empty()) cfg.fail(kCapacities.key, problem);
    for (auto c : list) s.capacities.push_back(static_cast<unsigned>(c));
    s.capacity_label = "[";
    for (std::size_t i = 0; i < list.size(); ++i) s.capacity_label += (i ? "," : "") + std::to_string(list[i]);
    s.capacity_label += "]";
  } else {
    cfg.fail(kCapacities.key,
             "expected constant, doubling, cbft, ebft or a list [c1,...,c_log n] of non-decreasing integers >= 1");
  }
}

// network.failed_links: channel names, kept in their canonical spelling.
void read_failed_links(Config& cfg, BitSerialSetup& s) {
  const YAML::Node failed = kFailedLinks.read(cfg);
  if (!failed.IsSequence()) cfg.fail(kFailedLinks.key, "expected a list of channel names like nic3.up or s2_1.down0.ack");
  const auto links = parse_link_names(
      cfg, kFailedLinks.key, failed, [&](const std::string& name) { return parse_fat_tree_link(name, s.height, true, 's'); },
      "' is not a channel of this tree (nic<k>.up, s<l>_<j>.up|down0|down1, optionally + .ack)");
  for (const auto& address : links) s.failed_links.push_back(address.name());
}

// network.stuck_bits: CHANNEL.p<k>:0|1, each path of a channel at most once.
void read_stuck_bits(Config& cfg, BitSerialSetup& s) {
  const YAML::Node stuck = kStuckBits.read(cfg);
  const std::string stuck_form = "expected a list like [nic3.up.p0:1, s2_1.down0.p1:0] (CHANNEL.p<k>:0|1, CHANNEL as in "
                                 "network.failed_links, k < the channel's capacity)";
  if (!stuck.IsSequence()) cfg.fail(kStuckBits.key, stuck_form);
  for (const auto& item : stuck) {
    const std::string text = item.IsScalar() ? item.Scalar() : std::string("?");
    const std::size_t colon = text.rfind(':'), dot = text.rfind(".p");
    std::optional<FatTreeLinkAddress> address;
    std::optional<std::uint64_t> path;
    const bool value_ok = colon != std::string::npos && colon + 2 == text.size() && (text.back() == '0' || text.back() == '1');
    if (value_ok && dot != std::string::npos && dot < colon) {
      address = parse_fat_tree_link(std::string_view(text).substr(0, dot), s.height, true, 's');
      path = parse_index(std::string_view(text).substr(dot + 2, colon - dot - 2), 1u << 30);
    }
    if (!address || !path) cfg.fail(kStuckBits.key, "'" + text + "': " + stuck_form);
    // The channel's branch: nic<k>.up is level 1; s<l>_<j>.up level l + 1; s<l>_<j>.down<s> level l.
    const unsigned level = address->from == FatTreeLinkAddress::From::kNic ? 1 : address->level + (address->up ? 1 : 0);
    const unsigned capacity = s.capacities[level - 1];
    if (*path >= capacity) {
      cfg.fail(kStuckBits.key, "'" + text + "': " + address->name() + " has " + std::to_string(capacity) +
                                   " path(s), p0..p" + std::to_string(capacity - 1));
    }
    for (const auto& b : s.stuck_bits)
      if (b.channel == address->name() && b.path == *path)
        cfg.fail(kStuckBits.key, "'" + text + "': path p" + std::to_string(*path) + " of " + b.channel + " is listed twice");
    s.stuck_bits.push_back({address->name(), static_cast<unsigned>(*path), text.back() == '1'});
  }
}

// The tree: its size, capacities, switches and faults.
void read_network(Config& cfg, BitSerialSetup& s) {
  const std::int64_t n = kProcessors.read(cfg);
  if ((n & (n - 1)) != 0) cfg.fail(kProcessors.key, "must be a power of two, 2..65536");
  while ((std::int64_t{1} << s.height) < n) ++s.height;
  read_capacities(cfg, s);
  s.arbitration = kArbitration.read(cfg) == "random" ? Arbitration::kRandom : Arbitration::kTrunkPriority;
  const std::string scheme = kSyncScheme.read(cfg);
  for (const auto sc : {SyncScheme::kMidstream, SyncScheme::kPrefix, SyncScheme::kFlush, SyncScheme::kStore})
    if (scheme == bitserial::to_string(sc)) s.scheme = sc;
  // Only mid-stream buffering bits have a value of their own: prefix bits are
  // idle 0s, and flush and store streams carry none.
  if (s.scheme == SyncScheme::kMidstream)
    s.fill = kBufferFill.read(cfg) == "zero" ? BufferFill::kZero : BufferFill::kTurnBit;
  read_failed_links(cfg, s);
  read_stuck_bits(cfg, s);
  s.swap = parse_swap_ejection(cfg, std::uint64_t{1} << s.height);
}

// nic.generator: the RTL only where this build has it, for trees it was verilated for.
void read_generator(Config& cfg, BitSerialSetup& s) {
  s.rtl_generator = kGenerator.read(cfg) == "rtl";
  if (s.rtl_generator && s.scheme != SyncScheme::kMidstream)
    cfg.fail(kGenerator.key, "the RTL generator makes mid-stream-buffered streams: it needs network.sync_scheme=midstream");
#ifdef ICNSIM_HAVE_RTL
  if (s.rtl_generator && s.height > bitserial::RtlRouteStreamGenerator::max_height()) {
    cfg.fail(kGenerator.key, "the RTL generator was verilated for trees of up to 2^" +
                                 std::to_string(bitserial::RtlRouteStreamGenerator::max_height()) + " processors");
  }
#else
  if (s.rtl_generator) cfg.fail(kGenerator.key, "this build has no RTL (configure with -DICNSIM_RTL=ON; needs verilator)");
#endif
}

// traffic.pairs: each [source, destination] pair; a pair may repeat.
void read_pairs(Config& cfg, BitSerialSetup& s) {
  const std::int64_t n = std::int64_t{1} << s.height;
  const YAML::Node list = kPairs.read(cfg);
  const std::string form = "expected a list of [source, destination] pairs with 0 <= source, destination < " +
                           std::to_string(n) + " and source != destination";
  if (!list.IsSequence() || list.size() == 0) cfg.fail(kPairs.key, form + " (at least one)");
  std::map<std::pair<NodeId, NodeId>, std::uint32_t> repeats;
  for (const auto& item : list) {
    std::int64_t v[2];
    bool ok = item.IsSequence() && item.size() == 2;
    for (std::size_t i = 0; ok && i < 2; ++i) {
      ok = item[i].IsScalar() && parse_decimal_integer(item[i].Scalar(), v[i]);
      ok = ok && v[i] >= 0 && v[i] < n;
    }
    ok = ok && v[0] != v[1];
    if (!ok) cfg.fail(kPairs.key, form);
    const SourceDestination p{static_cast<NodeId>(v[0]), static_cast<NodeId>(v[1])};
    if (++repeats[{p.src, p.dst}] > (1u << 16))
      cfg.fail(kPairs.key, "a pair may be listed at most 65536 times (16-bit sequence numbers)");
    s.pairs.push_back(p);
  }
  s.traffic_label = "pairs (" + std::to_string(s.pairs.size()) + ")";
}

// The message set M; each pattern reads only its own keys (the others are
// refused by their specs' applies conditions).
void read_traffic(Config& cfg, BitSerialSetup& s) {
  s.pattern = kPattern.read(cfg);
  if (s.pattern == "random") {
    const double x = kLoadFactor.read(cfg);
    const double lo = 1.0 / s.capacities[0];
    const double hi = max_load_factor(FatTreeShape(s.height, s.capacities));
    if (x < lo - 1e-12 || x > hi + 1e-9) {
      cfg.fail(kLoadFactor.key, "impossible on this tree: allowed " + format_number(lo) + " (1/c_1) .. " +
                                    format_number(hi) + " (the load factor of all n(n-1) pairs)");
    }
    s.load_factor_target = x;
    s.traffic_label = "random X=" + format_number(x);
  } else if (s.pattern == "all_to_one") {
    s.root = static_cast<NodeId>(kRoot.read(cfg, 0, (std::int64_t{1} << s.height) - 1));
    s.traffic_label = "all_to_one " + std::to_string(s.root);
  } else if (s.pattern == "pairs") {
    read_pairs(cfg, s);
  } else {
    s.traffic_label = "permutation";
  }
}

}  // namespace

std::vector<ParamGroup> bitserial_params() {
  return {{"network", network_params()}, {"nic", nic_params()}, {"power", BitSerialPower::params()},
          {"traffic", traffic_params()}};
}

std::unique_ptr<ExperimentSetup> configure_bitserial(Config& cfg) {
  auto setup = std::make_unique<BitSerialSetup>();
  cfg.declare(network_params());
  cfg.declare(nic_params());
  cfg.declare(traffic_params());
  read_network(cfg, *setup);
  read_generator(cfg, *setup);
  read_traffic(cfg, *setup);
  setup->power = BitSerialPower::read(cfg);
  return setup;
}

// The resource guard's estimate. Calibrated with /usr/bin/time -v peak RSS
// (release build): about 16 KB per processor (doubling capacities: 1024
// processors 23 MB, 4096 processors 67 MB; constant 4096: 85 MB), 200
// bytes per path (32 processors with 8192 paths per channel: 109 MB) and
// 150 bytes per message (1024 processors, doubling, random X = 16: 16383
// messages, 34 MB; X = 128: 131059 messages, 49 MB).
ResourceEstimate BitSerialSetup::estimate() const {
  ResourceEstimate e;
  const double n = std::ldexp(1.0, static_cast<int>(height));
  double paths = 0;
  for (unsigned l = 1; l <= height; ++l) paths += n / std::ldexp(1.0, static_cast<int>(l) - 1) * capacities[l - 1];
  // Messages: a random set at load factor X puts at most X c_1 on each of
  // the n leaf channels (and there are only n(n-1) pairs).
  double messages = n;
  if (pattern == "pairs") messages = static_cast<double>(pairs.size());
  if (pattern == "random") messages = std::min(n * (n - 1), n * load_factor_target * capacities[0]);
  e.memory_bytes = 10e6 + n * 16e3 + 200 * paths + 150 * messages;
  e.what = std::to_string(static_cast<std::uint64_t>(n)) + " processors, " +
           std::to_string(static_cast<std::uint64_t>(paths)) + " paths, " +
           std::to_string(static_cast<std::uint64_t>(messages)) + " messages";
  const double sent = pattern == "all_to_one" ? n - 1 : messages;
  std::string why;
  const double delivery_cycles = delivery_cycles_estimate(why);  // for both: the pairs' load factor is not cheap
  estimate_work(e, sent, delivery_cycles, why);
  estimate_trace(e, sent, delivery_cycles);
  return e;
}

// The waveform's traffic (outputs.max_trace_bytes), counted in stream bits
// on paths: every delivered message drives its stream, about one delivery
// cycle long, over 2 l paths (up to its turning level l and down again);
// every attempt the switches deny drives it a few paths before it is cut.
// A message delivered in delivery cycle k was denied k - 1 times; with
// deliveries spread over D cycles that is (D - 1) / 2 each (but random
// sets, below). A denied stream
// is cut at the first full channel: low in the tree (2 paths counted), and
// for all_to_one where the senders below an up channel outnumber its paths
// or else at the destination's own channels.
// About 2 bytes of value changes per stream bit (the bit wire toggles every
// other clock, valid and ack at the ends). Estimate / written VCD: 0.88 to
// 1.46 over 13 runs (permutations, random sets, all_to_one and pairs on 8 to
// 256 processors, constant, doubling and mixed capacities).
void BitSerialSetup::estimate_trace(ResourceEstimate& e, double messages, double delivery_cycles_estimated) const {
  const double n = std::ldexp(1.0, static_cast<int>(height));
  // Mean turning level: a uniformly chosen other processor shares its
  // level-l subtree (and no lower one) with 2^(l-1) of the n - 1.
  double turn = 0;
  if (pattern == "pairs" && !pairs.empty()) {
    for (const auto& p : pairs)
      for (NodeId d = p.src ^ p.dst; d != 0; d >>= 1) turn += 1;  // the highest differing bit's level
    turn /= static_cast<double>(pairs.size());
  } else {
    for (unsigned l = 1; l <= height; ++l) turn += l * std::ldexp(1.0, static_cast<int>(l) - 1) / (n - 1);
  }
  const double delivery_cycles = std::max(1.0, delivery_cycles_estimated);
  const double length = static_cast<double>(bitserial::BitSerialFatTree::delivery_cycle_length(height));
  // Random sets: most channels carry far less than the busiest, so most
  // messages go in the first delivery cycle; about half a denial per
  // message measured (0.45 at load factors 2 and 4).
  const double denied = pattern == "random" ? messages / 2 : messages * (delivery_cycles - 1) / 2;
  double denied_paths = 2;
  if (pattern == "all_to_one") {
    // The 2^(l-1) senders below a level-l up channel share its c_l paths:
    // a stream is cut at the first level where they do not fit, else at
    // the destination's own channels (all but the last path).
    denied_paths = std::max(1.0, 2 * turn - 1);
    for (unsigned l = 2; l <= height; ++l) {
      if (std::ldexp(1.0, static_cast<int>(l) - 1) > capacities[l - 1]) {
        denied_paths = l;
        break;
      }
    }
  }
  e.trace.cycles = delivery_cycles * length;
  double crossings = messages * 2 * turn;
  if (pattern == "random") {
    // A random set at load factor X puts at most X c_l messages on each
    // level-l channel, up and down: on narrow trees that bounds the
    // crossings well below uniform destinations' (most messages stay low).
    double bound = 0;
    for (unsigned l = 1; l <= height; ++l)
      bound += 2 * load_factor_target * capacities[l - 1] * n / std::ldexp(1.0, static_cast<int>(l) - 1);
    crossings = std::min(crossings, bound);
  }
  e.trace.transfers = length * (crossings + denied * denied_paths);
  e.trace.bytes_per_transfer = 2;
  e.trace.why = std::to_string(static_cast<std::uint64_t>(e.trace.transfers)) + " stream bits on paths";
}

// Delivery cycles the greedy scheme takes, estimated from the load factor
// lambda(FT, M), the lower bound (Ishii, section 4.2). Measured (delivery
// cycles / lambda): a permutation 1.0 (doubling) to 1.5 (constant, 16 to
// 1024 processors); all_to_one 1.0; random at load factor X 2.1 to 3.1.
double BitSerialSetup::delivery_cycles_estimate(std::string& why) const {
  const double n = std::ldexp(1.0, static_cast<int>(height));
  if (pattern == "random") {
    why = "about 3.5 X for random traffic at load factor X = " + format_number(load_factor_target);
    return std::max(1.0, 3.5 * load_factor_target);
  }
  if (pattern == "all_to_one") {
    why = "the n - 1 messages into processor " + std::to_string(root) + " through its channel of capacity " +
          std::to_string(capacities[0]);
    return std::ceil((n - 1) / capacities[0]);
  }
  if (pattern == "pairs") {
    const LoadFactor load = load_factor(FatTreeShape(height, capacities), pairs);
    why = "about 2 lambda for the listed pairs' load factor lambda = " + format_number(load.value());
    return 2 * std::max(1.0, std::ceil(load.value()));
  }
  // A permutation: of the 2^(l-1) processors below a level-l channel, all but
  // a fraction 2^(l-1) / n send across it.
  double lambda = 1;
  for (unsigned l = 1; l <= height; ++l) {
    const double below = std::ldexp(1.0, static_cast<int>(l) - 1);
    lambda = std::max(lambda, below * (n - below) / (n - 1) / capacities[l - 1]);
  }
  why = "about 1.5 lambda for a permutation's expected load factor lambda = " + format_number(lambda);
  return 1.5 * lambda;
}

// Work: in every clock of a delivery cycle the switches and NICs that carry
// streams evaluate: a fraction of the n - 1 switches and n NICs that
// measured 0.39 to 0.93 (0.6 counted), and with few messages about two
// blocks per message still to deliver, on average half of them (so one per
// message); the processors evaluate rarely. Estimate / measured block
// evaluations: the shipped scenarios 1.17 (8_waveform), 1.40
// (constant256_permutation), 1.39 (doubling64_random); permutations,
// random sets, all_to_one and pairs on 16 to 1024 processors: 0.83 to 1.62.
void BitSerialSetup::estimate_work(ResourceEstimate& e, double messages, double delivery_cycles,
                                   const std::string& why) const {
  const double n = std::ldexp(1.0, static_cast<int>(height));
  const double length = static_cast<double>(bitserial::BitSerialFatTree::delivery_cycle_length(height));
  const double active = std::min(0.6 * (2 * n - 1), messages);
  e.work = active * length * delivery_cycles;
  e.work_why = "about " + std::to_string(static_cast<std::uint64_t>(std::ceil(active))) + " of the " +
               std::to_string(static_cast<std::uint64_t>(2 * n - 1)) + " switches and NICs busy over " +
               std::to_string(static_cast<std::uint64_t>(std::ceil(delivery_cycles))) + " delivery cycles of " +
               std::to_string(static_cast<std::uint64_t>(length)) + " clocks (" + why + ")";
}

}  // namespace icn
