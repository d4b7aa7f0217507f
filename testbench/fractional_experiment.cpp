#include "testbench/fractional_experiment.hpp"

#include "testbench/collective_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "models/ledger.hpp"
#include "models/rng.hpp"
#include "models/wiring_fault.hpp"
#include "nics/single_port_nic.hpp"
#include "routers/crossbar/crossbar.hpp"
#include "routers/vc/vc_single_port_fabric.hpp"
#include "testbench/family.hpp"
#include "testbench/fractional_pe.hpp"
#include "testbench/reduction_oracle.hpp"
#include "testbench/fractional_tree.hpp"
#include "testbench/fractional_embedding.hpp"

namespace icn {

namespace {

using namespace frac;

constexpr std::int64_t kMaxProcessors = 1 << 16;
constexpr std::int64_t kMaxPackets = 1 << 20;
constexpr std::int64_t kMaxUnits = 1ll << 40;
constexpr std::uint64_t kMaxTransfers = 1ull << 31;  // packet transfers in one run (time and memory)
// The search's largest group: up to P (a group of P is nearly the chain) on
// small machines; 32 beyond 1024 PUs (each PE holds 2r packets).
unsigned tune_group_max(std::uint32_t processors) { return processors <= 1024 ? std::min(processors, 128u) : 32u; }
constexpr std::uint32_t kTunePacketsMax = 4096;

ParamSpec failed_links_param(bool hier) {
  return {"network.failed_links", "[]",
          hier ? "list of links like pe3.in, pe3.out, up1.0, down2.1" : "list of links like pe3.in, pe3.out",
          "cut links (fault injection): pe<x>.in from processor x, pe<x>.out to it" +
              std::string(hier ? ", up<m>.<j>/down<m>.<j> module m's j-th channel to/from the global crossbar" : "") +
              "; traffic needing a cut link stalls and the watchdog names where it waits"};
}

std::vector<ParamSpec> network_params(bool hier) {
  if (!hier)
    return {{"network.processors", "16", "2..65536", "P: processors, each with one port on the crossbar"},
            failed_links_param(false), swap_ejection_param("processors")};
  return {
      {"network.modules", "4", "1..4096", "a: module crossbars"},
      {"network.module_size", "8", "1..65536", "b: processors per module (P = a b <= 65536)"},
      {"network.inter_module_channels", "2", "1..b", "channels from each module to the global crossbar (each direction)"},
      failed_links_param(true),
      swap_ejection_param("processors"),
  };
}

std::vector<ParamSpec> traffic_params() {
  return {
      {"traffic.collective", "broadcast", "broadcast|reduction", "broadcast from the root, or reduction to it"},
      {"traffic.algorithm", "fractional", "chain|binary|fractional", "communication pattern"},
      {"traffic.group", "2", "1..P, or auto (fractional only)", "r: PUs per group of the fractional tree"},
      {"traffic.packets", "8", "1..1048576 (a multiple of r), or auto", "s: packets per message"},
      {"traffic.message_units", "64", "1..2^40, at least s", "k: message length in units (one unit per cycle per link)"},
      {"traffic.root", "0", "0..P-1", "the broadcasting (or reducing) PU"},
      {"traffic.operator", "sum", "sum|max|matrix", "reduction operator (matrix: 2x2 product mod 65521, not commutative)",
       "traffic.collective=reduction"},
      {"traffic.tuning", "exhaustive", "exhaustive|fast|paper", "how auto chooses r and s (the others are reported beside)",
       "traffic.packets=auto"},
      {"traffic.embedding", "rank_order", "rank_order|modules (hier_crossbar, binary or fractional)",
       "where tree ranks go: in rank order over the modules, or the paper's section-4 embedding (a global binary tree "
       "of one group per module, local fractional trees)",
       "network.type=hier_crossbar or vc"},
  };
}

// traffic.embedding on the VC networks.
ParamSpec vc_embedding_param() {
  return {"traffic.embedding", "rank_order", "rank_order|snake|htree (2-D mesh or torus); rank_order (fattree)",
          "where tree ranks go: rank x on node (root + x) mod P; along the boustrophedon row path; or the paper's "
          "Fig. 4 H-tree of groups (r1 x r2 submeshes, W/r2 = H/r1 a power of two)"};
}

std::vector<ParamSpec> nic_params(bool vc = false) {
  return {
      {"nic.startup", "16",
       vc ? "13..1000000 on a mesh, 8..1000000 on a fat tree (the nearest pair's zero-load latency, with the "
            "default router)"
          : "2..1000000 (>= the network's pipeline: 2 cycles)",
       "t: start-up cycles of a send"},
      {"nic.model", "duplex", "duplex|simplex", "send and receive at once, or one direction per step"},
      {"nic.simplex_schedule", "couples", "couples|direct",
       "simplex: couples of PUs emulate the duplex program in two sub-steps, or direct: every PU runs the duplex "
       "program with each line split into its two halves, ordered by a lock-step timetable compiled before the run "
       "(a run of r packets in 2r + 1 steps)",
       "nic.model=simplex"},
  };
}

struct FracSetup;
std::uint32_t window(const FracSetup& s);

struct FracSetup : ExperimentSetup {
  bool hier = false;
  bool vc = false;          // network.type=vc: the VC routers (vc_spec), checked against a full crossbar
  VcFabricSpec vc_spec;
  bool htree = false;       // traffic.embedding=htree (vc)
  bool snake = false;       // traffic.embedding=snake (vc)
  xbar::CrossbarNetwork::Shape shape;
  std::uint32_t processors = 2;
  bool reduction = false;
  Algorithm algorithm = Algorithm::kFractional;
  unsigned r = 1;
  std::uint32_t s = 1;
  std::uint64_t k = 1, t = 2;
  std::uint32_t units = 1;
  std::uint32_t root = 0;
  Operator op = Operator::kSum;
  bool simplex = false;
  bool direct = false;  // simplex by split lines, not couples
  bool tuned = false;
  bool modules_embedding = false;  // traffic.embedding=modules
  std::string tuning;
  Choice exhaustive, fast, paper;
  std::vector<xbar::CrossbarLinkAddress> failed_links;
  EjectionSwap swap;  // crossbars' wiring fault (a VC network's is in vc_spec.params)

  bool couples() const { return simplex && !direct; }
  std::uint32_t logical_processors() const { return couples() ? processors / 2 : processors; }
  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  ResourceEstimate estimate() const override;
};

// The resource guard's estimate. Calibrated with /usr/bin/time -v peak RSS
// (release build, broadcast): about 10 KB per processor (its NIC, PE, switch
// port and output group; crossbar P = 1024: 20 MB, 16384: 170 MB, 65536:
// 647 MB) and 500 bytes per packet of the message (P = 4096 with s = 1024:
// 65 MB, s = 16384: 72 MB). Time: no schedule beats lower bound (4) of Sanders
// and Sibeyn, k + t log P cycles, known before the run.
ResourceEstimate FracSetup::estimate() const {
  ResourceEstimate e;
  const double P = processors;
  e.memory_bytes = 12e6 + P * 10e3 + 500.0 * s;
  e.what = std::to_string(processors) + " processors, " + std::to_string(s) + " packets";
  if (vc) {
    // The VC routers (as the VC family estimates them: 15 KB per node and
    // 16.5 bytes per flit buffer slot, up to 7 ports) and the reference
    // crossbar's NICs and PEs.
    const double slots = 7.0 * vc_spec.params.router.vcs * vc_spec.params.router.buffer_depth;
    e.memory_bytes += P * (10e3 + 15e3 + 16.5 * slots);
    e.what += ", VC routers and the reference crossbar";
  }
  double log_p = 0;
  while (std::ldexp(1.0, static_cast<int>(log_p)) < P) ++log_p;
  e.cycles_lower_bound = static_cast<double>(k) + static_cast<double>(t) * log_p;
  e.cycles_why = "Sanders & Sibeyn's lower bound (4), k + t log P, with k = " + std::to_string(k) + " units, t = " +
                 std::to_string(t);
  // Work: every processor's NIC and PE are busy in a pipelined collective,
  // for at least the lower bound's cycles (the VC routers too, when present).
  e.work = P * (vc ? 3.0 : 2.0) * e.cycles_lower_bound;
  e.work_why = std::to_string(processors) + " processors over at least " +
               std::to_string(static_cast<std::uint64_t>(e.cycles_lower_bound)) + " cycles";
  return e;
}

std::unique_ptr<ExperimentSetup> configure(Config& cfg, bool hier, const VcFabricSpec* vc_spec) {
  auto st = std::make_unique<FracSetup>();
  FracSetup& s = *st;
  s.hier = hier;
  s.vc = vc_spec != nullptr;
  if (s.vc) {
    s.vc_spec = *vc_spec;
    s.shape = {1, vc_spec->nodes, 0};  // the full crossbar the run is compared with
  } else {
    cfg.declare(network_params(hier));
  }
  if (s.vc) {
    // network.* keys: read by network.type=vc
  } else if (hier) {
    const auto a = cfg.integer("network.modules", 1, 4096);
    const auto b = cfg.integer("network.module_size", 1, kMaxProcessors);
    if (a * b < 2 || a * b > kMaxProcessors)
      cfg.fail("network.module_size", "a b = " + std::to_string(a * b) + " processors; allowed 2..65536");
    const auto c = cfg.integer("network.inter_module_channels", 1, std::max<std::int64_t>(1, b));
    s.shape = {static_cast<unsigned>(a), static_cast<unsigned>(b), static_cast<unsigned>(c)};
  } else {
    const auto p = cfg.integer("network.processors", 2, kMaxProcessors);
    s.shape = {1, static_cast<unsigned>(p), 0};
  }
  s.processors = s.shape.modules * s.shape.module_size;
  const std::int64_t P = s.processors;
  const YAML::Node failed = s.vc ? YAML::Node(YAML::NodeType::Sequence) : cfg.node("network.failed_links");
  const std::string failed_form = hier ? "pe<x>.in, pe<x>.out (x < P), up<m>.<j>, down<m>.<j> (m < a, j < c)" : "pe<x>.in, pe<x>.out (x < P)";
  if (!failed.IsSequence()) cfg.fail("network.failed_links", "expected a list of links: " + failed_form);
  for (const auto& item : failed) {
    const auto address = item.IsScalar() ? xbar::CrossbarNetwork::parse_link(item.Scalar(), s.shape) : std::nullopt;
    if (!address)
      cfg.fail("network.failed_links", "'" + (item.IsScalar() ? item.Scalar() : std::string("?")) + "' is not a link of this network (" + failed_form + ")");
    s.failed_links.push_back(*address);
  }
  if (!s.vc) s.swap = parse_swap_ejection(cfg, s.processors);

  // Keys that apply only to some configurations are declared when they apply
  // (giving one that does not apply is an error that says why).
  auto declare_except = [&](const std::vector<ParamSpec>& specs, const std::vector<std::string>& later) {
    for (const auto& sp : specs)
      if (std::find(later.begin(), later.end(), sp.key) == later.end()) cfg.declare({sp});
  };
  auto declare_one = [&](const std::vector<ParamSpec>& specs, const std::string& key) {
    for (const auto& sp : specs)
      if (sp.key == key) cfg.declare({sp});
  };
  declare_except(traffic_params(), {"traffic.operator", "traffic.tuning", "traffic.embedding"});
  declare_except(nic_params(s.vc), {"nic.simplex_schedule"});
  s.reduction = cfg.choice("traffic.collective", {"broadcast", "reduction"}) == "reduction";
  const std::string alg = cfg.choice("traffic.algorithm", {"chain", "binary", "fractional"});
  s.algorithm = alg == "chain" ? Algorithm::kChain : alg == "binary" ? Algorithm::kBinary : Algorithm::kFractional;
  s.simplex = cfg.choice("nic.model", {"duplex", "simplex"}) == "simplex";
  if (s.simplex) {
    declare_one(nic_params(), "nic.simplex_schedule");
    s.direct = cfg.choice("nic.simplex_schedule", {"couples", "direct"}) == "direct";
    if (!s.direct && (P % 2 != 0 || P < 4))
      cfg.fail("nic.model", "simplex couples need an even number of processors >= 4 (P = " + std::to_string(P) +
                                "); nic.simplex_schedule=direct takes any P");
  } else {
    cfg.declare_unused("nic.simplex_schedule", "applies only to nic.model=simplex");
  }
  const unsigned pipeline =
      s.vc ? vc::VcSinglePortFabric::zero_load_cycles(s.vc_spec.params, s.vc_spec.fattree ? 1 : 2)
           : xbar::CrossbarNetwork::kLocalPathLinks;
  s.t = static_cast<std::uint64_t>(cfg.integer("nic.startup", 2, 1000000));
  if (s.t < pipeline)
    cfg.fail("nic.startup", "t = " + std::to_string(s.t) + " cycles is less than this network's pipeline (the nearest "
                            "pair's zero-load latency, part of the start-up): allowed " + std::to_string(pipeline) +
                            "..1000000");
  s.k = static_cast<std::uint64_t>(cfg.integer("traffic.message_units", 1, kMaxUnits));
  s.root = static_cast<std::uint32_t>(cfg.integer("traffic.root", 0, P - 1));
  if (s.reduction) {
    declare_one(traffic_params(), "traffic.operator");
    const std::string op = cfg.choice("traffic.operator", {"sum", "max", "matrix"});
    s.op = op == "sum" ? Operator::kSum : op == "max" ? Operator::kMax : Operator::kMatrix;
  } else {
    cfg.declare_unused("traffic.operator", "applies only to traffic.collective=reduction");
  }

  const std::uint32_t logical = s.logical_processors();
  const YAML::Node group = cfg.node("traffic.group");
  const bool auto_r = group.IsScalar() && group.Scalar() == "auto";
  if (s.algorithm != Algorithm::kFractional) {
    if (cfg.given("traffic.group")) cfg.fail("traffic.group", "applies only to traffic.algorithm=fractional (binary is r = 1)");
    s.r = s.algorithm == Algorithm::kBinary ? 1 : logical;
  } else if (!auto_r) {
    s.r = static_cast<unsigned>(cfg.integer("traffic.group", 1, logical));
  }
  const YAML::Node packets = cfg.node("traffic.packets");
  const bool auto_s = packets.IsScalar() && packets.Scalar() == "auto";
  if (auto_r && !auto_s) cfg.fail("traffic.group", "auto needs traffic.packets=auto too (s must be a multiple of r)");
  if (auto_r || auto_s) {
    s.tuned = true;
    declare_one(traffic_params(), "traffic.tuning");
    s.tuning = cfg.choice("traffic.tuning", {"exhaustive", "fast", "paper"});
    const Algorithm a = s.algorithm;
    const unsigned r_max = auto_r ? tune_group_max(logical) : s.r;
    const std::uint32_t s_max = static_cast<std::uint32_t>(std::min<std::uint64_t>(s.k, kTunePacketsMax));
    auto tune = [&](bool exhaustive) {
      if (auto_r) return exhaustive ? tune_exhaustive(a, logical, s.k, s.t, r_max, s_max) : tune_fast(a, logical, s.k, s.t, r_max, s_max);
      // r fixed: search s only (multiples of r).
      Choice best;
      best.predicted = 1e300;
      const unsigned r = a == Algorithm::kChain ? 1 : s.r;
      for (std::uint32_t q = r; q <= std::max(s_max, r); q += r) {
        const double c = model_cost(a, logical, s.r, q, s.k, s.t);
        if (c < best.predicted) best = Choice{s.r, q, c};
      }
      return best;
    };
    s.exhaustive = tune(true);
    s.fast = tune(false);
    s.paper = paper_choice(logical, static_cast<double>(s.k), static_cast<double>(s.t));
    const Choice& chosen = s.tuning == "exhaustive" ? s.exhaustive : s.tuning == "fast" ? s.fast : s.paper;
    if (auto_r) s.r = chosen.r;
    s.s = s.tuning == "paper" && !auto_r ? s.exhaustive.s : chosen.s;
    if (s.s % s.r != 0 && s.algorithm == Algorithm::kFractional) s.s = std::max(1u, s.s / s.r) * s.r;
  } else {
    cfg.declare_unused("traffic.tuning", "applies only with traffic.packets=auto");
    s.s = static_cast<std::uint32_t>(cfg.integer("traffic.packets", 1, kMaxPackets));
  }
  if (s.algorithm == Algorithm::kFractional && s.s % s.r != 0)
    cfg.fail("traffic.packets", std::to_string(s.s) + " is not a multiple of traffic.group r = " + std::to_string(s.r));
  if (s.s > s.k) cfg.fail("traffic.packets", "s = " + std::to_string(s.s) + " packets exceed the message's k = " +
                                                 std::to_string(s.k) + " units; allowed 1..k");
  if (hier) {
    declare_one(traffic_params(), "traffic.embedding");
    s.modules_embedding = cfg.choice("traffic.embedding", {"rank_order", "modules"}) == "modules";
    if (s.modules_embedding) {
      if (s.algorithm == Algorithm::kChain)
        cfg.fail("traffic.embedding", "modules applies to binary and fractional trees (a chain in rank order already "
                                      "crosses each module boundary once); allowed: rank_order");
      if (s.couples())
        cfg.fail("traffic.embedding", "modules does not take simplex couples; use nic.simplex_schedule=direct");
      if (s.r > s.shape.module_size)
        cfg.fail("traffic.embedding", "modules needs r <= b (r = " + std::to_string(s.r) +
                                          ", b = " + std::to_string(s.shape.module_size) + ")");
    }
  } else if (s.vc) {
    cfg.declare({vc_embedding_param()});
    const bool plane = !s.vc_spec.fattree && s.vc_spec.sides.size() == 2;
    const std::string e = plane ? cfg.choice("traffic.embedding", {"rank_order", "snake", "htree"})
                                : cfg.choice("traffic.embedding", {"rank_order"});
    s.htree = e == "htree";
    s.snake = e == "snake";
    if (s.htree) {
      if (s.algorithm == Algorithm::kChain)
        cfg.fail("traffic.embedding", "htree applies to binary and fractional trees (a chain has no tree of groups); "
                                      "allowed for the chain: rank_order, snake");
      if (s.couples()) cfg.fail("traffic.embedding", "htree does not take simplex couples; use nic.simplex_schedule=direct");
      const std::string why = htree_fit_problem(s.vc_spec.sides[0], s.vc_spec.sides[1], s.r);
      if (!why.empty()) cfg.fail("network.k", why);
      // The embedding fixes the root: its root group's first PU.
      const NodeId root = embed_htree(s.vc_spec.sides[0], s.vc_spec.sides[1], s.r).pu_of_rank[0];
      if (cfg.given("traffic.root") && s.root != root)
        cfg.fail("traffic.root", "the htree embedding of this mesh broadcasts from PU " + std::to_string(root) +
                                     " (its root group's first PU); allowed: " + std::to_string(root));
      s.root = root;
    }
  } else {
    cfg.declare_unused("traffic.embedding", "applies only to network.type=hier_crossbar and vc");
  }
  if (hier && s.algorithm != Algorithm::kChain && s.r > 1 && s.shape.modules > 1 && s.shape.channels < 2)
    cfg.fail("network.inter_module_channels", "a fractional tree with r > 1 needs at least 2 channels per module; allowed 2..b");
  if (static_cast<std::uint64_t>(P - 1) * s.s * (s.simplex ? 2 : 1) > kMaxTransfers)
    cfg.fail("traffic.packets", "(P - 1) s = " + std::to_string((P - 1) * s.s) + " packet transfers; at most 2^31 per run");
  const std::uint64_t units = (s.k + s.s - 1) / s.s;
  if (units > (1u << 30))
    cfg.fail("traffic.message_units", "k/s = " + std::to_string(units) + " units per packet; at most 2^30 (raise traffic.packets)");
  s.units = static_cast<std::uint32_t>(units);
  if (static_cast<std::uint64_t>(P) * window(s) > (1ull << 26))
    cfg.fail("traffic.group", "P x 2r = " + std::to_string(P * 2 * std::min<std::int64_t>(s.r, s.s)) +
                                  " packets held by the PEs; at most 2^26 (use a smaller r)");
  return st;
}

// A PE forwards at most 2r packet numbers behind the newest it received (a
// chain member only the one before).
std::uint32_t window(const FracSetup& s) {
  std::uint32_t w = 8;
  if (s.algorithm == Algorithm::kChain) return w;
  while (w < 2 * std::min<std::uint32_t>(s.r, s.s) + 4) w *= 2;
  return w;
}

// The processors of one run, their NICs and PEs, over a fabric.
struct ProcessorSet {
  UnitPacketPool pool;
  TrafficLedger ledger;
  std::vector<SinglePortNic*> directory;
  std::vector<std::unique_ptr<SinglePortNic>> nics;
  std::vector<std::unique_ptr<FractionalPe>> pes;  // by rank

  // `prefix` names the blocks ("" for the run, "crossbar_" for the reference);
  // deliveries go through `tap` when given; `swap` crosses two ejection links.
  void build(const std::string& prefix, const FracSetup& setup, const Layout& layout, const RunShape& shape,
             const DirectSimplexSchedule* direct, SinglePortFabric& fabric, CycleEngine& engine, DeliveryTap* tap,
             const EjectionSwap& swap = {}) {
    directory.resize(setup.processors);
    SinglePortNic::Params np;
    np.startup = setup.t;
    np.units = setup.units;
    np.model = setup.simplex ? SinglePortNic::Model::kSimplex : SinglePortNic::Model::kDuplex;
    for (NodeId x = 0; x < setup.processors; ++x) {
      np.node = x;
      np.ejection_port = swap.wired_to(x);
      nics.push_back(std::make_unique<SinglePortNic>((prefix + "nic" + std::to_string(x)).c_str(), np, pool, ledger,
                                                     engine, fabric, directory));
      directory[x] = nics.back().get();
    }
    for (std::uint32_t rank = 0; rank < setup.processors; ++rank) {
      std::unique_ptr<Program> program;
      if (setup.couples()) program = std::make_unique<CoupleProgram>(layout, rank, setup.s);
      else program = std::make_unique<BroadcastProgram>(layout, rank, setup.s);
      if (setup.direct) program = std::make_unique<OrderedSplitProgram>(std::move(program), direct->receive_first(rank));
      if (setup.reduction) program = std::make_unique<ReversedProgram>(std::move(program));
      const NodeId pu = shape.pu(rank);
      auto pe = std::make_unique<FractionalPe>((prefix + "pe" + std::to_string(pu)).c_str(), rank, shape,
                                               std::move(program));
      pe->socket.bind(nics[pu]->socket);
      if (tap != nullptr) {
        tap->route(pu, *pe);
        nics[pu]->connect_processor(*tap, *pe);
      } else {
        nics[pu]->connect_processor(*pe, *pe);
      }
      engine.add(*pe);
      pe->start();
      pes.push_back(std::move(pe));
    }
  }

  // The last packet's arrival.
  Cycle cycles() const {
    Cycle c = 0;
    for (const auto& pe : pes) c = std::max(c, pe->last_arrival());
    return c;
  }

  // The first packet received by another node than its sender meant, or "".
  std::string misdelivery() const {
    for (const auto& nic : nics)
      if (!nic->misdelivery().empty()) return nic->misdelivery();
    return "";
  }

  // "" or the first thing that went wrong: where a packet arrived, the books,
  // a PE, the simplex model.
  std::string problem() const {
    const std::string wrong = misdelivery();
    if (!wrong.empty()) return wrong;
    const std::string books = ledger.check(pool.live());
    if (!books.empty()) return books;
    for (const auto& pe : pes) {
      const std::string why = pe->problem();
      if (!why.empty()) return why;
    }
    std::uint64_t violations = 0;
    for (const auto& nic : nics) violations += nic->simplex_violations();
    if (violations != 0) return std::to_string(violations) + " simplex violation(s): a port sent and received at once";
    return "";
  }
};

class FracExperiment : public Experiment {
 public:
  FracExperiment(sc_core::sc_module_name name, const FracSetup& setup, const RunContext& ctx)
      : Experiment(name), setup_(setup), engine_("engine", options(ctx.engine, setup)) {
    engine_.set_in_flight_probe([this] { return run_.pool.live() + reference_.pool.live(); });
    const std::uint32_t logical = setup_.logical_processors();
    layout_ = setup_.algorithm == Algorithm::kChain ? Layout::chain(logical) : Layout::fractional(logical, setup_.r);
    if (setup_.modules_embedding) {
      // The section-4 embedding, turned so that the root's module and slot
      // take the place of module 0, slot 0 (modules stay whole).
      ModuleEmbedding e = embed_in_modules(setup_.shape.modules, setup_.shape.module_size, setup_.r);
      layout_ = std::move(e.layout);
      const std::uint32_t a = setup_.shape.modules, b = setup_.shape.module_size;
      const std::uint32_t m0 = setup_.root / b, o = setup_.root % b;
      shape_.placement.resize(logical);
      shape_.rank_of_pu.resize(logical);
      for (std::uint32_t x = 0; x < logical; ++x) {
        const std::uint32_t base = e.pu_of_rank[x];
        shape_.placement[x] = ((base / b + m0) % a) * b + (base % b + o) % b;
        shape_.rank_of_pu[shape_.placement[x]] = x;
      }
      inter_module_edges_ = e.inter_module_edges;
    }
    if (setup_.htree || setup_.snake) {
      // Fig. 4's H-tree of groups, or rank order along the row snake starting
      // at the root (node = x + W y).
      const unsigned W = setup_.vc_spec.sides[0], H = setup_.vc_spec.sides[1];
      std::vector<std::uint32_t> order;
      if (setup_.htree) {
        MeshEmbedding e = embed_htree(W, H, setup_.r);
        layout_ = std::move(e.layout);
        order = std::move(e.pu_of_rank);
      } else {
        const std::vector<std::uint32_t> snake = snake_order(W, H);
        const std::size_t at = static_cast<std::size_t>(std::find(snake.begin(), snake.end(), setup_.root) - snake.begin());
        for (std::size_t x = 0; x < snake.size(); ++x) order.push_back(snake[(at + x) % snake.size()]);
      }
      shape_.placement.assign(order.begin(), order.end());
      shape_.rank_of_pu.assign(setup_.processors, 0);
      for (std::uint32_t x = 0; x < setup_.processors; ++x) shape_.rank_of_pu[order[x]] = x;
    }
    if (setup_.direct) direct_ = std::make_unique<DirectSimplexSchedule>(layout_, setup_.s);
    shape_.processors = setup_.processors;
    shape_.root = setup_.root;
    shape_.packets = setup_.s;
    shape_.reduction = setup_.reduction;
    shape_.op = setup_.op;
    shape_.key = mix64(ctx.seed, 0xf2ac);
    shape_.window = window(setup_);
    if (setup_.vc) {
      // The VC routers, and beside them the same program on a full crossbar
      // with the same t and m (the reference the contention is measured against).
      topology_ = setup_.vc_spec.make_topology();
      vc::NetworkParams params = setup_.vc_spec.params;
      params.router.seed = ctx.seed;
      vc_fabric_ = std::make_unique<vc::VcSinglePortFabric>("fabric", *topology_, params, engine_, run_.pool);
      for (const auto& link : setup_.vc_spec.failed_links) {
        if (link.injection) vc_fabric_->network().fail_injection(link.node);
        else vc_fabric_->network().fail_router_output(link.router, link.port);
      }
      run_.build("", setup_, layout_, shape_, direct_.get(), *vc_fabric_, engine_, &tap_);
      reference_network_ = std::make_unique<xbar::CrossbarNetwork>(setup_.shape, reference_.pool, engine_);
      reference_.build("crossbar_", setup_, layout_, shape_, direct_.get(), *reference_network_, engine_, nullptr);
    } else {
      network_ = std::make_unique<xbar::CrossbarNetwork>(setup_.shape, run_.pool, engine_);
      run_.build("", setup_, layout_, shape_, direct_.get(), *network_, engine_, &tap_, setup_.swap);
    }
    for (const auto& link : setup_.failed_links) network_->fail(link);
  }

  static CycleEngine::Options options(CycleEngine::Options o, const FracSetup& s) {
    // Nothing moves during a start-up or while units stream behind a head.
    o.watchdog_cycles = std::max<Cycle>(o.watchdog_cycles, 4 * (s.t + s.units) + 16);
    return o;
  }

  CycleEngine& engine() override { return engine_; }
  std::uint64_t routers() const override { return setup_.vc ? topology_->routers() : network_->switches(); }

  Cycle cycles() const { return run_.cycles(); }
  std::uint64_t step_cycles() const { return setup_.t + setup_.units; }
  std::uint64_t steps() const { return (cycles() + step_cycles() - 1) / step_cycles(); }
  std::uint64_t pseudocode_steps() const {
    // Couples: twice the duplex steps of P/2 PUs (an upper bound: empty
    // sub-steps take no time); direct: 2r + 1 steps per run of r packets
    // holds in the steady state only (tested), so the duplex count x 2 bounds it.
    const std::uint64_t duplex = expected_steps(setup_.algorithm, setup_.logical_processors(), setup_.r, setup_.s);
    return setup_.simplex ? 2 * duplex : duplex;
  }
  std::uint64_t log_p() const {
    std::uint64_t l = 0;
    while ((1ull << l) < setup_.processors) ++l;
    return l;
  }

  // The root's reduction results against the verdict's own implementation of
  // the operator (reduction_oracle.hpp, not the processors' combine()) over
  // every processor's value, in rank order.
  std::string reduction_problem(const ProcessorSet& set) const {
    const auto& results = set.pes.front()->results();
    if (results.size() != setup_.s) return "the root has no result";
    std::vector<Value> values(setup_.processors);
    for (std::uint32_t j = 0; j < setup_.s; ++j) {
      for (std::uint32_t x = 0; x < setup_.processors; ++x) values[x] = own_value(shape_.key, shape_.op, shape_.pu(x), j);
      if (reference_reduction(shape_.op, values) != results[j])
        return "the root's result of packet " + std::to_string(j) + " is wrong";
    }
    return "";
  }

  std::string bound_problem() const {
    // Lower bounds no hardware may beat (a model error if it does).
    const double lg = static_cast<double>(log_p());
    if (steps() < setup_.s - 1 + log_p())
      return "faster than the s - 1 + log P step bound: " + std::to_string(steps()) + " steps";
    if (static_cast<double>(cycles()) < static_cast<double>(setup_.k) + static_cast<double>(setup_.t) * lg)
      return "faster than lower bound (4)";
    if (setup_.simplex && static_cast<double>(cycles()) < bound5()) return "faster than lower bound (5)";
    return "";
  }
  double bound5() const {
    const double P = setup_.processors, lg = static_cast<double>(log_p());
    return 2 * (1 - 1 / P) * static_cast<double>(setup_.k) + static_cast<double>(setup_.t) * (lg - 4);
  }

  std::string problem() const override {
    const RunOutcome& outcome = engine_.outcome();
    // A misdelivery usually stalls the processors that waited for the packet:
    // name the cause, not the stall.
    if (vc_fabric_ && !vc_fabric_->misdelivery().empty()) return vc_fabric_->misdelivery();
    if (!run_.misdelivery().empty()) return run_.misdelivery();
    if (outcome.status != RunOutcome::Status::kCompleted) return outcome.diagnostic;
    if (vc_fabric_) {
      const std::string why = vc_fabric_->problem();
      if (!why.empty()) return why;
    }
    const std::string why = run_.problem();
    if (!why.empty()) return why;
    if (setup_.reduction) {
      const std::string wrong = reduction_problem(run_);
      if (!wrong.empty()) return wrong;
    }
    if (setup_.vc) {  // the reference crossbar run must be right too
      const std::string ref = run_.problem().empty() ? reference_.problem() : "";
      if (!ref.empty()) return "the reference crossbar run: " + ref;
      if (setup_.reduction && !reduction_problem(reference_).empty())
        return "the reference crossbar run: " + reduction_problem(reference_);
    }
    return bound_problem();
  }

  void write_results(nlohmann::ordered_json& out) const override {
    const std::string why = problem();
    nlohmann::ordered_json r;
    r["status"] = to_string(engine_.outcome().status);
    r["cycles"] = cycles();
    r["steps"] = steps();
    r["step_cycles"] = step_cycles();
    r["lock_step"] = cycles() % step_cycles() == 0;
    r["verified"] = why.empty();
    const std::string books = run_.ledger.check(run_.pool.live());
    r["conservation"] = books.empty() ? "ok" : books;
    r["messages"] = {{"injected", run_.ledger.injected}, {"delivered", run_.ledger.delivered}, {"lost", run_.ledger.lost}};
    r["r"] = setup_.r;
    r["s"] = setup_.s;
    r["units_per_packet"] = setup_.units;
    if (setup_.tuned) {
      auto choice = [](const Choice& c) {
        return nlohmann::ordered_json{{"r", c.r}, {"s", c.s}, {"predicted_cycles", c.predicted}};
      };
      r["tuning"] = {{"method", setup_.tuning},
                     {"chosen", {{"r", setup_.r}, {"s", setup_.s}}},
                     {"exhaustive", choice(setup_.exhaustive)},
                     {"fast", choice(setup_.fast)},
                     {"paper", choice(setup_.paper)}};
    }
    const double k = static_cast<double>(setup_.k), t = static_cast<double>(setup_.t);
    const double lg = static_cast<double>(log_p());
    nlohmann::ordered_json expected;
    if (setup_.simplex) {
      expected["twice_duplex_steps"] = pseudocode_steps();  // couples: duplex steps of P/2 PUs, x 2
    } else {
      expected["pseudocode_steps"] = pseudocode_steps();
      expected["pseudocode_cycles"] = pseudocode_steps() * step_cycles();
    }
    if (setup_.algorithm != Algorithm::kChain)
      expected["depth_d"] = depth(setup_.r, setup_.logical_processors());
    expected["paper_eq7_time"] = setup_.algorithm == Algorithm::kChain
                                     ? Closed::chain_time(setup_.logical_processors(), setup_.s, k, t)
                                     : Closed::tree_time(static_cast<double>(depth(setup_.r, setup_.logical_processors())),
                                                         setup_.r, setup_.s, k, t);
    expected["step_bound"] = setup_.s - 1 + log_p();
    expected["lower_bound_4"] = k + t * lg;
    if (setup_.simplex) expected["lower_bound_5"] = bound5();
    expected["over_lower_bound_4"] = static_cast<double>(cycles()) / (k + t * lg);
    r["expected"] = expected;
    if (!why.empty()) r["problem"] = why;
    r["latency"] = {{"network", latency_.network.to_json()}, {"hops", latency_.hops.to_json()}};
    if (!engine_.outcome().held.empty()) r["held"] = held_json(engine_.outcome());
    if (setup_.reduction) {
      // What the root computed for the first and last packet, and the key every
      // processor's own value is drawn from (own_value(key, op, pu, j)), so a
      // reader can recompute the expected results independently.
      const auto& results = run_.pes.front()->results();
      nlohmann::ordered_json red{{"value_key", shape_.key}};
      if (!results.empty()) {
        red["first_packet"] = results.front();
        red["last_packet"] = results.back();
      }
      r["reduction"] = red;
    }
    out["result"] = r;

    if (setup_.vc) {
      write_vc_congestion(out);
      out["processors"] = {{"count", setup_.processors}, {"packets_held_per_pe", shape_.window}};
      return;
    }
    nlohmann::ordered_json links;
    std::uint64_t wait = 0, max_queue = 0;
    for (const auto* l : network_->ejection_links()) {
      wait += l->wait_cycles;
      max_queue = std::max<std::uint64_t>(max_queue, l->max_queue);
    }
    links["processor_ports"] = {{"wait_cycles", wait}, {"max_queue", max_queue}};
    nlohmann::ordered_json inter = nlohmann::ordered_json::array();
    std::size_t edge_congestion = 0, tree_edge_congestion = 0;
    std::map<std::string, std::set<std::uint64_t>> module_edges;
    std::uint64_t inter_wait = 0;
    for (const auto* l : network_->inter_module_links()) {
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
    if (setup_.hier) {
      links["embedding"] = setup_.modules_embedding ? "modules" : "rank_order";
      if (setup_.modules_embedding) links["inter_module_tree_edges"] = inter_module_edges_;
      links["edge_congestion"] = edge_congestion;
      links["tree_edge_congestion"] = tree_edge_congestion;
      // The paper's "two channels suffice": the most tree edges any module
      // sends (or receives) between modules, against its channels.
      std::size_t per_module = 0;
      for (const auto& [name, edges] : module_edges) per_module = std::max(per_module, edges.size());
      links["max_tree_edges_per_module_direction"] = per_module;
      links["channels_per_module_direction"] = setup_.shape.channels;
      links["inter_module_wait_cycles"] = inter_wait;
      links["inter_module"] = inter;
    }
    links["cycles_over_pseudocode"] = static_cast<std::int64_t>(cycles()) -
                                      static_cast<std::int64_t>(pseudocode_steps() * step_cycles());
    out["congestion"] = links;
    out["processors"] = {{"count", setup_.processors}, {"packets_held_per_pe", shape_.window}};
  }

  // The tree edge a flow belongs to: inside a group, the chain edge between
  // two members; between groups, one edge whatever member sends (a right edge
  // is r flows: every member feeds the child's top).
  std::uint64_t tree_edge(NodeId src, NodeId dst) const {
    const std::uint32_t a = shape_.rank(src), b = shape_.rank(dst);
    const std::uint32_t ga = layout_.group_of[a], gb = layout_.group_of[b];
    if (ga == gb) return std::uint64_t{1} << 63 | static_cast<std::uint64_t>(a) << 32 | b;
    return static_cast<std::uint64_t>(ga) << 32 | gb;
  }

  Cycle crossbar_cycles() const { return reference_.cycles(); }
  double lost_percent() const {
    const double ref = static_cast<double>(crossbar_cycles());
    return ref > 0 ? 100.0 * (static_cast<double>(cycles()) - ref) / ref : 0.0;
  }
  struct VcCongestion {
    std::size_t flows = 0, tree_edges = 0, packets = 0;
  };
  VcCongestion vc_congestion_max() const {
    VcCongestion m;
    for (const auto& l : vc_fabric_->links()) {
      m.flows = std::max(m.flows, l.flows.size());
      m.packets = std::max<std::size_t>(m.packets, l.max_open);
      if (!setup_.couples()) {
        std::set<std::uint64_t> edges;
        for (std::uint64_t f : l.flows) edges.insert(tree_edge(static_cast<NodeId>(f >> 32), static_cast<NodeId>(f & 0xffffffffu)));
        m.tree_edges = std::max(m.tree_edges, edges.size());
      }
    }
    return m;
  }

  void write_vc_congestion(nlohmann::ordered_json& out) const {
    auto& r = out["result"];
    r["crossbar_cycles"] = crossbar_cycles();
    r["lost_cycles"] = static_cast<std::int64_t>(cycles()) - static_cast<std::int64_t>(crossbar_cycles());
    r["lost_percent"] = lost_percent();
    nlohmann::ordered_json c;
    c["network"] = topology_->describe();
    c["embedding"] = setup_.htree ? "htree" : setup_.snake ? "snake" : "rank_order";
    const VcCongestion m = vc_congestion_max();
    if (!setup_.couples()) c["tree_edge_congestion"] = m.tree_edges;
    c["edge_congestion"] = m.flows;
    c["max_packets_on_link"] = m.packets;
    c["wait_cycles"] = vc_fabric_->wait_cycles();
    c["max_packet_wait_cycles"] = vc_fabric_->max_wait_cycles();
    c["pipeline_cycles"] = vc_fabric_->pipeline_cycles();
    nlohmann::ordered_json links = nlohmann::ordered_json::array();
    std::size_t used = 0;
    for (const auto& l : vc_fabric_->links()) {
      if (l.packets == 0) continue;
      ++used;
      nlohmann::ordered_json j{{"link", l.name}, {"packets", l.packets}, {"flows", l.flows.size()}};
      if (!setup_.couples()) {
        std::set<std::uint64_t> edges;
        for (std::uint64_t f : l.flows) edges.insert(tree_edge(static_cast<NodeId>(f >> 32), static_cast<NodeId>(f & 0xffffffffu)));
        j["tree_edges"] = edges.size();
      }
      j["max_packets"] = l.max_open;
      links.push_back(j);
    }
    c["links_used"] = used;
    c["links"] = links;
    out["congestion"] = c;
  }

  std::vector<std::string> table_header() const override {
    if (setup_.vc)
      return {"network", "embedding", "collective", "algorithm", "P", "r", "s", "k", "t", "cycles", "crossbar", "lost",
              "tree edges/link", "packets/link", "verified"};
    return {"network", "collective", "algorithm", "P", "r", "s", "k", "t", "cycles", "steps", "pseudocode", "verified"};
  }
  std::vector<std::string> table_row() const override {
    if (setup_.vc) {
      const VcCongestion m = vc_congestion_max();
      std::ostringstream lost;
      if (problem().empty()) lost << std::fixed << std::setprecision(1) << lost_percent() << " %";
      else lost << "-";  // an unfinished run lost nothing measurable
      std::vector<std::string> row{network_cell(topology_->describe()),
                                   setup_.htree ? "htree" : setup_.snake ? "snake" : "rank_order"};
      for (auto& c : program_cells()) row.push_back(std::move(c));
      for (auto c : {std::to_string(cycles()), std::to_string(crossbar_cycles()), lost.str(),
                     setup_.couples() ? std::string("-") : std::to_string(m.tree_edges), std::to_string(m.packets),
                     std::string(problem().empty() ? "yes" : "NO")})
        row.push_back(std::move(c));
      return row;
    }
    std::vector<std::string> row{network_cell(
        setup_.hier ? std::to_string(setup_.shape.modules) + "x" + std::to_string(setup_.shape.module_size) + " hier_crossbar"
                    : "crossbar")};
    for (auto& c : program_cells()) row.push_back(std::move(c));
    for (auto c : {std::to_string(cycles()), std::to_string(steps()),
                   (setup_.simplex ? "<= " : "") + std::to_string(pseudocode_steps()),
                   std::string(problem().empty() ? "yes" : "NO")})
      row.push_back(std::move(c));
    return row;
  }

 private:
  // The cells both tables share: the network (with the processors' port
  // model) and the program's parameters.
  std::string network_cell(std::string net) const {
    if (setup_.simplex) net += setup_.direct ? " simplex direct" : " simplex couples";
    return net;
  }
  std::vector<std::string> program_cells() const {
    return {setup_.reduction ? std::string("reduction ") + to_string(setup_.op) : "broadcast",
            to_string(setup_.algorithm), std::to_string(setup_.processors), std::to_string(setup_.r),
            std::to_string(setup_.s), std::to_string(setup_.k), std::to_string(setup_.t)};
  }

  const FracSetup setup_;
  Layout layout_;
  RunShape shape_;
  LatencyStats latency_;
  DeliveryTap tap_{latency_};  // ejection probe: message latency, then the PE
  CycleEngine engine_;
  std::unique_ptr<xbar::CrossbarNetwork> network_;
  std::uint32_t inter_module_edges_ = 0;  // the embedding's tree edges between modules
  std::unique_ptr<DirectSimplexSchedule> direct_;  // simplex direct: each line's half order (outlives pes_)
  ProcessorSet run_;
  std::unique_ptr<vc::VcTopology> topology_;            // vc
  std::unique_ptr<vc::VcSinglePortFabric> vc_fabric_;   // vc
  ProcessorSet reference_;                              // vc: the same program on a full crossbar
  std::unique_ptr<xbar::CrossbarNetwork> reference_network_;
};

std::unique_ptr<Experiment> FracSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<FracExperiment>(name.c_str(), *this, ctx);
}

NetworkKind make_kind(bool hier) {
  return {hier ? "hier_crossbar" : "crossbar",
          hier ? "a x b hierarchical crossbar of single-port processors: pipelined broadcast and reduction (Sanders & Sibeyn)"
              : "full crossbar of single-port processors: chain, binary and fractional tree broadcast and reduction (Sanders & Sibeyn)",
          [hier] {
            return std::vector<ParamGroup>{{"network", network_params(hier)}, {"traffic", traffic_params()}, {"nic", nic_params()}};
          },
          [hier](Config& cfg) { return configure(cfg, hier, nullptr); }};
}

}  // namespace

std::unique_ptr<ExperimentSetup> configure_vc_collective(Config& cfg, VcFabricSpec spec) {
  return configure(cfg, false, &spec);
}

std::vector<ParamGroup> vc_collective_params() {
  std::vector<ParamSpec> traffic;
  for (auto p : traffic_params()) {
    if (p.key == "traffic.embedding") p = vc_embedding_param();
    if (p.key == "traffic.collective")
      p.help = "given: single-port processors run this collective over the routers (instead of synthetic traffic)";
    traffic.push_back(p);
  }
  return {{"traffic (with traffic.collective: Sanders & Sibeyn's pipelined broadcast and reduction)", traffic},
          {"nic (with traffic.collective)", nic_params(true)}};
}

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

const RegisterFamily kRegistered{40, {crossbar_kind, hier_crossbar_kind}, fractional_demo};

}  // namespace
}  // namespace icn
