#include "routers/ibt/ibt_network.hpp"


#include <algorithm>
#include <cstdio>

namespace icn::ibt {

std::string router_name(const IbtTopology& topo, NodeId x) {
  std::string s = "r";
  for (unsigned i = 0; i < topo.d(); ++i) s += (i ? "_" : "") + std::to_string(topo.coord(x, i));
  return s;
}

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

std::string IbtNetwork::vcd_port(unsigned q) const {
  std::string port = topology_.port_name(q);
  port.back() = port.back() == '+' ? 'p' : 'm';  // VCD names: x+ -> xp, x- -> xm
  return port;
}

void IbtNetwork::follow(const std::vector<std::uint32_t>& packets) {
  if (packets.empty()) return;
  follower_ = std::make_unique<BroadcastFollower>(packets, topology_.nodes());
  shared_.follower = follower_.get();
}

namespace {

// The packet a link carries in cycle t: sent then, read by the receiver in t + 1.
PacketId packet_sent(const IbtLink* link, Cycle t) { return link->take(t + 1, kNoPacket); }

}  // namespace

// The packet bus of the link leaving router x on port q, as GTKWave rows
// <x>.<port>.pkt.{valid,packet,colour,src,hops,dup}, and the port's queue.
// Read at the end of the cycle the packet was sent, from the link's delay
// line and the packet's header: its number (0..k-1), colour (1..m, as the
// JSON's broadcast.colours), source node, links crossed (this one included).
// dup: the receiver will discard it, holding it already or taking the same
// packet this cycle on a lower-numbered input (it reads its inputs in port order).
void IbtNetwork::trace_port(WaveformTracer& tracer, const std::string& prefix, NodeId x, unsigned q) const {
  const std::string name = router_name(topology_, x), port = topology_.port_name(q);
  const std::string scope = prefix + "." + name + "." + vcd_port(q);
  const std::string group = name + "/" + port;
  auto row = [&](const std::string& leaf, TraceRow::Radix radix = TraceRow::Radix::kAuto) {
    return TraceRow{group, group + "/" + leaf, radix, ""};
  };
  const IbtLink* link = &this->link(x, q);
  const PacketPool* pool = &shared_.pool;
  auto field = [link, pool](Cycle t, auto get) -> std::uint32_t {
    const PacketId id = packet_sent(link, t);
    return id == kNoPacket ? 0u : get((*pool)[id]);
  };
  const std::string bus = scope + ".pkt.";
  const auto dec = TraceRow::Radix::kDecimal;
  tracer.add(bus + "valid", 1, [link](Cycle t) { return packet_sent(link, t) != kNoPacket ? 1u : 0u; }, row("pkt/valid"));
  tracer.add(bus + "packet", bits_for(shared_.packets - 1),
             [field](Cycle t) { return field(t, [](const Packet& p) { return p.seq; }); }, row("pkt/packet", dec));
  tracer.add(bus + "colour", bits_for(16),
             [field](Cycle t) { return field(t, [](const Packet& p) { return BroadcastRoute::colour_of(p.route) + 1; }); },
             row("pkt/colour", dec));
  tracer.add(bus + "src", bits_for(topology_.nodes() - 1),
             [field](Cycle t) { return field(t, [](const Packet& p) { return p.src; }); }, row("pkt/src", dec));
  tracer.add(bus + "hops", 16,
             [field](Cycle t) { return field(t, [](const Packet& p) { return std::min<std::uint32_t>(p.hops, 0xFFFF); }); },
             row("pkt/hops", dec));
  const IbtRouter* receiver = routers_[topology_.neighbour(x, q)].get();
  const unsigned in_port = q ^ 1u;
  tracer.add(bus + "dup", 1, [link, pool, receiver, in_port](Cycle t) {
    const PacketId id = packet_sent(link, t);
    if (id == kNoPacket) return 0u;
    const unsigned seq = (*pool)[id].seq;
    if (test(receiver->holdings().current(), seq)) return 1u;
    for (unsigned p = 0; p < in_port; ++p) {
      const PacketId other = packet_sent(&receiver->in_link(p), t);
      if (other != kNoPacket && (*pool)[other].seq == seq) return 1u;
    }
    return 0u;
  }, row("pkt/dup"));
  const BroadcastPortArbiter* out = &routers_[x]->output(q);
  tracer.add(scope + ".queue", bits_for(shared_.packets), [out](Cycle) { return out->backlog(); }, row("queue", dec));
}

void IbtNetwork::trace(WaveformTracer& tracer, const std::string& prefix, const std::vector<NodeId>& nodes,
                       const BroadcastNic* nic) {
  trace_prefix_ = prefix;
  traced_.assign(topology_.nodes(), false);
  if (follower_)
    for (const auto& [id, route] : follower_->routes())
      tracer.add_save_file(WaveformTracer::packet_save_file_for(tracer.path(), id),
                           [this, &tracer, id = id] { return packet_save_file(tracer, id); });
  // The NIC's router first: the first screen starts where the broadcast does.
  std::vector<NodeId> order;
  if (nic != nullptr && std::find(nodes.begin(), nodes.end(), nic->node()) != nodes.end()) order.push_back(nic->node());
  for (NodeId x : nodes)
    if (order.empty() || x != order.front()) order.push_back(x);
  const unsigned words = shared_.words;
  for (NodeId x : order) {
    traced_[x] = true;
    const IbtRouter* r = routers_[x].get();
    const std::string name = router_name(topology_, x);
    const std::string base = prefix + "." + name + ".";
    const auto dec = TraceRow::Radix::kDecimal;
    // What the router holds (its status vector's count), and what its
    // ejection port hands the processor in the cycle: the new packets it read
    // off its links (those crossed them in the cycle before). At the NIC's
    // router the new packets are the NIC's, not deliveries.
    tracer.add(base + "held", bits_for(shared_.packets), [r, words](Cycle) { return count(r->holdings().current(), words); },
               {name, name + "/held", dec, ""});
    const BroadcastNic* own_nic = nic != nullptr && nic->node() == x ? nic : nullptr;
    tracer.add(base + "eject.count", bits_for(shared_.packets), [r, words, own_nic](Cycle t) {
      const unsigned fresh = count(r->holdings().current(), words) - count(r->holdings().visible(t), words);
      return fresh - (own_nic != nullptr ? std::min(fresh, own_nic->accepted_in(t)) : 0u);
    }, {name, name + "/eject/count", dec, ""});
    if (own_nic != nullptr) {
      const std::string group = name + "/nic/inject";
      tracer.add(base + "nic.inject.count", bits_for(shared_.packets), [own_nic](Cycle t) { return own_nic->accepted_in(t); },
                 {group, group + "/count", dec, ""});
      tracer.add(base + "nic.inject.total", bits_for(shared_.packets),
                 [own_nic](Cycle) { return static_cast<std::uint32_t>(own_nic->accepted()); }, {group, group + "/total", dec, ""});
    }
    for (unsigned q = 0; q < ports_; ++q) trace_port(tracer, prefix, x, q);
  }
}

}  // namespace icn::ibt
