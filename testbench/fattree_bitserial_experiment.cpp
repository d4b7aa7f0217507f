#include "testbench/fattree_bitserial_experiment.hpp"

#include <algorithm>
#include <memory>

#include "models/fat_tree.hpp"
#include "models/ledger.hpp"
#include "models/rng.hpp"
#include "routers/fattree_bitserial/bit_serial_fat_tree.hpp"
#include "routers/fattree_bitserial/load_factor.hpp"
#include "testbench/collective_experiment.hpp"
#include "testbench/family.hpp"
#include "testbench/fattree_bitserial_setup.hpp"
#include "testbench/fattree_bitserial_sync.hpp"
#include "testbench/greedy_processor.hpp"
#include "testbench/message_sets.hpp"
#ifdef ICNSIM_HAVE_RTL
#include "routers/fattree_bitserial/rtl_route_stream_generator.hpp"
#endif

namespace icn {

namespace {

using bitserial::BufferFill;

class FatTreeBitSerialExperiment : public CollectiveExperiment {
 public:
  FatTreeBitSerialExperiment(sc_core::sc_module_name name, const BitSerialSetup& setup, const RunContext& ctx)
      : CollectiveExperiment(name, engine_options(ctx.engine, setup.height)),
        setup_(setup),
        shape_(setup.height, setup.capacities),
        messages_(make_messages(setup, shape_, ctx.seed)),
        load_(load_factor(shape_, pairs_of(messages_))),
        rtl_(setup, ctx, engine_),
        network_("net", shape_, options(setup, ctx, rtl_), engine_, ledger_),
        receipts_(shape_.leaves(), messages_) {
    engine_.set_in_flight_probe([this] { return static_cast<std::size_t>(outstanding_); });
    energy_.register_stats(stats_);
    for (const auto& link : setup.failed_links) {
      BitChannel* c = network_.channel(link);
      if (c == nullptr) throw std::logic_error("bit-serial tree has no channel " + link);  // parse and build disagree
      c->set_failed(true);
    }
    for (const auto& b : setup.stuck_bits) {
      BitChannel* c = network_.channel(b.channel);
      if (c == nullptr) throw std::logic_error("bit-serial tree has no channel " + b.channel);  // parse and build disagree
      c->set_stuck(b.path, b.value);
    }
    const std::uint64_t content_key = mix64(ctx.seed, 0x1c5e);
    std::vector<std::vector<Message>> outgoing(shape_.leaves());
    for (const Message& m : messages_) outgoing[m.src].push_back(m);
    for (NodeId k = 0; k < shape_.leaves(); ++k) {
      bitserial::BitSerialNic& nic = network_.nic(k);
      GreedyProcessor::Params p{k, content_key, nic.streams_at_once()};
      processors_.push_back(std::make_unique<GreedyProcessor>(
          ("pe" + std::to_string(k)).c_str(), p, std::move(outgoing[k]), receipts_, network_.clock(),
          Rng(ctx.seed, "fattree_bitserial.pe" + std::to_string(k)), ledger_));
      GreedyProcessor& pe = *processors_.back();
      pe.socket.bind(nic.socket);
      tap_.route(k, pe);
      nic.set_sink(tap_);
      nic.set_report_sink(pe);
      pe.share_outstanding(outstanding_);
      engine_.add(pe);
      pe.start();
    }
    if (ctx.tracer != nullptr) {
      network_.follow(followed(ctx.trace_packets));  // before trace(): it adds their save files
      network_.trace(*ctx.tracer, std::string(this->name()));
      // The tree's own save file, in route order (written beside FILE.vcd or FILE.fst).
      ctx.tracer->set_save_file(network_.gtkwave_save_file(this->name(), ctx.tracer->path()));
    }
  }

  std::uint64_t routers() const override { return network_.switches(); }
  double work_done() const override {
    return messages_.empty() ? 1.0 : 1.0 - static_cast<double>(outstanding_) / static_cast<double>(messages_.size());
  }

  std::size_t in_flight() const {
    std::size_t held = 0;
    for (const auto& pe : processors_) held += pe->unsent();
    for (NodeId k = 0; k < shape_.leaves(); ++k) held += network_.nic(k).active_streams();
    return held;
  }

  Cycle completion() const {
    Cycle last = 0;
    for (const auto& pe : processors_) last = std::max(last, pe->check().last_arrival);
    return last;
  }

  std::uint64_t delivery_cycles() const {
    const auto& counts = network_.delivery_cycle_counts();
    std::uint64_t used = 0;
    for (std::size_t i = 0; i < counts.size(); ++i)
      if (counts[i].sent > 0) used = i + 1;
    return used;
  }

  // A run the watchdog stopped names where the injected faults made streams vanish.
  std::string problem() const override {
    std::string why = CollectiveExperiment::problem();
    if (!why.empty() && !completed()) {
      const std::string where = network_.where_streams_vanish();
      if (!where.empty()) why += "; streams vanish on " + where;
    }
    return why;
  }

  std::string receipts_problem() const override { return first_receipt_problem(processors_); }
  std::size_t held_in_network() const override { return in_flight(); }

  // Hardware protocol faults: things a correct network never does.
  std::string protocol_problem() const override {
    const bitserial::SwitchStats s = network_.switch_totals();
    std::uint64_t overlong = 0, truncated = 0, stray = 0, partial = 0, bad_reports = 0;
    for (NodeId k = 0; k < shape_.leaves(); ++k) {
      const auto& nic = network_.nic(k);
      overlong += nic.overlong_streams();
      truncated += nic.truncated_streams();
      stray += nic.stray_acks();
      partial += nic.partial_receptions();
    }
    for (const auto& pe : processors_) bad_reports += pe->bad_reports();
    std::string why;
    auto add = [&](std::uint64_t count, const std::string& what) {
      if (count == 0) return;
      if (!why.empty()) why += "; ";
      why += std::to_string(count) + " " + what;
    };
    add(s.misrouted, "stream(s) steered to a port that does not exist");
    add(s.stray_acks + stray, "acknowledge(s) on a path no stream used");
    add(overlong, "generator stream(s) longer than any route");
    add(truncated + partial, "stream(s) cut off before their last message bit");
    add(bad_reports, "delivery report(s) for no message in flight");
    const std::string sync = bitserial_sync_problem(setup_.scheme, network_.level_stats());
    if (!sync.empty()) why += (why.empty() ? "" : "; ") + sync;
    // A flushed stream may have been denied further down already: one loss.
    if (s.denials_up + s.denials_down + s.misrouted + s.flushed - s.flushed_lost + overlong != ledger_.lost) {
      add(1, "mismatch: switches denied " + std::to_string(s.denials_up + s.denials_down) +
                 " stream(s) but NICs reported " + std::to_string(ledger_.lost) + " lost");
    }
    return why;
  }

  void write_result_fields(nlohmann::ordered_json& r) const override {
    const std::uint64_t dcs = delivery_cycles();
    const bitserial::SwitchStats s = network_.switch_totals();
    r["delivery_cycles"] = dcs;
    r["load_factor"] = load_.value();
    r["load_factor_exact"] = {{"load", load_.load}, {"capacity", load_.capacity}, {"channel", load_.where()}};
    r["cycles"] = completion();
    r["delivery_cycle_length"] = network_.clock().length();
    r["messages"] = {{"message_set", messages_.size()},
                     {"sent", ledger_.injected},
                     {"delivered", ledger_.delivered},
                     {"lost", ledger_.lost},
                     {"retried", ledger_.retried}};
    r["switch_denials"] = {{"up", s.denials_up}, {"down", s.denials_down}};
    r["sync"] = bitserial_sync_json(setup_.scheme, network_.level_stats());
    energy_.write(r, completion());
  }

  void write_expected(nlohmann::ordered_json& r) const override {
    const std::uint64_t lower = static_cast<std::uint64_t>((load_.load + load_.capacity - 1) / load_.capacity);
    // Only a completed run's delivery-cycle count can be held against the bound.
    const nlohmann::ordered_json meets =
        completed() ? nlohmann::ordered_json(delivery_cycles() >= lower) : nlohmann::ordered_json(nullptr);
    r["expected"] = {{"lower_bound", lower},
                     {"lower_bound_source", "Ishii 1985, section 4.2: no partition of M has fewer than lambda(FT,M) subsets"},
                     {"meets_lower_bound", meets}};
  }

  void write_sections(nlohmann::ordered_json& out) const override {
    if (!setup_.failed_links.empty() || !setup_.stuck_bits.empty()) {
      // The injected faults and what they did: a stuck bit that never changed
      // a driven bit left the run untouched.
      nlohmann::ordered_json stuck = nlohmann::ordered_json::array();
      for (const auto& b : setup_.stuck_bits) {
        const BitChannel* c = const_cast<bitserial::BitSerialFatTree&>(network_).channel(b.channel);
        stuck.push_back({{"wire", b.channel + ".p" + std::to_string(b.path)}, {"value", b.value ? 1 : 0},
                         {"bits_changed", c->flipped_bits(b.path)}});
      }
      out["faults"] = {{"failed_links", setup_.failed_links}, {"stuck_bits", stuck}};
    }
    write_failed_links(out);
    nlohmann::ordered_json per_dc = nlohmann::ordered_json::array();
    for (const auto& c : network_.delivery_cycle_counts())
      per_dc.push_back({{"sent", c.sent}, {"delivered", c.delivered}, {"lost", c.lost}});
    out["delivery_cycle_log"] = per_dc;

    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (const auto& l : network_.level_stats()) {
      const std::uint64_t max_load = load_.max_load_per_level[l.level - 1];
      levels.push_back({{"level", l.level},
                        {"capacity", l.capacity},
                        {"max_load", max_load},
                        {"load_factor", static_cast<double>(max_load) / l.capacity},
                        {"down_decision_clock", network_.down_decision(l.level)},
                        {"requests_up", l.requests_up},
                        {"requests_down", l.requests_down},
                        {"denials_up", l.denials_up},
                        {"denials_down", l.denials_down},
                        {"ignored_bits", l.ignored_bits},
                        {"storage_bits", l.storage_bits},
                        {"peak_stored_bits", l.peak_stored_bits},
                        {"flush_wires", l.flush_wires},
                        {"stream_buffering_bits", l.stream_buffering_bits},
                        {"flushed", l.flushed},
                        {"late_requests", l.late_requests},
                        {"bits_up", l.bits_up},
                        {"bits_down", l.bits_down}});
    }
    out["levels"] = levels;
    Cycle arrival = 0, ack = 0;
    for (NodeId k = 0; k < shape_.leaves(); ++k) {
      arrival = std::max(arrival, network_.nic(k).last_arrival_phase());
      ack = std::max(ack, network_.nic(k).last_ack_phase());
    }
    out["timing"] = {{"delivery_cycle_length", network_.clock().length()},
                     {"message_bits", bitserial::BitSerialNic::message_bits(shape_.height())},
                     {"last_message_bit_clock", arrival},
                     {"last_acknowledge_clock", ack}};
  }

  // Each cut channel and what the block driving it asked of it: streams
  // whose routing bit chose it (or a NIC started on it), acknowledges for a
  // cut acknowledge wire.
  void write_failed_links(nlohmann::ordered_json& out) const {
    if (setup_.failed_links.empty()) return;
    nlohmann::ordered_json failed = nlohmann::ordered_json::array();
    for (const auto& link : setup_.failed_links) {
      const bool ack = link.size() > 4 && link.compare(link.size() - 4, 4, ".ack") == 0;
      failed.push_back(failed_link_json(link, network_.failed_link_requests(link), ack ? "acknowledges" : "streams"));
    }
    out["failed_links"] = failed;
  }

  std::vector<Column> columns() const override {
    const std::string sync =
        setup_.scheme == bitserial::SyncScheme::kMidstream ? "" : std::string(" ") + bitserial::to_string(setup_.scheme);
    return {Column::text("network", "bit-serial " + setup_.capacity_label + " n=" + std::to_string(shape_.leaves()) + sync),
            Column::text("traffic", setup_.traffic_label),
            Column::integer("messages", "/result/messages/message_set"),
            {"lambda(FT,M)",
             [](const nlohmann::ordered_json& j) { return format_number(j.at("result").at("load_factor").get<double>()); }},
            Column::integer("delivery cycles", "/result/delivery_cycles"),
            Column::integer("cycles", "/result/cycles"),
            Column::integer("lost", "/result/messages/lost"),
            Column::yes_no("verified", "/result/verified"),
            BitSerialEnergy::column()};
  }

 private:
  // outputs.trace_packet: a message id is its index in the message set (the
  // order the traffic makes them: traffic.pairs in list order).
  std::vector<bitserial::StreamFollower::Message> followed(const std::vector<std::uint32_t>& ids) const {
    std::vector<bitserial::StreamFollower::Message> out;
    for (std::uint32_t id : ids) {
      if (std::any_of(out.begin(), out.end(), [id](const auto& f) { return f.id == id; })) continue;  // one save file each
      bitserial::StreamFollower::Message f;
      f.id = id;
      if (id < messages_.size()) {
        f.in_set = true;
        f.src = messages_[id].src;
        f.dst = messages_[id].dst;
        f.seq = messages_[id].seq;
      }
      out.push_back(f);
    }
    return out;
  }

  static std::vector<Message> make_messages(const BitSerialSetup& s, const FatTreeShape& shape, std::uint64_t seed) {
    Rng rng(seed, "fattree_bitserial.traffic");
    if (s.pattern == "permutation") return permutation_messages(shape.leaves(), rng);
    if (s.pattern == "random") return random_messages_at_load(shape, s.load_factor_target, rng);
    if (s.pattern == "all_to_one") return all_to_one_messages(shape.leaves(), s.root);
    return listed_messages(s.pairs);
  }

  // With nic.generator=rtl: the RTL's clock, its waveform beside the SystemC
  // one (FILE.rtl.vcd for --vcd FILE), and every NIC's Verilated generators.
  struct RtlGenerators {
#ifdef ICNSIM_HAVE_RTL
    std::unique_ptr<bitserial::RtlClock> clock;
    std::unique_ptr<bitserial::RtlWaveform> waveform;
#endif
    RtlGenerators(const BitSerialSetup& s, const RunContext& ctx, const CycleEngine& engine) {
#ifdef ICNSIM_HAVE_RTL
      if (!s.rtl_generator) return;
      clock = std::make_unique<bitserial::RtlClock>("rtl_clock", engine);
      if (ctx.tracer != nullptr) {
        const WaveformTracer* tracer = ctx.tracer;
        waveform = std::make_unique<bitserial::RtlWaveform>("rtl_waveform", WaveformTracer::rtl_file_for(tracer->path()),
                                                            ctx.engine.period, tracer->timescale(),
                                                            tracer->time_per_cycle());
        bitserial::RtlWaveform* w = waveform.get();
        ctx.tracer->add_companion([w, tracer] {
          const std::string why = w->finish();
          return why.empty() ? tracer->write_rtl_save_file(w->path()) : why;
        });
      }
#endif
    }
  };

  // The watchdog counts acknowledged messages (BitSerialNic::finish): a
  // fault-free tree has one in every delivery cycle that sends, so two
  // delivery cycles without one is never a healthy run.
  static CycleEngine::Options engine_options(CycleEngine::Options o, unsigned height) {
    o.watchdog_cycles = std::max<Cycle>(o.watchdog_cycles, 2 * bitserial::BitSerialFatTree::delivery_cycle_length(height) + 1);
    return o;
  }

  static bitserial::BitSerialOptions options(const BitSerialSetup& s, const RunContext& ctx, RtlGenerators& rtl) {
    bitserial::BitSerialOptions o;
    o.arbitration = s.arbitration;
    o.buffer_fill = s.fill;
    o.seed = ctx.seed;
    o.swap = s.swap;
    o.scheme = s.scheme;
#ifdef ICNSIM_HAVE_RTL
    if (s.rtl_generator) {
      const unsigned height = s.height;
      const BufferFill fill = s.fill;
      o.make_generator = [&rtl, height, fill](NodeId node) {
        const std::string name = "nic" + std::to_string(node) + "_route_stream_generator";
        auto g = std::make_unique<bitserial::RtlRouteStreamGenerator>(sc_core::sc_gen_unique_name(name.c_str()),
                                                                      height, fill, *rtl.clock);
        if (rtl.waveform) rtl.waveform->add(*g);
        return g;
      };
    }
#endif
    return o;
  }

  const BitSerialSetup setup_;
  FatTreeShape shape_;
  std::vector<Message> messages_;
  LoadFactor load_;
  RtlGenerators rtl_;
  bitserial::BitSerialFatTree network_;
  BitSerialEnergy energy_{setup_.power, network_};  // result.energy, result.area, stats.activity
  MessageSetReceiptPlan receipts_;
  std::vector<std::unique_ptr<GreedyProcessor>> processors_;
  std::uint64_t outstanding_ = 0;  // messages not yet reported delivered
};

}  // namespace

std::unique_ptr<Experiment> BitSerialSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<FatTreeBitSerialExperiment>(name.c_str(), *this, ctx);
}

NetworkKind fattree_bitserial_kind() {
  return {"fattree_bitserial", "Ishii's bit-serial binary fat tree: routing-bit streams, concentrator switches, greedy routing",
          bitserial_params, configure_bitserial};
}

}  // namespace icn

namespace icn {
namespace {

// Its section of the default table (`icnsim` with no arguments).
DemoRows fattree_bitserial_demo() {
  DemoRows bitserial{"Bit-serial fat tree, 64 processors, greedy routing of random message sets (Ishii 1985)",
                     "testbench/scenarios/fattree_bitserial_doubling64_random.yaml",
                     {},
                     "paper: at least lambda(FT,M) delivery cycles; the memo's simulations took about 3 lambda on average"};
  for (const char* caps : {"constant", "doubling"})
    bitserial.cases.push_back({std::string("bitserial64_") + caps,
                               {"network.type=fattree_bitserial", "network.processors=64",
                                std::string("network.capacities=") + caps, "traffic.pattern=random",
                                "traffic.load_factor=4"}});
  return bitserial;
}

const RegisterFamily kFattreeBitserialRegistered{20, {fattree_bitserial_kind}, fattree_bitserial_demo};

}  // namespace
}  // namespace icn
