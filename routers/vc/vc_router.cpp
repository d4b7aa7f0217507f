#include "routers/vc/vc_router.hpp"

#include <stdexcept>

namespace icn::vc {

VcRouter::VcRouter(const char* network, unsigned id, const VcTopology& topo, const RouterParams& params,
                   PacketPool& pool, std::pmr::memory_resource* arena)
    : Clocked(Phase::kNetwork), network_(network), id_(id), topo_(topo),
      params_{params.vcs, params.routing_delay, params.vc_alloc_delay, params.sw_alloc_delay}, pool_(pool),
      ports_(topo.ports(id)), rng_(params.seed, id), inputs_(arena), outputs_(arena),
      crossbar_(arena) {
  if (ports_ * params.vcs > kMaxRouterInputVcs)
    throw std::invalid_argument("vc router: ports x VCs must be <= " + std::to_string(kMaxRouterInputVcs));
  // The arrival mask has 8 bits for flits and 8 for credits.
  use_mask_ = ports_ <= 8;
  links_.assign(arena, ports_, PortLinks{});
  inputs_.resize(ports_, params.vcs, params.buffer_depth);
  outputs_.resize(ports_, params.vcs, params.buffer_depth);
  vc_alloc_.resize(ports_, params.vcs, params.vc_allocator, AllocatorOptions{params.alloc_iterations, params.vc_arbiter});
  sw_alloc_.resize(ports_, params.vcs, params.sw_arbiter);
  crossbar_.resize(ports_, params.sw_alloc_delay - 1 + params.st_delay);
  all_vcs_ = params.vcs == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params.vcs) - 1;
}

void VcRouter::record_grants() {
  if (!grants_) grants_ = std::make_unique<Grant[]>(ports_);
}

unsigned VcRouter::switch_grant(unsigned port, Cycle t) const {
  if (!grants_) throw std::logic_error(name() + ": switch grants are kept only after record_grants()");
  return grants_[port].cycle == t ? grants_[port].input + 1u : 0u;
}

std::string VcRouter::name() const { return std::string(network_) + "." + topo_.router_name(id_); }

void VcRouter::connect(unsigned port, FlitLink* in, FlitLink* out, CreditLink* credit_in, CreditLink* credit_out,
                       unsigned downstream_depth) {
  links_[port] = PortLinks{in, out, credit_in, credit_out};
  outputs_.reset_credits(port, downstream_depth);
  if (in) {
    if (in->latency() < Arrivals::kRows && use_mask_) in->connect_receiver(*this, arrivals_, port);
    else in->connect_receiver(*this), use_mask_ = false;
  }
  if (credit_in) {
    if (credit_in->latency() < Arrivals::kRows && use_mask_) credit_in->connect_receiver(*this, arrivals_, 8 + port);
    else credit_in->connect_receiver(*this), use_mask_ = false;
  }
}

void VcRouter::prefetch() const {
  // Its own fields, not the Clocked base before them (the engine's).
  const char* own = reinterpret_cast<const char*>(&network_);
  prefetch_lines(own, static_cast<std::size_t>(reinterpret_cast<const char*>(this + 1) - own));
  prefetch_elements(links_);
  // The links it reads, and its credit links upstream, which switch
  // traversal writes (their rows are inline: one line each).
  for (const PortLinks& l : links_) {
    if (l.in != nullptr) __builtin_prefetch(l.in);
    if (l.credit_in != nullptr) __builtin_prefetch(l.credit_in);
    if (l.credit_out != nullptr) __builtin_prefetch(l.credit_out);
  }
  inputs_.prefetch();
  outputs_.prefetch();
  crossbar_.prefetch();
}

Cycle VcRouter::tick(Cycle now) {
  // The clock runs (stats.activity clocked_cycles) in a cycle the router holds
  // a flit or receives a flit or a credit, whichever scheduler evaluates it.
  bool clocked = buffered_ != 0 || crossbar_.busy();
  // Credits first: a credit that arrives now can be used by this cycle's
  // switch allocation.
  if (use_mask_) {
    std::uint32_t& word = arrivals_.of(now);
    clocked = clocked || word != 0;
    for (std::uint32_t w = word >> 8; w != 0; w &= w - 1) {
      const unsigned p = static_cast<unsigned>(__builtin_ctz(w));
      links_[p].credit_in->receive(now, [&](const Credit& c) { outputs_.restore(p, c.vc); });
    }
    for (std::uint32_t w = word & 0xffu; w != 0; w &= w - 1) read_input(static_cast<unsigned>(__builtin_ctz(w)), now);
    word = 0;
  } else {
    for (unsigned p = 0; p < ports_; ++p) {
      if (links_[p].credit_in)
        links_[p].credit_in->receive(now, [&](const Credit& c) {
          outputs_.restore(p, c.vc);
          clocked = true;
        });
    }
    for (unsigned p = 0; p < ports_; ++p)
      if (links_[p].in) read_input(p, now);
  }
  if (clocked || buffered_ != 0) ++counts_.clocked_cycles;
  // Switch traversal: flits granted the switch earlier leave on their links.
  crossbar_.leave(now, [&](unsigned p, const Flit& f) {
    links_[p].out->send(now, f);
    engine()->note_progress();
  });
  // Route computation, VC allocation, switch allocation (docs/vc_router.md).
  if (inputs_.heads_pending())
    inputs_.compute_routes(now, params_.routing_delay, [&](unsigned p, const Flit& head) { return route(p, head); });
  if (inputs_.waiting_for_vc() != 0)
    vc_alloc_.allocate(now, params_.vc_alloc_delay, inputs_, outputs_, [&](unsigned port) { return output_failed(port); });
  if (buffered_ != 0)
    sw_alloc_.allocate(now, inputs_, outputs_, [&](unsigned p, unsigned v) { traverse(p, v, now); });
  const bool busy = buffered_ != 0 || crossbar_.busy();
  return busy ? now + 1 : kNever;
}

void VcRouter::read_input(unsigned p, Cycle now) {
  links_[p].in->receive(now, [&](const Flit& f) {
    inputs_.write(p * params_.vcs + f.vc, f, now);
    ++counts_.buffer_writes;
    ++buffered_;
  });
}

// The routing function for a head that arrived on input `p`, and the
// requests a failed output would have carried (network.failed_links).
RouteChoice VcRouter::route(unsigned p, const Flit& head) {
  const Packet& pkt = pool_[head.packet];
  const RouteChoice r = topo_.route(id_, p, pkt.src, pkt.dst, rng_);
  if (failed_ != nullptr) {
    if (output_failed(r.port)) ++failed_->requests[r.port];
    if (r.has_alt && output_failed(r.alt_port)) ++failed_->requests[r.alt_port];
  }
  return r;
}

void VcRouter::traverse(unsigned p, unsigned v, Cycle now) {
  const unsigned ivc = p * params_.vcs + v;
  const InputUnits::VcState& s = inputs_.state(ivc);
  Flit f = inputs_.pop(ivc).flit;
  --buffered_;
  ++counts_.buffer_reads;
  links_[p].credit_out->send(now, Credit{static_cast<std::uint8_t>(v)});  // the entry is free again
  outputs_.consume(s.out_port, s.out_vc);
  if (f.head()) {
    // Routers traversed. Every routing function here is minimal (dimension
    // order, west-first, up*/down*, HPAM's extended X-Y), so no route visits
    // a router twice: more hops than routers is a livelock - a routing
    // error - named at once instead of a run that never ends.
    if (++pool_[f.packet].hops > topo_.routers())
      throw std::logic_error(name() + ": packet " + std::to_string(pool_[f.packet].src) + " -> " +
                             std::to_string(pool_[f.packet].dst) + " has crossed " +
                             std::to_string(pool_[f.packet].hops) + " routers, more than the network has (livelock)");
    if (stages_) record_stages((*stages_)[f.packet], inputs_.times(ivc), now);
    if (follower_ != nullptr)
      if (PacketFollower::Copy* copy = follower_->copy(pool_[f.packet].message, f.packet)) {
        const InputUnits::VcTimes& t = inputs_.times(ivc);
        copy->hops.push_back({id_, p, v, s.out_port, s.out_vc, t.arrived, InputUnits::routed(t, params_.routing_delay),
                              t.vc_granted, now, now + crossbar_.delay()});
      }
  }
  f.vc = s.out_vc;
  if (grants_) grants_[s.out_port] = Grant{now, static_cast<std::uint16_t>(p)};
  crossbar_.traverse(s.out_port, now, f);
  ++counts_.crossbar;
  inputs_.times(ivc).waiting_since = now;
  if (f.tail()) {
    outputs_.release(s.out_port, s.out_vc);
    inputs_.packet_left(ivc);
  }
}

// The head won the switch in `now`: split its time here into stages
// (stage_log.hpp); it leaves on the link crossbar_.delay() cycles later.
void VcRouter::record_stages(PacketStages& st, const InputUnits::VcTimes& t, Cycle now) const {
  const Cycle sent = now + crossbar_.delay();
  const Cycle may_request_switch = t.vc_granted + params_.vc_alloc_delay;
  st.links += static_cast<std::uint32_t>(t.arrived - st.last_send);
  const Cycle routed = InputUnits::routed(t, params_.routing_delay);
  st.routing += static_cast<std::uint32_t>(routed - (t.arrived + 1));
  st.vc_alloc += static_cast<std::uint32_t>(may_request_switch - routed);
  st.sw_alloc += static_cast<std::uint32_t>(now + params_.sw_alloc_delay - may_request_switch);
  st.traversal += static_cast<std::uint32_t>(sent + 1 - (now + params_.sw_alloc_delay));
  st.last_send = sent;
}

void VcRouter::fail_output(unsigned port) {
  outputs_.reset_credits(port, 0);
  if (failed_ == nullptr) {
    failed_ = std::make_unique<Failures>();
    failed_->outputs.assign(mask_words(ports_), 0);
    failed_->requests.assign(ports_, 0);
  }
  failed_->outputs[port / 64] |= std::uint64_t{1} << (port % 64);
}

bool VcRouter::waits_on_failed(unsigned port, unsigned vc) const {
  const InputUnits::VcState& s = input_state(port, vc);
  if (s.size == 0 || s.stage == InputUnits::Stage::kIdle || s.stage == InputUnits::Stage::kRouting) return false;
  return output_failed(s.out_port) ||
         (s.stage == InputUnits::Stage::kVcAlloc && s.has_alt && output_failed(s.alt_port));
}

bool VcRouter::waits_on_credit(unsigned port, unsigned vc, unsigned& out_port, unsigned& out_vc) const {
  const InputUnits::VcState& s = input_state(port, vc);
  if (s.stage != InputUnits::Stage::kActive || s.size == 0) return false;
  if (outputs_.credits(s.out_port, s.out_vc) != 0) return false;
  out_port = s.out_port;
  out_vc = s.out_vc;
  return true;
}

std::vector<unsigned> VcRouter::waits_on_vc(unsigned port, unsigned vc) const {
  std::vector<unsigned> owners;
  const InputUnits::VcState& s = input_state(port, vc);
  if (s.stage != InputUnits::Stage::kVcAlloc || s.size == 0) return owners;
  if ((outputs_.free_vcs(s.out_port) & s.vc_mask) != 0) return owners;
  for (unsigned v = 0; v < params_.vcs; ++v)
    if (((s.vc_mask >> v) & 1u) && outputs_.owner(s.out_port, v) != kFree) owners.push_back(outputs_.owner(s.out_port, v));
  return owners;
}

void VcRouter::report_held(std::vector<HeldTraffic>& out) const {
  for (unsigned p = 0; p < ports_; ++p) {
    for (unsigned v = 0; v < params_.vcs; ++v) {
      const unsigned ivc = p * params_.vcs + v;
      if (inputs_.empty(ivc)) continue;
      const InputUnits::VcState& s = inputs_.state(ivc);
      const Packet& pkt = pool_[inputs_.front(ivc).flit.packet];
      std::string why;
      if (s.stage != InputUnits::Stage::kIdle && output_failed(s.out_port))
        why = "waits on the failed link " + topo_.port_name(id_, s.out_port);
      else if (s.stage == InputUnits::Stage::kActive)
        why = outputs_.credits(s.out_port, s.out_vc) == 0
                  ? "waits for a credit of " + topo_.port_name(id_, s.out_port) + " vc" + std::to_string(s.out_vc)
                  : "waits for the switch to " + topo_.port_name(id_, s.out_port);
      else
        why = "waits for a free VC on " + topo_.port_name(id_, s.out_port);
      out.push_back({name() + " input " + topo_.port_name(id_, p) + " vc" + std::to_string(v),
                     inputs_.size(ivc),
                     "packet " + std::to_string(pkt.src) + " -> " + std::to_string(pkt.dst) + " " + why,
                     inputs_.times(ivc).waiting_since});
    }
  }
}

}  // namespace icn::vc
