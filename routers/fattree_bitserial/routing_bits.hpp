// Ishii's addressing and routing-bit encoding (1985, sections 2 and 3.2),
// shared by the stream generators in the NICs and the bit-serial switches.
//
// A switch has three ports in counter-clockwise order: trunk (toward the root),
// branch 0, branch 1. Encoding scheme 1 (relative left/right): a stream
// entering through port p leaves through the port on its right for routing bit
// 0, on its left for 1. With the counter-clockwise order the port on the right
// of p is p + 1 (mod 3), the one on the left p + 2, so
//
//   from the trunk:     0 -> branch 0, 1 -> branch 1
//   from branch 0:      0 -> branch 1, 1 -> trunk
//   from branch 1:      0 -> trunk,    1 -> branch 0
//
// Processors are addressed by in-order traversal from the root visiting the
// trunk's right-hand branch (branch 0) first (section 3.2), which is the
// left-to-right leaf numbering of FatTreeShape: leaf k hangs off branch (k mod 2)
// of level-1 switch k/2, and so on up (Theorem 1: the address read most
// significant bit first routes down from the root).
#pragma once

#include <cstdint>

#include "models/fat_tree.hpp"
#include "models/tree_port.hpp"
#include "models/types.hpp"

namespace icn::bitserial {

using Port = TreePort;
inline constexpr unsigned kPorts = kTreePorts;

inline const char* port_name(unsigned port) {
  return port == kTrunk ? "trunk" : port == kBranch0 ? "branch0" : "branch1";
}

// The port a stream entering through `in` leaves by, for routing bit `bit`.
inline unsigned exit_port(unsigned in, bool bit) { return (in + 1 + (bit ? 1u : 0u)) % kPorts; }

// The routing bit that steers a stream entering through `in` out through `out`
// (in != out).
inline bool routing_bit_for(unsigned in, unsigned out) { return (out + kPorts - in) % kPorts == 2; }

// Height of the switch where the path from `src` to `dst` turns down: one more
// than the index of the pivot bit, the most significant bit where they differ.
inline unsigned turn_height(NodeId src, NodeId dst) { return FatTreeShape::lca_level(src, dst); }

}  // namespace icn::bitserial
