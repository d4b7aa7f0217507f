// The network families icnsim knows. A new family adds its kind here.
#include "testbench/experiment.hpp"
#include "testbench/fattree_bitserial_experiment.hpp"
#include "testbench/fattree_packet_experiment.hpp"
#include "testbench/fractional_experiment.hpp"
#include "testbench/hpam_experiment.hpp"
#include "testbench/ibt_experiment.hpp"
#include "testbench/vc_experiment.hpp"

namespace icn {

const std::vector<NetworkKind>& network_kinds() {
  static const std::vector<NetworkKind> kinds{
      fattree_packet_kind(),
      fattree_bitserial_kind(),
      torus_kind(),
      ibt_kind(),
      crossbar_kind(),
      hier_crossbar_kind(),
      vc_kind(),
      hpam_kind(),
  };
  return kinds;
}

}  // namespace icn
