// IbtLink: one direction of a torus or bypass link of an all-port router: one
// physical link, one cycle of latency (one step). It is the shared Link
// (models/link.hpp) in its one-cycle shape: every field inline, no heap,
// trivially destructible, so it lives in the receiving router's arena next to
// its other input links and marks its port in the receiver's arrival mask; a
// router reads only the links that carry a packet this cycle.
//
// Why the one-cycle shape: at a million routers, reading six heap-backed links
// per router per cycle (each an object plus two small heap arrays, scattered in
// memory) was about half of the simulation time, and six million of them took
// 1.1 GB (docs/performance.md, "Torus and iBT").
//
// What it carries is one copy of a packet of the network's broadcast: the
// packet number p (0..k-1, k <= 4096) and the links this copy has crossed,
// in one 32-bit word. The header and payload are the same in every copy, so
// they are not sent again: every router reads them from the network's one
// record of packet p (RouterShared::packet), as the hardware's receiver would
// from the bits on the wire. No copy is allocated when a router sends, so the
// routers of several worker threads (run.threads) share no allocator.
#pragma once

#include <cstdint>

#include "models/link.hpp"

namespace icn::ibt {

using icn::ArrivalMask;

using CopyWord = std::uint32_t;
inline constexpr CopyWord kNoCopy = ~CopyWord{0};
inline constexpr unsigned kMaxBroadcastPackets = 4096;  // p fits in 12 bits

inline CopyWord copy_word(unsigned packet, std::uint16_t hops) { return (CopyWord{packet} << 16) | hops; }
inline unsigned copy_packet(CopyWord w) { return w >> 16; }
inline std::uint16_t copy_hops(CopyWord w) { return static_cast<std::uint16_t>(w & 0xFFFFu); }

using IbtLink = Link<CopyWord, OneCycleWire>;

}  // namespace icn::ibt
