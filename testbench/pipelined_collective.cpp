#include "testbench/pipelined_collective.hpp"

#include <algorithm>
#include <cmath>

#include "models/params.hpp"
#include "models/rng.hpp"
#include "testbench/reduction_oracle.hpp"

namespace icn {

using namespace frac;

namespace {

constexpr std::int64_t kMaxPipelinedPackets = 1 << 20;
constexpr std::int64_t kMaxUnits = 1ll << 40;
constexpr std::uint64_t kMaxTransfers = 1ull << 31;  // packet transfers in one run (time and memory)
// The search's largest group: up to P (a group of P is nearly the chain) on
// small machines; 32 beyond 1024 PUs (each PE holds 2r packets).
unsigned tune_group_max(std::uint32_t processors) { return processors <= 1024 ? std::min(processors, 128u) : 32u; }
constexpr std::uint32_t kTunePacketsMax = 4096;

const ChoiceParam kPipelinedCollective{"traffic.collective", "broadcast", {"broadcast", "reduction"},
                              "broadcast from the root, or reduction to it"};
const ChoiceParam kAlgorithm{"traffic.algorithm", "fractional", {"chain", "binary", "fractional"},
                             "communication pattern"};
const RawParam kGroup{"traffic.group", "2", "1..P, or auto (fractional only)", "r: PUs per group of the fractional tree",
                      "traffic.algorithm=fractional"};
const RawParam kPipelinedPackets{"traffic.packets", "8", "1..1048576 (a multiple of r), or auto", "s: packets per message"};
const IntParam kMessageUnits{"traffic.message_units", 64, 1, kMaxUnits,
                             "k: message length in units (one unit per cycle per link)", "", "1..2^40, at least s"};
const IntParam kRoot{"traffic.root", 0, 0, 0, "the broadcasting (or reducing) PU", "", "0..P-1"};
const ChoiceParam kOperator{"traffic.operator", "sum", {"sum", "max", "matrix"},
                            "reduction operator (matrix: 2x2 product mod 65521, not commutative)",
                            "traffic.collective=reduction"};
const ChoiceParam kTuning{"traffic.tuning", "exhaustive", {"exhaustive", "fast", "paper"},
                          "how auto chooses r and s (the others are reported beside)", "traffic.packets=auto"};
const ChoiceParam kLastPacket{
    "traffic.last_packet", "padded", {"padded", "short"},
    "every packet carries ceil(k/s) units (padded: the last one filled up), or the last packet carries only what is "
    "left of k, k - (s - 1) ceil(k/s) units (short)"};
const ChoiceParam kNicModel{"nic.model", "duplex", {"duplex", "simplex"},
                            "send and receive at once, or one direction per step"};
const ChoiceParam kSimplexSchedule{
    "nic.simplex_schedule", "couples", {"couples", "direct"},
    "simplex: couples of PUs emulate the duplex program in two sub-steps, or direct: every PU runs the duplex "
    "program with each line split into its two halves, ordered by a lock-step timetable compiled before the run "
    "(a run of r packets in 2r + 1 steps)",
    "nic.model=simplex"};

IntParam startup_param(bool vc) {
  return {"nic.startup", 16, 2, 1000000, "t: start-up cycles of a send", "",
          vc ? "13..1000000 on a mesh, 8..1000000 on a fat tree (the nearest pair's zero-load latency, with the "
               "default router)"
             : "2..1000000 (>= the network's pipeline: 2 cycles)"};
}

// traffic.group, traffic.packets and (with auto) traffic.tuning.
void read_group_and_packets(Config& cfg, PipelinedProgram& p) {
  const std::uint32_t logical = p.logical_processors();
  const YAML::Node group = kGroup.read(cfg);
  const bool auto_r = group.IsScalar() && group.Scalar() == "auto";
  if (p.algorithm != Algorithm::kFractional) {
    if (cfg.given("traffic.group")) cfg.fail("traffic.group", "applies only to traffic.algorithm=fractional (binary is r = 1)");
    p.r = p.algorithm == Algorithm::kBinary ? 1 : logical;
  } else if (!auto_r) {
    p.r = static_cast<unsigned>(cfg.integer(kGroup.key, 1, logical));
  }
  const YAML::Node packets = kPipelinedPackets.read(cfg);
  const bool auto_s = packets.IsScalar() && packets.Scalar() == "auto";
  if (auto_r && !auto_s) cfg.fail("traffic.group", "auto needs traffic.packets=auto too (s must be a multiple of r)");
  if (!auto_r && !auto_s) {
    cfg.declare_unused("traffic.tuning", "applies only with traffic.packets=auto");
    p.s = static_cast<std::uint32_t>(cfg.integer(kPipelinedPackets.key, 1, kMaxPipelinedPackets));
    return;
  }
  p.tuned = true;
  p.tuning = kTuning.read(cfg);
  const Algorithm a = p.algorithm;
  const unsigned r_max = auto_r ? tune_group_max(logical) : p.r;
  const std::uint32_t s_max = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.k, kTunePacketsMax));
  const LastPacket last = p.last_packet;
  auto tune = [&](bool exhaustive) {
    if (auto_r)
      return exhaustive ? tune_exhaustive(a, logical, p.k, p.t, r_max, s_max, last)
                        : tune_fast(a, logical, p.k, p.t, r_max, s_max, last);
    // r fixed: search s only (multiples of r).
    Choice best;
    best.predicted = 1e300;
    const unsigned r = a == Algorithm::kChain ? 1 : p.r;
    for (std::uint32_t q = r; q <= std::max(s_max, r); q += r) {
      const double c = model_cost(a, logical, p.r, q, p.k, p.t, last);
      if (c < best.predicted) best = Choice{p.r, q, c};
    }
    return best;
  };
  p.exhaustive = tune(true);
  p.fast = tune(false);
  p.paper = paper_choice(logical, static_cast<double>(p.k), static_cast<double>(p.t), last);
  const Choice& chosen = p.tuning == "exhaustive" ? p.exhaustive : p.tuning == "fast" ? p.fast : p.paper;
  if (auto_r) p.r = chosen.r;
  p.s = p.tuning == "paper" && !auto_r ? p.exhaustive.s : chosen.s;
  if (p.s % p.r != 0 && p.algorithm == Algorithm::kFractional) p.s = std::max(1u, p.s / p.r) * p.r;
}

}  // namespace

std::uint32_t PipelinedProgram::window() const {
  std::uint32_t w = 8;
  if (algorithm == Algorithm::kChain) return w;
  while (w < 2 * std::min<std::uint32_t>(r, s) + 4) w *= 2;
  return w;
}

std::vector<ParamSpec> program_traffic_params() {
  return {kPipelinedCollective.spec(), kAlgorithm.spec(), kGroup.spec(),  kPipelinedPackets.spec(),   kMessageUnits.spec(),
          kRoot.spec(),       kOperator.spec(),  kTuning.spec(), kLastPacket.spec()};
}

std::vector<ParamSpec> program_nic_params(bool vc) {
  return {startup_param(vc).spec(), kNicModel.spec(), kSimplexSchedule.spec()};
}

void read_program(Config& cfg, PipelinedProgram& p, unsigned pipeline, bool vc) {
  const std::int64_t P = p.processors;
  cfg.declare(program_traffic_params());
  cfg.declare(program_nic_params(vc));
  p.reduction = kPipelinedCollective.read(cfg) == "reduction";
  const std::string alg = kAlgorithm.read(cfg);
  p.algorithm = alg == "chain" ? Algorithm::kChain : alg == "binary" ? Algorithm::kBinary : Algorithm::kFractional;
  p.simplex = kNicModel.read(cfg) == "simplex";
  if (p.simplex) {
    p.direct = kSimplexSchedule.read(cfg) == "direct";
    if (!p.direct && (P % 2 != 0 || P < 4))
      cfg.fail("nic.model", "simplex couples need an even number of processors >= 4 (P = " + std::to_string(P) +
                                "); nic.simplex_schedule=direct takes any P");
  }
  p.t = static_cast<std::uint64_t>(startup_param(vc).read(cfg));
  if (p.t < pipeline)
    cfg.fail("nic.startup", "t = " + std::to_string(p.t) + " cycles is less than this network's pipeline (the nearest "
                            "pair's zero-load latency, part of the start-up): allowed " + std::to_string(pipeline) +
                            "..1000000");
  p.k = static_cast<std::uint64_t>(kMessageUnits.read(cfg));
  p.root = static_cast<std::uint32_t>(kRoot.read(cfg, 0, P - 1));
  if (p.reduction) {
    const std::string op = kOperator.read(cfg);
    p.op = op == "sum" ? Operator::kSum : op == "max" ? Operator::kMax : Operator::kMatrix;
  }
  p.last_packet = kLastPacket.read(cfg) == "short" ? LastPacket::kShort : LastPacket::kPadded;
  read_group_and_packets(cfg, p);
  if (p.algorithm == Algorithm::kFractional && p.s % p.r != 0)
    cfg.fail("traffic.packets", std::to_string(p.s) + " is not a multiple of traffic.group r = " + std::to_string(p.r));
  if (p.s > p.k)
    cfg.fail("traffic.packets", "s = " + std::to_string(p.s) + " packets exceed the message's k = " + std::to_string(p.k) +
                                    " units; allowed 1..k");
}

void check_program_limits(Config& cfg, PipelinedProgram& p) {
  const std::int64_t P = p.processors;
  if (static_cast<std::uint64_t>(P - 1) * p.s * (p.simplex ? 2 : 1) > kMaxTransfers)
    cfg.fail("traffic.packets", "(P - 1) s = " + std::to_string((P - 1) * p.s) + " packet transfers; at most 2^31 per run");
  const std::uint64_t units = (p.k + p.s - 1) / p.s;
  if (units > (1u << 30))
    cfg.fail("traffic.message_units", "k/s = " + std::to_string(units) + " units per packet; at most 2^30 (raise traffic.packets)");
  p.units = static_cast<std::uint32_t>(units);
  p.last_units = static_cast<std::uint32_t>(last_packet_units(p.last_packet, p.s, p.k));
  if (p.last_units == 0)
    cfg.fail("traffic.last_packet", "s = " + std::to_string(p.s) + " packets of ceil(k/s) = " +
                                        std::to_string(units) + " units carry all k = " + std::to_string(p.k) +
                                        " units before the last; allowed: s with (s - 1) ceil(k/s) < k, or padded");
  if (static_cast<std::uint64_t>(P) * p.window() > (1ull << 26))
    cfg.fail("traffic.group", "P x 2r = " + std::to_string(P * 2 * std::min<std::int64_t>(p.r, p.s)) +
                                  " packets held by the PEs; at most 2^26 (use a smaller r)");
}

void declare_no_embedding(Config& cfg, const std::string& why) { cfg.declare_unused("traffic.embedding", why); }

// Calibrated with /usr/bin/time -v peak RSS (release build, broadcast): about
// 10 KB per processor (its NIC, PE, switch port and output group; crossbar
// P = 1024: 20 MB, 16384: 170 MB, 65536: 647 MB) and 500 bytes per packet of
// the message (P = 4096 with s = 1024: 65 MB, s = 16384: 72 MB). Time: no
// schedule beats lower bound (4) of Sanders and Sibeyn, k + t log P cycles,
// known before the run.
ResourceEstimate program_estimate(const PipelinedProgram& p, double network_bytes_per_pu, double blocks_per_pu,
                                  const std::string& network_what) {
  ResourceEstimate e;
  const double P = p.processors;
  e.memory_bytes = 12e6 + P * (10e3 + network_bytes_per_pu) + 500.0 * p.s;
  e.what = std::to_string(p.processors) + " processors, " + std::to_string(p.s) + " packets" + network_what;
  double log_p = 0;
  while (std::ldexp(1.0, static_cast<int>(log_p)) < P) ++log_p;
  e.cycles_lower_bound = static_cast<double>(p.k) + static_cast<double>(p.t) * log_p;
  e.cycles_why = "Sanders & Sibeyn's lower bound (4), k + t log P, with k = " + std::to_string(p.k) + " units, t = " +
                 std::to_string(p.t);
  if (blocks_per_pu == 0) {
    // The crossbar moves a packet as one handle: a processor's NIC and PE act
    // a few times per step of the pseudocode, not per unit. Measured: 1.7
    // evaluations per processor and step (chain), 2.6-2.7 (binary tree),
    // 4.1-4.6 (fractional trees), P = 64..4096, k/t = 16..10000.
    const double steps = static_cast<double>(frac::expected_steps(p.algorithm, p.logical_processors(), p.r, p.s)) *
                         (p.simplex ? 2.0 : 1.0);
    e.work = 3.0 * P * steps;
    e.work_why = std::to_string(p.processors) + " processors over " +
                 std::to_string(static_cast<std::uint64_t>(steps)) + " steps of the program";
    // The waveform: each of the P - 1 receivers takes every one of the s
    // packets once (broadcast; a reduction sends as many), each seen on the
    // sender's tx and the receiver's rx rows; a step lasts t + ceil(k/s) cycles.
    const double units = std::ceil(static_cast<double>(p.k) / static_cast<double>(std::max<std::uint32_t>(1, p.s)));
    e.trace.cycles = steps * (static_cast<double>(p.t) + units);
    e.trace.transfers = (P - 1) * static_cast<double>(p.s);
    // tx busy, destination and packet, rx busy, source and packet, each set
    // and cleared: measured 70-75 bytes a packet (docs/waveforms/README.md).
    e.trace.bytes_per_transfer = 72;
    e.trace.why = std::to_string(static_cast<std::uint64_t>(e.trace.transfers)) + " packet transfers";
  } else {
    // Routers carry every unit as a flit: every processor's NIC and PE and
    // the network's blocks are busy for at least the lower bound's cycles.
    e.work = P * (2.0 + blocks_per_pu) * e.cycles_lower_bound;
    e.work_why = std::to_string(p.processors) + " processors over at least " +
                 std::to_string(static_cast<std::uint64_t>(e.cycles_lower_bound)) + " cycles";
  }
  return e;
}

Placement rank_order_placement(const PipelinedProgram& p) {
  const std::uint32_t logical = p.logical_processors();
  return {p.algorithm == Algorithm::kChain ? Layout::chain(logical) : Layout::fractional(logical, p.r), {}};
}

void ProcessorSet::build(const std::string& prefix, const PipelinedProgram& program, const Layout& layout,
                         const RunShape& shape, const DirectSimplexSchedule* direct, SinglePortFabric& fabric,
                         CycleEngine& engine, DeliveryTap* tap, const EjectionSwap& swap) {
  directory.resize(program.processors);
  SinglePortNic::Params np;
  np.startup = program.t;
  np.units = program.units;
  np.last_units = program.last_units;
  np.packets = program.s;
  np.model = program.simplex ? SinglePortNic::Model::kSimplex : SinglePortNic::Model::kDuplex;
  for (NodeId x = 0; x < program.processors; ++x) {
    np.node = x;
    np.ejection_port = swap.wired_to(x);
    nics.push_back(std::make_unique<SinglePortNic>((prefix + "nic" + std::to_string(x)).c_str(), np, pool, ledger,
                                                   engine, fabric, directory));
    directory[x] = nics.back().get();
  }
  for (std::uint32_t rank = 0; rank < program.processors; ++rank) {
    std::unique_ptr<Program> code;
    if (program.couples()) code = std::make_unique<CoupleProgram>(layout, rank, program.s);
    else code = std::make_unique<BroadcastProgram>(layout, rank, program.s);
    if (program.direct) code = std::make_unique<OrderedSplitProgram>(std::move(code), direct->receive_first(rank));
    if (program.reduction) code = std::make_unique<ReversedProgram>(std::move(code));
    const NodeId pu = shape.pu(rank);
    auto pe = std::make_unique<FractionalPe>((prefix + "pe" + std::to_string(pu)).c_str(), rank, shape, std::move(code));
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

Cycle ProcessorSet::cycles() const {
  Cycle c = 0;
  for (const auto& pe : pes) c = std::max(c, pe->last_arrival());
  return c;
}

std::string ProcessorSet::misdelivery() const {
  for (const auto& nic : nics)
    if (!nic->misdelivery().empty()) return nic->misdelivery();
  return "";
}

std::string ProcessorSet::problem() const {
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

CycleEngine::Options PipelinedCollectiveExperiment::options(CycleEngine::Options o, const PipelinedProgram& p) {
  // Nothing moves during a start-up or while units stream behind a head.
  o.watchdog_cycles = std::max<Cycle>(o.watchdog_cycles, 4 * (p.t + p.units) + 16);
  return o;
}

PipelinedCollectiveExperiment::PipelinedCollectiveExperiment(sc_core::sc_module_name name,
                                                             const CycleEngine::Options& options,
                                                             const PipelinedProgram& program, Placement placement,
                                                             std::uint64_t seed)
    : CollectiveExperiment(name, PipelinedCollectiveExperiment::options(options, program)),
      program_(program),
      layout_(std::move(placement.layout)) {
  engine_.set_in_flight_probe([this] { return run_.pool.live(); });
  if (!placement.pu_of_rank.empty()) {
    shape_.placement.assign(placement.pu_of_rank.begin(), placement.pu_of_rank.end());
    shape_.rank_of_pu.assign(program_.processors, 0);
    for (std::uint32_t x = 0; x < placement.pu_of_rank.size(); ++x) shape_.rank_of_pu[placement.pu_of_rank[x]] = x;
  }
  if (program_.direct) direct_ = std::make_unique<DirectSimplexSchedule>(layout_, program_.s);
  shape_.processors = program_.processors;
  shape_.root = program_.root;
  shape_.packets = program_.s;
  shape_.reduction = program_.reduction;
  shape_.op = program_.op;
  shape_.key = mix64(seed, 0xf2ac);
  shape_.window = program_.window();
}

void ProcessorSet::trace(WaveformTracer& tracer, const std::string& prefix, std::uint32_t packets) const {
  const int node_bits = bits_for(nics.empty() ? 0 : nics.size() - 1);
  const int packet_bits = bits_for(packets == 0 ? 0 : packets - 1);
  for (std::size_t x = 0; x < nics.size(); ++x) {
    const SinglePortNic* nic = nics[x].get();
    const std::string base = prefix + ".nic" + std::to_string(x), label = "nic" + std::to_string(x);
    auto row = [&](const std::string& group, const std::string& leaf, TraceRow::Radix radix) {
      return TraceRow{base + "." + group, label + "/" + group + "/" + leaf, radix, ""};
    };
    tracer.add(base + ".tx.busy", 1, [nic](Cycle) { return nic->sending() ? 1u : 0u; }, row("tx", "busy", TraceRow::Radix::kBinary));
    tracer.add(base + ".tx.dst", node_bits, [nic](Cycle) { return nic->sending() ? nic->send_destination() : 0u; },
               row("tx", "dst", TraceRow::Radix::kDecimal));
    tracer.add(base + ".tx.packet", packet_bits, [nic](Cycle) { return nic->sending() ? nic->send_packet() : 0u; },
               row("tx", "packet", TraceRow::Radix::kDecimal));
    tracer.add(base + ".rx.busy", 1, [nic](Cycle) { return nic->receiving() ? 1u : 0u; }, row("rx", "busy", TraceRow::Radix::kBinary));
    tracer.add(base + ".rx.src", node_bits, [nic](Cycle) { return nic->receive_source(); }, row("rx", "src", TraceRow::Radix::kDecimal));
    tracer.add(base + ".rx.packet", packet_bits, [nic](Cycle) { return nic->receive_packet(); },
               row("rx", "packet", TraceRow::Radix::kDecimal));
  }
}

void PipelinedCollectiveExperiment::build_processors(SinglePortFabric& fabric, const EjectionSwap& swap) {
  run_.build("", program_, layout_, shape_, direct_.get(), fabric, engine_, &tap_, swap);
}

std::uint64_t PipelinedCollectiveExperiment::pseudocode_steps() const {
  // Couples: twice the duplex steps of P/2 PUs (an upper bound: empty
  // sub-steps take no time); direct: 2r + 1 steps per run of r packets holds
  // in the steady state only (tested), so the duplex count x 2 bounds it.
  const std::uint64_t duplex = expected_steps(program_.algorithm, program_.logical_processors(), program_.r, program_.s);
  return program_.simplex ? 2 * duplex : duplex;
}

std::uint64_t PipelinedCollectiveExperiment::log_p() const {
  std::uint64_t l = 0;
  while ((1ull << l) < program_.processors) ++l;
  return l;
}

double PipelinedCollectiveExperiment::bound5() const {
  const double P = program_.processors, lg = static_cast<double>(log_p());
  return 2 * (1 - 1 / P) * static_cast<double>(program_.k) + static_cast<double>(program_.t) * (lg - 4);
}

// The root's results against the verdict's own implementation of the operator
// (reduction_oracle.hpp, not the processors' combine()) over every processor's
// value, in rank order.
std::string PipelinedCollectiveExperiment::reduction_problem(const ProcessorSet& set) const {
  const auto& results = set.pes.front()->results();
  if (results.size() != program_.s) return "the root has no result";
  std::vector<Value> values(program_.processors);
  for (std::uint32_t j = 0; j < program_.s; ++j) {
    for (std::uint32_t x = 0; x < program_.processors; ++x) values[x] = own_value(shape_.key, shape_.op, shape_.pu(x), j);
    if (reference_reduction(shape_.op, values) != results[j])
      return "the root's result of packet " + std::to_string(j) + " is wrong";
  }
  return "";
}

std::string PipelinedCollectiveExperiment::bound_problem() const {
  const double lg = static_cast<double>(log_p());
  if (steps() < program_.s - 1 + log_p())
    return "faster than the s - 1 + log P step bound: " + std::to_string(steps()) + " steps";
  if (static_cast<double>(cycles()) < static_cast<double>(program_.k) + static_cast<double>(program_.t) * lg)
    return "faster than lower bound (4)";
  if (program_.simplex && static_cast<double>(cycles()) < bound5()) return "faster than lower bound (5)";
  return "";
}

std::string PipelinedCollectiveExperiment::receipts_problem() const {
  const std::string why = run_.problem();
  if (!why.empty()) return why;
  if (program_.reduction) {
    const std::string wrong = reduction_problem(run_);
    if (!wrong.empty()) return wrong;
  }
  return bound_problem();
}

std::uint64_t PipelinedCollectiveExperiment::tree_edge(NodeId src, NodeId dst) const {
  // Inside a group, the chain edge between two members; between groups, one
  // edge whatever member sends (a right edge is r flows: every member feeds
  // the child's top).
  const std::uint32_t a = shape_.rank(src), b = shape_.rank(dst);
  const std::uint32_t ga = layout_.group_of[a], gb = layout_.group_of[b];
  if (ga == gb) return std::uint64_t{1} << 63 | static_cast<std::uint64_t>(a) << 32 | b;
  return static_cast<std::uint64_t>(ga) << 32 | gb;
}

void PipelinedCollectiveExperiment::write_result_fields(nlohmann::ordered_json& r) const {
  r["cycles"] = cycles();
  r["steps"] = steps();
  r["step_cycles"] = step_cycles();
  r["lock_step"] = cycles() % step_cycles() == 0;
  r["messages"] = {{"injected", run_.ledger.injected}, {"delivered", run_.ledger.delivered}, {"lost", run_.ledger.lost}};
  r["r"] = program_.r;
  r["s"] = program_.s;
  r["units_per_packet"] = program_.units;
  r["last_packet_units"] = program_.last_units;
  if (program_.tuned) {
    auto choice = [](const Choice& c) {
      return nlohmann::ordered_json{{"r", c.r}, {"s", c.s}, {"predicted_cycles", c.predicted}};
    };
    r["tuning"] = {{"method", program_.tuning},
                   {"chosen", {{"r", program_.r}, {"s", program_.s}}},
                   {"exhaustive", choice(program_.exhaustive)},
                   {"fast", choice(program_.fast)},
                   {"paper", choice(program_.paper)}};
  }
  if (program_.reduction) {
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
}

void PipelinedCollectiveExperiment::write_expected(nlohmann::ordered_json& r) const {
  const double k = static_cast<double>(program_.k), t = static_cast<double>(program_.t);
  const double lg = static_cast<double>(log_p());
  const std::uint32_t logical = program_.logical_processors();
  nlohmann::ordered_json expected;
  if (program_.simplex) {
    expected["twice_duplex_steps"] = pseudocode_steps();  // couples: duplex steps of P/2 PUs, x 2
  } else {
    expected["pseudocode_steps"] = pseudocode_steps();
    expected["pseudocode_cycles"] = pseudocode_steps() * step_cycles();
  }
  if (program_.algorithm != Algorithm::kChain) expected["depth_d"] = depth(program_.r, logical);
  expected["paper_eq7_time"] =
      program_.algorithm == Algorithm::kChain
          ? Closed::chain_time(logical, program_.s, k, t)
          : Closed::tree_time(static_cast<double>(depth(program_.r, logical)), program_.r, program_.s, k, t);
  expected["step_bound"] = program_.s - 1 + log_p();
  expected["lower_bound_4"] = k + t * lg;
  if (program_.simplex) expected["lower_bound_5"] = bound5();
  expected["over_lower_bound_4"] = static_cast<double>(cycles()) / (k + t * lg);
  r["expected"] = expected;
}

std::string PipelinedCollectiveExperiment::network_cell(std::string net) const {
  if (program_.simplex) net += program_.direct ? " simplex direct" : " simplex couples";
  return net;
}

std::vector<Column> PipelinedCollectiveExperiment::program_columns() const {
  const PipelinedProgram& p = program_;
  return {Column::text("collective", p.reduction ? std::string("reduction ") + to_string(p.op) : "broadcast"),
          Column::text("algorithm", to_string(p.algorithm)),
          Column::text("P", std::to_string(p.processors)),
          Column::integer("r", "/result/r"),
          Column::integer("s", "/result/s"),
          Column::text("k", std::to_string(p.k)),
          Column::text("t", std::to_string(p.t))};
}

}  // namespace icn
