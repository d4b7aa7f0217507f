#include "nics/platform_port.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "nics/icn_extension.hpp"

namespace icn {

// The AT base protocol wants payloads with a memory manager: a free list of
// payloads, each with its DeliveryExtension attached for good.
class PlatformPort::PayloadPool : public tlm::tlm_mm_interface {
 public:
  ~PayloadPool() override {
    for (auto* p : all_) {
      DeliveryExtension* ext = nullptr;
      p->get_extension(ext);
      p->clear_extension(ext);
      delete ext;
      delete p;
    }
  }
  tlm::tlm_generic_payload* get() {
    if (free_.empty()) {
      auto* p = new tlm::tlm_generic_payload(this);
      p->set_extension(new DeliveryExtension);
      all_.push_back(p);
      free_.push_back(p);
    }
    tlm::tlm_generic_payload* p = free_.back();
    free_.pop_back();
    p->acquire();
    return p;
  }
  void free(tlm::tlm_generic_payload* p) override { free_.push_back(p); }

 private:
  std::vector<tlm::tlm_generic_payload*> all_, free_;
};

PlatformPort::PlatformPort(sc_core::sc_module_name name, NodeId node, DeliveryProtocol protocol,
                           std::function<tlm::tlm_response_status(NodeId, unsigned)> accept,
                           std::function<void()> queued)
    : sc_core::sc_module(name),
      inject("inject"),
      deliver("deliver"),
      to_nic("to_nic"),
      node_(node),
      protocol_(protocol),
      accept_(std::move(accept)),
      queued_(std::move(queued)) {
  inject.register_b_transport(this, &PlatformPort::b_transport);
  deliver.register_nb_transport_bw(this, &PlatformPort::nb_transport_bw);
  if (protocol_ == DeliveryProtocol::kApproximatelyTimed) payloads_ = new PayloadPool;
  SC_HAS_PROCESS(PlatformPort);
  SC_THREAD(deliver_loop);
}

PlatformPort::~PlatformPort() { delete payloads_; }

void PlatformPort::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (const auto form = message_write_form(trans, 0, kMaxPayloadBytes); form != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(form);
    return;
  }
  IcnExtension* ext = nullptr;
  trans.get_extension(ext);
  Request r;
  r.at = sc_core::sc_time_stamp() + delay;
  r.dst = trans.get_address() > kNoNode ? kNoNode : static_cast<NodeId>(trans.get_address());
  r.flits = ext != nullptr ? ext->route : 1;
  r.seq = ext != nullptr ? ext->seq : 0;
  if (const auto ok = accept_(r.dst, r.flits); ok != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(ok);
    return;
  }
  r.bytes.assign(trans.get_data_ptr(), trans.get_data_ptr() + trans.get_data_length());
  // In time order; equal times keep the order they were sent in.
  auto after = std::upper_bound(requests_.begin(), requests_.end(), r.at,
                                [](const sc_core::sc_time& t, const Request& q) { return t < q.at; });
  requests_.insert(after, std::move(r));
  queued_();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void PlatformPort::arrived(const DeliveryExtension& what, const std::uint8_t* bytes, std::size_t length) {
  arrivals_.push_back(Arrival{what, std::vector<std::uint8_t>(bytes, bytes + length)});
  arrival_event_.notify(sc_core::SC_ZERO_TIME);
}

void PlatformPort::deliver_loop() {
  for (;;) {
    while (arrivals_.empty()) wait(arrival_event_);
    Arrival a = std::move(arrivals_.front());
    arrivals_.pop_front();
    auto fill = [&](tlm::tlm_generic_payload& t) {
      t.set_command(tlm::TLM_WRITE_COMMAND);
      t.set_address(a.ext.src);
      t.set_data_ptr(a.bytes.data());
      t.set_data_length(static_cast<unsigned>(a.bytes.size()));
      t.set_streaming_width(static_cast<unsigned>(a.bytes.size()));
      t.set_byte_enable_ptr(nullptr);
      t.set_dmi_allowed(false);
      t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    };
    if (protocol_ == DeliveryProtocol::kLooselyTimed) {
      tlm::tlm_generic_payload t;
      DeliveryExtension ext = a.ext;
      fill(t);
      t.set_extension(&ext);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      deliver->b_transport(t, delay);
      t.clear_extension(&ext);
      if (delay > sc_core::SC_ZERO_TIME) wait(delay);
    } else {
      tlm::tlm_generic_payload* t = payloads_->get();
      fill(*t);
      DeliveryExtension* ext = nullptr;
      t->get_extension(ext);
      *ext = a.ext;
      deliver_at(*t);
      t->release();
    }
  }
}

// The AT base protocol's four phases, initiator side: BEGIN_REQ, then the
// target's END_REQ and BEGIN_RESP (returned or sent back), then END_RESP.
void PlatformPort::deliver_at(tlm::tlm_generic_payload& trans) {
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  bw_phase_ = tlm::UNINITIALIZED_PHASE;
  const tlm::tlm_sync_enum status = deliver->nb_transport_fw(trans, phase, delay);
  if (status == tlm::TLM_COMPLETED) {
    wait(delay);
    return;
  }
  if (status == tlm::TLM_UPDATED) {
    wait(delay);
    if (phase == tlm::BEGIN_RESP) bw_phase_ = tlm::BEGIN_RESP;
  }
  while (bw_phase_ != tlm::BEGIN_RESP) wait(phase_event_);
  phase = tlm::END_RESP;
  delay = sc_core::SC_ZERO_TIME;
  deliver->nb_transport_fw(trans, phase, delay);
}

tlm::tlm_sync_enum PlatformPort::nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase,
                                                 sc_core::sc_time& delay) {
  if (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP) {
    if (phase == tlm::BEGIN_RESP || bw_phase_ != tlm::BEGIN_RESP) bw_phase_ = phase;
    phase_event_.notify(delay);
  }
  return tlm::TLM_ACCEPTED;
}

}  // namespace icn
