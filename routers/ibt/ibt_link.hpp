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
#pragma once

#include "models/link.hpp"

namespace icn::ibt {

using icn::ArrivalMask;
using IbtLink = Link<PacketId, OneCycleWire>;

}  // namespace icn::ibt
