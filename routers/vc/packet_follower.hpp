// PacketFollower: follows the packets a run names (outputs.trace_packet) hop
// by hop, so that the waveform gets a save file per packet holding exactly
// the NIC links, input VCs and router outputs it crossed, in path order.
//
// The routers and NICs report to it only for the packets it follows (one
// lookup per head flit when a follower is set; nothing otherwise). A hop is
// recorded when the head wins the switch: where it was buffered, the cycles
// of its stages there (stage_log.hpp), and the output it leaves on.
#pragma once

#include <cstdint>
#include <map>
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
  struct Path {
    NodeId src = kNoNode, dst = kNoNode;
    unsigned inject_vc = 0;
    Cycle injected = kNever;      // the head leaves the source NIC
    Cycle head_ejected = kNever;  // the head reaches the destination NIC
    Cycle tail_ejected = kNever;  // ... and the tail
    std::vector<Hop> hops;
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
  const std::map<std::uint32_t, Path>& paths() const { return paths_; }

 private:
  std::map<std::uint32_t, Path> paths_;
};

}  // namespace icn::vc
