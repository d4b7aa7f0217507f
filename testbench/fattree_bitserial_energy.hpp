// Energy and area of Ishii's bit-serial fat tree (issue 23, docs/energy.md,
// "The bit-serial fat tree (Ishii)"): its switches' counters level by level
// and the bits each level's wires carried, priced by power/energy_report.hpp.
// The experiment holds one beside its network.
#pragma once

#include <vector>

#include "models/params.hpp"
#include "models/stats.hpp"
#include "power/energy_report.hpp"
#include "power/keys.hpp"
#include "routers/fattree_bitserial/bit_serial_fat_tree.hpp"
#include "testbench/experiment_base.hpp"

namespace icn {

// The power.* keys of this family: the common ones (power/keys.hpp), with
// power.flit_bits the width of one path (default 1: Ishii's paths carry one
// bit per clock), and the tree layout shared with the packet fat tree
// (power/tree_layout.hpp).
struct BitSerialPower {
  power::PowerSettings settings;
  bool htree = true;

  static std::vector<ParamSpec> params();
  static BitSerialPower read(Config& cfg);
  // Length of one wire of branch level l (between levels l-1 and l), mm.
  double link_mm(unsigned level) const;
};

class BitSerialEnergy {
 public:
  BitSerialEnergy(const BitSerialPower& power, const bitserial::BitSerialFatTree& network)
      : power_(power), network_(network) {}

  // stats.activity: the counters per level and in all, registered once and
  // read when the results are written.
  void register_stats(StatRegistry& stats) const;
  // result.energy and result.area of a run of `cycles` clocks, with the
  // energy per delivered message and per message bit (header and payload).
  void write(nlohmann::ordered_json& result, Cycle cycles) const;
  // The default table's column: picojoules per delivered message ("-" if none).
  static Column column();

  // What the pricing reads (tests).
  power::ActivityInput input(Cycle cycles) const;

 private:
  const BitSerialPower& power_;
  const bitserial::BitSerialFatTree& network_;
};

}  // namespace icn
