#include "routers/ibt/broadcast_nic.hpp"

#include <cstring>

namespace icn {

BroadcastNic::BroadcastNic(sc_core::sc_module_name name, Params params, PacketPool& pool, TrafficLedger& ledger,
                           CycleEngine& engine, InjectionTarget& router)
    : sc_module(name), socket("socket"), params_(params), pool_(pool), ledger_(ledger), engine_(engine),
      router_(router) {
  socket.register_b_transport(this, &BroadcastNic::b_transport);
}

void BroadcastNic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  IcnExtension* ext = nullptr;
  trans.get_extension(ext);
  if (const auto form = message_write_form(trans, 0, kMaxPayloadBytes); form != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(form);
    return;
  }
  // This interface carries broadcast packets only, numbered 0..k-1.
  if (ext == nullptr || !ext->broadcast) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (ext->seq >= params_.packets) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const Cycle now = engine_.now();
  const PacketId id = pool_.allocate();
  Packet& p = pool_[id];
  p.src = params_.node;
  p.dst = kBroadcastDestination;
  p.seq = ext->seq;
  p.route = ext->route;
  p.flags = Packet::kBroadcast;
  p.message = static_cast<std::uint32_t>(ledger_.injected);
  p.injected = now;
  p.hops = 0;
  p.payload_len = static_cast<std::uint8_t>(trans.get_data_length());
  std::memcpy(p.payload.data(), trans.get_data_ptr(), p.payload_len);
  ++ledger_.injected;
  // Fan-out is the message's: its destination set (less the source), or the group's.
  std::uint64_t fanout = params_.broadcast_fanout;
  if (ext->destinations != nullptr) fanout = ext->destinations->size() - (ext->destinations->contains(params_.node) ? 1 : 0);
  ledger_.deliveries_expected += fanout;
  ++accepted_;
  accepted_in_cycle_ = last_cycle_ == now ? accepted_in_cycle_ + 1 : 1;
  last_cycle_ = now;
  router_.inject(id, now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace icn
