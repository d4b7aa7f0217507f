// PlatformNetwork: what every icnsim network offered as a component of a
// user's own SystemC/TLM-2.0 platform has in common (docs/library.md): a
// cycle engine of its own, one PlatformPort per node (nics/platform_port.hpp)
// whose writes an injector hands to the node's NIC at their clock edge, the
// books (every message the user sent is delivered, or the run says why not),
// the packet latencies, and the check that each message arrived at the node
// the user wrote to.
//
// A family's platform network (VcPlatformNetwork, FatTreePlatformNetwork)
// builds its routers, links and NICs on engine() and pool() from the same
// keys as `icnsim run`, calls open_ports() once its NICs exist, and reports
// each arrival with delivered(). The network runs until end_of_traffic() has
// been called and every message has been delivered (or the stall watchdog or
// run.max_cycles ends it); summary() and problem() say how it ended.
#pragma once

#include <systemc>
#include <tlm>

#include <functional>
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
#include "testbench/driver.hpp"

namespace icn {

// A family's setup and the run's context, read from `cfg` exactly as
// `icnsim run` reads them (ConfigError names a bad key); `refusal` is the
// error when the keys describe another family or traffic.
template <typename Setup>
struct PlatformReading {
  Setup setup;
  RunContext ctx;

  static std::unique_ptr<PlatformReading> read(Config& cfg, const std::string& refusal) {
    Prepared p = prepare(cfg);
    const auto* setup = dynamic_cast<const Setup*>(p.setup.get());
    if (setup == nullptr) throw ConfigError(refusal);
    return std::make_unique<PlatformReading>(PlatformReading{*setup, p.ctx});
  }
  // The same on a copy (a NetworkBuilder's keys stay as they were).
  static std::unique_ptr<PlatformReading> read_copy(Config cfg, const std::string& refusal) { return read(cfg, refusal); }
};

class PlatformNetwork : public sc_core::sc_module {
 public:
  ~PlatformNetwork() override;

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

 protected:
  PlatformNetwork(sc_core::sc_module_name name, const CycleEngine::Options& engine);

  // The network's rule for a message from `src`: OK, or the response status
  // a write to `dst` of `flits` flits gets.
  using Accept = std::function<tlm::tlm_response_status(NodeId src, NodeId dst, unsigned flits)>;
  // Makes the ports, each bound to its NIC's processor-side target socket.
  void open_ports(NodeId nodes, DeliveryProtocol protocol, Accept accept,
                  const std::function<tlm::tlm_target_socket<>&(NodeId)>& nic_socket);
  // A message reached node `e.dst`'s NIC: latency, the intended node, the
  // user's delivery socket. `e.message` is the id the NIC gave it (the order
  // of injection, counted by the ledger).
  void delivered(const DeliveryExtension& e, const std::uint8_t* bytes, std::size_t length);

  PacketPool& pool() { return pool_; }
  TrafficLedger& ledger() { return ledger_; }

 private:
  class Injector;

  CycleEngine engine_;
  PacketPool pool_;
  TrafficLedger ledger_;
  std::unique_ptr<Injector> injector_;
  std::vector<std::unique_ptr<PlatformPort>> ports_;
  Histogram packet_latency_, network_latency_;  // created -> tail, injected -> tail
  std::vector<NodeId> intended_;  // per message id, the node the user wrote to
  std::string wrong_node_;        // the first message that arrived where it was not sent
};

}  // namespace icn
