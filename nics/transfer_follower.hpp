// TransferFollower: records every transfer of the packet numbers a run names
// (outputs.trace_packet) between single-port NICs: sender, receiver, the
// cycle the send started (the processor's write: tx busy rises) and the cycle
// the receiver had the packet whole (its tail). The NICs call it only when
// one is set, so an untraced run pays one null check per send and delivery.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "models/types.hpp"

namespace icn {

class TransferFollower {
 public:
  struct Transfer {
    NodeId from = kNoNode, to = kNoNode;
    Cycle sent = kNever, received = kNever;
  };

  explicit TransferFollower(const std::vector<std::uint32_t>& packets) {
    for (std::uint32_t p : packets) transfers_[p];
  }

  void sent(NodeId from, NodeId to, std::uint32_t packet, Cycle now) {
    const auto it = transfers_.find(packet);
    if (it != transfers_.end()) it->second.push_back({from, to, now, kNever});
  }
  // `at` received the tail of `from`'s packet: a NIC has one send in flight,
  // so it is that sender's open transfer.
  void received(NodeId from, NodeId at, std::uint32_t packet, Cycle now) {
    const auto it = transfers_.find(packet);
    if (it == transfers_.end()) return;
    for (auto t = it->second.rbegin(); t != it->second.rend(); ++t)
      if (t->from == from && t->received == kNever) {
        t->to = at;  // where it arrived (a wiring fault may cross ports)
        t->received = now;
        return;
      }
  }

  const std::vector<Transfer>* find(std::uint32_t packet) const {
    const auto it = transfers_.find(packet);
    return it == transfers_.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::uint32_t, std::vector<Transfer>> transfers_;
};

}  // namespace icn
