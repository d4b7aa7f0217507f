// OutputPort: the FIFO output queue of one branch and the physical links it
// drives. Each cycle it starts up to `width` transfers from the head of the
// queue, one per free physical link of the branch (multiport model: all links
// of all branches are used at once).
#pragma once

#include "models/channel.hpp"
#include "models/packet.hpp"
#include "models/packet_queue.hpp"

namespace icn::fattree {

class OutputPort {
 public:
  void connect(Channel& channel) { channel_ = &channel; }
  bool connected() const { return channel_ != nullptr; }

  void enqueue(PacketId packet, Cycle now) { queue_.push(packet, now); }

  // Transmits what the links allow in cycle `now`; returns the number sent.
  unsigned transmit(Cycle now, PacketPool& pool) {
    unsigned sent = 0;
    for (unsigned free = channel_->free_links(now); free > 0 && !queue_.empty(); --free) {
      const PacketId id = queue_.pop();
      ++pool[id].hops;
      channel_->send(now, id);
      ++sent;
    }
    queue_.sample();  // occupancy after this cycle's transmissions
    return sent;
  }

  const PacketQueue& queue() const { return queue_; }
  const Channel* channel() const { return channel_; }

 private:
  PacketQueue queue_;
  Channel* channel_ = nullptr;
};

}  // namespace icn::fattree
