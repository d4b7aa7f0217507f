// VcPlatformNetwork: icnsim's virtual-channel network (mesh, torus, iBT, fat tree)
// as a component of a user's own SystemC/TLM-2.0 platform (docs/library.md).
//
// Built from the same keys as `icnsim run` (network.*, router.*, preset,
// seed, run.*; traffic.* and measure.* are read and checked but unused: the
// traffic is the user's), with the same validation and the same one-line
// errors (ConfigError). Per node a PlatformPort (nics/platform_port.hpp):
// `port(n).inject` takes the user's messages, `port(n).deliver` hands over
// the ones that arrive. The routers, links and NICs are the ones `icnsim run`
// simulates, on the same cycle engine: for the same messages at the same
// cycles and the same seed, every packet takes the same cycles
// (tests/install/install_test.sh compares the two).
//
// The network runs until end_of_traffic() has been called and every message
// has been delivered (or the stall watchdog or run.max_cycles ends it);
// summary() and problem() say how it ended.
#pragma once

#include <systemc>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "models/stats.hpp"
#include "nics/platform_port.hpp"
#include "routers/vc/vc_network.hpp"
#include "routers/vc/vc_topology.hpp"

namespace icn {

class VcPlatformNetwork : public sc_core::sc_module, public vc::ArrivalSink {
 public:
  // Reads and checks `cfg` (throws ConfigError naming the key); network.type must be vc.
  VcPlatformNetwork(sc_core::sc_module_name name, Config& cfg,
                    DeliveryProtocol protocol = DeliveryProtocol::kLooselyTimed);
  ~VcPlatformNetwork() override;

  NodeId nodes() const { return static_cast<NodeId>(ports_.size()); }
  PlatformPort& port(NodeId n) { return *ports_.at(n); }
  // The clock period: cycle c is evaluated at time c x period.
  const sc_core::sc_time& period() const { return engine_.options().period; }
  CycleEngine& engine() { return engine_; }

  // No more messages will be sent: the network ends once it is empty.
  void end_of_traffic();
  // How the run ended: status, cycles, messages injected and delivered,
  // conservation, packet latency (created -> tail) as icnsim run reports it.
  nlohmann::ordered_json summary() const;
  // "" if the run completed with every message delivered; else one line.
  std::string problem() const;

  // vc::ArrivalSink
  void arrived(const Packet& packet, unsigned flits, Cycle tail_cycle, NodeId at) override;

 private:
  class Injector;
  struct Reading;
  VcPlatformNetwork(sc_core::sc_module_name name, std::unique_ptr<Reading> reading, DeliveryProtocol protocol);
  static std::unique_ptr<Reading> read(Config& cfg);

  CycleEngine engine_;
  PacketPool pool_;
  TrafficLedger ledger_;
  std::unique_ptr<vc::VcTopology> topo_;
  std::unique_ptr<vc::VcNetwork> network_;
  std::unique_ptr<Injector> injector_;
  std::vector<std::unique_ptr<PlatformPort>> ports_;
  Histogram packet_latency_, network_latency_;  // created -> tail, injected -> tail
  std::vector<NodeId> intended_;  // per message id, the node the user wrote to
  std::string wrong_node_;        // the first message that arrived where it was not sent
};

}  // namespace icn
