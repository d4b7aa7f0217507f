// PacketFollower: follows the packets a run names (outputs.trace_packet)
// channel by channel, so that the waveform gets a save file per packet
// holding exactly the channels and queues it crossed, in path order.
//
// The NICs and routers report to it only when one is set (a null check per
// packet otherwise) and it keeps only the followed messages. A hop is one
// channel the packet crossed: when it joined the queue that drives the
// channel (the source NIC's injection queue, or a router's output queue),
// when it left, and on which physical link. Copies of a broadcast share
// their message id, so a followed broadcast records its whole tree.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "models/channel.hpp"
#include "models/packet.hpp"
#include "models/types.hpp"

namespace icn::fattree {

class PacketFollower {
 public:
  struct Hop {
    const Channel* channel = nullptr;
    Cycle queued = 0;     // joined the queue that drives the channel
    Cycle sent = kNever;  // left on the channel (kNever: still queued when the run ended)
    unsigned link = 0;    // physical link: its rank among the channel's transfers started that cycle
  };
  struct Ejection {
    NodeId node = kNoNode;  // the NIC that read it
    Cycle arrived = 0;      // the cycle at whose end it had crossed its last link (the latency's end)
  };
  struct Path {
    NodeId src = kNoNode, dst = kNoNode;  // dst: kBroadcastDestination for a broadcast
    std::vector<Hop> hops;                // in the order the packet (or a copy) joined the queues
    std::vector<Ejection> ejections;
    // The cycle it left its source NIC, kNever if it never did.
    Cycle injected() const { return hops.empty() ? kNever : hops.front().sent; }
  };

  explicit PacketFollower(const std::vector<std::uint32_t>& messages) {
    for (std::uint32_t m : messages) paths_[m];
  }

  // The source NIC accepted the message from its processor: it waits in the
  // injection queue that drives `up`.
  void accepted(const Packet& p, const Channel* up, Cycle now) {
    if (Path* followed = find(p.message)) {
      followed->src = p.src;
      followed->dst = p.dst;
      followed->hops.push_back({up, now});
    }
  }
  // A router put it (or a copy) in the output queue that drives `out`.
  void queued(const Packet& p, const Channel* out, Cycle now) {
    if (Path* followed = find(p.message)) followed->hops.push_back({out, now});
  }
  // It left on `channel`'s physical link `link` in cycle `now`.
  void sent(const Packet& p, const Channel* channel, unsigned link, Cycle now) {
    Path* followed = find(p.message);
    if (followed == nullptr) return;
    for (auto h = followed->hops.rbegin(); h != followed->hops.rend(); ++h)
      if (h->channel == channel && h->sent == kNever) {
        h->sent = now;
        h->link = link;
        return;
      }
  }
  void ejected(const Packet& p, NodeId at, Cycle arrived) {
    if (Path* followed = find(p.message)) followed->ejections.push_back({at, arrived});
  }

  // The path of message `message` if it is followed, else null.
  const Path* path(std::uint32_t message) const {
    const auto it = paths_.find(message);
    return it == paths_.end() ? nullptr : &it->second;
  }
  const std::map<std::uint32_t, Path>& paths() const { return paths_; }

 private:
  Path* find(std::uint32_t message) {
    const auto it = paths_.find(message);
    return it == paths_.end() ? nullptr : &it->second;
  }

  std::map<std::uint32_t, Path> paths_;
};

}  // namespace icn::fattree
