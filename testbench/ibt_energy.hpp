// Energy and area of a torus or iBT of all-port routers (issue 23,
// docs/energy.md, "Tori and iBT (Zhang & Deng)"): the routers' activity
// counters and the links' packets, grouped by link kind and length on the
// folded floor plan, priced by power/energy_report.hpp.
#pragma once

#include <nlohmann/json.hpp>

#include "power/energy_report.hpp"
#include "routers/ibt/ibt_activity.hpp"
#include "routers/ibt/ibt_topology.hpp"
#include "testbench/experiment_base.hpp"

namespace icn {

class IbtEnergy {
 public:
  // The all-port router as ORION's RouterShape: its network ports plus the
  // node's port (injection in, ejection out), one buffer per input port
  // sharing the k packet slots, the pipeline register of the one-cycle step.
  static power::RouterShape shape(const power::PowerSettings& p, const IbtTopology& topo, unsigned packets);
  // What the pricing reads: one router group, and per kind and length a link group.
  static power::ActivityInput input(const power::PowerSettings& p, const IbtTopology& topo, unsigned packets,
                                    const ibt::IbtNetworkActivity& a, Cycle cycles);
  // stats.activity: the counters, per kind and length of link the packets and bits.
  static nlohmann::ordered_json activity_json(const power::PowerSettings& p, const ibt::IbtNetworkActivity& a,
                                              std::uint64_t injections);
  // result.energy and result.area of a run of `cycles` cycles.
  static void write(nlohmann::ordered_json& result, const power::PowerSettings& p, const IbtTopology& topo,
                    unsigned packets, const ibt::IbtNetworkActivity& a, Cycle cycles);
  // The default table's column: nanojoules of the whole broadcast ("-" if none).
  static Column column();
};

}  // namespace icn
