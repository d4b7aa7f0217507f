// Energy and area of an HPAM machine (issue 23, docs/energy.md, "HPAM (Ben
// Miled et al.)"): its mesh routers' activity counters (the shared VC
// router's), the flits of every mesh and inter-level link at its length on a
// stated floor plan, and the replicators' and combiners' buffers, priced by
// power/energy_report.hpp. The experiment holds one beside its network and
// reads it at the start of every trial, so that the trial reported (the best)
// is priced alone.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "power/energy_report.hpp"
#include "power/keys.hpp"
#include "routers/hpam/hpam_topology.hpp"
#include "routers/hpam/inter_level_combiner.hpp"
#include "routers/hpam/inter_level_replicator.hpp"
#include "routers/vc/vc_network.hpp"
#include "testbench/experiment_base.hpp"

namespace icn {

struct HpamSetup;

// The floor plan (docs/energy.md): every level spans the chip's width, the
// bottom level (the widest) one tile of power.link_mm per column, level l's
// tiles c_bottom / c_l times as wide; every row is power.link_mm tall; the
// levels lie top to bottom in the paper's order. A link spans the Manhattan
// distance between its routers' tile centres.
class HpamFloorplan {
 public:
  HpamFloorplan(const hpam::HpamGeometry& geo, double tile_mm);
  double tile_width_mm(unsigned level) const;
  // Centre of a router's tile, mm from the chip's top left corner.
  double x_mm(const hpam::Position& p) const;
  double y_mm(const hpam::Position& p) const;
  double link_mm(const hpam::Position& a, const hpam::Position& b) const;

 private:
  const hpam::HpamGeometry& geo_;
  double tile_mm_;
  std::vector<unsigned> first_row_;  // rows of the levels above
};

// What HPAM's hardware did up to one moment: read at a trial's start and at
// its end, the difference is the trial's.
struct HpamActivity {
  vc::VcNetwork::Activity net;
  std::vector<std::uint64_t> link_flits;  // per link group (HpamEnergy's order)
  std::uint64_t replicator_flits_in = 0, replicator_flits_taken = 0, replicator_packets_copied = 0;
  std::uint64_t replicator_branch_fifo_writes = 0, replicator_branch_flits = 0;
  std::uint64_t combiner_flits_in = 0, combiner_flits_out = 0, combiner_messages_in = 0, combiner_merges = 0;
  HpamActivity& operator-=(const HpamActivity& o);
};

class HpamEnergy {
 public:
  HpamEnergy(const HpamSetup& setup, const hpam::HpamTopology& topo, const vc::VcNetwork& network,
             const std::vector<std::unique_ptr<hpam::InterLevelReplicator>>& replicators,
             const std::vector<std::unique_ptr<hpam::InterLevelCombiner>>& combiners);

  // The width priced: power.flit_bits if given, else the widest level's
  // network.flit_bytes x 8 (a flit crosses levels unchanged, so every router
  // and link carries the widest).
  unsigned flit_bits() const { return flit_bits_; }
  HpamActivity read() const;
  // The counters as stats.activity shows them.
  nlohmann::ordered_json activity_json(const HpamActivity& a) const;
  // result.energy and result.area of `a` over `cycles` simulated cycles.
  void write(nlohmann::ordered_json& result, const HpamActivity& a, Cycle cycles) const;
  // What the pricing reads (tests).
  power::ActivityInput input(const HpamActivity& a, Cycle cycles) const;
  // The default table's column: the reported trial's energy in nJ.
  static Column column();

 private:
  struct LinkGroupSpec {
    std::string name;
    double length_mm = 0;
    std::uint64_t links = 0;
  };
  struct RouterPort {
    unsigned router, port, group;
  };
  unsigned group_of(const std::string& kind, double length_mm);
  power::PowerSettings settings() const;

  const HpamSetup& setup_;
  const hpam::HpamTopology& topo_;
  const vc::VcNetwork& network_;
  const std::vector<std::unique_ptr<hpam::InterLevelReplicator>>& replicators_;
  const std::vector<std::unique_ptr<hpam::InterLevelCombiner>>& combiners_;
  unsigned flit_bits_;
  std::vector<LinkGroupSpec> groups_;
  std::vector<RouterPort> ports_;                 // every router-to-router link, by its output port
  std::vector<std::vector<unsigned>> branches_;   // per replicator, each branch's group
};

}  // namespace icn
