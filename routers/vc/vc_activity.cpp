// VcNetwork::activity(): the routers' activity counters summed by router type
// (ports) and the flits the links carried, read once when results are written
// (the hot path only increments integers: models/activity.hpp).
#include <algorithm>

#include "routers/vc/vc_network.hpp"

namespace icn::vc {

VcNetwork::Activity VcNetwork::activity() const {
  Activity a;
  for (unsigned r = 0; r < topo_.routers(); ++r) {
    const unsigned ports = topo_.ports(r);
    auto it = std::lower_bound(a.router_types.begin(), a.router_types.end(), ports,
                               [](const Activity::RouterType& t, unsigned p) { return t.ports < p; });
    if (it == a.router_types.end() || it->ports != ports) it = a.router_types.insert(it, Activity::RouterType{ports, 0, {}});
    // An RTL router (router.model=rtl) counts only what its ports show.
    const bool rtl = routers_[r] == nullptr;
    const RouterActivity ra = rtl ? bridges_[r]->activity() : routers_[r]->activity();
    if (rtl) ++a.rtl_routers;
    ++it->routers;
    it->activity += ra;
    a.routers += ra;
  }
  a.channels = channels_.size();
  for (const auto& c : channels_) a.channel_flits += c.link->transfers();
  a.injection_links = inject_.size();
  for (const auto& l : inject_) a.injection_flits += l.transfers();
  a.ejection_links = topo_.nodes();
  for (NodeId n = 0; n < topo_.nodes(); ++n) {
    const PortRef at = topo_.node_port(n);
    a.ejection_flits += flit_out_[offset_[at.router] + at.port].transfers();
  }
  return a;
}

}  // namespace icn::vc
