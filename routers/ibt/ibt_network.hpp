// IbtNetwork: a Torus(n^d) or iBT(n^d; b) of all-port routers, elaborated as
// SystemC modules: one IbtRouter per node, two IbtLinks (one per direction,
// each kept in the router it leads to) per torus or bypass link, and each
// router wired to its neighbours' status sidebands.
#pragma once

#include <systemc>

#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/trace.hpp"
#include "routers/ibt/ibt_router.hpp"
#include "routers/ibt/ibt_topology.hpp"

namespace icn::ibt {

// Per port direction (x+, x-, ..., b+, b-) over the whole network.
struct PortStats {
  std::string port;
  std::uint64_t transfers = 0;
  std::uint32_t max_queue = 0;  // most packets a port of this direction owed its neighbour after a cycle
};

class IbtNetwork : public sc_core::sc_module {
 public:
  IbtNetwork(sc_core::sc_module_name name, const IbtTopology& topology, unsigned packets, ForwardOrder order,
             CycleEngine& engine, PacketPool& pool, TrafficLedger& ledger, DeliverySink* sink,
             const EjectionSwap& swap = {});

  const IbtTopology& topology() const { return topology_; }
  IbtRouter& router(NodeId node) { return *routers_[node]; }
  const IbtRouter& router(NodeId node) const { return *routers_[node]; }

  // The link leaving `node` on `port` (it arrives at the neighbour on port^1).
  IbtLink& link(NodeId node, unsigned port) {
    return routers_[topology_.neighbour(node, port)]->in_link(port ^ 1u);
  }
  const IbtLink& link(NodeId node, unsigned port) const {
    return routers_[topology_.neighbour(node, port)]->in_link(port ^ 1u);
  }

  // Fault injection: the link leaving `node` on `port` never transmits, and
  // its router counts what it owes that link (IbtRouter::fail_output).
  void fail_link(NodeId node, unsigned port) {
    link(node, port).set_failed(true);
    routers_[node]->fail_output(port);
  }
  // What the failed link leaving `node` on `port` would have carried.
  std::uint32_t failed_link_requests(NodeId node, unsigned port) const {
    return routers_[node]->failed_output_requests(port);
  }

  const LinkActivity& activity() const { return shared_.activity; }
  std::uint64_t duplicates() const { return shared_.duplicates; }
  std::uint64_t transfers() const;  // link transfers over the whole run
  std::uint64_t directed_links() const { return static_cast<std::uint64_t>(topology_.nodes()) * ports_; }
  std::uint64_t bypass_links() const;  // directed bypass links
  std::vector<PortStats> port_stats() const;
  unsigned max_buffer() const;

  // Link activity and queue probes for every port of the listed routers.
  using sc_core::sc_object::trace;  // sc_object's trace(sc_trace_file*) stays visible beside ours
  void trace(WaveformTracer& tracer, const std::string& prefix, const std::vector<NodeId>& nodes) const;

 private:
  const IbtTopology& topology_;
  unsigned ports_;
  RouterShared shared_;
  std::vector<std::unique_ptr<IbtRouter>> routers_;
};

}  // namespace icn::ibt
