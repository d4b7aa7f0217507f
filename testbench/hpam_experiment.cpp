#include "testbench/hpam_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "routers/hpam/replicator_core.hpp"
#include "testbench/family.hpp"

namespace icn {

namespace {

// Routers and NICs are allocated in node order, so evaluating a cycle's
// blocks in address order sweeps memory sequentially: at 256x256 the model
// (1.2 GB) is far beyond the caches (docs/performance.md, "HPAM at 256x256").
CycleEngine::Options address_ordered(CycleEngine::Options options) {
  options.address_order = true;
  return options;
}

}  // namespace

HpamExperiment::HpamExperiment(sc_core::sc_module_name name, const HpamSetup& setup, const RunContext& ctx)
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
    // outputs.trace_packet: the routers, NICs, replicators and combiners
    // report the followed messages' copies (docs/waveforms/README.md).
    network_.follow(ctx.trace_packets);
    if (vc::PacketFollower* follower = network_.follower()) {
      for (auto& rep : replicators_) rep->set_follower(follower);
      for (auto& comb : combiners_) comb->set_follower(follower);
    }
    network_.trace(*ctx.tracer, std::string(this->name()));
    // Each replicator beside the router it hangs from: <exp>.repl_<router>.*;
    // a Verilated one also dumps its ports and registers to a file of its
    // own, on the same clock (docs/rtl.md).
    const CycleEngine* engine = &(CollectiveExperiment::engine_);
    const WaveformTracer* tracer = ctx.tracer;
    for (const auto& rep : replicators_) {
      rep->trace(*ctx.tracer, std::string(this->name()) + "." + rep->basename());
      if (setup.replicator_impl != hpam::ReplicatorImpl::kRtl) continue;
      hpam::ReplicatorCore* core = &rep->core();
      const std::string file = hpam_replicator_waveform_file(ctx.tracer->path(), rep->basename());
      core->trace_waveform(file, [engine] { return engine->now(); }, tracer->time_per_cycle(), tracer->timescale());
      ctx.tracer->add_companion([core, tracer, file] {
        const std::string why = core->finish_waveform();
        return why.empty() ? tracer->write_rtl_save_file(file) : why;
      });
    }
  }
  trials_.resize(setup.shapes.size());
  energy_ = std::make_unique<HpamEnergy>(setup_, topo_, network_, replicators_, combiners_);
  stats_.derived(
      "activity", [this] { return energy_->activity_json(trial_activity()); },
      "what the reported trial's hardware did (docs/energy.md): per router type clocked cycles, buffer writes and "
      "reads, crossbar traversals, allocator decisions; per link group (level, length) the flits; the NICs' "
      "injections and ejections; the replicators' and combiners' flits, copies and merges");
  CollectiveExperiment::engine_.wake(*this, 1);
}

Cycle HpamExperiment::tick(Cycle now) {
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

void HpamExperiment::deliver(const Delivery& d) {
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

void HpamExperiment::start_trial(Cycle now) {
  ++current_;
  trial_start_activity_.push_back(energy_->read());
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

void HpamExperiment::build_replicators() {
  const unsigned L = setup_.net.link_latency, LC = L + setup_.net.credit_delay;
  const unsigned depth = setup_.net.router.buffer_depth;
  for (NodeId n = 0; n < geo_.nodes(); ++n) network_.nic(n).accept_group_bits(hpam::HpamTopology::kGroupBits);
  for (unsigned r = 0; r < topo_.routers(); ++r) {
    const auto rp = topo_.replicate_port(r);
    if (!rp) continue;
    const hpam::Position at = geo_.position(r);
    const unsigned f = topo_.down_ports(r);
    auto core = hpam::make_replicator(setup_.replicator_impl, f, setup_.replicator_mode, setup_.replicator_depth,
                                      std::string(name()) + "." + hpam_replicator_name(at) + ".rtl");
    if (!core) throw std::logic_error("hpam: no RTL replicator in this build");
    replicators_.push_back(std::make_unique<hpam::InterLevelReplicator>(
        hpam_replicator_name(at).c_str(), std::move(core), geo_, at, setup_.net.router.vcs, depth, pool_,
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
    comb.set_locality(r);  // beside its router, for the worker threads
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
    rep.set_locality(r);
    CollectiveExperiment::engine_.add(rep);
  }
}

void HpamExperiment::send(const hpam::PlannedMessage& m) {
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

std::unique_ptr<Experiment> HpamSetup::elaborate(const std::string& name, const RunContext& ctx) {
  return std::make_unique<HpamExperiment>(name.c_str(), *this, ctx);
}

NetworkKind hpam_kind() {
  return {"hpam",
          "HPAM: multi-level processor meshes, extended X-Y routing, uni-port NICs, broadcast/scatter/gather "
          "(Ben Miled et al.)",
          hpam_params, configure_hpam};
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

const RegisterFamily kHpamRegistered{60, {hpam_kind}, hpam_demo};

}  // namespace
}  // namespace icn
