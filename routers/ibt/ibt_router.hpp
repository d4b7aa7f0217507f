// IbtRouter: the all-port router of a torus or interlaced bypass torus node
// (Zhang & Deng). 2d torus ports (+- per dimension) and, in an iBT, two bypass
// ports; every link full duplex, one packet in and one out per port per cycle,
// all ports at once. A k-packet message is pipelined packet by packet; one
// cycle is one step: one packet over one link.
//
// Blocks (one class each):
//   input links      IbtLinks, one per port, kept in the router (ibt_link.hpp)
//   PacketStore      the broadcast buffer and the router's holdings
//   HoldingsRegister the status sideband the neighbours read (one cycle late)
//   BroadcastRouteUnit  which ports may carry a packet's colour
//   BroadcastPortArbiter       per port: what it owes its neighbour, and its arbiter
//   EjectionPort     hands each new packet to the processor (DeliverySink), after
//                    the cycle, in node order (IbtNetwork::deliver_queued)
// The injection half of the node's interface is a BroadcastNic module.
//
// One cycle t:
//   1. read    - every packet that crossed an input link in cycle t-1 is taken
//                off the link. One the router already holds (it came by two
//                routes) is a duplicate and is discarded. A new one is
//                recorded in the holdings (neighbours see it from t+1),
//                delivered to the processor, and made eligible on the ports
//                the route unit allows for its colour;
//   2. send    - each output port sends one candidate: eligible, not yet sent
//                on this port, and not held by the neighbour as the
//                neighbour's status showed at the end of t-1. The pick follows
//                the port's order (broadcast_port_arbiter.hpp): at the source the
//                packet-sending pattern rRLl of the colour's first line; at
//                other nodes the network's forwarding order;
//   3. free    - copies no port still owes anyone leave the buffer.
// The router asks for cycle t+1 while any port owes a packet; otherwise it
// sleeps until a link wakes it.
#pragma once

#include <systemc>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/wiring_fault.hpp"
#include "nics/icn_extension.hpp"
#include "routers/ibt/broadcast_follower.hpp"
#include "routers/ibt/broadcast_nic.hpp"
#include "routers/ibt/broadcast_port_arbiter.hpp"
#include "routers/ibt/broadcast_route.hpp"
#include "routers/ibt/ibt_activity.hpp"
#include "routers/ibt/ibt_link.hpp"
#include "routers/ibt/ibt_topology.hpp"
#include "routers/ibt/packet_store.hpp"

namespace icn::ibt {

// How a router other than the source orders what a port sends.
enum class ForwardOrder : std::uint8_t {
  kDirectional,  // + ports lowest packet first, - ports highest first
  kPattern,      // every node applies the colour's rRLl pattern to its own ports
  kArrival,      // first come, first sent
};
const char* to_string(ForwardOrder order);

// Link activity of a whole network, cycle by cycle (for utilisation over time).
class LinkActivity {
 public:
  void record(Cycle t, bool bypass, std::uint64_t transfers = 1) {
    if (transfers == 0) return;
    if (t >= torus_.size()) {
      torus_.resize(t + 1, 0);
      bypass_.resize(t + 1, 0);
    }
    (bypass ? bypass_ : torus_)[t] += transfers;
  }
  const std::vector<std::uint64_t>& torus() const { return torus_; }
  const std::vector<std::uint64_t>& bypass() const { return bypass_; }

 private:
  std::vector<std::uint64_t> torus_;
  std::vector<std::uint64_t> bypass_;
};

// What every router of a network shares: parameters, the broadcast's packets,
// and what the routers change together (counts, deliveries), kept per worker
// thread (run.threads) so that no two threads write one word.
struct RouterShared {
  std::string network;  // the network module's name, for the routers' names
  const IbtTopology& topology;
  unsigned packets;  // k: buffer slots; packet numbers 0..k-1
  ForwardOrder order;
  PacketPool& pool;
  TrafficLedger& ledger;  // deliveries are counted where they leave the network
  DeliverySink* sink;     // the processors' delivery callback (may be null)
  EjectionSwap swap;      // a wiring fault: two nodes' ejection ports crossed (network.swap_ejection)
  BroadcastFollower* follower = nullptr;  // outputs.trace_packet: null unless packets are followed
  unsigned words;                // W = ceil(k/64)
  // Packet p of the broadcast as its source's NIC wrote it (header and
  // payload); every copy in the network is p and its own hop count. Set in
  // the processor phase, read-only while routers run.
  std::vector<PacketId> originals;
  // Per worker thread (one on one thread). The counts are summed when read;
  // the deliveries of a cycle wait for the network's commit, which hands
  // them to the processors in node order (IbtNetwork::deliver_queued).
  struct alignas(64) WorkerShare {
    std::uint64_t duplicates = 0;  // copies that reached a router already holding the packet
    std::int64_t copies = 0;       // copies made (sent, injected) less copies dropped
    LinkActivity activity;
    std::vector<std::uint64_t> deliveries;  // (node << 32) | copy word, this cycle
  };
  std::vector<WorkerShare> workers;
  Clocked* ejection = nullptr;  // whose commit delivers a cycle's packets

  RouterShared(const IbtTopology& topo, unsigned k, ForwardOrder o, PacketPool& p, TrafficLedger& l, DeliverySink* s,
               unsigned threads);

  const Packet& packet(unsigned p) const { return pool[originals[p]]; }
};

// "r3_2": a router's name, its coordinates.
std::string router_name(const IbtTopology& topo, NodeId x);

// EjectionPort: the reception half of the node's network interface. It holds
// nothing: the network's commit hands each node's copies through it.
class EjectionPort {
 public:
  // Hands the copy of `p` that crossed `hops` links, read off a link in cycle `now`,
  // to the processor of `node`.
  static void deliver(DeliverySink* sink, TrafficLedger& ledger, NodeId node, const Packet& p, std::uint16_t hops,
                      Cycle now) {
    ++ledger.delivered;
    if (sink == nullptr) return;
    Delivery d;
    d.src = p.src;
    d.dst = node;
    d.seq = p.seq;
    d.broadcast = p.broadcast();
    d.payload = p.payload.data();
    d.payload_len = p.payload_len;
    d.injected = p.injected;
    d.arrived = now - 1;  // it crossed its last link in the previous cycle
    d.hops = hops;
    sink->deliver(d);
  }
};

// Not an sc_module: the engine evaluates it (Clocked), and a million
// routers then cost no SystemC object registry entries (docs/ibt.md, "Nodes
// at scale"). Its name is built when a diagnostic needs it.
class IbtRouter : public Clocked, public InjectionTarget {
 public:
  // `arena`: arena_bytes(shared) bytes, aligned for a Word, that the
  // router's links, ports and packet sets live in (the network places each
  // router's right after it: IbtNetwork's RouterArray).
  IbtRouter(NodeId node, RouterShared& shared, std::byte* arena);
  static std::size_t arena_bytes(const RouterShared& shared);

  // "<network>.r3_2": the hierarchical name it would have as a module.
  std::string name() const;

  // The link arriving on `port` (the neighbour sends into it).
  IbtLink& in_link(unsigned port) { return in_[port]; }
  const IbtLink& in_link(unsigned port) const { return in_[port]; }
  // Wires output `port`: `out` is the neighbour's input link, `neighbour` its status sideband.
  void connect(unsigned port, IbtLink& out, const HoldingsRegister& neighbour);
  // Fault injection: output `port`'s link has failed (IbtNetwork::fail_link
  // cuts the link itself). The router then counts what it owes that link.
  void fail_output(unsigned port) { failed_ports_ |= static_cast<std::uint16_t>(1u << port); }
  // Packets this router wanted to send on its failed output `port`: each
  // packet it took while the neighbour, as its status showed, did not hold
  // it, on a port its colour may use (what the port owed; at most k).
  std::uint32_t failed_output_requests(unsigned port) const { return ports_[port].out.failed_requests(); }

  const HoldingsRegister& holdings() const { return store_.holdings(); }
  NodeId node() const { return node_; }

  void inject(PacketId packet, Cycle now) override;
  Cycle tick(Cycle now) override;
  // Loads the router past its first line and its arena: a cycle reads the
  // holdings, the arrival links, the ports and the packet sets (about 15
  // lines), and in a million-router sweep each was a miss of its own.
  void prefetch() const override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  unsigned ports() const { return ports_count_; }
  const BroadcastPortArbiter& output(unsigned port) const { return ports_[port].out; }
  unsigned max_buffer() const { return store_.max_kept(); }
  unsigned packets_held() const { return count(store_.holdings().current(), shared_.words); }
  // What its blocks did (ibt_activity.hpp); each port's sends are output(q).transfers().
  const IbtRouterCounters& counters() const { return counters_; }

 private:
  struct Port {
    BroadcastPortArbiter out;
    Cycle waiting_since = kNever;  // since when the port owes packets it has not sent
  };

  // `in_port`: the input it came on (BroadcastFollower::kFromNic when injected).
  void accept(CopyWord copy, Cycle now, bool injected, unsigned in_port, RouterShared::WorkerShare& mine);
  void note_failed_requests(unsigned ports, unsigned packet, Cycle now);
  unsigned colour_ports(const Packet& p);
  PortOrder order_for(unsigned port, const Packet& p) const;
  unsigned select(unsigned port, const Word* candidates);

  NodeId node_;
  RouterShared& shared_;
  unsigned ports_count_;
  ArrivalMask arrivals_;
  PacketStore store_;
  // The arena holds the input links, the output ports and the packet sets
  // (stored, then per port eligible and sent; holdings when k > 64), right
  // after the router: what a cycle touches stays close together.
  IbtLink* in_ = nullptr;
  Port* ports_ = nullptr;
  Word* bits_ = nullptr;  // stored, then per port eligible and sent, then holdings when k > 64
  PortSets sets(unsigned q) const { return {bits_ + (1 + 2 * q) * shared_.words, bits_ + (2 + 2 * q) * shared_.words}; }
  IbtRouterCounters counters_;
  // The broadcast this router serves (one at a time).
  NodeId source_ = kNoNode;
  std::uint32_t broadcast_key_ = 0;
  NodeOffsets offsets_;
  std::uint16_t failed_ports_ = 0;  // bit q: output q's link has failed
  std::uint16_t colour_known_ = 0;
  std::uint16_t colour_ports_[16] = {};
};

}  // namespace icn::ibt
