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
      shared_(topology, packets, order, pool, ledger, sink, engine.threads()) {
  shared_.network = this->name();
  shared_.swap = swap;
  shared_.ejection = &ejection_commit_;
  const NodeId nodes = topology_.nodes();
  routers_.build(nodes, shared_);
  for (NodeId x = 0; x < nodes; ++x) engine.add(*routers_[x]);
  engine.add(ejection_commit_);
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

void IbtNetwork::deliver_queued(Cycle now) {
  if (delivered_in_ == now) return;  // every worker that queued deliveries asked
  delivered_in_ = now;
  auto node_of = [](std::uint64_t d) { return d >> 32; };
  auto by_node = [&](std::uint64_t a, std::uint64_t b) { return node_of(a) < node_of(b); };
  // A worker's routers ran in its order (address order, usually node order):
  // stable sorting by node keeps each router's deliveries in port order.
  deliveries_.clear();
  for (RouterShared::WorkerShare& w : shared_.workers) {
    if (!std::is_sorted(w.deliveries.begin(), w.deliveries.end(), by_node))
      std::stable_sort(w.deliveries.begin(), w.deliveries.end(), by_node);
    const std::size_t middle = deliveries_.size();
    deliveries_.insert(deliveries_.end(), w.deliveries.begin(), w.deliveries.end());
    std::inplace_merge(deliveries_.begin(), deliveries_.begin() + static_cast<std::ptrdiff_t>(middle),
                       deliveries_.end(), by_node);
    w.deliveries.clear();
  }
  // The ejection port is wired to its own node's processor, unless a wiring
  // fault crossed it with another node's.
  for (std::uint64_t d : deliveries_) {
    const auto node = static_cast<NodeId>(node_of(d));
    const auto copy = static_cast<CopyWord>(d);
    EjectionPort::deliver(shared_.sink, shared_.ledger, shared_.swap.wired_to(node), shared_.packet(copy_packet(copy)),
                          copy_hops(copy), now);
  }
}

LinkActivity IbtNetwork::activity() const {
  LinkActivity sum;
  for (const RouterShared::WorkerShare& w : shared_.workers) {
    for (std::size_t t = 0; t < w.activity.torus().size(); ++t) sum.record(t, false, w.activity.torus()[t]);
    for (std::size_t t = 0; t < w.activity.bypass().size(); ++t) sum.record(t, true, w.activity.bypass()[t]);
  }
  return sum;
}

std::uint64_t IbtNetwork::duplicates() const {
  std::uint64_t sum = 0;
  for (const RouterShared::WorkerShare& w : shared_.workers) sum += w.duplicates;
  return sum;
}

std::uint64_t IbtNetwork::copies_held() const {
  std::int64_t sum = 0;
  for (const RouterShared::WorkerShare& w : shared_.workers) sum += w.copies;
  return static_cast<std::uint64_t>(sum);
}

std::uint64_t IbtNetwork::transfers() const {
  const LinkActivity a = activity();
  std::uint64_t sum = 0;
  for (auto v : a.torus()) sum += v;
  for (auto v : a.bypass()) sum += v;
  return sum;
}

std::vector<PortStats> IbtNetwork::port_stats() const {
  std::vector<PortStats> stats(ports_);
  for (unsigned q = 0; q < ports_; ++q) stats[q].port = topology_.port_name(q);
  for (NodeId x = 0; x < routers_.size(); ++x) {
    const IbtRouter* r = routers_[x];
    for (unsigned q = 0; q < ports_; ++q) {
      stats[q].transfers += r->output(q).transfers();
      stats[q].max_queue = std::max(stats[q].max_queue, r->output(q).max_backlog());
    }
  }
  return stats;
}

unsigned IbtNetwork::max_buffer() const {
  unsigned m = 0;
  for (NodeId x = 0; x < routers_.size(); ++x) m = std::max(m, routers_[x]->max_buffer());
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

// The copy a link carries in cycle t: sent then, read by the receiver in t + 1.
CopyWord copy_sent(const IbtLink* link, Cycle t) { return link->take(t + 1, kNoCopy); }

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
  const RouterShared* shared = &shared_;
  auto field = [link, shared](Cycle t, auto get) -> std::uint32_t {
    const CopyWord copy = copy_sent(link, t);
    return copy == kNoCopy ? 0u : get(shared->packet(copy_packet(copy)));
  };
  const std::string bus = scope + ".pkt.";
  const auto dec = TraceRow::Radix::kDecimal;
  tracer.add(bus + "valid", 1, [link](Cycle t) { return copy_sent(link, t) != kNoCopy ? 1u : 0u; }, row("pkt/valid"));
  tracer.add(bus + "packet", bits_for(shared_.packets - 1),
             [field](Cycle t) { return field(t, [](const Packet& p) { return p.seq; }); }, row("pkt/packet", dec));
  tracer.add(bus + "colour", bits_for(16),
             [field](Cycle t) { return field(t, [](const Packet& p) { return BroadcastRoute::colour_of(p.route) + 1; }); },
             row("pkt/colour", dec));
  tracer.add(bus + "src", bits_for(topology_.nodes() - 1),
             [field](Cycle t) { return field(t, [](const Packet& p) { return p.src; }); }, row("pkt/src", dec));
  tracer.add(bus + "hops", 16, [link](Cycle t) {
    const CopyWord copy = copy_sent(link, t);
    return copy == kNoCopy ? 0u : std::uint32_t{copy_hops(copy)};
  }, row("pkt/hops", dec));
  const IbtRouter* receiver = routers_[topology_.neighbour(x, q)];
  const unsigned in_port = q ^ 1u;
  tracer.add(bus + "dup", 1, [link, receiver, in_port](Cycle t) {
    const CopyWord copy = copy_sent(link, t);
    if (copy == kNoCopy) return 0u;
    const unsigned seq = copy_packet(copy);
    if (test(receiver->holdings().current(), seq)) return 1u;
    for (unsigned p = 0; p < in_port; ++p) {
      const CopyWord other = copy_sent(&receiver->in_link(p), t);
      if (other != kNoCopy && copy_packet(other) == seq) return 1u;
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
    const IbtRouter* r = routers_[x];
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
