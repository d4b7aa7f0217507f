// Pipelined broadcast and reduction on single-port processors (Sanders &
// Sibeyn): chain, binary tree and fractional tree on a full crossbar
// (network.type=crossbar), an a x b hierarchical crossbar
// (network.type=hier_crossbar) and the virtual-channel routers' meshes, tori
// and fat trees (network.type=vc with traffic.collective). docs/fractional_tree.md.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "routers/vc/vc_link_address.hpp"
#include "routers/vc/vc_network.hpp"
#include "routers/vc/vc_topology.hpp"
#include "testbench/experiment.hpp"

namespace icn {

NetworkKind crossbar_kind();
NetworkKind hier_crossbar_kind();

// The VC network a collective runs on, as network.type=vc parsed it.
struct VcFabricSpec {
  std::function<std::unique_ptr<vc::VcTopology>()> make_topology;
  vc::NetworkParams params;
  bool fattree = false;
  bool torus = false;
  std::vector<unsigned> sides;  // mesh/torus: routers per dimension (x first)
  unsigned nodes = 0;
  std::vector<vc::VcLinkAddress> failed_links;
};

// network.type=vc with traffic.collective given: reads the collective's keys
// (the crossbar runs' traffic.* and nic.* keys, and traffic.embedding).
std::unique_ptr<ExperimentSetup> configure_vc_collective(Config& cfg, VcFabricSpec spec);
// Those keys, for `icnsim list`.
std::vector<ParamGroup> vc_collective_params();

}  // namespace icn
