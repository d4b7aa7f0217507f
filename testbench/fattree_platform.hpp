// FatTreePlatformNetwork: Dimakopoulos & Dimopoulos's packet-switched binary
// fat tree (network.type=fattree_packet) as a component of a user's own
// SystemC/TLM-2.0 platform (docs/library.md), with a PlatformPort per leaf.
//
// Built from the same keys as `icnsim run` (network.*, seed, run.*;
// traffic.* is read and checked but unused: the traffic is the user's). The
// tree's routers, links and NICs are the ones the collectives run on. Its
// NIC's rules: a leaf writes to any other leaf (not to itself), a message is
// one packet (flits in the extension must be 1), at most 16 bytes.
#pragma once

#include <memory>

#include "models/config.hpp"
#include "models/fat_tree.hpp"
#include "nics/icn_extension.hpp"
#include "routers/fattree_packet/fat_tree_network.hpp"
#include "testbench/fattree_packet_setup.hpp"
#include "testbench/network_builder.hpp"
#include "testbench/platform_network.hpp"

namespace icn {

class FatTreePlatformNetwork : public PlatformNetwork, public DeliverySink {
 public:
  // Reads and checks `cfg` (throws ConfigError naming the key); network.type must be fattree_packet.
  FatTreePlatformNetwork(sc_core::sc_module_name name, Config& cfg,
                         DeliveryProtocol protocol = DeliveryProtocol::kLooselyTimed);
  FatTreePlatformNetwork(sc_core::sc_module_name name, const NetworkBuilder& network,
                         DeliveryProtocol protocol = DeliveryProtocol::kLooselyTimed);
  ~FatTreePlatformNetwork() override;

  // DeliverySink: a packet reached a leaf's NIC.
  void deliver(const Delivery& d) override;

 private:
  using Reading = PlatformReading<FatTreeSetup>;
  FatTreePlatformNetwork(sc_core::sc_module_name name, std::unique_ptr<Reading> reading, DeliveryProtocol protocol);

  std::unique_ptr<FatTreeShape> shape_;
  std::unique_ptr<fattree::FatTreeNetwork> network_;
};

}  // namespace icn
