// RouteComputation: the routing decision of one fat-tree routing node.
//
// Paths in a tree are unique: a unicast packet climbs until it reaches the
// node whose subtree holds its destination, then descends; at level l the
// destination's bit l-1 picks the child. In broadcast mode the node replicates
// the packet toward every incident branch except the one it came from
// (Dimakopoulos & Dimopoulos, section 2.1), which floods the whole tree.
#pragma once

#include <cstdint>

#include "models/packet.hpp"
#include "models/tree_port.hpp"

namespace icn::fattree {

using Port = TreePort;
inline constexpr unsigned kPorts = kTreePorts;
inline const char* port_name(unsigned port) {
  return port == kUp ? "up" : port == kDown0 ? "down0" : "down1";
}

class RouteComputation {
 public:
  RouteComputation(unsigned level, unsigned index, bool root)
      : level_(level), index_(index), root_(root) {}

  // Bit mask of output ports for a packet that arrived on `in_port`.
  unsigned outputs(const Packet& p, unsigned in_port) const {
    if (p.broadcast()) {
      unsigned mask = (1u << kDown0) | (1u << kDown1) | (root_ ? 0u : 1u << kUp);
      return mask & ~(1u << in_port);
    }
    if ((p.dst >> level_) != index_) return 1u << kUp;
    return 1u << (kDown0 + ((p.dst >> (level_ - 1)) & 1u));
  }

 private:
  unsigned level_;
  unsigned index_;
  bool root_;
};

}  // namespace icn::fattree
