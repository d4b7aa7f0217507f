// FatTreeRouter: a multiport packet-switched routing node of a binary fat tree
// (Dimakopoulos & Dimopoulos). Three branches (up, down0, down1), each a bundle
// of full-duplex physical links; an output-queued switch.
//
// One cycle:
//   1. read  - every packet that finished crossing an input link in the last
//              cycle is taken off the input channels, port by port (up, down0,
//              down1) and link by link;
//   2. route - RouteComputation picks its output ports; a broadcast packet is
//              cloned once per extra output; copies join the output FIFOs;
//   3. write - every OutputPort starts up to c transfers from its FIFO head onto
//              its c physical links; they are visible downstream next cycle.
// A packet thus advances one hop per cycle when it meets no queue.
#pragma once

#include <systemc>

#include <array>
#include <string>
#include <vector>

#include "models/channel.hpp"
#include "models/activity.hpp"
#include "models/engine.hpp"
#include "models/packet.hpp"
#include "routers/fattree_packet/output_port.hpp"
#include "routers/fattree_packet/packet_follower.hpp"
#include "routers/fattree_packet/route_computation.hpp"

namespace icn::fattree {

class FatTreeRouter : public sc_core::sc_module, public Clocked {
 public:
  FatTreeRouter(sc_core::sc_module_name name, unsigned level, unsigned index, bool root,
                PacketPool& pool);

  // Wires port `port`: `in` carries packets toward this router, `out` away from it.
  void connect(unsigned port, Channel& in, Channel& out);

  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  unsigned level() const { return level_; }
  unsigned index() const { return index_; }
  const OutputPort& output(unsigned port) const { return outputs_[port]; }
  // Packets (broadcast copies included) routed to output `port` while its
  // channel was failed: what the cut channel would have carried.
  std::uint64_t failed_output_requests(unsigned port) const { return failed_requests_[port]; }
  // What its blocks did (docs/energy.md, "The packet fat tree"): copies
  // written into the output FIFOs through the crossbar, read out onto the
  // links, the merges that ordered a cycle's arrivals into a FIFO, and the
  // cycles its clock ran.
  const RouterActivity& activity() const { return activity_; }
  // outputs.trace_packet: told where followed packets queue and leave.
  void set_follower(PacketFollower* follower) { follower_ = follower; }

 private:
  void route(PacketId packet, unsigned in_port, Cycle now);
  void report_sent(const OutputPort& out, Cycle now);

  unsigned level_;
  unsigned index_;
  PacketPool& pool_;
  RouteComputation routing_;
  std::array<Channel*, kPorts> inputs_{};
  std::array<OutputPort, kPorts> outputs_;
  std::array<std::uint64_t, kPorts> failed_requests_{};  // per output: packets routed to it while failed
  PacketFollower* follower_ = nullptr;  // null unless packets are followed
  RouterActivity activity_;
  std::array<unsigned, kPorts> merged_{};  // per output: copies written into its FIFO this cycle
};

}  // namespace icn::fattree
