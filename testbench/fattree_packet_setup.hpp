// What network.type=fattree_packet configures (testbench/fattree_packet_experiment.cpp):
// the tree's shape, links and faults, and the collective its processing
// elements run; FatTreePlatformNetwork builds the same tree for a user's cores.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/link_address.hpp"
#include "models/wiring_fault.hpp"
#include "testbench/experiment.hpp"
#include "testbench/fattree_collectives.hpp"
#include "testbench/fattree_packet_energy.hpp"

namespace icn {

struct FatTreeSetup : ExperimentSetup {
  unsigned height = 0;
  std::vector<unsigned> capacities;
  std::string capacity_label;
  unsigned link_latency = 1;
  std::vector<FatTreeLinkAddress> failed_links;  // parsed once (models/link_address.hpp)
  EjectionSwap swap;
  fattree::CollectiveOptions collective;
  FatTreePower power;  // power.*: the energy and area model (testbench/fattree_packet_energy.hpp)

  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  ResourceEstimate estimate() const override;
  bool follows_packets() const override { return true; }  // outputs.trace_packet
  // Its routers clone with their worker's free list and its NICs deliver in
  // commit (docs/fattree_packet.md, "Worker threads").
  std::string single_thread_reason() const override { return ""; }
};

}  // namespace icn
