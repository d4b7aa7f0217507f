// BroadcastNic: the injection half of a node's interface to an all-port
// broadcast router (network.type=torus|ibt).
//
// Processor side: a TLM-2.0 target socket (icn_extension.hpp). The processor
// writes each packet of a k-packet broadcast message with b_transport: a
// WRITE with IcnExtension{seq = packet number 0..k-1, broadcast = true,
// route = the broadcast header}. Network side: the NIC hands every accepted
// packet straight to the router's broadcast buffer (InjectionTarget), as a DMA
// engine would write the message into the router's injection memory, so all k
// packets are there before the first step and each output port can send them
// in its own order (the paper's packet-sending patterns).
//
// The other half, reception, is the router's ejection port, which hands each
// new packet to the processor's DeliverySink. Only nodes whose processor sends
// get a BroadcastNic: a million receive-only nodes then cost no socket
// (measured cost: docs/ibt.md, "Nodes at scale").
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <string>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "nics/icn_extension.hpp"

namespace icn {

// Where a NIC puts packets to send (the router's broadcast buffer).
class InjectionTarget {
 public:
  virtual ~InjectionTarget() = default;
  // Called in the processor phase of cycle `now`; the router sends from cycle `now` on.
  virtual void inject(PacketId packet, Cycle now) = 0;
};

class BroadcastNic : public sc_core::sc_module {
 public:
  struct Params {
    NodeId node = 0;
    std::uint64_t broadcast_fanout = 0;  // deliveries one broadcast packet makes (group size - 1)
    std::uint32_t packets = 0;           // packet numbers 0..packets-1 are valid
  };

  tlm_utils::simple_target_socket<BroadcastNic> socket;

  BroadcastNic(sc_core::sc_module_name name, Params params, PacketPool& pool, TrafficLedger& ledger,
               CycleEngine& engine, InjectionTarget& router);

  std::uint64_t accepted() const { return accepted_; }
  // Packets it wrote into the router's buffer in cycle t (its waveform row).
  std::uint32_t accepted_in(Cycle t) const { return last_cycle_ == t ? accepted_in_cycle_ : 0; }
  NodeId node() const { return params_.node; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  Params params_;
  PacketPool& pool_;
  TrafficLedger& ledger_;
  CycleEngine& engine_;
  InjectionTarget& router_;
  std::uint64_t accepted_ = 0;
  Cycle last_cycle_ = kNever;
  std::uint32_t accepted_in_cycle_ = 0;
};

}  // namespace icn
