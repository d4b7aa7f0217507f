// All-port Torus(n^d) and iBT(n^d; b) networks with pipelined k-packet
// broadcasts (Zhang & Deng) as icnsim experiments: network.type=torus|ibt.
#pragma once

#include "testbench/experiment.hpp"

namespace icn {

NetworkKind torus_kind();
NetworkKind ibt_kind();

}  // namespace icn
