// IbtNetwork: a Torus(n^d) or iBT(n^d; b) of all-port routers, one SystemC
// module that owns them: one IbtRouter per node (a block the engine
// evaluates, not a module), two IbtLinks (one per direction, each kept in the
// router it leads to) per torus or bypass link, and each router wired to its
// neighbours' status sidebands.
#pragma once

#include <systemc>

#include <cstddef>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/trace.hpp"
#include "routers/ibt/broadcast_follower.hpp"
#include "routers/ibt/ibt_activity.hpp"
#include "routers/ibt/ibt_router.hpp"
#include "routers/ibt/ibt_topology.hpp"

namespace icn::ibt {

// Per port direction (x+, x-, ..., b+, b-) over the whole network.
struct PortStats {
  std::string port;
  std::uint64_t transfers = 0;
  std::uint32_t max_queue = 0;  // most packets a port of this direction owed its neighbour after a cycle
};

// A link's packet bus in the waveform: <router>.<port>.pkt.<field>.
inline constexpr const char* kPacketBusFields[] = {"valid", "packet", "colour", "src", "hops", "dup"};
// The save file of a followed packet the run never sent (ibt_packet_trace.cpp).
std::string unsent_packet_save_file(const WaveformTracer& tracer, std::uint32_t id, const std::string& why);

// The routers of a network in one allocation, in node order, each followed
// by its arena (IbtRouter::arena_bytes): no heap block per router, and the
// engine's address order is node order.
class RouterArray {
 public:
  RouterArray() = default;
  RouterArray(const RouterArray&) = delete;
  RouterArray& operator=(const RouterArray&) = delete;
  ~RouterArray() {
    for (NodeId x = built_; x-- > 0;) (*this)[x]->~IbtRouter();
  }
  void build(NodeId nodes, RouterShared& shared) {
    const std::size_t align = alignof(IbtRouter) > alignof(Word) ? alignof(IbtRouter) : alignof(Word);
    auto up = [align](std::size_t n) { return (n + align - 1) / align * align; };
    stride_ = up(sizeof(IbtRouter)) + up(IbtRouter::arena_bytes(shared));
    static_assert(alignof(IbtRouter) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    storage_ = std::make_unique<std::byte[]>(stride_ * nodes);
    for (NodeId x = 0; x < nodes; ++x, ++built_) {
      std::byte* at = storage_.get() + stride_ * x;
      new (at) IbtRouter(x, shared, at + up(sizeof(IbtRouter)));
    }
  }
  IbtRouter* operator[](NodeId x) const {
    return std::launder(reinterpret_cast<IbtRouter*>(storage_.get() + stride_ * x));
  }
  NodeId size() const { return built_; }

 private:
  std::unique_ptr<std::byte[]> storage_;
  std::size_t stride_ = 0;
  NodeId built_ = 0;
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

  LinkActivity activity() const;  // the workers' records summed
  std::uint64_t duplicates() const;
  // Copies of the broadcast's packets held in routers' buffers and on links:
  // zero once the broadcast is over. The packets themselves
  // (RouterShared::packet) stay in the pool, as their source wrote them.
  std::uint64_t copies_held() const;
  std::uint64_t transfers() const;  // link transfers over the whole run
  std::uint64_t directed_links() const { return static_cast<std::uint64_t>(topology_.nodes()) * ports_; }
  std::uint64_t bypass_links() const;  // directed bypass links
  std::vector<PortStats> port_stats() const;
  unsigned max_buffer() const;
  // The routers' counters summed, and the links' packets by kind and length
  // in tiles of the folded floor plan (ibt_activity.cpp).
  IbtNetworkActivity power_activity() const;

  // Waveform rows of the listed routers, `nic`'s (may be null) first: per
  // router what it holds and ejects, the NIC's injections, per output port
  // its packet bus and queue. With follow(), a save file per followed packet.
  using sc_core::sc_object::trace;  // sc_object's trace(sc_trace_file*) stays visible beside ours
  void trace(WaveformTracer& tracer, const std::string& prefix, const std::vector<NodeId>& nodes,
             const BroadcastNic* nic = nullptr);
  // Follows these packet numbers (outputs.trace_packet); before the run and before trace().
  void follow(const std::vector<std::uint32_t>& packets);
  const BroadcastFollower* follower() const { return follower_.get(); }

 private:
  void trace_port(WaveformTracer& tracer, const std::string& prefix, NodeId x, unsigned q) const;
  // "xp" for x+, "bm" for b-: the port's scope in the waveform.
  std::string vcd_port(unsigned q) const;
  // The save file of followed packet `id` (ibt_packet_trace.cpp).
  std::string packet_save_file(const WaveformTracer& tracer, std::uint32_t id) const;
  NodeId follow_destination(const WaveformTracer& tracer, const BroadcastFollower::Route& route) const;

  // After a cycle's network phase (the engine's commit, on the simulation
  // thread): the packets the routers' ejection ports took, handed to the
  // processors in node order, then each router's in port order, for any
  // number of worker threads.
  void deliver_queued(Cycle now);
  class EjectionCommit : public Clocked {
   public:
    EjectionCommit(IbtNetwork& net) : Clocked(Phase::kNetwork), net_(net) {}
    Cycle tick(Cycle) override { return kNever; }  // never woken: it only commits
    void commit(Cycle now) override { net_.deliver_queued(now); }
    std::string block_name() const override { return std::string(net_.name()) + ".ejection"; }

   private:
    IbtNetwork& net_;
  };

  const IbtTopology& topology_;
  unsigned ports_;
  RouterShared shared_;
  EjectionCommit ejection_commit_{*this};
  Cycle delivered_in_ = kNever;            // the cycle deliver_queued last ran for
  std::vector<std::uint64_t> deliveries_;  // the workers' queues merged
  RouterArray routers_;
  std::unique_ptr<BroadcastFollower> follower_;  // null unless outputs.trace_packet
  std::string trace_prefix_;
  std::vector<bool> traced_;  // per node: its rows are in the waveform
};

}  // namespace icn::ibt
