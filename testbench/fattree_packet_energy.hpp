// Energy and area of the packet-switched binary fat tree (issue 23,
// docs/energy.md, "The packet fat tree"): its routers' activity counters
// level by level and the flits of each level's branch, priced by
// power/energy_report.hpp. The experiment holds one beside its network.
#pragma once

#include <vector>

#include "models/params.hpp"
#include "models/stats.hpp"
#include "power/energy_report.hpp"
#include "power/keys.hpp"
#include "routers/fattree_packet/fat_tree_network.hpp"
#include "testbench/experiment_base.hpp"

namespace icn {

// The power.* keys of this family: the common ones (power/keys.hpp) and two
// of its own, the depth its unbounded output FIFOs are priced for and the
// layout that gives each level's link length.
struct FatTreePower {
  power::PowerSettings settings;
  unsigned queue_depth = 4;  // flits per physical output link
  bool htree = true;         // link lengths from an H-tree layout, else every link power.link_mm

  static std::vector<ParamSpec> params();
  static FatTreePower read(Config& cfg);
  // Length of one link of branch level l (between levels l-1 and l), mm.
  double link_mm(unsigned level) const;
};

class FatTreeEnergy {
 public:
  FatTreeEnergy(const FatTreePower& power, const fattree::FatTreeNetwork& network) : power_(power), network_(network) {}

  // stats.activity: the counters per level and in all, registered once and
  // read when the results are written.
  void register_stats(StatRegistry& stats) const;
  // result.energy and result.area of a run of `cycles` simulated cycles.
  void write(nlohmann::ordered_json& result, Cycle cycles) const;
  // The default table's column: picojoules per delivered packet (a packet is one flit) ("-" if none).
  static Column column();

  // What the pricing reads (tests).
  power::ActivityInput input(Cycle cycles) const;

 private:
  const FatTreePower& power_;
  const fattree::FatTreeNetwork& network_;
};

}  // namespace icn
