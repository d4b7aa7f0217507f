// Ishii's bit-serial fat tree with greedy routing of a message set, as an
// icnsim experiment (network.type=fattree_bitserial).
#pragma once

#include "testbench/experiment.hpp"

namespace icn {

NetworkKind fattree_bitserial_kind();

}  // namespace icn
