// PacketFollower: follows the packets a run names (outputs.trace_packet) hop
// by hop, so that the waveform gets a save file per packet holding exactly
// the NIC links, input VCs and router outputs it crossed, in path order.
//
// The routers and NICs report to it only for the packets it follows (one
// lookup per head flit when a follower is set; nothing otherwise). A hop is
// recorded when the head wins the switch: where it was buffered, the cycles
// of its stages there (stage_log.hpp), and the output it leaves on.
//
// A message is a tree of copies: the packet its source NIC injected, and
// every copy a replicator (HPAM's inter-level replicators) made of a copy,
// all sharing the message id. Each copy is told apart by its packet handle
// while it is in flight, and keeps its own hops and its own ejection; a
// replicator reports the copies it makes (replicated()) and the cycle each
// leaves on its branch. On the plain VC network a message is one copy.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn::vc {

class PacketFollower {
 public:
  struct Hop {
    unsigned router = 0, in_port = 0, in_vc = 0, out_port = 0, out_vc = 0;
    Cycle arrived = 0;     // the head's buffer write
    Cycle routed = 0;      // route computed: it may request a VC
    Cycle vc_granted = 0;  // output VC granted
    Cycle switch_granted = 0;
    Cycle sent = 0;        // it leaves on the output link
  };
  struct Copy {
    PacketId handle = kNoPacket;  // its packet, while `live`
    bool live = false;
    int parent = -1;              // index of the copy it was made from; -1: the injected packet
    std::string replicator;       // made by this replicator (its block name) ...
    unsigned branch = 0;          // ... and sent down this branch of it
    Cycle taken = kNever;         // the replicator took the parent's head (the copies exist from then)
    Cycle branch_sent = kNever;   // this copy's head left on its branch
    NodeId dst = kNoNode;         // the packet's destination node (without HPAM's group bits)
    std::vector<Hop> hops;
    Cycle head_ejected = kNever;  // the head reaches the destination NIC
    Cycle tail_ejected = kNever;  // ... and the tail
    bool replicated = false;      // its head went into a replicator: the copies below carry on
    Cycle absorbed = kNever;      // a combiner took its tail (HPAM's gather): it ends there
  };
  struct Path {
    NodeId src = kNoNode;
    unsigned inject_vc = 0;
    Cycle injected = kNever;  // the head leaves the source NIC
    std::vector<Copy> copies;  // [0]: the injected packet; then in order of creation
  };

  explicit PacketFollower(const std::vector<std::uint32_t>& messages) {
    for (std::uint32_t m : messages) paths_[m];
  }
  // The path of message `message` if it is followed, else null.
  Path* find(std::uint32_t message) {
    const auto it = paths_.find(message);
    return it == paths_.end() ? nullptr : &it->second;
  }
  const Path* find_const(std::uint32_t message) const {
    const auto it = paths_.find(message);
    return it == paths_.end() ? nullptr : &it->second;
  }
  // The copy of followed message `message` in flight as packet `handle`, else
  // null (another message's packet, or one the follower never saw made).
  Copy* copy(std::uint32_t message, PacketId handle) {
    Path* path = find(message);
    if (path == nullptr) return nullptr;
    for (auto c = path->copies.rbegin(); c != path->copies.rend(); ++c)
      if (c->live && c->handle == handle) return &*c;
    return nullptr;
  }
  // The source NIC injected the head of `handle`, message `message`.
  void injected(std::uint32_t message, PacketId handle, NodeId src, NodeId dst, unsigned vc, Cycle now) {
    Path* path = find(message);
    if (path == nullptr) return;
    path->src = src;
    path->inject_vc = vc;
    path->injected = now;
    Copy c;
    c.handle = handle;
    c.live = true;
    c.dst = dst;
    path->copies.push_back(std::move(c));
  }
  // Replicator `replicator` took the head of `handle` in cycle `now` and made
  // copies[i] for branch i, addressed to dsts[i].
  void replicated(std::uint32_t message, PacketId handle, const std::string& replicator,
                  const std::vector<PacketId>& copies, const std::vector<NodeId>& dsts, Cycle now) {
    Copy* parent = copy(message, handle);
    if (parent == nullptr) return;
    parent->replicated = true;
    parent->taken = now;
    Path& path = *find(message);
    const int p = static_cast<int>(parent - path.copies.data());
    for (std::size_t i = 0; i < copies.size(); ++i) {
      Copy c;
      c.handle = copies[i];
      c.live = true;
      c.parent = p;
      c.replicator = replicator;
      c.branch = static_cast<unsigned>(i);
      c.taken = now;
      c.dst = dsts[i];
      path.copies.push_back(std::move(c));  // may move the parent: it is not used after
    }
  }
  const std::map<std::uint32_t, Path>& paths() const { return paths_; }

 private:
  std::map<std::uint32_t, Path> paths_;
};

}  // namespace icn::vc
