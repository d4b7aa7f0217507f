#include "routers/vc/vc_network.hpp"

#include <functional>
#include <map>

namespace icn::vc {

VcNetwork::VcNetwork(sc_core::sc_module_name name, const VcTopology& topo, const NetworkParams& params,
                     CycleEngine& engine, PacketPool& pool, TrafficLedger& ledger)
    : sc_module(name), topo_(topo), params_(params) {
  const unsigned R = topo.routers();
  const unsigned P = topo.ports();
  const unsigned L = params.link_latency;
  const unsigned LC = params.link_latency + params.credit_delay;
  flit_out_.reserve(R * P);
  credit_out_.reserve(R * P);
  for (unsigned i = 0; i < R * P; ++i) {
    flit_out_.emplace_back(1, L);
    flit_out_.back().set_strict(true);
    credit_out_.emplace_back(1, LC);
  }
  inject_.reserve(R);
  eject_credit_.reserve(R);
  for (unsigned r = 0; r < R; ++r) {
    inject_.emplace_back(1, L);
    inject_.back().set_strict(true);
    eject_credit_.emplace_back(1, LC);
  }
  for (unsigned r = 0; r < R; ++r) {
    routers_.push_back(std::make_unique<VcRouter>(topo.router_name(r).c_str(), r, topo, params.router, pool));
    routers_.back()->set_stage_log(&stages_);
    engine.add(*routers_.back());
  }
  for (unsigned r = 0; r < R; ++r) {
    VcRouter& rt = *routers_[r];
    const unsigned depth = params.router.buffer_depth;
    // Port 0: the NIC.
    rt.connect(0, &inject_[r], &flit_out_[r * P], &eject_credit_[r], &credit_out_[r * P], depth);
    for (unsigned p = 1; p < P; ++p) {
      const int nb = topo.neighbor(r, p);
      if (nb < 0) continue;
      const unsigned q = VcTopology::opposite(p);
      // Flits in on p come from the neighbour's output q; our credits for them
      // go back on our credit link of input p; credits for our output p come
      // from the neighbour's input q.
      rt.connect(p, &flit_out_[nb * P + q], &flit_out_[r * P + p], &credit_out_[nb * P + q], &credit_out_[r * P + p],
                 depth);
      channels_.push_back({topo.router_name(r) + "." + VcTopology::port_name(p), &flit_out_[r * P + p]});
    }
  }
  for (unsigned n = 0; n < R; ++n) {
    VcNic::Params np;
    np.node = n;
    np.nodes = R;
    np.vcs = params.router.vcs;
    np.buffer_depth = params.router.buffer_depth;
    np.max_packet_flits = params.max_packet_flits;
    nics_.push_back(std::make_unique<VcNic>(("nic" + std::to_string(n)).c_str(), np, pool, ledger));
    nics_.back()->attach(&inject_[n], &credit_out_[n * P], &flit_out_[n * P], &eject_credit_[n]);
    nics_.back()->set_stage_log(&stages_);
    engine.add(*nics_.back());
  }
}

std::uint64_t VcNetwork::flits_buffered() const {
  std::uint64_t n = 0;
  for (const auto& r : routers_) n += r->buffered();
  return n;
}

std::string VcNetwork::waiting_cycle() const {
  const unsigned P = topo_.ports();
  const unsigned V = params_.router.vcs;
  const unsigned N = topo_.routers() * P * V;
  // The wait-for graph of input VCs: one waiting for a credit waits for the
  // downstream input VC it feeds; one waiting for a VC waits for the input VCs
  // of the same router that hold every VC it may take. A deadlock is a cycle.
  std::vector<std::vector<unsigned>> next(N);
  for (unsigned r = 0; r < topo_.routers(); ++r)
    for (unsigned p = 0; p < P; ++p)
      for (unsigned v = 0; v < V; ++v) {
        const unsigned id = (r * P + p) * V + v;
        unsigned op = 0, ov = 0;
        if (routers_[r]->waits_on_credit(p, v, op, ov)) {
          const int nb = topo_.neighbor(r, op);
          if (nb >= 0) next[id].push_back((nb * P + VcTopology::opposite(op)) * V + ov);
        }
        for (unsigned owner : routers_[r]->waits_on_vc(p, v)) next[id].push_back(r * P * V + owner);
      }
  auto label = [&](unsigned i) {
    const unsigned v = i % V, p = (i / V) % P, r = i / (V * P);
    return topo_.router_name(r) + " " + VcTopology::port_name(p) + " vc" + std::to_string(v);
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

void VcNetwork::trace(WaveformTracer& tracer, const std::string& prefix) {
  // Per channel: a flit sent this cycle (1 bit), and the credits the sender
  // holds for each downstream VC.
  const unsigned P = topo_.ports();
  for (unsigned r = 0; r < topo_.routers(); ++r) {
    for (unsigned p = 1; p < P; ++p) {
      if (topo_.neighbor(r, p) < 0) continue;
      const std::string base = prefix + "." + topo_.router_name(r) + "." + VcTopology::port_name(p);
      const FlitLink* link = &flit_out_[r * P + p];
      tracer.add(base + ".flit", 1, [link](Cycle t) { return link->sent_in(t); });
      const VcRouter* rt = routers_[r].get();
      for (unsigned v = 0; v < params_.router.vcs; ++v)
        tracer.add(base + ".credits_vc" + std::to_string(v), bits_for(params_.router.buffer_depth),
                   [rt, p, v](Cycle) { return rt->output(p).credits.available(v); });
    }
  }
}

}  // namespace icn::vc

namespace icn::vc {

void VcNetwork::fail_router_output(unsigned r, unsigned p) {
  routers_[r]->fail_output(p);
  flit_out_[r * topo_.ports() + p].set_failed(true);
}

void VcNetwork::fail_injection(NodeId n) {
  nics_[n]->fail_injection();
  inject_[n].set_failed(true);
}

std::string VcNetwork::stuck_at_failed_link() const {
  for (const auto& nic : nics_)
    if (nic->injection_failed() && nic->queued() != 0)
      return std::string(nic->name()) + " injection queue holds " + std::to_string(nic->queued()) +
             " packet(s) behind the failed link nic" + std::to_string(nic->node()) + ".up";
  for (unsigned r = 0; r < topo_.routers(); ++r)
    for (unsigned p = 0; p < topo_.ports(); ++p)
      for (unsigned v = 0; v < params_.router.vcs; ++v)
        if (routers_[r]->waits_on_failed(p, v)) {
          for (unsigned q = 0; q < topo_.ports(); ++q)
            if (routers_[r]->output_failed(q) && (routers_[r]->input(p).state[v].out_port == q ||
                                                  (routers_[r]->input(p).state[v].has_alt &&
                                                   routers_[r]->input(p).state[v].alt_port == q)))
              return topo_.router_name(r) + " input " + VcTopology::port_name(p) + " vc" + std::to_string(v) +
                     " waits on the failed link " + topo_.router_name(r) + "." + VcTopology::port_name(q);
        }
  return "";
}

}  // namespace icn::vc
