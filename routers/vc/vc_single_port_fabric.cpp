#include "routers/vc/vc_single_port_fabric.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace icn::vc {

VcSinglePortFabric::VcSinglePortFabric(sc_core::sc_module_name name, const VcTopology& topo,
                                       const NetworkParams& params, CycleEngine& engine, UnitPacketPool& units)
    : sc_module(name),
      params_(params),
      units_(units),
      network_("net", topo, params, engine, pool_, ledger_) {
  const unsigned N = topo.nodes();
  ports_.assign(N, nullptr);
  for (unsigned n = 0; n < N; ++n) {
    sockets_.push_back(std::make_unique<tlm_utils::simple_initiator_socket<VcSinglePortFabric>>(
        ("to_nic" + std::to_string(n)).c_str()));
    sockets_.back()->bind(network_.nic(n).socket());
    network_.nic(n).set_sink(*this);
  }
  trans_.set_extension(&ext_);
  // Nodes that share a router (a fat tree's siblings) are one router apart.
  for (unsigned a = 0; a + 1 < N && nearest_routers_ == 2; ++a)
    if (topo.node_port(a).router == topo.node_port(a + 1).router) nearest_routers_ = 1;
  const auto& channels = network_.channels();
  for (const auto& c : channels) {
    probes_.push_back({c.link, loads_.size()});
    loads_.push_back(LinkLoad{network_.channel_name(c), 0, {}, 0, 0});
  }
  for (std::size_t begin = 0; begin < probes_.size(); begin += kProbeLinks) {
    const std::size_t end = std::min(probes_.size(), begin + kProbeLinks);
    probe_blocks_.push_back(std::make_unique<LinkProbe>(*this, begin, end, std::string(this->name()) + ".probe" +
                                                                               std::to_string(probe_blocks_.size())));
    probe_blocks_.back()->set_locality(channels[begin].router);  // beside the routers whose links it watches
    engine.add(*probe_blocks_.back());
  }
}

unsigned VcSinglePortFabric::zero_load_cycles(const NetworkParams& params, unsigned routers) {
  // The VcNic writes the packet in the cycle it leaves the port and sends the
  // head from the next (1), the injection link (L), per router its pipeline
  // and the next link (between routers C, the last one the ejection link L),
  // and the hand-over link to the port (1).
  const RouterParams& r = params.router;
  const unsigned L = params.link_latency, C = params.router_link_latency();
  return 1 + L + routers * (r.routing_delay + r.vc_alloc_delay + r.sw_alloc_delay + r.st_delay) +
         (routers == 0 ? 0 : (routers - 1) * C + L) + 1;
}

void VcSinglePortFabric::attach(NodeId x, SinglePortNic& nic) {
  if (x >= ports_.size()) throw std::invalid_argument("vc fabric: processor " + std::to_string(x) + " has no node");
  nic.ejection().set_strict(true);
  nic.ejection().connect_receiver(nic);
  nic.set_locality(network_.topology().node_port(x).router);  // on its router's worker thread (run.threads)
  ports_[x] = &nic;
}

void VcSinglePortFabric::inject(NodeId x, Cycle now, PacketId id) {
  const UnitPacket& u = units_[id];
  std::memset(buffer_, 0, sizeof(buffer_));
  std::memcpy(buffer_, &id, sizeof(id));  // the VC packet carries the unit packet's handle
  prepare_message_write(trans_, ext_, u.dst, buffer_, sizeof(id), u.seq, false, u.units);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  (*sockets_[x])->b_transport(trans_, delay);
  if (trans_.get_response_status() != tlm::TLM_OK_RESPONSE && error_.empty())
    error_ = "node " + std::to_string(x) + "'s VC NIC refused a packet of " + std::to_string(u.units) + " flits";
  for (auto& probe : probe_blocks_) {
    if (!probe->asleep) continue;
    probe->engine()->wake(*probe, now + 1);
    probe->asleep = false;
  }
}

Cycle VcSinglePortFabric::LinkProbe::tick(Cycle now) {
  for (std::size_t i = begin_; i < end_; ++i) {
    const Probe& pr = fabric_.probes_[i];
    if (pr.link->arrivals(now) == 0) continue;
    LinkLoad& l = fabric_.loads_[pr.load];
    pr.link->peek(now, [&](const Flit& f) {
      if (f.head()) {
        const Packet& p = fabric_.pool_[f.packet];
        ++l.packets;
        l.flows.insert(static_cast<std::uint64_t>(p.src) << 32 | p.dst);
        l.max_open = std::max(l.max_open, ++l.open);
      }
      if (f.tail()) --l.open;
    });
  }
  if (fabric_.pool_.live() != 0) return now + 1;
  asleep = true;  // inject() wakes it again
  return kNever;
}

void VcSinglePortFabric::arrived_stages(const Packet&, const PacketStages& st, Cycle) { head_ejected_ = st.head_ejected; }

void VcSinglePortFabric::arrived(const Packet& p, unsigned flits, Cycle tail, NodeId at) {
  PacketId id = 0;
  std::memcpy(&id, p.payload.data(), sizeof(id));
  UnitPacket& u = units_[id];  // what the sender handed over, kept apart from the packet in flight
  if (at != u.dst && misdelivery_.empty())
    misdelivery_ = "packet " + std::to_string(u.seq) + " of node " + std::to_string(u.src) + " was meant for node " +
                   std::to_string(u.dst) + " and received by node " + std::to_string(at);
  if ((flits != u.units || p.src != u.src) && error_.empty())
    error_ = "packet " + std::to_string(u.seq) + " " + std::to_string(u.src) + " -> " + std::to_string(u.dst) +
             " arrived with " + std::to_string(flits) + " of its " + std::to_string(u.units) + " flits";
  // Beyond the zero-load latency of its own path (p.hops routers): waiting.
  const Cycle zero_load = p.created + zero_load_cycles(p.hops) - 1 + (u.units - 1);
  const Cycle waited = tail > zero_load ? tail - zero_load : 0;
  wait_total_ += waited;
  wait_max_ = std::max<std::uint64_t>(wait_max_, waited);
  u.reassembled = true;
  u.head_arrived = head_ejected_ + 1;
  u.hops = p.hops;
  ports_[at]->ejection().send(tail, id);  // the hand-over link of the NIC that received it
}

std::string VcSinglePortFabric::problem() const {
  if (!misdelivery_.empty()) return misdelivery_;
  if (!error_.empty()) return error_;
  if (ledger_.delivered + pool_.live() != ledger_.injected)
    return "VC network: " + std::to_string(ledger_.injected) + " packets injected, " +
           std::to_string(ledger_.delivered) + " delivered, " + std::to_string(pool_.live()) + " held";
  return "";
}

}  // namespace icn::vc
