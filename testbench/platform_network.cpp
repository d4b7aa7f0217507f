#include "testbench/platform_network.hpp"

#include <set>

#include "nics/icn_extension.hpp"

namespace icn {

// Hands the ports' requests to the NICs in the processor phase of the first
// cycle after their time, as a processing element would; awake every cycle
// until end_of_traffic(), since a user's thread may send at any time.
class PlatformNetwork::Injector : public Clocked {
 public:
  Injector(PlatformNetwork& net) : Clocked(Phase::kProcessor), net_(net) {}
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
  PlatformNetwork& net_;
  std::set<NodeId> waiting_;  // ports holding requests, in node order
  bool open_ = true;
};

PlatformNetwork::PlatformNetwork(sc_core::sc_module_name name, const CycleEngine::Options& engine)
    : sc_core::sc_module(name), engine_("engine", engine) {
  injector_ = std::make_unique<Injector>(*this);
  engine_.add(*injector_);
  engine_.set_in_flight_probe([this] { return pool_.live(); });
  pool_.set_workers(engine_.threads());  // blocks on worker threads use their own free lists
}

PlatformNetwork::~PlatformNetwork() = default;

void PlatformNetwork::open_ports(NodeId nodes, DeliveryProtocol protocol, Accept accept,
                                 const std::function<tlm::tlm_target_socket<>&(NodeId)>& nic_socket) {
  for (NodeId n = 0; n < nodes; ++n) {
    ports_.push_back(std::make_unique<PlatformPort>(
        ("port" + std::to_string(n)).c_str(), n, protocol,
        [accept, n](NodeId dst, unsigned flits) { return accept(n, dst, flits); }, [this, n] { injector_->queued(n); }));
    ports_.back()->to_nic.bind(nic_socket(n));
  }
  engine_.wake(*injector_, 1);
}

void PlatformNetwork::end_of_traffic() { injector_->close(); }

void PlatformNetwork::delivered(const DeliveryExtension& e, const std::uint8_t* bytes, std::size_t length) {
  const NodeId meant = e.message < intended_.size() ? intended_[e.message] : kNoNode;
  if (e.dst != meant && wrong_node_.empty())
    wrong_node_ = "message " + std::to_string(e.message) + " sent from node " + std::to_string(e.src) + " to node " +
                  std::to_string(meant) + " arrived at node " + std::to_string(e.dst);
  packet_latency_.add(e.arrived - e.created);
  network_latency_.add(e.arrived - e.injected);
  ports_[e.dst]->arrived(e, bytes, length);
}

nlohmann::ordered_json PlatformNetwork::summary() const {
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

std::string PlatformNetwork::problem() const {
  const RunOutcome& o = engine_.outcome();
  if (o.status == RunOutcome::Status::kRunning) return "the network is still running (end_of_traffic() not called?)";
  if (o.status != RunOutcome::Status::kCompleted) return o.diagnostic;
  if (!wrong_node_.empty()) return wrong_node_;
  return ledger_.check(pool_.live());
}

}  // namespace icn
