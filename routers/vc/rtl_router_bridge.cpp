#include "routers/vc/rtl_router_bridge.hpp"

#include <stdexcept>

#include "models/config.hpp"
#include "models/rng.hpp"
#include "models/trace.hpp"

namespace icn::vc {

std::string rtl_router_waveform_file(const std::string& waveform_file, const std::string& router_name) {
  const std::string rtl = WaveformTracer::rtl_file_for(waveform_file), suffix = ".rtl.vcd";
  if (rtl.size() <= suffix.size() || rtl.compare(rtl.size() - suffix.size(), suffix.size(), suffix) != 0) return rtl;
  return rtl.substr(0, rtl.size() - suffix.size()) + "." + router_name + suffix;
}

RtlRouterBridge::RtlRouterBridge(std::string name, unsigned id, const MeshTorusTopology& topo, std::uint64_t seed,
                                 PacketPool& pool, std::shared_ptr<const RtlRouterModule> module)
    : Clocked(Phase::kNetwork), name_(std::move(name)), id_(id), topo_(topo), pool_(pool), module_(std::move(module)),
      ports_(topo.ports(id)), coord_w_(module_->info().coord_w) {
  links_.assign(ports_, PortLinks{});
  buffered_.assign(std::size_t{ports_} * topo.vcs(), 0);
  icnsim_rtl_router_straps s{};
  s.router_id = id;
  s.coord = address(id);  // one node per router: router r is node r
  for (unsigned d = 0; d < topo.n(); ++d) s.last_coord |= std::uint64_t{topo.side(d) - 1} << (d * coord_w_);
  const bool torus = topo.kind() == TopologyKind::kTorus;
  s.torus = torus ? 1 : 0;
  const TorusOptions& o = topo.torus_options();
  s.route_cfg = (topo.dateline() ? 1u : 0u) | (o.classes == DatelineClasses::kWholeDimension ? 2u : 0u) |
                (o.random_ties ? 4u : 0u);
  // The state of Rng(seed, id) (models/rng.hpp), word 0 lowest.
  std::uint64_t st = seed ^ (static_cast<std::uint64_t>(id) * 0xd1342543de82ef95ULL);
  for (auto& w : s.seed) w = splitmix64(st);
  model_ = module_->create(s);
  if (model_ == nullptr)
    throw ConfigError("router.rtl: the module could not create router " + name_ + " (its create entry point returned NULL)");
}

RtlRouterBridge::~RtlRouterBridge() {
  if (model_ == nullptr) return;
  finish_trace();
  module_->destroy(model_);
}

std::uint64_t RtlRouterBridge::address(NodeId n) const {
  std::uint64_t a = 0;
  for (unsigned d = 0; d < topo_.n(); ++d) a |= std::uint64_t{topo_.coord(n, d)} << (d * coord_w_);
  return a;
}

void RtlRouterBridge::connect(unsigned port, Link<Flit>* in, Link<Flit>* out, Link<Credit>* credit_in,
                              Link<Credit>* credit_out) {
  links_[port] = PortLinks{in, out, credit_in, credit_out};
  if (in) in->connect_receiver(*this);
  if (credit_in) credit_in->connect_receiver(*this);
}

void RtlRouterBridge::read_inputs(Cycle now) {
  for (unsigned p = 0; p < ports_; ++p) {
    in_.credit[p].valid = 0;
    in_.flit[p].valid = 0;
    const PortLinks& l = links_[p];
    if (l.credit_in) l.credit_in->receive(now, [&](const Credit& c) { in_.credit[p] = {1, c.vc}; });
    if (l.in)
      l.in->receive(now, [&](const Flit& f) {
        icnsim_rtl_flit& x = in_.flit[p];
        const Packet& pkt = pool_[f.packet];
        x.valid = 1;
        x.head = f.head() ? 1 : 0;
        x.tail = f.tail() ? 1 : 0;
        x.vc = f.vc;
        x.src = address(pkt.src);
        x.dst = address(pkt.dst);
        x.payload = f.packet;
        ++flits_in_;
        ++inside_[f.packet];
        ++buffered_[p * topo_.vcs() + f.vc];
        if (f.head() && stages_ != nullptr) head_arrived_[f.packet] = now;
      });
  }
}

Cycle RtlRouterBridge::tick(Cycle now) {
  read_inputs(now);
  module_->evaluate(model_, in_, out_);
  if (tracing_ && tracer_->in_window(now)) module_->trace_dump(model_, now * time_per_cycle_);
  for (unsigned p = 0; p < ports_; ++p) {
    if (out_.credit[p].valid) {
      const unsigned vc = out_.credit[p].vc;
      if (links_[p].credit_out == nullptr || vc >= topo_.vcs())
        broke_contract(now, "it returned a credit on port " + topo_.port_name(id_, p) + " for VC " + std::to_string(vc) +
                                " (an unconnected port or a VC the network does not have)");
      if (buffered_[p * topo_.vcs() + vc]-- == 0)
        broke_contract(now, "it returned a credit on port " + topo_.port_name(id_, p) + " VC " + std::to_string(vc) +
                                " for a flit it did not hold");
      links_[p].credit_out->send(now, Credit{static_cast<std::uint8_t>(vc)});
      ++credits_out_;
    }
    const icnsim_rtl_flit& x = out_.flit[p];
    if (!x.valid) continue;
    if (links_[p].out == nullptr || x.vc >= topo_.vcs())
      broke_contract(now, "it sent a flit on port " + topo_.port_name(id_, p) + " VC " + std::to_string(x.vc) +
                              " (an unconnected port or a VC the network does not have)");
    // The payload's low 32 bits carry the packet handle icnsim gave the flit
    // that entered: a flit of no packet inside the router is not one of ours.
    const auto held = x.payload <= 0xffffffffu ? inside_.find(static_cast<PacketId>(x.payload)) : inside_.end();
    if (held == inside_.end())
      broke_contract(now, "it sent a flit on port " + topo_.port_name(id_, p) + " with payload " +
                              std::to_string(x.payload) + ", the handle of no packet it holds");
    if (--held->second == 0) inside_.erase(held);
    Flit f;
    f.packet = static_cast<PacketId>(x.payload);
    f.vc = x.vc;
    f.bits = static_cast<std::uint8_t>((x.head ? Flit::kHead : 0) | (x.tail ? Flit::kTail : 0));
    if (f.head()) head_leaves(f, now);
    links_[p].out->send(now, f);
    engine()->note_progress();
    ++flits_out_;
  }
  module_->clock(model_);
  ++clocked_;
  return flits_in_ != flits_out_ || flits_in_ != credits_out_ ? now + 1 : kNever;
}

// As VcRouter's switch grant of a head: hop count and livelock check; the
// stage log gets the router's whole time as switch allocation plus one cycle
// of traversal (the RTL's stages are not visible from outside).
void RtlRouterBridge::head_leaves(const Flit& f, Cycle now) {
  Packet& pkt = pool_[f.packet];
  if (++pkt.hops > topo_.routers())
    broke_contract(now, "packet " + std::to_string(pkt.src) + " -> " + std::to_string(pkt.dst) + " has crossed " +
                            std::to_string(pkt.hops) + " routers, more than the network has (a livelock: its route)");
  if (stages_ == nullptr) return;
  PacketStages& st = (*stages_)[f.packet];
  auto it = head_arrived_.find(f.packet);
  const Cycle arrived = it != head_arrived_.end() ? it->second : now;
  if (it != head_arrived_.end()) head_arrived_.erase(it);
  st.links += static_cast<std::uint32_t>(arrived - st.last_send);
  const Cycle inside = now - arrived;
  st.sw_alloc += static_cast<std::uint32_t>(inside > 0 ? inside - 1 : 0);
  st.traversal += inside > 0 ? 1u : 0u;
  st.last_send = now;
}

bool RtlRouterBridge::trace_to(const std::string& path, const WaveformTracer& tracer) {
  if (!module_->traceable()) return false;
  time_per_cycle_ = tracer.time_per_cycle();
  tracer_ = &tracer;
  tracing_ = true;
  module_->trace_open(model_, path, tracer.timescale());  // a failure: finish_trace() says why
  return true;
}

std::string RtlRouterBridge::finish_trace() {
  if (!tracing_) return "";
  tracing_ = false;
  return module_->trace_close(model_);
}

void RtlRouterBridge::broke_contract(Cycle now, const std::string& what) const {
  throw HardwareFault("RTL router " + topo_.router_name(id_) + " broke the port contract (docs/rtl_router.md) in cycle " +
                      std::to_string(now) + ": " + what);
}

void RtlRouterBridge::report_held(std::vector<HeldTraffic>& out) const {
  if (flits_in_ == flits_out_) return;
  out.push_back({name_ + " (RTL)", static_cast<std::size_t>(flits_in_ - flits_out_), "flits inside the RTL router",
                 kNever});
}

}  // namespace icn::vc
