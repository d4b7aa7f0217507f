// VcSinglePortFabric: the virtual-channel network (any VcTopology: mesh,
// torus, fat tree) as the network of Sanders & Sibeyn's single-port
// processors, so that the SinglePortNic and the fractional-tree PE programs
// run over the VC routers unchanged.
//
//   SinglePortNic --inject--> VcNic ==flits==> VcRouters ==> VcNic --tail--> hand-over link --> SinglePortNic
//
// A UnitPacket of m units becomes one VC packet of m flits (so serialisation
// is the links': one flit per cycle), written into the source node's VcNic in
// the cycle its head leaves the port (by the SinglePortNic's commit, on the
// simulation thread: the VC NIC's socket is not for worker threads). When the
// tail reaches the destination's VcNic the packet is whole (the NIC
// reassembled it) and crosses a one-cycle hand-over link to the receiving
// SinglePortNic, which takes it as complete.
//
// pipeline_cycles() is the zero-load latency of the nearest pair of nodes
// (neighbours on a mesh, siblings on a fat tree): the part of the start-up t
// the network takes. A farther pair costs the routers' per-hop pipeline more,
// and contention more again; both are observed, never computed.
//
// The fabric also watches every router-to-router link (a passive probe that
// peeks at the flits arriving on it, every cycle the network holds a packet):
// per link, the packets that crossed it, the distinct (source, destination)
// flows, and the most packets in progress on it at once (head crossed, tail
// not yet): the measured congestion. The probe is cut into blocks of
// kProbeLinks links in router order, each evaluated beside its routers, so
// that several worker threads share the scan (run.threads). It only reads: the
// rows of the current cycle, which the routers read too and no one writes
// (models/link.hpp), and the source and destination of packets the VC NICs
// made in earlier cycles' commits.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "nics/icn_extension.hpp"
#include "nics/single_port_nic.hpp"
#include "routers/vc/vc_network.hpp"

namespace icn::vc {

class VcSinglePortFabric : public sc_core::sc_module, public SinglePortFabric, public ArrivalSink {
 public:
  // What one router-to-router link carried.
  struct LinkLoad {
    std::string name;               // e.g. "r3_1.x+"
    std::uint64_t packets = 0;
    std::set<std::uint64_t> flows;  // (src << 32) | dst, processor numbers
    std::uint32_t open = 0;         // packets whose head crossed and tail did not yet
    std::uint32_t max_open = 0;     // the most at once
  };

  VcSinglePortFabric(sc_core::sc_module_name name, const VcTopology& topo, const NetworkParams& params,
                     CycleEngine& engine, UnitPacketPool& units);
  ~VcSinglePortFabric() override { trans_.clear_extension(&ext_); }  // the payload would free it

  // SinglePortFabric
  void attach(NodeId x, SinglePortNic& nic) override;
  void inject(NodeId x, Cycle now, PacketId id) override;
  unsigned pipeline_cycles() const override { return zero_load_cycles(nearest_routers_); }

  // Cycles from a head leaving a port to its arrival at the receiving port
  // through `routers` routers, on an idle network (the routers' pipeline).
  static unsigned zero_load_cycles(const NetworkParams& params, unsigned routers);
  unsigned zero_load_cycles(unsigned routers) const { return zero_load_cycles(params_, routers); }


  void arrived_stages(const Packet& p, const PacketStages& st, Cycle tail) override;
  void arrived(const Packet& p, unsigned flits, Cycle tail, NodeId at) override;

  const std::vector<LinkLoad>& links() const { return loads_; }
  VcNetwork& network() { return network_; }
  const VcNetwork& network() const { return network_; }
  // Cycles packets spent beyond the zero-load latency of their own path
  // (waiting for VCs, switch and credits): total, and the most of one packet.
  std::uint64_t wait_cycles() const { return wait_total_; }
  std::uint64_t max_wait_cycles() const { return wait_max_; }
  // "" or what went wrong inside the network (a packet lost or mangled).
  std::string problem() const;
  // The first packet the network delivered to another node than its sender
  // handed it over for, named, or "".
  const std::string& misdelivery() const { return misdelivery_; }

 private:
  // Links per probe block: enough to amortise a block's evaluation, few
  // enough that a large network has a block per worker and more.
  static constexpr std::size_t kProbeLinks = 256;
  // One block of the link probe: the links [begin, end) of probes_.
  class LinkProbe : public Clocked {
   public:
    LinkProbe(VcSinglePortFabric& fabric, std::size_t begin, std::size_t end, std::string name)
        : Clocked(Phase::kNetwork), fabric_(fabric), begin_(begin), end_(end), name_(std::move(name)) {}
    Cycle tick(Cycle now) override;
    std::string block_name() const override { return name_; }
    bool asleep = true;  // returned kNever: inject() wakes it (written after the phase only)

   private:
    VcSinglePortFabric& fabric_;
    std::size_t begin_, end_;
    std::string name_;
  };
  struct Probe {
    const FlitLink* link;
    std::size_t load;
  };

  NetworkParams params_;
  UnitPacketPool& units_;
  PacketPool pool_;
  TrafficLedger ledger_;
  VcNetwork network_;
  std::vector<SinglePortNic*> ports_;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<VcSinglePortFabric>>> sockets_;
  tlm::tlm_generic_payload trans_;
  IcnExtension ext_;
  unsigned char buffer_[kMaxPayloadBytes] = {};
  std::vector<Probe> probes_;
  std::vector<LinkLoad> loads_;
  std::vector<std::unique_ptr<LinkProbe>> probe_blocks_;
  unsigned nearest_routers_ = 2;
  Cycle head_ejected_ = 0;  // of the packet arrived() is about to report
  std::uint64_t wait_total_ = 0, wait_max_ = 0;
  std::string error_;
  std::string misdelivery_;
};

}  // namespace icn::vc
