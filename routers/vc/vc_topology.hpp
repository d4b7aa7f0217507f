// The shape of a virtual-channel network and its routing function.
//
// VcTopology is what VcRouter, VcNic and VcNetwork need to know about a
// network: how many routers and ports, where each node's NIC attaches, which
// input port sits at the far end of each output port, and the routing
// function. Every topology of the family (mesh and torus here; the fat tree
// and HPAM's levels of meshes elsewhere) implements it, so they all run on the
// same router, NIC and links.
//
// MeshTorusTopology: k-ary n-dimensional mesh or torus (n = 1..3), or one
// with a size per dimension (k0 x k1 x k2, e.g. the 16 x 8 mesh of Sanders &
// Sibeyn's Fig. 4). Router r has coordinates r = x0 + k0 x1 + k0 k1 x2, one
// node per router. Ports: 0 is the
// node (injection in, ejection out); port 1 + 2d goes toward +d, port 2 + 2d
// toward -d.
//
// Its routing: dimension order, lowest dimension first. On the torus each
// dimension takes the shorter way round (ties: +), and with datelines the VCs
// split into two classes: a packet uses the lower half of the VCs in a
// dimension until it crosses that dimension's wrap-around link (the dateline),
// the upper half after it (docs/vc_router.md proves it deadlock free). Without
// datelines every VC is allowed: the torus can deadlock.
// BookSim 2's torus (set_torus_options, preset=booksim): a packet keeps one
// class for a whole dimension, the upper half iff its destination coordinate
// is below its entry coordinate (kWholeDimension: going +, the packets that
// cross the wrap-around link; going -, those that do not); and a tie (the destination exactly k/2 away) goes + or -
// by a coin from the router's generator (random_ties). Also deadlock free:
// docs/vc_router.md.
// Adaptive (2-D mesh only): west-first (Glass & Ni's turn model): a packet
// whose destination lies west goes west first; otherwise it may take either
// productive direction (east, north, south), whichever has a free VC first.
// West-first forbids the two turns into west, so no cycle of channel
// dependencies can form: deadlock free without extra VCs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/rng.hpp"
#include "models/types.hpp"

namespace icn::vc {

struct RouteChoice {
  unsigned port = 0;          // output port
  std::uint64_t vc_mask = 0;  // VCs the packet may take on it (bit v = VC v)
  bool has_alt = false;       // adaptive: a second productive port, same VCs
  unsigned alt_port = 0;
};

struct PortRef {
  unsigned router = 0;
  unsigned port = 0;
  bool operator==(const PortRef& o) const { return router == o.router && port == o.port; }
};

class VcTopology {
 public:
  virtual ~VcTopology() = default;

  virtual unsigned routers() const = 0;
  virtual unsigned nodes() const = 0;
  virtual unsigned ports(unsigned router) const = 0;
  virtual unsigned vcs() const = 0;
  // The router port node n's NIC sits on (its flits enter and leave there).
  virtual PortRef node_port(NodeId n) const = 0;
  // The input port at the far end of router r's output port p (links are
  // bidirectional pairs: the far end's output port of the same number leads
  // back). nullopt for an unconnected port or a node port.
  virtual std::optional<PortRef> neighbor(unsigned router, unsigned port) const = 0;
  virtual std::string router_name(unsigned router) const = 0;
  virtual std::string port_name(unsigned router, unsigned port) const = 0;
  // For tables and logs: "mesh 8x8", "torus 4x4x4".
  virtual std::string describe() const = 0;

  // The routing function, evaluated by a router's route computation for a
  // head flit at router `at` that arrived on `in_port`, of a packet from node
  // `src` to node `dst`. `rng` is the evaluating router's own generator (for
  // random choices, e.g. among a fat tree's up ports): deterministic per seed.
  virtual RouteChoice route(unsigned at, unsigned in_port, NodeId src, NodeId dst, Rng& rng) const = 0;

  // Largest port count of any router (sizes per-port tables).
  unsigned max_ports() const;
};

enum class TopologyKind { kMesh, kTorus };

// Which dateline class a torus packet takes in a dimension (router.dateline_classes).
enum class DatelineClasses {
  kAfterCrossing,   // lower until the wrap link is crossed, upper after it (icnsim's default)
  kWholeDimension,  // one class per dimension: upper iff destination coordinate < entry coordinate (BookSim 2's)
};

struct TorusOptions {
  DatelineClasses classes = DatelineClasses::kAfterCrossing;
  bool random_ties = false;  // a tie (k/2 either way) goes + (false) or by a coin (true, BookSim 2)
};

class MeshTorusTopology : public VcTopology {
 public:
  MeshTorusTopology(TopologyKind kind, unsigned k, unsigned n, unsigned vcs, bool dateline, bool adaptive = false);
  // Sides per dimension (1..3 of them, each >= 2).
  MeshTorusTopology(TopologyKind kind, const std::vector<unsigned>& sides, unsigned vcs, bool dateline,
                    bool adaptive = false);

  unsigned routers() const override { return routers_; }
  unsigned nodes() const override { return routers_; }
  unsigned ports(unsigned) const override { return 2 * n_ + 1; }
  unsigned vcs() const override { return vcs_; }
  PortRef node_port(NodeId n) const override { return PortRef{static_cast<unsigned>(n), 0}; }
  std::optional<PortRef> neighbor(unsigned router, unsigned port) const override;
  std::string router_name(unsigned router) const override;
  std::string port_name(unsigned, unsigned port) const override { return direction_name(port); }
  std::string describe() const override;
  RouteChoice route(unsigned at, unsigned in_port, NodeId src, NodeId dst, Rng& rng) const override;

  TopologyKind kind() const { return kind_; }
  unsigned k() const { return side_[0]; }
  unsigned side(unsigned dim) const { return side_[dim]; }
  unsigned n() const { return n_; }
  bool dateline() const { return dateline_; }
  bool adaptive() const { return adaptive_; }
  // Torus only (ignored on a mesh); before the first route.
  void set_torus_options(const TorusOptions& o) { torus_ = o; }
  const TorusOptions& torus_options() const { return torus_; }
  unsigned coord(unsigned router, unsigned dim) const;
  // The same routing without a router's context (the function uses neither
  // the input port nor, except for random ties, randomness; here ties go +).
  RouteChoice route(unsigned at, NodeId src, NodeId dst) const { return route_with(at, src, dst, nullptr); }
  // "x+", "y-", "local".
  static std::string direction_name(unsigned port);
  // The port of the neighbour that faces back.
  static unsigned opposite(unsigned port) { return port == 0 ? 0 : (port % 2 == 1 ? port + 1 : port - 1); }

 private:
  TopologyKind kind_;
  unsigned n_, vcs_;
  unsigned side_[3] = {1, 1, 1};
  bool dateline_;
  bool adaptive_;
  unsigned routers_;
  unsigned stride_[3] = {1, 1, 1};
  TorusOptions torus_;
  RouteChoice route_with(unsigned at, NodeId src, NodeId dst, Rng* rng) const;
};

}  // namespace icn::vc
