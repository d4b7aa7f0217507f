#include "testbench/fattree_packet_experiment.hpp"
#include "testbench/fattree_packet_setup.hpp"

#include <cmath>
#include <memory>

#include "models/fat_tree.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/rng.hpp"
#include "models/link_address.hpp"
#include "models/params.hpp"
#include "routers/fattree_packet/fat_tree_network.hpp"
#include "testbench/collective_experiment.hpp"
#include "testbench/family.hpp"
#include "testbench/fattree_collectives.hpp"
#include "testbench/processing_element.hpp"
#include "testbench/link_names.hpp"

namespace icn {

namespace {

using fattree::Collective;
using fattree::ExchangeSchedule;

const IntParam kLeaves{"network.leaves", 16, 2, 1 << 20, "processing nodes n at the leaves", "a power of two"};
const RawParam kCapacities{"network.capacities", "cbft", "cbft|ebft|[c1,...,c_log n], non-decreasing, >= 1",
                           "branch capacities c_l between levels l-1 and l (physical links)"};
const IntParam kLinkLatency{"network.link_latency", 1, 1, 64, "cycles for a packet to cross a link"};
const RawParam kFailedLinks{"network.failed_links", "[]", "list of channels like nic3.up, r2_1.down0, r1_0.up",
                            "channels that never transmit (fault injection; the watchdog reports the stall)"};

const ChoiceParam kCollective{"traffic.collective", "broadcast", fattree::collective_names(),
                              "the collective operation every processing element takes part in"};
const IntParam kRoot{"traffic.root", 0, 0, (1 << 20) - 1, "source of broadcast and scatter, sink of gather", "", "0..n-1",
                     "traffic.collective=broadcast, scatter or gather"};
const BoolParam kPipelined{"traffic.pipelined", true, "total exchange: overlap consecutive phases",
                           "traffic.collective=total_exchange"};
const ChoiceParam kSchedule{"traffic.schedule", "auto", {"auto", "cbft", "ebft", "general"},
                            "total exchange schedule; auto = cbft or ebft for those presets, else general",
                            "traffic.collective=total_exchange"};
const IntParam kPipelineGap{"traffic.pipeline_gap", 3, 1, 64,
                            "total exchange, pipelined: steps from a phase's last dispatch to the next phase's first", "", "",
                            "traffic.collective=total_exchange with traffic.pipelined=true"};

std::vector<ParamSpec> network_params() {
  return {kLeaves.spec(), kCapacities.spec(), kLinkLatency.spec(), kFailedLinks.spec(), swap_ejection_param("leaves")};
}

std::vector<ParamSpec> traffic_params() {
  return {kCollective.spec(), kRoot.spec(), kPipelined.spec(), kSchedule.spec(), kPipelineGap.spec()};
}


std::unique_ptr<ExperimentSetup> configure(Config& cfg) {
  auto setup = std::make_unique<FatTreeSetup>();
  cfg.declare(network_params());
  cfg.declare(traffic_params());  // a key the collective does not read is refused with its spec's applies condition
  const std::int64_t leaves = kLeaves.read(cfg);
  if ((leaves & (leaves - 1)) != 0) cfg.fail(kLeaves.key, "must be a power of two, 2..1048576");
  while ((std::int64_t{1} << setup->height) < leaves) ++setup->height;
  const NodeId n = static_cast<NodeId>(leaves);

  const YAML::Node caps = kCapacities.read(cfg);
  if (caps.IsScalar() && (caps.Scalar() == "cbft" || caps.Scalar() == "ebft")) {
    setup->capacities = capacity_preset(caps.Scalar(), setup->height);
    setup->capacity_label = caps.Scalar() == "cbft" ? "CBFT" : "EBFT";
  } else if (caps.IsSequence()) {
    const auto list = cfg.integer_list(kCapacities.key, -(1ll << 40), 1ll << 40);  // capacity_list_problem says the rule
    const std::string problem = capacity_list_problem(list, setup->height);
    if (!problem.empty()) cfg.fail(kCapacities.key, problem);
    for (auto c : list) setup->capacities.push_back(static_cast<unsigned>(c));
    setup->capacity_label = "BFT";
    if (setup->capacities == capacity_preset("cbft", setup->height)) setup->capacity_label = "CBFT";
    if (setup->capacities == capacity_preset("ebft", setup->height)) setup->capacity_label = "EBFT";
  } else {
    cfg.fail(kCapacities.key, "expected cbft, ebft or a list [c1,...,c_log n] of non-decreasing integers >= 1");
  }
  setup->link_latency = static_cast<unsigned>(kLinkLatency.read(cfg));

  const YAML::Node failed = kFailedLinks.read(cfg);
  if (!failed.IsSequence()) cfg.fail(kFailedLinks.key, "expected a list of channel names like nic3.up or r2_1.down0");
  setup->failed_links = parse_link_names(
      cfg, kFailedLinks.key, failed,
      [&](const std::string& name) { return parse_fat_tree_link(name, setup->height, false); },
      "' is not a channel of this tree (nic<k>.up, r<l>_<j>.up|down0|down1)");
  setup->swap = parse_swap_ejection(cfg, n);
  setup->power = FatTreePower::read(cfg);

  const std::string name = kCollective.read(cfg);
  auto& o = setup->collective;
  o.collective = fattree::collective_from_name(name);
  const bool rooted = o.collective == Collective::kBroadcast || o.collective == Collective::kScatter ||
                      o.collective == Collective::kGather;
  const bool exchange = o.collective == Collective::kTotalExchange;
  if (rooted) {
    o.root = static_cast<NodeId>(kRoot.read(cfg, 0, n - 1));
  } else {
    cfg.declare_unused(kRoot.key, "only broadcast, scatter and gather have a root");
  }
  if (exchange) {
    o.pipelined = kPipelined.read(cfg);
    const std::string schedule = kSchedule.read(cfg);
    if (schedule == "cbft" || (schedule == "auto" && setup->capacity_label == "CBFT")) o.schedule = ExchangeSchedule::kCbft;
    else if (schedule == "ebft" || (schedule == "auto" && setup->capacity_label == "EBFT")) o.schedule = ExchangeSchedule::kEbft;
    else o.schedule = ExchangeSchedule::kGeneral;
    if (o.pipelined) o.pipeline_gap = static_cast<unsigned>(kPipelineGap.read(cfg));
  }
  return setup;
}

class FatTreePacketExperiment : public CollectiveExperiment {
 public:
  FatTreePacketExperiment(sc_core::sc_module_name name, const FatTreeSetup& setup, const RunContext& ctx)
      : CollectiveExperiment(name, ctx.engine),
        setup_(setup),
        shape_(setup.height, setup.capacities),
        network_("net", shape_, setup.link_latency, engine_, pool_, ledger_, setup.swap),
        plan_(fattree::plan_collective(shape_, setup.collective)) {
    engine_.set_in_flight_probe([this] { return pool_.live(); });
    energy_.register_stats(stats_);
    for (const auto& link : setup.failed_links) {
      Channel* c = network_.channel(link.name());
      if (c == nullptr) throw std::logic_error("fat tree has no channel " + link.name());  // parse and build disagree
      c->set_failed(true);
    }
    const std::uint64_t content_key = mix64(ctx.seed, 0x1c5e);
    for (NodeId leaf = 0; leaf < shape_.leaves(); ++leaf) {
      pes_.push_back(std::make_unique<ProcessingElement>(("pe" + std::to_string(leaf)).c_str(), leaf,
                                                         content_key, plan_.program(leaf), *plan_.receipts));
      ProcessingElement& pe = *pes_.back();
      pe.socket.bind(network_.nic(leaf).socket);
      tap_.route(leaf, pe);
      network_.nic(leaf).set_sink(tap_);
      engine_.add(pe);
      pe.start();
    }
    if (ctx.tracer != nullptr) {
      network_.follow(ctx.trace_packets);
      network_.trace(*ctx.tracer, std::string(this->name()));
    }
  }

  std::uint64_t routers() const override { return shape_.leaves() - 1; }

  Cycle completion() const {
    Cycle last = 0;
    for (const auto& pe : pes_) last = std::max(last, pe->check().last_arrival);
    return last;
  }

  std::string receipts_problem() const override { return first_receipt_problem(pes_); }

  std::string network_label() const {
    return setup_.capacity_label + " n=" + std::to_string(shape_.leaves());
  }
  std::string collective_label() const {
    std::string s = fattree::to_string(setup_.collective.collective);
    if (setup_.collective.collective == Collective::kTotalExchange)
      s += setup_.collective.pipelined ? " (pipelined)" : " (unpipelined)";
    return s;
  }

  void write_result_fields(nlohmann::ordered_json& r) const override {
    r["cycles"] = completion();
    r["messages"] = {{"injected", ledger_.injected},
                     {"deliveries_expected", ledger_.deliveries_expected},
                     {"delivered", ledger_.delivered},
                     {"lost", ledger_.lost},
                     {"retried", ledger_.retried}};
    energy_.write(r, completion());
  }

  void write_expected(nlohmann::ordered_json& r) const override {
    nlohmann::ordered_json expected;
    expected["paper"] = plan_.paper ? nlohmann::ordered_json(*plan_.paper) : nlohmann::ordered_json(nullptr);
    expected["paper_source"] = plan_.paper_source;
    expected["lower_bound"] = plan_.lower_bound;
    expected["lower_bound_source"] = plan_.lower_bound_source;
    expected["matches_paper"] = json_or_null(matches(plan_.paper, completion()));
    r["expected"] = expected;
  }

  void write_sections(nlohmann::ordered_json& out) const override {
    const Cycle cycles = completion();
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (const auto& s : network_.level_stats(cycles)) {
      levels.push_back({{"level", s.level},
                        {"capacity", s.capacity},
                        {"links_per_direction", s.links},
                        {"transfers_up", s.transfers_up},
                        {"transfers_down", s.transfers_down},
                        {"utilisation_up", s.utilisation_up},
                        {"utilisation_down", s.utilisation_down},
                        {"max_queue_up", s.max_queue_up},
                        {"max_queue_down", s.max_queue_down}});
    }
    out["levels"] = levels;
    out["nic"] = {{"max_injection_queue", network_.max_nic_queue()}};
    if (!plan_.phases.empty()) {
      nlohmann::ordered_json phases = nlohmann::ordered_json::array();
      for (const auto& p : plan_.phases) {
        phases.push_back({{"level", p.level}, {"rate_per_side", p.rate},
                          {"dispatch_steps", p.dispatch_steps}, {"start", p.start}});
      }
      out["schedule"] = {{"name", fattree::to_string(setup_.collective.schedule)}, {"phases", phases}};
    }
    if (setup_.failed_links.empty()) return;
    nlohmann::ordered_json failed = nlohmann::ordered_json::array();
    for (const auto& link : setup_.failed_links)
      failed.push_back(failed_link_json(link.name(), network_.failed_link_requests(link), "packets"));
    out["failed_links"] = failed;
  }

  std::vector<Column> columns() const override {
    using Json = nlohmann::ordered_json;
    return {Column::text("collective", collective_label()),
            Column::text("network", network_label()),
            Column::integer("steps", "/result/cycles"),
            {"paper",
             [](const Json& j) {
               const Json& paper = j.at("result").at("expected").at("paper");
               return paper.is_null() ? std::string("-") : std::to_string(paper.get<std::uint64_t>());
             }},
            Column::integer("lower bound", "/result/expected/lower_bound"),
            // Per level l: the largest up and down output queue of its
            // routers ("-" up at the root, which has no up port).
            {"max queue up/down by level",
             [](const Json& j) {
               const Json& levels = j.at("levels");
               std::string cell;
               for (std::size_t i = 0; i < levels.size(); ++i) {
                 const Json& l = levels[i];
                 const bool root = i + 1 == levels.size();
                 if (i > 0) cell += ' ';
                 cell += root ? std::string("-") : std::to_string(l.at("max_queue_up").get<std::uint64_t>());
                 cell += "/" + std::to_string(l.at("max_queue_down").get<std::uint64_t>());
               }
               return cell;
             }},
            FatTreeEnergy::column(),
            Column::yes_no("verified", "/result/verified")};
  }

 private:
  const FatTreeSetup setup_;
  FatTreeShape shape_;
  fattree::FatTreeNetwork network_;
  fattree::CollectivePlan plan_;
  std::vector<std::unique_ptr<ProcessingElement>> pes_;
  FatTreeEnergy energy_{setup_.power, network_};  // result.energy, result.area, stats.activity
};

}  // namespace

// The resource guard's estimate. Calibrated with /usr/bin/time -v peak RSS
// (release build): about 8 KB per leaf for a broadcast (16384 leaves: 134 MB),
// 12 KB more per leaf when every leaf sends to every leaf (queues fill: total
// exchange 1024 leaves 29 MB, multinode broadcast 4096 leaves 79 MB), and 16
// bytes per unit of channel capacity (4 leaves at capacity 10^6: 101 MB).
ResourceEstimate FatTreeSetup::estimate() const {
  ResourceEstimate e;
  const double n = std::ldexp(1.0, static_cast<int>(height));
  const auto c = collective.collective;
  const bool all_to_all = c == Collective::kTotalExchange || c == Collective::kMultinodeBroadcast;
  double capacity_units = 0;
  for (unsigned l = 1; l <= height; ++l) capacity_units += n / std::ldexp(1.0, static_cast<int>(l) - 1) * capacities[l - 1];
  e.memory_bytes = 10e6 + n * (all_to_all ? 20e3 : 8e3) + 16 * capacity_units;
  e.what = std::to_string(static_cast<std::uint64_t>(n)) + " leaves, " +
           std::to_string(static_cast<std::uint64_t>(capacity_units)) + " channel capacity units";
  // Cycles: a leaf's link takes c_1 packets per cycle; in a total exchange
  // the 2^(l-1) leaves below a level-l channel send 2^(l-1) (n - 2^(l-1))
  // messages through it (c_l per cycle).
  if (c == Collective::kTotalExchange) {
    for (unsigned l = 1; l <= height; ++l) {
      const double s = std::ldexp(1.0, static_cast<int>(l) - 1);
      const double bound = s * (n - s) / capacities[l - 1];
      if (bound > e.cycles_lower_bound) {
        e.cycles_lower_bound = bound;
        e.cycles_why = "total exchange: " + std::to_string(static_cast<std::uint64_t>(s * (n - s))) +
                       " messages cross each level-" + std::to_string(l) + " channel of capacity " +
                       std::to_string(capacities[l - 1]);
      }
    }
  } else if (c == Collective::kMultinodeBroadcast || c == Collective::kGather) {
    e.cycles_lower_bound = (n - 1) / capacities[0];
    e.cycles_why = "a leaf receives n - 1 packets through a channel of capacity " + std::to_string(capacities[0]);
  }
  // Work: in the all-to-all collectives every switch and NIC is busy for
  // at least the bound's cycles; the one-to-all ones are not guarded.
  // The waveform: a packet from a leaf to one whose lowest common ancestor is
  // at level L crosses 2L channels (NIC links included), and 2^(L-1) leaves
  // are at that distance; a broadcast climbs h channels and takes every
  // down channel once (2n - 2).
  double to_all = 0;
  for (unsigned l = 1; l <= height; ++l) to_all += std::ldexp(1.0, static_cast<int>(l) - 1) * 2.0 * l;
  const double tree = height + 2 * n - 2;
  e.trace.transfers = c == Collective::kTotalExchange         ? n * to_all
                      : c == Collective::kMultinodeBroadcast ? n * tree
                      : c == Collective::kBroadcast          ? tree
                                                             : to_all;
  e.trace.cycles = std::max(e.cycles_lower_bound, 2.0 * height + 2);
  // Per channel crossing: the packet bus and the driving queue, set and
  // cleared; measured 24-37 bytes (16-256 leaves, docs/waveforms/README.md).
  e.trace.bytes_per_transfer = 30;
  e.trace.why = std::to_string(static_cast<std::uint64_t>(e.trace.transfers)) + " channel crossings";
  if (e.cycles_lower_bound > 0) {
    e.work = 2.0 * n * e.cycles_lower_bound;
    e.work_why = std::to_string(static_cast<std::uint64_t>(n - 1)) + " switches and " +
                 std::to_string(static_cast<std::uint64_t>(n)) + " NICs over at least " +
                 std::to_string(static_cast<std::uint64_t>(e.cycles_lower_bound)) + " cycles";
  }
  return e;
}

std::unique_ptr<Experiment> FatTreeSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<FatTreePacketExperiment>(name.c_str(), *this, ctx);
}

NetworkKind fattree_packet_kind() {
  return {"fattree_packet", "packet-switched binary fat tree, multiport routers (Dimakopoulos & Dimopoulos)",
          [] {
            return std::vector<ParamGroup>{
                {"network", network_params()}, {"power", FatTreePower::params()}, {"traffic", traffic_params()}};
          },
          configure};
}

}  // namespace icn

namespace icn {
namespace {

// Its section of the default table (`icnsim` with no arguments).
DemoRows fattree_packet_demo() {
  DemoRows packet{"Packet-switched binary fat trees, 16 leaves, every collective (Dimakopoulos & Dimopoulos)",
                  "testbench/scenarios/fattree_cbft16_total_exchange.yaml",
                  {},
                  "paper: the closed forms of sections 2-5 (2 log n, n + 1, eqs. (1) and (2)); lower bound: Table 1"};
  for (const char* caps : {"cbft", "ebft"}) {
    for (const char* coll : {"broadcast", "scatter", "gather", "multinode_broadcast"})
      packet.cases.push_back({std::string(caps) + "16_" + coll,
                              {"network.type=fattree_packet", "network.leaves=16", std::string("network.capacities=") + caps,
                               std::string("traffic.collective=") + coll}});
    for (const char* pipelined : {"false", "true"})
      packet.cases.push_back({std::string(caps) + "16_total_exchange_" + pipelined,
                              {"network.type=fattree_packet", "network.leaves=16", std::string("network.capacities=") + caps,
                               "traffic.collective=total_exchange", std::string("traffic.pipelined=") + pipelined}});
  }
  return packet;
}

const RegisterFamily kFattreePacketRegistered{10, {fattree_packet_kind}, fattree_packet_demo};

}  // namespace
}  // namespace icn
