#include "testbench/vc_platform.hpp"

namespace icn {

namespace {
const char* const kNotVc = "network.type: the platform network is the vc family's (network.type=vc, without traffic.collective)";
}  // namespace

VcPlatformNetwork::VcPlatformNetwork(sc_core::sc_module_name name, Config& cfg, DeliveryProtocol protocol)
    : VcPlatformNetwork(name, Reading::read(cfg, kNotVc), protocol) {}

VcPlatformNetwork::VcPlatformNetwork(sc_core::sc_module_name name, const NetworkBuilder& network, DeliveryProtocol protocol)
    : VcPlatformNetwork(name, Reading::read_copy(network.config(), kNotVc), protocol) {}

VcPlatformNetwork::VcPlatformNetwork(sc_core::sc_module_name name, std::unique_ptr<Reading> r, DeliveryProtocol protocol)
    : PlatformNetwork(name, r->ctx.engine), topo_(r->setup.network.make_topology()) {
  network_ = std::make_unique<vc::VcNetwork>("net", *topo_, r->setup.network.seeded(r->ctx.seed), engine(), pool(), ledger());
  r->setup.network.fail_links(*network_);
  const NodeId n_nodes = topo_->nodes();
  const unsigned max_flits = r->setup.network.net.max_packet_flits;
  for (NodeId n = 0; n < n_nodes; ++n) network_->nic(n).set_sink(*this);
  // The VC NIC's rules: any node (itself too, as uniform traffic may), 1..max flits.
  open_ports(
      n_nodes, protocol,
      [n_nodes, max_flits](NodeId, NodeId dst, unsigned flits) {
        if (dst >= n_nodes) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
        if (flits < 1 || flits > max_flits) return tlm::TLM_GENERIC_ERROR_RESPONSE;
        return tlm::TLM_OK_RESPONSE;
      },
      [this](NodeId n) -> tlm::tlm_target_socket<>& { return network_->nic(n).socket(); });
}

VcPlatformNetwork::~VcPlatformNetwork() = default;

void VcPlatformNetwork::arrived(const Packet& p, unsigned flits, Cycle tail, NodeId at) {
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
  delivered(e, p.payload.data(), p.payload_len);
}

}  // namespace icn
