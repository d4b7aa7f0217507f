// HPAM (Ben Miled et al.): a hierarchy of processor meshes joined by the
// inter-level links of eq. (1), VcRouters with extended X-Y routing, uni-port
// NICs with the paper's software costs, and its broadcast, scatter and gather
// programs: network.type=hpam. docs/hpam.md describes the hardware.
#pragma once

#include "testbench/experiment.hpp"

namespace icn {

NetworkKind hpam_kind();

}  // namespace icn
