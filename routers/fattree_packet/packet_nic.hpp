// PacketNic: the network interface of a packet-switched network.
//
// Processor side: a TLM-2.0 target socket (see icn_extension.hpp). Messages are
// queued in an injection FIFO and enter the network one per free physical link
// per cycle. Network side: a Channel toward the network and one from it; every
// packet that arrives is handed to the processing element's DeliverySink
// after the cycle's network phase (Clocked::commit), so that the deliveries
// reach the sinks in the same order for any run.threads.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <string>
#include <vector>

#include "models/channel.hpp"
#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/packet_queue.hpp"
#include "nics/icn_extension.hpp"
#include "routers/fattree_packet/packet_follower.hpp"

namespace icn {

class PacketNic : public sc_core::sc_module, public Clocked {
 public:
  struct Params {
    NodeId node = 0;                  // this NIC's node id
    NodeId nodes = 0;                 // valid unicast destinations: 0..nodes-1
    std::uint64_t broadcast_fanout = 0;  // deliveries a broadcast from here makes
  };

  tlm_utils::simple_target_socket<PacketNic> socket;

  PacketNic(sc_core::sc_module_name name, Params params, PacketPool& pool, TrafficLedger& ledger);

  void attach(Channel& to_network, Channel& from_network);
  void set_sink(DeliverySink& sink) { sink_ = &sink; }
  // outputs.trace_packet: told when followed packets are accepted, injected and delivered.
  void set_follower(fattree::PacketFollower* follower) { follower_ = follower; }

  Cycle tick(Cycle now) override;
  void commit(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  NodeId node() const { return params_.node; }
  const PacketQueue& injection_queue() const { return injection_; }
  const Channel* to_network() const { return to_network_; }
  std::uint64_t delivered() const { return delivered_; }
  // Packets the processor handed over while the link to the network was
  // failed: what the cut link would have carried.
  std::uint64_t failed_injection_requests() const { return failed_requests_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  Params params_;
  PacketPool& pool_;
  TrafficLedger& ledger_;
  Channel* to_network_ = nullptr;
  Channel* from_network_ = nullptr;
  DeliverySink* sink_ = nullptr;
  fattree::PacketFollower* follower_ = nullptr;  // null unless packets are followed
  PacketQueue injection_;
  std::vector<PacketId> arrived_;  // read off the link this cycle, delivered in commit()
  std::uint64_t delivered_ = 0;
  std::uint64_t failed_requests_ = 0;  // packets accepted while to_network_ was failed
};

}  // namespace icn
