#include "routers/vc/vc_network.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

namespace icn::vc {

VcNetwork::VcNetwork(sc_core::sc_module_name name, const VcTopology& topo, const NetworkParams& params,
                     CycleEngine& engine, PacketPool& pool, TrafficLedger& ledger)
    : sc_module(name), topo_(topo), params_(params), pool_(pool) {
  const unsigned R = topo.routers();
  const unsigned N = topo.nodes();
  const unsigned L = params.link_latency;
  const unsigned LC = params.link_latency + params.credit_delay;
  offset_.resize(R + 1, 0);
  for (unsigned r = 0; r < R; ++r) offset_[r + 1] = offset_[r] + topo.ports(r);
  const unsigned total = offset_[R];
  flit_out_.reserve(total);
  credit_out_.reserve(total);
  // Output port p's flit link and input port p's credit link lead to the
  // neighbour at p, or to a NIC (or nowhere) when p has none.
  const unsigned C = params.router_link_latency();
  const unsigned CC = C + params.credit_delay;
  for (unsigned r = 0; r < R; ++r)
    for (unsigned p = 0; p < topo.ports(r); ++p) {
      const bool between_routers = topo.neighbor(r, p).has_value();
      flit_out_.emplace_back(1, between_routers ? C : L);
      flit_out_.back().set_strict(true);
      credit_out_.emplace_back(1, between_routers ? CC : LC);
    }
  inject_.reserve(N);
  eject_credit_.reserve(N);
  for (unsigned n = 0; n < N; ++n) {
    inject_.emplace_back(1, L);
    inject_.back().set_strict(true);
    eject_credit_.emplace_back(1, LC);
  }
  add_routers(engine);
  const unsigned depth = params.router.buffer_depth;
  auto connect = [&](unsigned r, unsigned p, FlitLink* in, FlitLink* out, CreditLink* credit_in, CreditLink* credit_out) {
    if (is_rtl(r)) bridges_[r]->connect(p, in, out, credit_in, credit_out);
    else routers_[r]->connect(p, in, out, credit_in, credit_out, depth);
  };
  // Node ports first: the NIC's injection link feeds the router's input, the
  // router's output on that port is the NIC's ejection link.
  for (unsigned n = 0; n < N; ++n) {
    const PortRef at = topo.node_port(n);
    connect(at.router, at.port, &inject_[n], &flit_out_[offset_[at.router] + at.port], &eject_credit_[n],
            &credit_out_[offset_[at.router] + at.port]);
  }
  for (unsigned r = 0; r < R; ++r) {
    for (unsigned p = 0; p < topo.ports(r); ++p) {
      const std::optional<PortRef> nb = topo.neighbor(r, p);
      if (!nb) continue;
      const unsigned far = offset_[nb->router] + nb->port;
      // Flits in on p come from the neighbour's output nb->port; our credits
      // for them go back on our credit link of input p; credits for our
      // output p come from the neighbour's input nb->port.
      connect(r, p, &flit_out_[far], &flit_out_[offset_[r] + p], &credit_out_[far], &credit_out_[offset_[r] + p]);
      channels_.push_back({&flit_out_[offset_[r] + p], r, p});
    }
  }
  for (unsigned n = 0; n < N; ++n) {
    const PortRef at = topo.node_port(n);
    // Normally the NIC's ejection link is its own port's output; the wiring
    // fault crosses two nodes' ejection links (flits and their credits).
    const NodeId e = params.swap_ejection.wired_to(n);
    const PortRef out = topo.node_port(e);
    VcNic::Params np;
    np.node = n;
    np.nodes = N;
    np.vcs = params.router.vcs;
    np.buffer_depth = params.router.buffer_depth;
    np.max_packet_flits = params.max_packet_flits;
    nics_.push_back(std::make_unique<VcNic>(this->name(), np, pool, ledger));
    nics_.back()->attach(&inject_[n], &credit_out_[offset_[at.router] + at.port],
                         &flit_out_[offset_[out.router] + out.port], &eject_credit_[e]);
    nics_.back()->set_stage_log(&stages_);
    nics_.back()->set_locality(at.router);  // beside its router, for the worker threads
    engine.add(*nics_.back());
  }
  // The routers' arrays are built: nothing may grow from the arena now.
  arena_.seal();
}

// One router per topology router: a VcRouter, or an RtlRouterBridge where
// params.rtl_routers says so (mesh/torus only; the testbench checked the module).
void VcNetwork::add_routers(CycleEngine& engine) {
  const unsigned R = topo_.routers();
  const bool any_rtl = params_.rtl_module != nullptr;
  const auto* mesh = dynamic_cast<const MeshTorusTopology*>(&topo_);
  if (any_rtl && mesh == nullptr) throw std::invalid_argument("router.model=rtl: mesh and torus only");
  if (any_rtl) bridges_.resize(R);
  for (unsigned r = 0; r < R; ++r) {
    if (params_.is_rtl(r)) {
      routers_.push_back(nullptr);
      bridges_[r] = std::make_unique<RtlRouterBridge>(std::string(name()) + "." + topo_.router_name(r), r, *mesh,
                                                      params_.router.seed, pool_, params_.rtl_module);
      bridges_[r]->set_stage_log(&stages_);
      engine.add(*bridges_[r]);
      continue;
    }
    routers_.emplace_back(arena_.make<VcRouter>(name(), r, topo_, params_.router, pool_, &arena_));
    routers_.back()->set_stage_log(&stages_);
    routers_.back()->set_locality(r);
    engine.add(*routers_.back());
  }
}

std::uint64_t VcNetwork::flits_buffered() const {
  std::uint64_t n = 0;
  for (const auto& r : routers_)
    if (r) n += r->buffered();
  for (const auto& b : bridges_)
    if (b) n += b->buffered();
  return n;
}

std::string VcNetwork::waiting_cycle() const {
  const unsigned V = params_.router.vcs;
  const unsigned N = offset_.back() * V;
  // The wait-for graph of input VCs: one waiting for a credit waits for the
  // downstream input VC it feeds; one waiting for a VC waits for the input VCs
  // of the same router that hold every VC it may take. A deadlock is a cycle.
  std::vector<std::vector<unsigned>> next(N);
  for (unsigned r = 0; r < topo_.routers(); ++r) {
    if (!routers_[r]) continue;  // an RTL router's waits are not visible
    for (unsigned p = 0; p < topo_.ports(r); ++p)
      for (unsigned v = 0; v < V; ++v) {
        const unsigned id = (offset_[r] + p) * V + v;
        unsigned op = 0, ov = 0;
        if (routers_[r]->waits_on_credit(p, v, op, ov)) {
          const std::optional<PortRef> nb = topo_.neighbor(r, op);
          if (nb) next[id].push_back((offset_[nb->router] + nb->port) * V + ov);
        }
        for (unsigned owner : routers_[r]->waits_on_vc(p, v)) next[id].push_back(offset_[r] * V + owner);
      }
  }
  auto label = [&](unsigned i) {
    const unsigned v = i % V, flat = i / V;
    const unsigned r = static_cast<unsigned>(std::upper_bound(offset_.begin(), offset_.end(), flat) - offset_.begin()) - 1;
    const unsigned p = flat - offset_[r];
    return topo_.router_name(r) + " " + topo_.port_name(r, p) + " vc" + std::to_string(v);
  };
  // Iterative depth-first search; a back edge closes a cycle.
  std::vector<std::uint8_t> mark(N, 0);  // 0 unseen, 1 on the stack, 2 done
  for (unsigned s = 0; s < N; ++s) {
    if (mark[s] != 0 || next[s].empty()) continue;
    std::vector<std::pair<unsigned, std::size_t>> stack{{s, 0}};
    mark[s] = 1;
    while (!stack.empty()) {
      auto& [node, edge] = stack.back();
      if (edge == next[node].size()) {
        mark[node] = 2;
        stack.pop_back();
        continue;
      }
      const unsigned to = next[node][edge++];
      if (mark[to] == 1) {
        std::string out;
        bool on = false;
        for (const auto& frame : stack) {
          if (frame.first == to) on = true;
          if (on) out += label(frame.first) + " -> ";
        }
        return out + label(to);
      }
      if (mark[to] == 0) {
        mark[to] = 1;
        stack.push_back({to, 0});
      }
    }
  }
  return "";
}

namespace {

// The flit a link carries in cycle t (sent then, seen downstream L cycles later).
Flit flit_sent(const FlitLink* link, Cycle t) { return link->take(t + link->latency(), Flit{}); }

}  // namespace

void trace_flit_bus(WaveformTracer& tracer, const std::string& scope, const std::string& label, const FlitLink* link,
                    const PacketPool& packets, unsigned vcs, unsigned nodes) {
  const PacketPool* pool = &packets;
  const int node_bits = bits_for(nodes == 0 ? 0 : nodes - 1);
  const TraceRow row{scope, "", TraceRow::Radix::kAuto, ""};
  auto with_label = [&](const std::string& leaf) {
    TraceRow r = row;
    r.label = label + "/flit/" + leaf;
    return r;
  };
  const std::string f = scope + ".flit.";
  tracer.add(f + "valid", 1, [link](Cycle t) { return link->sent_in(t) != 0 ? 1u : 0u; }, with_label("valid"));
  tracer.add(f + "vc", bits_for(vcs - 1), [link](Cycle t) { return flit_sent(link, t).vc; },
             with_label("vc"));
  tracer.add(f + "head", 1, [link](Cycle t) { return flit_sent(link, t).head() ? 1u : 0u; }, with_label("head"));
  tracer.add(f + "tail", 1, [link](Cycle t) { return flit_sent(link, t).tail() ? 1u : 0u; }, with_label("tail"));
  auto field = [link, pool](Cycle t, auto get) -> std::uint32_t {
    const Flit fl = flit_sent(link, t);
    return fl.packet == kNoPacket ? 0u : get((*pool)[fl.packet]);
  };
  tracer.add(f + "packet", 32, [field](Cycle t) { return field(t, [](const Packet& p) { return p.message; }); },
             with_label("packet"));
  tracer.add(f + "src", node_bits, [field](Cycle t) { return field(t, [](const Packet& p) { return p.src; }); },
             with_label("src"));
  tracer.add(f + "dst", node_bits, [field](Cycle t) { return field(t, [](const Packet& p) { return p.dst; }); },
             with_label("dst"));
}

// Per router: each output's flit bus, switch grant and credits; each input
// VC's occupancy and pipeline state. Per NIC: its injection and ejection
// links and its source queue. One save-file group per router port.
void VcNetwork::follow(const std::vector<std::uint32_t>& messages) {
  if (messages.empty()) return;
  follower_ = std::make_unique<PacketFollower>(messages);
  for (auto& r : routers_)
    if (r) r->set_follower(follower_.get());
  for (auto& n : nics_) n->set_follower(follower_.get());
}

void VcNetwork::trace(WaveformTracer& tracer, const std::string& prefix) {
  const unsigned V = params_.router.vcs;
  if (follower_)
    for (const auto& [id, path] : follower_->paths())
      tracer.add_save_file(WaveformTracer::packet_save_file_for(tracer.path(), id),
                           [this, &tracer, prefix, id = id] { return packet_save_file(tracer, prefix, id); });
  std::vector<std::pair<std::uint32_t, std::string>> stages;
  for (std::uint32_t v = 0; v < std::size(InputUnits::kStageNames); ++v) stages.emplace_back(v, InputUnits::kStageNames[v]);
  tracer.add_filter("vc_state", std::move(stages));
  // RTL routers made with --trace: their own signals, FILE.<router>.rtl.vcd,
  // with a save file (FILE.<router>.rtl.gtkw); only the routers and cycles
  // outputs.trace_routers and outputs.trace_window keep.
  for (auto& b : bridges_)
    if (b && tracer.traces_block(topo_.router_name(b->id()))) {
      const std::string file = rtl_router_waveform_file(tracer.path(), topo_.router_name(b->id()));
      RtlRouterBridge* bridge = b.get();
      const WaveformTracer* t = &tracer;
      if (bridge->trace_to(file, tracer))
        tracer.add_companion([bridge, t, file] {
          const std::string why = bridge->finish_trace();
          return why.empty() ? t->write_rtl_save_file(file) : why;
        });
    }
  for (unsigned r = 0; r < topo_.routers(); ++r) {
    VcRouter* const writable = routers_[r].get();
    if (writable != nullptr) writable->record_grants();
    const VcRouter* rt = writable;
    for (unsigned p = 0; p < topo_.ports(r); ++p) {
      const std::string base = prefix + "." + topo_.router_name(r) + "." + topo_.port_name(r, p);
      const std::string label = topo_.router_name(r) + "/" + topo_.port_name(r, p);
      if (topo_.neighbor(r, p)) {
        const std::string out = base + ".out";
        trace_flit_bus(tracer, out, label + "/out", &flit_out_[offset_[r] + p], pool_, V, topo_.nodes());
        // An RTL router: its output links only (its inside is not visible here).
        if (rt == nullptr) continue;
        tracer.add(out + ".sw_grant", bits_for(topo_.ports(r)), [rt, p](Cycle t) { return rt->switch_grant(p, t); },
                   {out, label + "/out/sw_grant (input port + 1)", TraceRow::Radix::kDecimal, ""});
        for (unsigned v = 0; v < V; ++v)
          tracer.add(out + ".credits_vc" + std::to_string(v), bits_for(params_.router.buffer_depth),
                     [rt, p, v](Cycle) { return rt->output_credits(p, v); },
                     {out, label + "/out/credits_vc" + std::to_string(v), TraceRow::Radix::kDecimal, ""});
      }
      if (rt == nullptr) continue;
      const std::string in = base + ".in";
      for (unsigned v = 0; v < V; ++v) {
        const std::string vc = in + ".vc" + std::to_string(v);
        const std::string vc_label = label + "/in/vc" + std::to_string(v);
        tracer.add(vc + ".occupancy", bits_for(params_.router.buffer_depth),
                   [rt, p, v](Cycle) { return rt->input_state(p, v).size; },
                   {in, vc_label + "/occupancy", TraceRow::Radix::kDecimal, ""});
        tracer.add(vc + ".state", 2, [rt, p, v](Cycle) { return static_cast<std::uint32_t>(rt->input_state(p, v).stage); },
                   {in, vc_label + "/state", TraceRow::Radix::kDecimal, "vc_state"});
      }
    }
  }
  for (NodeId n = 0; n < topo_.nodes(); ++n) {
    const std::string base = prefix + ".nic" + std::to_string(n);
    const std::string label = "nic" + std::to_string(n);
    trace_flit_bus(tracer, base + ".inject", label + "/inject", &inject_[n], pool_, V, topo_.nodes());
    const PortRef at = topo_.node_port(n);
    trace_flit_bus(tracer, base + ".eject", label + "/eject", &flit_out_[offset_[at.router] + at.port], pool_, V, topo_.nodes());
    const VcNic* nic = nics_[n].get();
    tracer.add(base + ".source_queue", 16, [nic](Cycle) { return static_cast<std::uint32_t>(std::min<std::size_t>(nic->queued(), 0xffff)); },
               {base, label + "/source_queue", TraceRow::Radix::kDecimal, ""});
  }
}

}  // namespace icn::vc

namespace icn::vc {

void VcNetwork::fail_router_output(unsigned r, unsigned p) {
  if (!routers_[r]) throw std::invalid_argument("network.failed_links: not on an RTL router");
  routers_[r]->fail_output(p);
  flit_out_[offset_[r] + p].set_failed(true);
}

void VcNetwork::fail_injection(NodeId n) {
  nics_[n]->fail_injection();
  inject_[n].set_failed(true);
}

std::uint64_t VcNetwork::failed_output_requests(unsigned r, unsigned p) const {
  return routers_[r] ? routers_[r]->failed_output_requests(p) : 0;
}

std::uint64_t VcNetwork::failed_injection_requests(NodeId n) const { return nics_[n]->failed_injection_requests(); }

std::string VcNetwork::stuck_at_failed_link() const {
  for (const auto& nic : nics_)
    if (nic->injection_failed() && nic->queued() != 0)
      return std::string(nic->name()) + " injection queue holds " + std::to_string(nic->queued()) +
             " packet(s) behind the failed link nic" + std::to_string(nic->node()) + ".up";
  for (unsigned r = 0; r < topo_.routers(); ++r)
    for (unsigned p = 0; p < topo_.ports(r) && routers_[r]; ++p)
      for (unsigned v = 0; v < params_.router.vcs; ++v)
        if (routers_[r]->waits_on_failed(p, v)) {
          for (unsigned q = 0; q < topo_.ports(r); ++q)
            if (routers_[r]->output_failed(q) && (routers_[r]->input_state(p, v).out_port == q ||
                                                  (routers_[r]->input_state(p, v).has_alt &&
                                                   routers_[r]->input_state(p, v).alt_port == q)))
              return topo_.router_name(r) + " input " + topo_.port_name(r, p) + " vc" + std::to_string(v) +
                     " waits on the failed link " + topo_.router_name(r) + "." + topo_.port_name(r, q);
        }
  return "";
}

}  // namespace icn::vc
