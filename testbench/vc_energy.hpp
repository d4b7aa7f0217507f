// Energy and area of a VC network (issue 23, docs/energy.md): its routers'
// activity counters and its links' flits, grouped by router type, priced by
// power/energy_report.hpp. Both VC experiments (synthetic and collective)
// hold one beside their network.
#pragma once

#include "models/stats.hpp"
#include "power/energy_report.hpp"
#include "routers/vc/vc_network.hpp"
#include "testbench/experiment_base.hpp"

namespace icn {

struct VcNetworkSpec;

class VcEnergy {
 public:
  VcEnergy(const VcNetworkSpec& spec, const vc::VcNetwork& network) : spec_(spec), network_(network) {}

  // stats.activity: the counters (totals, per router type, per kind of link),
  // registered once and read when the results are written.
  void register_stats(StatRegistry& stats) const;
  // result.energy and result.area of a run of `cycles` simulated cycles.
  void write(nlohmann::ordered_json& result, Cycle cycles) const;
  // The default table's column: picojoules per delivered flit ("-" if none).
  static Column column();

  // What the pricing reads (tests).
  power::ActivityInput input(Cycle cycles) const;

 private:
  const VcNetworkSpec& spec_;
  const vc::VcNetwork& network_;
};

}  // namespace icn
