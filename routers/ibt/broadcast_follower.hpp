// BroadcastFollower: follows the packet numbers a run names
// (outputs.trace_packet) through a broadcast. Each router reports, for a
// followed packet only, the cycle it first took the packet and where from:
// an input port, or its NIC. A packet reaches every node of the group, so its
// route to one node is the chain of first arrivals walked back from that node
// to the source (the copy each router forwarded is the one it kept).
//
// Per followed packet it keeps 5 bytes per node (the cycle, 32 bits, and the
// port), allocated when the packet is injected.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "models/packet.hpp"
#include "models/types.hpp"
#include "routers/ibt/broadcast_route.hpp"

namespace icn::ibt {

class BroadcastFollower {
 public:
  static constexpr std::uint8_t kFromNic = 0xFE;  // the packet was injected here
  static constexpr std::uint8_t kNone = 0xFF;     // never reached this node

  struct Arrival {
    Cycle cycle = kNever;
    std::uint8_t port = kNone;  // the input port, or kFromNic
  };
  struct Route {
    NodeId source = kNoNode;
    Cycle injected = kNever;
    unsigned colour = 0;  // 0-based, as in the route word
    std::vector<std::uint32_t> cycle;  // per node: the cycle it took the packet (0: never)
    std::vector<std::uint8_t> port;
  };

  BroadcastFollower(const std::vector<std::uint32_t>& packets, NodeId nodes) : nodes_(nodes) {
    for (std::uint32_t p : packets) routes_[p];
  }

  // Router `node` took packet p as new in cycle t, from input `port` or from
  // its NIC (kFromNic). Only followed packets are recorded.
  void arrived(const Packet& p, NodeId node, unsigned port, Cycle t) {
    const auto it = routes_.find(p.seq);
    if (it == routes_.end()) return;
    Route& r = it->second;
    if (r.cycle.empty()) {
      r.cycle.assign(nodes_, 0);
      r.port.assign(nodes_, kNone);
    }
    if (port == kFromNic) {
      r.source = node;
      r.injected = t;
      r.colour = BroadcastRoute::colour_of(p.route);
    }
    r.cycle[node] = static_cast<std::uint32_t>(std::min<Cycle>(t, 0xFFFFFFFFu));
    r.port[node] = static_cast<std::uint8_t>(port);
  }

  const std::map<std::uint32_t, Route>& routes() const { return routes_; }
  const Route* find(std::uint32_t packet) const {
    const auto it = routes_.find(packet);
    return it == routes_.end() ? nullptr : &it->second;
  }
  static Arrival arrival(const Route& r, NodeId node) {
    if (r.cycle.empty() || r.cycle[node] == 0) return {};
    return {r.cycle[node], r.port[node]};
  }

 private:
  NodeId nodes_;
  std::map<std::uint32_t, Route> routes_;
};

}  // namespace icn::ibt
