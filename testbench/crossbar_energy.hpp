// Energy and area of the crossbars of single-port processors (issue 23,
// docs/energy.md, "The crossbars (Sanders & Sibeyn)"): each switch's activity
// counters and the units each wire carried, grouped by the wire's length on
// the grid floor plan (routers/crossbar/crossbar_floorplan.hpp), priced by
// power/energy_report.hpp. A unit of a packet (one link cycle) is one flit
// of power.flit_bits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/params.hpp"
#include "models/stats.hpp"
#include "power/energy_report.hpp"
#include "power/keys.hpp"
#include "routers/crossbar/crossbar.hpp"
#include "testbench/experiment_base.hpp"

namespace icn {

// The power.* keys of this family: the common ones and the depth each input
// port's buffer is priced for.
struct CrossbarPower {
  power::PowerSettings settings;
  unsigned buffer_depth = 4;  // flits per input port

  static std::vector<ParamSpec> params();
  static CrossbarPower read(Config& cfg);
};

// What the network's hardware did, summed when the results are written.
struct CrossbarNetworkActivity {
  struct SwitchType {
    std::string name;  // "crossbar", "module", "global"
    unsigned count = 0, ports = 0;
    RouterActivity activity;
  };
  struct Wires {
    std::string kind;  // "processor" (a port's wire pair) or "inter_module" (a module's up and down channels)
    double tiles = 0;  // length on the floor plan
    std::uint64_t links = 0, flits = 0;
  };
  std::vector<SwitchType> switches;
  std::vector<Wires> wires;  // by kind, then length
  std::uint64_t injections = 0, ejections = 0;          // packets through the NICs' ports
  std::uint64_t injected_flits = 0, ejected_flits = 0;  // their units

  static CrossbarNetworkActivity of(const xbar::CrossbarNetwork& network);
};

class CrossbarEnergy {
 public:
  CrossbarEnergy(const CrossbarPower& power, const xbar::CrossbarNetwork& network) : power_(power), network_(network) {}

  void register_stats(StatRegistry& stats) const;
  // result.energy and result.area of a run of `cycles` simulated cycles.
  void write(nlohmann::ordered_json& result, Cycle cycles) const;
  // The default table's column: nanojoules of the whole collective ("-" if none).
  static Column column();

  // What the pricing reads (tests).
  power::ActivityInput input(const CrossbarNetworkActivity& a, Cycle cycles) const;

 private:
  const CrossbarPower& power_;
  const xbar::CrossbarNetwork& network_;
};

}  // namespace icn
