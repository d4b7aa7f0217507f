#include "testbench/vc_platform.hpp"

#include <set>

#include "nics/icn_extension.hpp"
#include "testbench/driver.hpp"
#include "testbench/vc_setup.hpp"

namespace icn {

// The VC family's network as the scenario keys give it (the same reading
// and checks as `icnsim run`), and the engine options and seed of run.*.
struct VcPlatformNetwork::Reading {
  VcNetworkSpec spec;
  RunContext ctx;
};

std::unique_ptr<VcPlatformNetwork::Reading> VcPlatformNetwork::read(Config& cfg) {
  Prepared p = prepare(cfg);
  const auto* vc = dynamic_cast<const VcSyntheticSetup*>(p.setup.get());
  if (vc == nullptr)
    throw ConfigError("network.type: the platform network is the vc family's (network.type=vc, without traffic.collective)");
  return std::make_unique<Reading>(Reading{vc->network, p.ctx});
}

std::unique_ptr<VcPlatformNetwork::Reading> VcPlatformNetwork::read_copy(Config cfg) { return read(cfg); }

// Hands the ports' requests to the NICs in the processor phase of the first
// cycle after their time, as a processing element would; awake every cycle
// until end_of_traffic(), since a user's thread may send at any time.
class VcPlatformNetwork::Injector : public Clocked {
 public:
  Injector(VcPlatformNetwork& net) : Clocked(Phase::kProcessor), net_(net) {}
  Cycle tick(Cycle now) override {
    const sc_core::sc_time edge = net_.period() * static_cast<double>(now);
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      PlatformPort& port = *net_.ports_[*it];
      port.take_before(edge, [&](PlatformPort::Request& r) {
        tlm::tlm_generic_payload t;
        IcnExtension ext;
        prepare_message_write(t, ext, r.dst, r.bytes.data(), static_cast<unsigned>(r.bytes.size()), r.seq, false, r.flits);
        t.set_extension(&ext);
        sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
        // Where the user sent it, by the id the NIC is about to give it: the
        // arrival is checked against this, not against the packet's own
        // destination field (docs/testing.md, "The rule for oracles").
        net_.intended_.push_back(r.dst);
        port.to_nic->b_transport(t, zero);
        if (!t.is_response_ok()) net_.intended_.pop_back();  // the NIC gave it no id (the port checks the same rules)
        t.clear_extension(&ext);
      });
      it = port.has_requests() ? std::next(it) : waiting_.erase(it);
    }
    return open_ || !waiting_.empty() ? now + 1 : kNever;
  }
  std::string block_name() const override { return std::string(net_.name()) + ".injector"; }
  void queued(NodeId n) { waiting_.insert(n); }
  void close() { open_ = false; }

 private:
  VcPlatformNetwork& net_;
  std::set<NodeId> waiting_;  // ports holding requests, in node order
  bool open_ = true;
};

VcPlatformNetwork::VcPlatformNetwork(sc_core::sc_module_name name, Config& cfg, DeliveryProtocol protocol)
    : VcPlatformNetwork(name, read(cfg), protocol) {}

VcPlatformNetwork::VcPlatformNetwork(sc_core::sc_module_name name, const NetworkBuilder& network, DeliveryProtocol protocol)
    : VcPlatformNetwork(name, read_copy(network.config()), protocol) {}

VcPlatformNetwork::VcPlatformNetwork(sc_core::sc_module_name name, std::unique_ptr<Reading> r, DeliveryProtocol protocol)
    : sc_core::sc_module(name), engine_("engine", r->ctx.engine), topo_(r->spec.make_topology()) {
  network_ = std::make_unique<vc::VcNetwork>("net", *topo_, r->spec.seeded(r->ctx.seed), engine_, pool_, ledger_);
  r->spec.fail_links(*network_);
  injector_ = std::make_unique<Injector>(*this);
  engine_.add(*injector_);
  engine_.set_in_flight_probe([this] { return pool_.live(); });
  const NodeId n_nodes = topo_->nodes();
  const unsigned max_flits = r->spec.net.max_packet_flits;
  for (NodeId n = 0; n < n_nodes; ++n) {
    network_->nic(n).set_sink(*this);
    auto accept = [n_nodes, max_flits](NodeId dst, unsigned flits) {
      if (dst >= n_nodes) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
      if (flits < 1 || flits > max_flits) return tlm::TLM_GENERIC_ERROR_RESPONSE;
      return tlm::TLM_OK_RESPONSE;
    };
    ports_.push_back(std::make_unique<PlatformPort>(("port" + std::to_string(n)).c_str(), n, protocol, accept,
                                                    [this, n] { injector_->queued(n); }));
    ports_.back()->to_nic.bind(network_->nic(n).socket);
  }
  engine_.wake(*injector_, 1);
}

VcPlatformNetwork::~VcPlatformNetwork() = default;

void VcPlatformNetwork::end_of_traffic() { injector_->close(); }

void VcPlatformNetwork::arrived(const Packet& p, unsigned flits, Cycle tail, NodeId at) {
  const NodeId meant = p.message < intended_.size() ? intended_[p.message] : kNoNode;
  if (at != meant && wrong_node_.empty())
    wrong_node_ = "message " + std::to_string(p.message) + " sent from node " + std::to_string(p.src) + " to node " +
                  std::to_string(meant) + " arrived at node " + std::to_string(at);
  packet_latency_.add(tail - p.created);
  network_latency_.add(tail - p.injected);
  DeliveryExtension e;
  e.src = p.src;
  e.dst = at;
  e.message = p.message;
  e.seq = p.seq;
  e.flits = flits;
  e.created = p.created;
  e.injected = p.injected;
  e.arrived = tail;
  e.hops = p.hops;
  ports_[at]->arrived(e, p.payload.data(), p.payload_len);
}

nlohmann::ordered_json VcPlatformNetwork::summary() const {
  const RunOutcome& o = engine_.outcome();
  nlohmann::ordered_json s;
  s["status"] = to_string(o.status);
  s["cycles"] = o.last_cycle;
  s["messages"] = {{"injected", ledger_.injected}, {"delivered", ledger_.delivered}};
  const std::string books = ledger_.check(pool_.live());
  s["conservation"] = books.empty() ? "ok" : books;
  s["latency"]["packet"] = packet_latency_.summary();
  s["latency"]["network"] = network_latency_.summary();
  return s;
}

std::string VcPlatformNetwork::problem() const {
  const RunOutcome& o = engine_.outcome();
  if (o.status == RunOutcome::Status::kRunning) return "the network is still running (end_of_traffic() not called?)";
  if (o.status != RunOutcome::Status::kCompleted) return o.diagnostic;
  if (!wrong_node_.empty()) return wrong_node_;
  return ledger_.check(pool_.live());
}

}  // namespace icn
