// The packet-switched binary fat tree (Dimakopoulos & Dimopoulos) with one of
// its five collectives, as an icnsim experiment (network.type=fattree_packet).
#pragma once

#include "testbench/experiment.hpp"

namespace icn {

NetworkKind fattree_packet_kind();

}  // namespace icn
