// IbtNetwork::power_activity(): the routers' counters in the VC family's
// terms, and the links grouped by kind and length; read once when results are
// written (the hot path only increments integers: ibt_activity.hpp).
#include <map>
#include <utility>

#include "routers/ibt/ibt_floorplan.hpp"
#include "routers/ibt/ibt_network.hpp"

namespace icn::ibt {

IbtNetworkActivity IbtNetwork::power_activity() const {
  IbtNetworkActivity a;
  const IbtFloorplan plan(topology_);
  std::map<std::pair<bool, unsigned>, IbtNetworkActivity::LinkGroup> groups;  // (bypass, tiles)
  for (NodeId x = 0; x < topology_.nodes(); ++x) {
    const IbtRouter& r = *routers_[x];
    const IbtRouterCounters& c = r.counters();
    std::uint64_t sends = 0;
    for (unsigned q = 0; q < ports_; ++q) {
      const std::uint64_t flits = r.output(q).transfers();
      sends += flits;
      const bool bypass = topology_.is_bypass_port(q);
      const unsigned tiles = plan.link_tiles(x, q);
      IbtNetworkActivity::LinkGroup& g = groups[{bypass, tiles}];
      g.bypass = bypass;
      g.tiles = tiles;
      ++g.links;
      g.flits += flits;
    }
    RouterActivity& t = a.routers;
    t.clocked_cycles += c.clocked_cycles;
    t.buffer_writes += c.store_writes;
    // Every send reads its packet out of the store and through the crossbar
    // to its port, after one decision of that port's arbiter; every ejection
    // crosses the crossbar to the processor's port.
    t.buffer_reads += sends;
    t.crossbar += sends + c.ejections;
    t.sw_output.decisions += sends;
    t.sw_output.requests += c.arbiter_requests;
    a.ejections += c.ejections;
  }
  a.duplicates = duplicates();
  for (auto& [key, g] : groups) a.links.push_back(g);
  return a;
}

}  // namespace icn::ibt
