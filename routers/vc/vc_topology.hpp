// The shape of a virtual-channel network and its routing function.
//
// k-ary n-dimensional mesh or torus (n = 1..3): router r has coordinates
// r = x0 + k x1 + k^2 x2, one node per router. Ports: 0 is the node (injection
// in, ejection out); port 1 + 2d goes toward +d, port 2 + 2d toward -d.
//
// Routing (RouteComputation): dimension order, lowest dimension first. On the
// torus each dimension takes the shorter way round (ties: +), and with
// datelines the VCs split into two classes: a packet uses the lower half of
// the VCs in a dimension until it crosses that dimension's wrap-around link
// (the dateline), the upper half after it (docs/vc_router.md proves it
// deadlock free). Without datelines every VC is allowed: the torus can deadlock.
// Adaptive (2-D mesh only): west-first (Glass & Ni's turn model): a packet
// whose destination lies west goes west first; otherwise it may take either
// productive direction (east, north, south), whichever has a free VC first.
// West-first forbids the two turns into west, so no cycle of channel
// dependencies can form: deadlock free without extra VCs.
#pragma once

#include <cstdint>
#include <string>

#include "models/types.hpp"

namespace icn::vc {

enum class TopologyKind { kMesh, kTorus };

struct RouteChoice {
  unsigned port = 0;          // output port
  std::uint64_t vc_mask = 0;  // VCs the packet may take on it (bit v = VC v)
  bool has_alt = false;       // adaptive: a second productive port, same VCs
  unsigned alt_port = 0;
};

class VcTopology {
 public:
  VcTopology(TopologyKind kind, unsigned k, unsigned n, unsigned vcs, bool dateline, bool adaptive = false);

  TopologyKind kind() const { return kind_; }
  unsigned k() const { return k_; }
  unsigned n() const { return n_; }
  unsigned routers() const { return routers_; }
  unsigned nodes() const { return routers_; }
  unsigned ports() const { return 2 * n_ + 1; }
  unsigned vcs() const { return vcs_; }
  bool dateline() const { return dateline_; }
  bool adaptive() const { return adaptive_; }

  unsigned coord(unsigned router, unsigned dim) const;
  // The router on the other side of `port`, or -1 (mesh edge, or port 0).
  int neighbor(unsigned router, unsigned port) const;
  // The port of the neighbour that faces back.
  static unsigned opposite(unsigned port) { return port == 0 ? 0 : (port % 2 == 1 ? port + 1 : port - 1); }
  // "x+", "y-", "local".
  static std::string port_name(unsigned port);
  std::string router_name(unsigned router) const;

  // The routing function, evaluated by a router's route computation for a head
  // flit at router `at` of a packet from node `src` to node `dst`.
  RouteChoice route(unsigned at, NodeId src, NodeId dst) const;

 private:
  TopologyKind kind_;
  unsigned k_, n_, vcs_;
  bool dateline_;
  bool adaptive_;
  unsigned routers_;
  unsigned stride_[3] = {1, 1, 1};
};

}  // namespace icn::vc
