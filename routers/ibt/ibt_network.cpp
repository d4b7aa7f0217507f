#include "routers/ibt/ibt_network.hpp"


#include <algorithm>
#include <cstdio>

namespace icn::ibt {

namespace {
std::string router_name(const IbtTopology& topo, NodeId x) {
  std::string s = "r";
  for (unsigned i = 0; i < topo.d(); ++i) s += (i ? "_" : "") + std::to_string(topo.coord(x, i));
  return s;
}
}  // namespace

IbtNetwork::IbtNetwork(sc_core::sc_module_name name, const IbtTopology& topology, unsigned packets,
                       ForwardOrder order, CycleEngine& engine, PacketPool& pool, TrafficLedger& ledger,
                       DeliverySink* sink, const EjectionSwap& swap)
    : sc_module(name), topology_(topology), ports_(topology.ports()),
      shared_(topology, packets, order, pool, ledger, sink) {
  shared_.swap = swap;
  const NodeId nodes = topology_.nodes();
  routers_.reserve(nodes);
  for (NodeId x = 0; x < nodes; ++x) {
    routers_.push_back(std::make_unique<IbtRouter>(router_name(topology_, x).c_str(), x, shared_));
    engine.add(*routers_.back());
  }
  // The link leaving x on port q arrives at its neighbour y on port q^1.
  for (NodeId x = 0; x < nodes; ++x) {
    for (unsigned q = 0; q < ports_; ++q) {
      const NodeId y = topology_.neighbour(x, q);
      routers_[x]->connect(q, routers_[y]->in_link(q ^ 1u), routers_[y]->holdings());
    }
  }
}

std::uint64_t IbtNetwork::bypass_links() const {
  return topology_.has_bypass() ? 2ull * topology_.nodes() : 0;
}

std::uint64_t IbtNetwork::transfers() const {
  std::uint64_t sum = 0;
  for (auto v : shared_.activity.torus()) sum += v;
  for (auto v : shared_.activity.bypass()) sum += v;
  return sum;
}

std::vector<PortStats> IbtNetwork::port_stats() const {
  std::vector<PortStats> stats(ports_);
  for (unsigned q = 0; q < ports_; ++q) stats[q].port = topology_.port_name(q);
  for (const auto& r : routers_) {
    for (unsigned q = 0; q < ports_; ++q) {
      stats[q].transfers += r->output(q).transfers();
      stats[q].max_queue = std::max(stats[q].max_queue, r->output(q).max_backlog());
    }
  }
  return stats;
}

unsigned IbtNetwork::max_buffer() const {
  unsigned m = 0;
  for (const auto& r : routers_) m = std::max(m, r->max_buffer());
  return m;
}

void IbtNetwork::trace(WaveformTracer& tracer, const std::string& prefix, const std::vector<NodeId>& nodes) const {
  // Scopes: <prefix>.r<coords>.<port>.{tx,queue} (port x+ is written xp, x- xm); tx = packets started on the link this cycle,
  // queue = packets the port still owes its neighbour after the cycle.
  for (NodeId x : nodes) {
    const IbtRouter* r = routers_[x].get();
    const std::string base = prefix + "." + router_name(topology_, x) + ".";
    for (unsigned q = 0; q < ports_; ++q) {
      std::string port = base + topology_.port_name(q);
      port.back() = port.back() == '+' ? 'p' : 'm';  // VCD names: x+ -> xp, x- -> xm
      const IbtLink* c = &link(r->node(), q);
      const BroadcastPortArbiter* out = &r->output(q);
      tracer.add(port + ".tx", 1, [c](Cycle t) { return c->sent_in(t); });
      tracer.add(port + ".queue", bits_for(shared_.packets), [out](Cycle) { return out->backlog(); });
    }
  }
}

}  // namespace icn::ibt
