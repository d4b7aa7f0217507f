#include "routers/ibt/ibt_router.hpp"

#include <new>
#include <stdexcept>
#include <type_traits>

#include "models/prefetch.hpp"

namespace icn::ibt {

const char* to_string(ForwardOrder order) {
  switch (order) {
    case ForwardOrder::kDirectional: return "directional";
    case ForwardOrder::kPattern: return "pattern";
    case ForwardOrder::kArrival: return "arrival";
  }
  return "?";
}

RouterShared::RouterShared(const IbtTopology& topo, unsigned k, ForwardOrder o, PacketPool& p, TrafficLedger& l,
                           DeliverySink* s, unsigned threads)
    : topology(topo), packets(k), order(o), pool(p), ledger(l), sink(s), words(words_for(k)),
      originals(k, kNoPacket), workers(threads) {
  if (k == 0 || k > kMaxBroadcastPackets)
    throw std::invalid_argument("all-port router: k must be 1.." + std::to_string(kMaxBroadcastPackets) + " packets");
}

namespace {

std::size_t words_in_arena(unsigned ports, unsigned w) {
  return static_cast<std::size_t>(1 + 2 * ports + (w > 1 ? 2 : 0)) * w;
}

}  // namespace

std::size_t IbtRouter::arena_bytes(const RouterShared& shared) {
  static_assert(alignof(IbtLink) <= alignof(Word) && alignof(Port) <= alignof(Word) &&
                std::is_trivially_destructible_v<IbtLink> && std::is_trivially_destructible_v<Port>);
  const unsigned ports = shared.topology.ports();
  return (sizeof(IbtLink) + sizeof(Port)) * ports + words_in_arena(ports, shared.words) * sizeof(Word);
}

IbtRouter::IbtRouter(NodeId node, RouterShared& shared, std::byte* arena)
    : Clocked(Phase::kNetwork), node_(node), shared_(shared), ports_count_(shared.topology.ports()) {
  const unsigned w = shared_.words;
  const std::size_t links_bytes = sizeof(IbtLink) * ports_count_;
  const std::size_t ports_bytes = sizeof(Port) * ports_count_;
  const std::size_t words = words_in_arena(ports_count_, w);
  in_ = reinterpret_cast<IbtLink*>(arena);
  ports_ = reinterpret_cast<Port*>(arena + links_bytes);
  Word* bits = reinterpret_cast<Word*>(arena + links_bytes + ports_bytes);
  bits_ = bits;
  for (unsigned q = 0; q < ports_count_; ++q) {
    new (&in_[q]) IbtLink();
    new (&ports_[q]) Port();
  }
  for (std::size_t i = 0; i < words; ++i) new (&bits[i]) Word(0);
  store_.attach(bits + (1 + 2 * ports_count_) * w, bits, w, shared_.packets, shared_.order == ForwardOrder::kArrival);
  for (unsigned q = 0; q < ports_count_; ++q) {
    in_[q].connect_receiver(*this, arrivals_, q);
  }
}

std::string IbtRouter::name() const { return shared_.network + "." + router_name(shared_.topology, node_); }

void IbtRouter::connect(unsigned port, IbtLink& out, const HoldingsRegister& neighbour) {
  ports_[port].out.connect(out, neighbour);
}

unsigned IbtRouter::colour_ports(const Packet& p) {
  const std::uint32_t key = BroadcastRoute::broadcast_key(p.route);
  if (source_ == kNoNode) {
    const IbtTopology& topo = shared_.topology;
    source_ = p.src;
    broadcast_key_ = key;
    offsets_.d = topo.d();
    offsets_.n = topo.n();
    for (unsigned i = 0; i < topo.d(); ++i)
      offsets_.offset[i] = (topo.coord(node_, i) + topo.n() - topo.coord(p.src, i)) % topo.n();
    offsets_.bypass_dim = topo.has_bypass() ? static_cast<int>(topo.bypass_dim(node_)) : -1;
  } else if (p.src != source_ || key != broadcast_key_) {
    throw std::logic_error(std::string(name()) + ": " + describe_packet(p) +
                           " belongs to a second broadcast; a router serves one broadcast per run");
  }
  const unsigned colour = BroadcastRoute::colour_of(p.route);
  if ((colour_known_ & (1u << colour)) == 0) {
    colour_ports_[colour] = static_cast<std::uint16_t>(BroadcastRouteUnit::ports(BroadcastRoute::unpack(p.route), offsets_));
    colour_known_ |= static_cast<std::uint16_t>(1u << colour);
  }
  return colour_ports_[colour];
}

void IbtRouter::accept(CopyWord copy, Cycle now, bool injected, unsigned in_port, RouterShared::WorkerShare& mine) {
  const unsigned seq = copy_packet(copy);
  const Packet& p = shared_.packet(seq);
  const unsigned mask = colour_ports(p);
  if (store_.holds(seq)) {
    ++mine.duplicates;  // it came by two routes; the first copy already went on
    --mine.copies;
    return;
  }
  store_.record(seq, now);
  if (shared_.follower != nullptr) shared_.follower->arrived(p, node_, in_port, now);
  if (!injected) {
    // To the ejection port: delivered to the processor when the network commits the cycle.
    if (mine.deliveries.empty()) engine()->request_commit(*shared_.ejection);
    mine.deliveries.push_back(std::uint64_t{node_} << 32 | copy);
  }
  if (!injected) ++counters_.ejections;  // through the crossbar to the ejection port
  for (unsigned q = 0; q < ports_count_; ++q) {
    if (mask & (1u << q)) BroadcastPortArbiter::make_eligible(sets(q), seq);
  }
  if ((mask & failed_ports_) != 0) note_failed_requests(mask & failed_ports_, seq, now);
  if (mask != 0) {
    store_.keep(seq, copy_hops(copy));
    ++counters_.store_writes;
  } else {
    --mine.copies;
  }
}

// The failed ports among those a new packet may use owe it to every
// neighbour that does not hold it yet: the packets they would have carried.
void IbtRouter::note_failed_requests(unsigned ports, unsigned packet, Cycle now) {
  for (; ports != 0; ports &= ports - 1) {
    BroadcastPortArbiter& out = ports_[__builtin_ctz(ports)].out;
    if (out.connected() && !out.neighbour_holds(now, packet)) out.note_failed_request();
  }
}

// In the processor phase: the NIC wrote packet p of the broadcast. The first
// copy of each p becomes the network's record of it.
void IbtRouter::inject(PacketId packet, Cycle now) {
  const Packet& p = shared_.pool[packet];
  if (p.seq >= shared_.packets) {
    throw std::logic_error(std::string(name()) + ": " + describe_packet(p) + " has no buffer slot (k = " +
                           std::to_string(shared_.packets) + ")");
  }
  PacketId& original = shared_.originals[p.seq];
  if (original == kNoPacket) {
    original = packet;
  } else if (const Packet& first = shared_.pool[original]; first.src != p.src || first.route != p.route) {
    throw std::logic_error(std::string(name()) + ": " + describe_packet(p) +
                           " belongs to a second broadcast; a network serves one broadcast per run");
  }
  // The processor phase runs on one thread: any worker's share will do.
  RouterShared::WorkerShare& mine = shared_.workers[0];
  ++mine.copies;
  accept(copy_word(p.seq, p.hops), now, true, BroadcastFollower::kFromNic, mine);
  if (original != packet) shared_.pool.release(packet);  // a second copy of p from the NIC: the record stays the first
  engine()->wake(*this, now);
}

PortOrder IbtRouter::order_for(unsigned port, const Packet& p) const {
  const IbtTopology& topo = shared_.topology;
  const bool positive = IbtTopology::port_positive(port);
  const bool pattern_here = p.src == node_ || shared_.order == ForwardOrder::kPattern;
  if (pattern_here) {
    const unsigned bit = topo.is_bypass_port(port) ? (positive ? kPatternBypassPlus : kPatternBypassMinus)
                                                   : (positive ? kPatternTorusPlus : kPatternTorusMinus);
    return (BroadcastRoute::pattern_of(p.route) >> bit) & 1u ? PortOrder::kDescending : PortOrder::kAscending;
  }
  if (shared_.order == ForwardOrder::kArrival) return PortOrder::kArrival;
  return positive ? PortOrder::kAscending : PortOrder::kDescending;
}

unsigned IbtRouter::select(unsigned port, const Word* candidates) {
  const unsigned w = shared_.words;
  const unsigned first = static_cast<unsigned>(lowest(candidates, w));
  const Packet& head = shared_.packet(first);
  const PortOrder order = order_for(port, head);
  if (order == PortOrder::kAscending) return first;
  // The order applies within the lowest candidate's colour.
  const unsigned colour = BroadcastRoute::colour_of(head.route);
  auto same_colour = [&](unsigned p) { return BroadcastRoute::colour_of(shared_.packet(p).route) == colour; };
  if (order == PortOrder::kDescending) {
    for (int p = highest(candidates, w); p >= 0; --p) {
      if (test(candidates, static_cast<unsigned>(p)) && same_colour(static_cast<unsigned>(p))) return static_cast<unsigned>(p);
    }
    return first;
  }
  unsigned best = first;
  for (unsigned p = first + 1; p < w * 64; ++p) {
    if (test(candidates, p) && same_colour(p) && store_.arrival_rank(p) < store_.arrival_rank(best)) best = p;
  }
  return best;
}

Cycle IbtRouter::tick(Cycle now) {
  ++counters_.clocked_cycles;
  RouterShared::WorkerShare& mine = shared_.workers[owner()];
  // Only the links marked in this cycle's arrival mask carry a packet; read them in port order.
  std::uint32_t& marked = arrivals_.ports[now & 1u];
  for (std::uint32_t ports = marked; ports != 0; ports &= ports - 1) {
    const unsigned q = static_cast<unsigned>(__builtin_ctz(ports));
    const CopyWord copy = in_[q].take(now, kNoCopy);
    if (copy != kNoCopy) accept(copy, now, false, q, mine);
  }
  marked = 0;
  const unsigned w = shared_.words;
  // A port with packets it has not sent reads its neighbour's holdings
  // below: start those loads together (an iBT's bypass neighbours lie far
  // away in memory; 10% of the iBT run). Every port would cost the torus.
  for (unsigned q = 0; q < ports_count_; ++q) ports_[q].out.prefetch_neighbour(sets(q), w);
  Word candidates[kMaxBroadcastPackets / 64];
  Word pending[kMaxBroadcastPackets / 64];
  std::fill(pending, pending + w, Word{0});
  bool owing = false;
  bool moved = false;
  for (unsigned q = 0; q < ports_count_; ++q) {
    Port& port = ports_[q];
    if (!port.out.connected()) continue;
    if (!port.out.candidates(sets(q), now, w, candidates)) {
      port.out.note_backlog(0);
      port.waiting_since = kNever;
      continue;
    }
    if (port.waiting_since == kNever) port.waiting_since = now;
    IbtLink& link = *port.out.link();
    bool sent = false;
    if (link.free(now)) {
      const unsigned p = select(q, candidates);
      // The copy sent has crossed one link more than the one kept here.
      link.send(now, copy_word(p, static_cast<std::uint16_t>(store_.hops(p) + 1)));
      ++mine.copies;
      port.out.mark_sent(sets(q), p);
      clear(candidates, p);
      mine.activity.record(now, shared_.topology.is_bypass_port(q));
      port.waiting_since = now;
      sent = true;
    }
    const unsigned backlog = count(candidates, w);
    port.out.note_backlog(backlog);
    // The arbiter's decision saw the packet it picked and those it left.
    if (sent) counters_.arbiter_requests += backlog + 1;
    moved = moved || sent;
    for (unsigned i = 0; i < w; ++i) pending[i] |= candidates[i];
    owing = owing || any(candidates, w);
  }
  if (moved) engine()->note_progress();
  mine.copies -= store_.release_unneeded(pending);
  return owing ? now + 1 : kNever;
}

void IbtRouter::prefetch() const {
  // Every line of the router and of its arena (which follows it in a
  // RouterArray); the engine has already asked for the first.
  prefetch_lines(this, sizeof(IbtRouter));
  prefetch_lines(in_, arena_bytes(shared_));
}

void IbtRouter::report_held(std::vector<HeldTraffic>& out) const {
  const IbtTopology& topo = shared_.topology;
  for (unsigned q = 0; q < ports_count_; ++q) {
    const Port& port = ports_[q];
    if (port.out.backlog() == 0) continue;
    std::string where = std::string(name()) + " port " + topo.port_name(q) + " (owes " +
                        topo.coords_text(topo.neighbour(node_, q)) + ")";
    if (port.out.link()->failed()) where += " (link failed)";
    std::string head = "-";
    const int p = lowest(store_.stored(), shared_.words);
    if (p >= 0) head = describe_packet(shared_.packet(static_cast<unsigned>(p)));
    out.push_back(HeldTraffic{where, port.out.backlog(), head, port.waiting_since});
  }
}

}  // namespace icn::ibt
