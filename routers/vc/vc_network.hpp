// VcNetwork: routers, NICs and the links between them, for any VcTopology.
//
// Every connection is two delay lines: flits one way and credits back (that
// latency + credit_delay). A NIC's links take link_latency, links between two
// routers channel_latency (0: link_latency too; BookSim 2's torus: 2). Node
// n's NIC sits on the router port topology.node_port(n).
#pragma once

#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/arena.hpp"
#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/trace.hpp"
#include "models/wiring_fault.hpp"
#include "routers/vc/packet_follower.hpp"
#include "routers/vc/rtl_router_bridge.hpp"
#include "routers/vc/vc_nic.hpp"
#include "routers/vc/vc_router.hpp"
#include "routers/vc/vc_topology.hpp"

namespace icn::vc {

struct NetworkParams {
  RouterParams router;
  unsigned link_latency = 1;
  unsigned channel_latency = 0;  // router to router; 0: link_latency
  unsigned credit_delay = 0;
  unsigned router_link_latency() const { return channel_latency != 0 ? channel_latency : link_latency; }
  unsigned max_packet_flits = 1u << 16;
  EjectionSwap swap_ejection;  // a wiring fault (network.swap_ejection), none by default
  // router.model=rtl (docs/rtl_router.md): router r is an RtlRouterBridge over
  // this module when rtl_routers[r] (mesh/torus only); null: all C++.
  std::shared_ptr<const RtlRouterModule> rtl_module;
  std::vector<bool> rtl_routers;
  bool is_rtl(unsigned r) const { return rtl_module && r < rtl_routers.size() && rtl_routers[r]; }
};

// What `link` carries, as GTKWave rows under <scope>.flit: valid, VC, head,
// tail, the packet's message id (the ledger's, as in the JSON), its source
// and destination, labelled <label>/flit/<field>. Read from the link's delay
// line at the end of the cycle the flit was sent. Used by the VC network and
// by blocks that hang off it (the HPAM replicator).
void trace_flit_bus(WaveformTracer& tracer, const std::string& scope, const std::string& label, const FlitLink* link,
                    const PacketPool& pool, unsigned vcs, unsigned nodes);

// The engine's sweep for a VC network of `nodes` nodes (on a mesh, its
// routers; on other topologies a proxy for the model's size). From 64x64 on
// the model (73 MB) no longer fits in the caches and a cycle's busy routers
// are scattered over it: the engine then sweeps them in address order
// (VcNetwork allocates them in node order) and loads each a few routers
// ahead (VcRouter::prefetch). Measured at uniform 0.01: 1.2x at 64x64,
// 1.2-1.35x at 128x128 (docs/performance.md); smaller networks gained
// nothing and keep the wake order. Results are the same either way.
inline constexpr std::uint64_t kSweepInAddressOrderFrom = 4096;
inline CycleEngine::Options sweep_for(CycleEngine::Options o, std::uint64_t nodes) {
  if (nodes >= kSweepInAddressOrderFrom) {
    o.address_order = true;
    o.look_ahead = true;
  }
  return o;
}

class VcNetwork : public sc_core::sc_module {
 public:
  VcNetwork(sc_core::sc_module_name name, const VcTopology& topo, const NetworkParams& params, CycleEngine& engine,
            PacketPool& pool, TrafficLedger& ledger);

  const VcTopology& topology() const { return topo_; }
  VcRouter& router(unsigned r) { return *routers_[r]; }
  const VcRouter& router(unsigned r) const { return *routers_[r]; }
  VcNic& nic(unsigned n) { return *nics_[n]; }
  const VcNic& nic(unsigned n) const { return *nics_[n]; }

  // Router r is an RTL router (then router(r) must not be called).
  bool is_rtl(unsigned r) const { return r < bridges_.size() && bridges_[r] != nullptr; }

  // Router-to-router flit links (not the NIC links), for utilisation.
  struct NamedLink {
    const FlitLink* link;
    std::uint32_t router = 0;  // the router that sends on it ...
    std::uint32_t port = 0;    // ... from this output port
  };
  const std::vector<NamedLink>& channels() const { return channels_; }
  // "router.port" (the topology's names), made when asked: a string per
  // channel kept for the run cost 190 bytes a node on a 64x64 mesh.
  std::string channel_name(const NamedLink& c) const {
    return topo_.router_name(c.router) + "." + topo_.port_name(c.router, c.port);
  }
  std::uint64_t flits_buffered() const;

  // What the network's hardware did (models/activity.hpp), read from the
  // routers' counters and the links' transfer counts (vc_activity.cpp).
  struct Activity {
    struct RouterType {
      unsigned ports = 0;
      unsigned routers = 0;
      RouterActivity activity;  // summed over these routers
    };
    std::vector<RouterType> router_types;  // routers grouped by ports, ascending
    RouterActivity routers;                // every router
    std::uint64_t channels = 0, channel_flits = 0;           // router-to-router links
    std::uint64_t injection_links = 0, injection_flits = 0;  // NIC -> router
    std::uint64_t ejection_links = 0, ejection_flits = 0;    // router -> NIC
    unsigned rtl_routers = 0;  // of them RTL (router.model=rtl): no allocator counts
  };
  Activity activity() const;

  // The flit link leaving router r's output port p, and the credit link
  // leaving its input port p (upstream); for fault injection and probes.
  FlitLink& flit_link(unsigned r, unsigned p) { return flit_out_[offset_[r] + p]; }
  const FlitLink& flit_link(unsigned r, unsigned p) const { return flit_out_[offset_[r] + p]; }
  CreditLink& credit_link(unsigned r, unsigned p) { return credit_out_[offset_[r] + p]; }

  // When traffic is stuck: a cycle of input VCs each waiting for a credit of
  // the next, as "r0_0 x+ vc0 -> r1_0 x- vc0 -> ... -> r0_0 x+ vc0", or "".
  std::string waiting_cycle() const;

  using sc_core::sc_object::trace;  // sc_object's trace(sc_trace_file*) stays visible beside ours
  // The waveform's rows, and a save file per followed packet.
  void trace(WaveformTracer& tracer, const std::string& prefix);
  // Follows these packets (message ids) hop by hop (outputs.trace_packet);
  // before the run and before trace().
  void follow(const std::vector<std::uint32_t>& messages);
  const PacketFollower* follower() const { return follower_.get(); }
  // For blocks that hang off the network and copy or absorb its packets
  // (HPAM's replicators and combiners): null unless packets are followed.
  PacketFollower* follower() { return follower_.get(); }

  // Fault injection (network.failed_links), before the run: the output link of
  // router r's port p, or node n's injection link, never carries a flit.
  void fail_router_output(unsigned r, unsigned p);
  void fail_injection(NodeId n);
  // The first place traffic waits on a failed link, e.g. "r3_3 input x- vc1
  // waits on the failed link r3_3.x+", or "".
  std::string stuck_at_failed_link() const;
  // What a failed link would have carried: packets routed to it.
  std::uint64_t failed_output_requests(unsigned r, unsigned p) const;
  std::uint64_t failed_injection_requests(NodeId n) const;

 private:
  void add_routers(CycleEngine& engine);

  const VcTopology& topo_;
  NetworkParams params_;
  std::vector<unsigned> offset_;        // router r's ports are offset_[r] .. offset_[r + 1] - 1
  std::vector<FlitLink> flit_out_;      // router r output p -> neighbour (or NIC on a node port)
  std::vector<CreditLink> credit_out_;  // router r input p -> upstream (or NIC)
  std::vector<FlitLink> inject_;        // NIC n -> its router port
  std::vector<CreditLink> eject_credit_;  // NIC n -> its router port's output
  // The routers and their arrays, one after another (models/arena.hpp);
  // declared before them so that it outlives them.
  ElaborationArena arena_;
  std::vector<ArenaPtr<VcRouter>> routers_;               // null for an RTL router
  std::vector<std::unique_ptr<RtlRouterBridge>> bridges_;  // empty, or null for a C++ router
  std::vector<std::unique_ptr<VcNic>> nics_;
  std::vector<NamedLink> channels_;
  StageLog stages_;  // every head's stage cycles (result.latency.stages)
  PacketPool& pool_;

  // The save file of followed packet `id` (vc_packet_trace.cpp).
  std::string packet_save_file(const WaveformTracer& tracer, const std::string& prefix, std::uint32_t id) const;
  std::unique_ptr<PacketFollower> follower_;
};

}  // namespace icn::vc
