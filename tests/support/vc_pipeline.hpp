// The VC router's zero-load timing, written out stage by stage from
// docs/vc_router.md, for tests that check the routers against it.
#pragma once

#include <string>
#include <vector>

namespace icn::test {

struct Pipeline {
  unsigned rd, va, sa, st, link, depth, flits;
};

// The --set keys of a VC run with pipeline p replaying `trace` for `cycles` cycles.
inline std::vector<std::string> pipeline_trace_keys(const Pipeline& p, const std::string& trace, unsigned long cycles) {
  return {"network.type=vc",
          "router.routing_delay=" + std::to_string(p.rd),
          "router.vc_alloc_delay=" + std::to_string(p.va),
          "router.sw_alloc_delay=" + std::to_string(p.sa),
          "router.st_delay=" + std::to_string(p.st),
          "network.link_latency=" + std::to_string(p.link),
          "router.buffer_depth=" + std::to_string(p.depth),
          "traffic.pattern=trace",
          "traffic.trace_file=" + trace,
          "measure.cycles=" + std::to_string(cycles)};
}

// Packet latency of one packet crossing R routers on an idle network, from
// the cycle it is created to the cycle its tail reaches the destination NIC:
//   1                       the injection queue is written in the creation cycle
//   link                    the injection link
//   R x (rd+va+sa+st+link)  per router: route, VC and switch allocation,
//                           switch traversal, then the next link (the last one
//                           is the ejection link); the buffer write shares the
//                           arrival cycle
//   flits - 1               the body follows the head one flit per cycle
inline unsigned zero_load_latency(const Pipeline& p, unsigned routers) {
  return 1 + p.link + routers * (p.rd + p.va + p.sa + p.st + p.link) + p.flits - 1;
}

// The same when the links between two routers take `channel` cycles and the
// NICs' links p.link (network.channel_latency; BookSim 2's torus: 2 and 1):
// of the R links after the R routers, R - 1 lead to a router, the last one is
// the ejection link.
inline unsigned zero_load_latency(const Pipeline& p, unsigned routers, unsigned channel) {
  return 1 + p.link + routers * (p.rd + p.va + p.sa + p.st) + (routers - 1) * channel + p.link + p.flits - 1;
}

}  // namespace icn::test
