// The virtual-channel wormhole router on meshes and tori under synthetic
// open-loop traffic, as an icnsim experiment (network.type=vc).
#pragma once

#include "testbench/experiment.hpp"

namespace icn {

NetworkKind vc_kind();

}  // namespace icn
