// Activity counters of the all-port torus / iBT router (issue 23, docs/energy.md,
// "Tori and iBT (Zhang & Deng)"): what its blocks did, counted where they act.
// Plain 32-bit integers in the hot path (a million routers carry them: 16
// bytes each); a run of one broadcast stays far below 2^32 events per router
// (a port arbiter sees at most k candidates in each of at most k decisions,
// k <= 4096, times at most 10 ports). The port arbiters' decisions and the
// packet-store reads are each port's sends (BroadcastPortArbiter::transfers),
// not counted twice.
#pragma once

#include <cstdint>
#include <vector>

#include "models/activity.hpp"

namespace icn::ibt {

struct IbtRouterCounters {
  std::uint32_t clocked_cycles = 0;    // cycles it was evaluated: woken by a link, its NIC or a packet it owes
  std::uint32_t store_writes = 0;      // new packets written into the packet store (some port may send them)
  std::uint32_t arbiter_requests = 0;  // candidates the port arbiters saw in the decisions that sent a packet
  std::uint32_t ejections = 0;         // packets handed to the processor (through the crossbar's ejection output)
};

// A network's activity in the VC family's terms (models/activity.hpp), and its
// links grouped by kind and length (IbtFloorplan), read when results are written.
struct IbtNetworkActivity {
  RouterActivity routers;  // summed over all routers
  std::uint64_t ejections = 0;
  std::uint64_t duplicates = 0;  // copies discarded on arrival (they crossed a link, no store write)
  struct LinkGroup {
    bool bypass = false;
    unsigned tiles = 0;          // length in tiles of the floor plan
    std::uint64_t links = 0;     // directed links
    std::uint64_t flits = 0;     // packets they carried (one flit each)
  };
  std::vector<LinkGroup> links;  // ring links first, then bypass links, each by length
};

}  // namespace icn::ibt
