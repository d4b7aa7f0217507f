#include "routers/fattree_packet/fat_tree_router.hpp"

#include <stdexcept>

#include "routers/fattree_packet/packet_nic.hpp"

namespace icn::fattree {

FatTreeRouter::FatTreeRouter(sc_core::sc_module_name name, unsigned level, unsigned index,
                             bool root, PacketPool& pool)
    : sc_module(name), Clocked(Phase::kNetwork), level_(level), index_(index), pool_(pool),
      routing_(level, index, root) {}

void FatTreeRouter::connect(unsigned port, Channel& in, Channel& out) {
  inputs_[port] = &in;
  in.connect_receiver(*this);
  outputs_[port].connect(out);
}

void FatTreeRouter::route(PacketId packet, unsigned in_port, Cycle now) {
  unsigned mask = routing_.outputs(pool_[packet], in_port);
  bool first = true;
  for (unsigned port = 0; port < kPorts; ++port) {
    if ((mask & (1u << port)) == 0) continue;
    if (!outputs_[port].connected()) {
      throw std::logic_error(std::string(name()) + ": routed " + describe_packet(pool_[packet]) +
                             " to unconnected port " + port_name(port));
    }
    if (outputs_[port].channel()->failed()) ++failed_requests_[port];
    if (follower_ != nullptr) follower_->queued(pool_[packet], outputs_[port].channel(), now);
    outputs_[port].enqueue(first ? packet : pool_.clone(packet, owner()), now);  // owner(): this worker's free list
    // The copy crosses the crossbar from its input link into the FIFO.
    ++activity_.crossbar;
    ++activity_.buffer_writes;
    ++merged_[port];
    first = false;
  }
  if (first) pool_.release(packet, owner());  // a broadcast at a node with no other branch
}

Cycle FatTreeRouter::tick(Cycle now) {
  // The clock runs (stats.activity clocked_cycles) in a cycle the router
  // holds a packet or receives one, whichever scheduler evaluates it.
  bool clocked = false;
  for (const OutputPort& out : outputs_) clocked = clocked || !out.queue().empty();
  for (unsigned port = 0; port < kPorts; ++port) {
    if (inputs_[port] != nullptr)
      inputs_[port]->receive(now, [&](PacketId p) {
        clocked = true;
        route(p, port, now);
      });
  }
  if (clocked) ++activity_.clocked_cycles;
  // Each output FIFO's merge orders the copies that reached it this cycle
  // (one decision over that many requests; docs/energy.md).
  for (unsigned port = 0; port < kPorts; ++port) {
    if (merged_[port] != 0) activity_.sw_output.record(merged_[port]);
    merged_[port] = 0;
  }
  bool holding = false;
  for (unsigned port = 0; port < kPorts; ++port) {
    OutputPort& out = outputs_[port];
    if (!out.connected()) continue;
    const unsigned sent = out.transmit(now, pool_);
    activity_.buffer_reads += sent;  // read out of the FIFO onto the branch's links
    if (sent > 0) {
      engine()->note_progress();
      if (follower_ != nullptr) report_sent(out, now);
    }
    holding = holding || !out.queue().empty();
  }
  return holding ? now + 1 : kNever;
}

// The channel's transfers of this cycle, read back in the order they were
// started: the rank of each is its physical link.
void FatTreeRouter::report_sent(const OutputPort& out, Cycle now) {
  unsigned link = 0;
  out.channel()->sent(now, [&](PacketId id) { follower_->sent(pool_[id], out.channel(), link++, now); });
}

void FatTreeRouter::report_held(std::vector<HeldTraffic>& out) const {
  for (unsigned port = 0; port < kPorts; ++port) {
    const PacketQueue& q = outputs_[port].queue();
    if (q.empty()) continue;
    std::string where = std::string(name()) + " port " + port_name(port) + " output queue";
    if (outputs_[port].channel()->failed()) where += " (link failed)";
    out.push_back(HeldTraffic{where, q.size(), describe_packet(pool_[q.front()]), q.front_since()});
  }
}

}  // namespace icn::fattree
