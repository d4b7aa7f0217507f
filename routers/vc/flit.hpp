// What the wires of the virtual-channel network carry: flits and credits.
//
// A flit is a handle into the PacketPool plus the VC it travels on and its
// head/tail bits: 8 bytes, trivially copyable, never a heap object. A packet
// of P flits is P flits with the same handle; the head carries the route (the
// packet's destination, read from the pool), the tail releases the VC.
#pragma once

#include <cstdint>

#include "models/types.hpp"

namespace icn::vc {

struct Flit {
  enum Bits : std::uint8_t { kHead = 1, kTail = 2 };
  PacketId packet = kNoPacket;
  std::uint8_t vc = 0;
  std::uint8_t bits = 0;
  bool head() const { return (bits & kHead) != 0; }
  bool tail() const { return (bits & kTail) != 0; }
};

// One freed buffer entry of VC `vc`, returned upstream.
struct Credit {
  std::uint8_t vc = 0;
};

}  // namespace icn::vc
