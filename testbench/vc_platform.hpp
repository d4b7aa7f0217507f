// VcPlatformNetwork: icnsim's virtual-channel network (mesh, torus, iBT, fat tree)
// as a component of a user's own SystemC/TLM-2.0 platform (docs/library.md).
//
// Built from the same keys as `icnsim run` (network.*, router.*, preset,
// seed, run.*; traffic.* and measure.* are read and checked but unused: the
// traffic is the user's), with the same validation and the same one-line
// errors (ConfigError). Per node a PlatformPort (platform_network.hpp):
// `port(n).inject` takes the user's messages, `port(n).deliver` hands over
// the ones that arrive. The routers, links and NICs are the ones `icnsim run`
// simulates, on the same cycle engine: for the same messages at the same
// cycles and the same seed, every packet takes the same cycles
// (tests/install/install_test.sh compares the two).
#pragma once

#include <memory>
#include <string>

#include "models/config.hpp"
#include "routers/vc/vc_network.hpp"
#include "routers/vc/vc_topology.hpp"
#include "testbench/vc_setup.hpp"
#include "testbench/network_builder.hpp"
#include "testbench/platform_network.hpp"

namespace icn {

class VcPlatformNetwork : public PlatformNetwork, public vc::ArrivalSink {
 public:
  // Reads and checks `cfg` (throws ConfigError naming the key); network.type must be vc.
  VcPlatformNetwork(sc_core::sc_module_name name, Config& cfg,
                    DeliveryProtocol protocol = DeliveryProtocol::kLooselyTimed);
  // The same from keys set in code: NetworkBuilder::vc_mesh(8, 2).preset("booksim").
  VcPlatformNetwork(sc_core::sc_module_name name, const NetworkBuilder& network,
                    DeliveryProtocol protocol = DeliveryProtocol::kLooselyTimed);
  ~VcPlatformNetwork() override;

  // vc::ArrivalSink
  void arrived(const Packet& packet, unsigned flits, Cycle tail_cycle, NodeId at) override;

 private:
  using Reading = PlatformReading<VcSyntheticSetup>;
  VcPlatformNetwork(sc_core::sc_module_name name, std::unique_ptr<Reading> reading, DeliveryProtocol protocol);

  std::unique_ptr<vc::VcTopology> topo_;
  std::unique_ptr<vc::VcNetwork> network_;
};

}  // namespace icn
