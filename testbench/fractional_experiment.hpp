// Pipelined broadcast and reduction on single-port processors (Sanders &
// Sibeyn): chain, binary tree and fractional tree on a full crossbar
// (network.type=crossbar) and an a x b hierarchical crossbar
// (network.type=hier_crossbar). The same programs run on the virtual-channel
// routers with network.type=vc and traffic.collective
// (vc_collective_experiment.cpp). docs/fractional_tree.md.
#pragma once

#include "testbench/experiment.hpp"

namespace icn {

NetworkKind crossbar_kind();
NetworkKind hier_crossbar_kind();

}  // namespace icn
