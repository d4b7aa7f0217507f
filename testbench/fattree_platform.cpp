#include "testbench/fattree_platform.hpp"

#include <stdexcept>


namespace icn {

namespace {
const char* const kNotFatTree = "network.type: this platform network is the packet fat tree's (network.type=fattree_packet)";
}  // namespace

FatTreePlatformNetwork::FatTreePlatformNetwork(sc_core::sc_module_name name, Config& cfg, DeliveryProtocol protocol)
    : FatTreePlatformNetwork(name, Reading::read(cfg, kNotFatTree), protocol) {}

FatTreePlatformNetwork::FatTreePlatformNetwork(sc_core::sc_module_name name, const NetworkBuilder& network,
                                               DeliveryProtocol protocol)
    : FatTreePlatformNetwork(name, Reading::read_copy(network.config(), kNotFatTree), protocol) {}

FatTreePlatformNetwork::FatTreePlatformNetwork(sc_core::sc_module_name name, std::unique_ptr<Reading> r,
                                               DeliveryProtocol protocol)
    : PlatformNetwork(name, r->ctx.engine),
      shape_(std::make_unique<FatTreeShape>(r->setup.height, r->setup.capacities)) {
  network_ = std::make_unique<fattree::FatTreeNetwork>("net", *shape_, r->setup.link_latency, engine(), pool(), ledger(),
                                                       r->setup.swap);
  for (const auto& link : r->setup.failed_links) {
    Channel* c = network_->channel(link.name());
    if (c == nullptr) throw std::logic_error("fat tree has no channel " + link.name());  // parse and build disagree
    c->set_failed(true);
  }
  const NodeId leaves = shape_->leaves();
  for (NodeId n = 0; n < leaves; ++n) network_->nic(n).set_sink(*this);
  // PacketNic's rules: another leaf, one packet per message.
  open_ports(
      leaves, protocol,
      [leaves](NodeId src, NodeId dst, unsigned flits) {
        if (dst >= leaves || dst == src) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
        if (flits != 1) return tlm::TLM_GENERIC_ERROR_RESPONSE;
        return tlm::TLM_OK_RESPONSE;
      },
      [this](NodeId n) -> tlm::tlm_target_socket<>& { return network_->nic(n).socket; });
}

FatTreePlatformNetwork::~FatTreePlatformNetwork() = default;

void FatTreePlatformNetwork::deliver(const Delivery& d) {
  DeliveryExtension e;
  e.src = d.src;
  e.dst = d.dst;
  e.message = d.message;
  e.seq = d.seq;
  e.flits = 1;
  e.created = d.created;
  e.injected = d.injected;
  e.arrived = d.arrived;
  e.hops = d.hops;
  delivered(e, d.payload, d.payload_len);
}

}  // namespace icn
