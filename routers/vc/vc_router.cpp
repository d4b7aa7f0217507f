#include "routers/vc/vc_router.hpp"

#include <stdexcept>

namespace icn::vc {

VcRouter::VcRouter(sc_core::sc_module_name name, unsigned id, const VcTopology& topo, const RouterParams& params,
                   PacketPool& pool)
    : sc_module(name), Clocked(Phase::kNetwork), id_(id), topo_(topo), params_(params), pool_(pool),
      ports_(topo.ports(id)), rng_(params.seed, id) {
  if (ports_ * params.vcs > kMaxArbiterInputs) throw std::invalid_argument("vc router: ports x VCs must be <= 64");
  // The arrival mask has 8 bits for flits and 8 for credits.
  use_mask_ = ports_ <= 8;
  in_.assign(ports_, nullptr);
  out_.assign(ports_, nullptr);
  credit_in_.assign(ports_, nullptr);
  credit_out_.assign(ports_, nullptr);
  inputs_.resize(ports_);
  outputs_.resize(ports_);
  for (auto& in : inputs_) in.resize(params.vcs, params.buffer_depth);
  for (auto& out : outputs_) out.resize(params.vcs, params.buffer_depth);
  vc_alloc_.resize(ports_, params.vcs, params.vc_allocator);
  sw_alloc_.resize(ports_, params.vcs);
  crossbar_.resize(ports_, params.sw_alloc_delay - 1 + params.st_delay);
  sa_ready_.assign(ports_, 0);
  sa_grant_.assign(ports_, -1);
}

void VcRouter::connect(unsigned port, FlitLink* in, FlitLink* out, CreditLink* credit_in, CreditLink* credit_out,
                       unsigned downstream_depth) {
  in_[port] = in;
  out_[port] = out;
  credit_in_[port] = credit_in;
  credit_out_[port] = credit_out;
  outputs_[port].resize(params_.vcs, downstream_depth);
  if (in) {
    if (in->latency() == 1 && use_mask_) in->connect_receiver(*this, arrivals_, port);
    else in->connect_receiver(*this), use_mask_ = false;
  }
  if (credit_in) {
    if (credit_in->latency() == 1 && use_mask_) credit_in->connect_receiver(*this, arrivals_, 8 + port);
    else credit_in->connect_receiver(*this), use_mask_ = false;
  }
}

Cycle VcRouter::tick(Cycle now) {
  // Credits first: a credit that arrives now can be used by this cycle's
  // switch allocation.
  if (use_mask_) {
    std::uint32_t& word = arrivals_.ports[now & 1u];
    for (std::uint32_t w = word >> 8; w != 0; w &= w - 1) {
      const unsigned p = static_cast<unsigned>(__builtin_ctz(w));
      credit_in_[p]->receive(now, [&](const Credit& c) { outputs_[p].credits.restore(c.vc); });
    }
    for (std::uint32_t w = word & 0xffu; w != 0; w &= w - 1) read_input(static_cast<unsigned>(__builtin_ctz(w)), now);
    word = 0;
  } else {
    for (unsigned p = 0; p < ports_; ++p) {
      if (credit_in_[p]) credit_in_[p]->receive(now, [&](const Credit& c) { outputs_[p].credits.restore(c.vc); });
    }
    for (unsigned p = 0; p < ports_; ++p)
      if (in_[p]) read_input(p, now);
  }
  // Switch traversal: flits granted the switch earlier leave on their links.
  crossbar_.leave(now, [&](unsigned p, const Flit& f) {
    out_[p]->send(now, f);
    engine()->note_progress();
  });
  if (heads_pending_) advance_heads(now);
  if (in_pipeline_ != 0) allocate_vcs(now);
  if (buffered_ != 0) allocate_switch(now);
  const bool busy = buffered_ != 0 || crossbar_.busy();
  return busy ? now + 1 : kNever;
}

void VcRouter::read_input(unsigned p, Cycle now) {
  {
    in_[p]->receive(now, [&](const Flit& f) {
      inputs_[p].buffer.push(f.vc, BufferedFlit{f, now + 1});  // buffer write takes this cycle
      ++buffered_;
      if (f.head()) heads_pending_ = true;
    });
  }
}

// Route computation: an idle VC whose front flit is a head starts routing in
// the cycle after its buffer write, and is ready for VC allocation
// routing_delay cycles later.
void VcRouter::advance_heads(Cycle now) {
  heads_pending_ = false;
  for (unsigned p = 0; p < ports_; ++p) {
    InputUnit& in = inputs_[p];
    for (unsigned v = 0; v < params_.vcs; ++v) {
      InputUnit::VcState& s = in.state[v];
      if (in.buffer.empty(v)) continue;
      if (s.stage != InputUnit::Stage::kIdle) {
        // A head behind the current packet's tail: look again once the VC is idle.
        if (in.buffer.size(v) > 1) heads_pending_ = true;
        continue;
      }
      const BufferedFlit& front = in.buffer.front(v);
      if (!front.flit.head()) throw std::logic_error(std::string(name()) + ": a body flit without its head");
      const Cycle start = front.ready > now ? front.ready : now;
      const Packet& pkt = pool_[front.flit.packet];
      const RouteChoice r = topo_.route(id_, p, pkt.src, pkt.dst, rng_);
      s.out_port = static_cast<std::uint8_t>(r.port);
      s.vc_mask = r.vc_mask;
      s.has_alt = r.has_alt;
      s.alt_port = static_cast<std::uint8_t>(r.alt_port);
      s.stage = InputUnit::Stage::kVcAlloc;
      s.next = start + params_.routing_delay;
      s.arrived = front.ready - 1;
      s.routed = s.next;
      s.waiting_since = now;
      ++in_pipeline_;
    }
  }
}

void VcRouter::allocate_vcs(Cycle now) {
  const unsigned V = params_.vcs;
  bool any = false;
  for (unsigned p = 0; p < ports_; ++p) {
    for (unsigned v = 0; v < V; ++v) {
      const InputUnit::VcState& s = inputs_[p].state[v];
      std::uint64_t req = 0;
      if (s.stage == InputUnit::Stage::kVcAlloc && s.next <= now) {
        req = (outputs_[s.out_port].free_vcs() & s.vc_mask) << (s.out_port * V);
        if (s.has_alt) req |= (outputs_[s.alt_port].free_vcs() & s.vc_mask) << (s.alt_port * V);
        if (failed_outputs_ != 0) {  // never onto a failed link (adaptive routing takes the other port)
          if (output_failed(s.out_port)) req &= ~(all_vcs_ << (s.out_port * V));
          if (s.has_alt && output_failed(s.alt_port)) req &= ~(all_vcs_ << (s.alt_port * V));
        }
        any = any || req != 0;
      }
      vc_alloc_.requests[p * V + v] = req;
    }
  }
  if (!any) return;
  vc_alloc_.run();
  for (unsigned i = 0; i < ports_ * V; ++i) {
    const int g = vc_alloc_.grants[i];
    if (g < 0) continue;
    InputUnit::VcState& s = inputs_[i / V].state[i % V];
    const unsigned out_vc = static_cast<unsigned>(g) % V;
    s.out_port = static_cast<std::uint8_t>(static_cast<unsigned>(g) / V);  // adaptive: the port granted
    outputs_[s.out_port].owner[out_vc] = static_cast<std::uint16_t>(i);
    s.out_vc = static_cast<std::uint8_t>(out_vc);
    s.stage = InputUnit::Stage::kActive;
    s.next = now + params_.vc_alloc_delay;
    s.vc_granted = now;
    --in_pipeline_;
  }
}

void VcRouter::allocate_switch(Cycle now) {
  const unsigned V = params_.vcs;
  bool any = false;
  for (unsigned p = 0; p < ports_; ++p) {
    std::uint64_t ready = 0;
    const InputUnit& in = inputs_[p];
    for (unsigned v = 0; v < V; ++v) {
      const InputUnit::VcState& s = in.state[v];
      if (s.stage != InputUnit::Stage::kActive || s.next > now || in.buffer.empty(v)) continue;
      if (in.buffer.front(v).ready > now) continue;
      if (outputs_[s.out_port].credits.available(s.out_vc) == 0) continue;
      ready |= std::uint64_t{1} << v;
    }
    sa_ready_[p] = ready;
    any = any || ready != 0;
  }
  if (!any) return;
  sw_alloc_.run(sa_ready_.data(), [&](unsigned p, int v) { return inputs_[p].state[v].out_port; }, sa_grant_.data());
  for (unsigned p = 0; p < ports_; ++p) {
    const int v = sa_grant_[p];
    if (v < 0) continue;
    InputUnit& in = inputs_[p];
    InputUnit::VcState& s = in.state[v];
    Flit f = in.buffer.pop(v).flit;
    --buffered_;
    credit_out_[p]->send(now, Credit{static_cast<std::uint8_t>(v)});  // the entry is free again
    OutputUnit& out = outputs_[s.out_port];
    out.credits.consume(s.out_vc);
    if (f.head()) {
      ++pool_[f.packet].hops;  // routers traversed
      if (stages_) record_stages((*stages_)[f.packet], s, now);
    }
    f.vc = s.out_vc;
    crossbar_.traverse(s.out_port, now, f);
    s.waiting_since = now;
    if (f.tail()) {
      out.owner[s.out_vc] = kFree;
      s.stage = InputUnit::Stage::kIdle;
      if (!in.buffer.empty(v)) heads_pending_ = true;  // the next packet's head
    }
  }
}

// The head won the switch in `now`: split its time here into stages
// (stage_log.hpp); it leaves on the link crossbar_.delay() cycles later.
void VcRouter::record_stages(PacketStages& st, const InputUnit::VcState& s, Cycle now) const {
  const Cycle sent = now + crossbar_.delay();
  const Cycle may_request_switch = s.vc_granted + params_.vc_alloc_delay;
  st.links += static_cast<std::uint32_t>(s.arrived - st.last_send);
  st.routing += static_cast<std::uint32_t>(s.routed - (s.arrived + 1));
  st.vc_alloc += static_cast<std::uint32_t>(may_request_switch - s.routed);
  st.sw_alloc += static_cast<std::uint32_t>(now + params_.sw_alloc_delay - may_request_switch);
  st.traversal += static_cast<std::uint32_t>(sent + 1 - (now + params_.sw_alloc_delay));
  st.last_send = sent;
}

void VcRouter::fail_output(unsigned port) {
  outputs_[port].credits.reset(params_.vcs, 0);
  failed_outputs_ |= std::uint64_t{1} << port;
  all_vcs_ = params_.vcs == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params_.vcs) - 1;
}

bool VcRouter::waits_on_failed(unsigned port, unsigned vc) const {
  const InputUnit::VcState& s = inputs_[port].state[vc];
  if (inputs_[port].buffer.empty(vc) || s.stage == InputUnit::Stage::kIdle || s.stage == InputUnit::Stage::kRouting)
    return false;
  return output_failed(s.out_port) || (s.stage == InputUnit::Stage::kVcAlloc && s.has_alt && output_failed(s.alt_port));
}

bool VcRouter::waits_on_credit(unsigned port, unsigned vc, unsigned& out_port, unsigned& out_vc) const {
  const InputUnit::VcState& s = inputs_[port].state[vc];
  if (s.stage != InputUnit::Stage::kActive || inputs_[port].buffer.empty(vc)) return false;
  if (outputs_[s.out_port].credits.available(s.out_vc) != 0) return false;
  out_port = s.out_port;
  out_vc = s.out_vc;
  return true;
}

std::vector<unsigned> VcRouter::waits_on_vc(unsigned port, unsigned vc) const {
  std::vector<unsigned> owners;
  const InputUnit::VcState& s = inputs_[port].state[vc];
  if (s.stage != InputUnit::Stage::kVcAlloc || inputs_[port].buffer.empty(vc)) return owners;
  const OutputUnit& out = outputs_[s.out_port];
  if ((out.free_vcs() & s.vc_mask) != 0) return owners;
  for (unsigned v = 0; v < params_.vcs; ++v)
    if (((s.vc_mask >> v) & 1u) && out.owner[v] != kFree) owners.push_back(out.owner[v]);
  return owners;
}

void VcRouter::report_held(std::vector<HeldTraffic>& out) const {
  for (unsigned p = 0; p < ports_; ++p) {
    const InputUnit& in = inputs_[p];
    for (unsigned v = 0; v < params_.vcs; ++v) {
      if (in.buffer.empty(v)) continue;
      const InputUnit::VcState& s = in.state[v];
      const Packet& pkt = pool_[in.buffer.front(v).flit.packet];
      std::string why;
      if (s.stage != InputUnit::Stage::kIdle && output_failed(s.out_port))
        why = "waits on the failed link " + topo_.port_name(id_, s.out_port);
      else if (s.stage == InputUnit::Stage::kActive)
        why = outputs_[s.out_port].credits.available(s.out_vc) == 0
                  ? "waits for a credit of " + topo_.port_name(id_, s.out_port) + " vc" + std::to_string(s.out_vc)
                  : "waits for the switch to " + topo_.port_name(id_, s.out_port);
      else
        why = "waits for a free VC on " + topo_.port_name(id_, s.out_port);
      out.push_back({std::string(name()) + " input " + topo_.port_name(id_, p) + " vc" + std::to_string(v),
                     in.buffer.size(v),
                     "packet " + std::to_string(pkt.src) + " -> " + std::to_string(pkt.dst) + " " + why,
                     s.waiting_since});
    }
  }
}

}  // namespace icn::vc
