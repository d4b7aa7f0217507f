#include "routers/fattree_bitserial/bit_serial_nic.hpp"

#include <cstring>

#include "routers/fattree_bitserial/routing_bits.hpp"

namespace icn::bitserial {

namespace {

void put_bits(std::array<std::uint64_t, 3>& bits, unsigned& pos, std::uint64_t value, unsigned width) {
  for (unsigned k = width; k-- > 0;) {
    if ((value >> k) & 1u) bits[pos / 64] |= std::uint64_t{1} << (pos % 64);
    ++pos;
  }
}

std::uint64_t get_bits(const std::array<std::uint64_t, 3>& bits, unsigned& pos, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned k = 0; k < width; ++k, ++pos) v = (v << 1) | ((bits[pos / 64] >> (pos % 64)) & 1u);
  return v;
}

bool bit_at(const std::array<std::uint64_t, 3>& bits, unsigned pos) { return ((bits[pos / 64] >> (pos % 64)) & 1u) != 0; }

}  // namespace

BitSerialNic::BitSerialNic(sc_core::sc_module_name name, Params params, const DeliveryCycleClock& clock,
                           TrafficLedger& ledger, std::vector<DeliveryCycleCounts>& counts)
    : sc_module(name), Clocked(Phase::kNetwork), socket("socket"), params_(params), clock_(clock),
      ledger_(ledger), counts_(counts), message_bits_(message_bits(params.height)), cursor_(clock) {
  socket.register_b_transport(this, &BitSerialNic::b_transport);
}

void BitSerialNic::attach(BitChannel& up, BitChannel& up_ack, BitChannel& down, BitChannel& down_ack,
                          const std::function<std::unique_ptr<RouteStreamGenerator>()>& make_generator) {
  up_ = &up;
  up_ack_ = &up_ack;
  down_ = &down;
  down_ack_ = &down_ack;
  up_ack.connect_receiver(*this);
  down.connect_receiver(*this);
  transmitters_.resize(up.width());
  for (auto& t : transmitters_) t.generator = make_generator();
  receivers_.resize(down.width());
  buffering_bits_.assign(params_.height + 1, 0);
}

void BitSerialNic::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  IcnExtension* ext = nullptr;
  trans.get_extension(ext);
  const NodeId nodes = NodeId{1} << params_.height;
  if (const auto form = message_write_form(trans, kPayloadBytes, kPayloadBytes); form != tlm::TLM_OK_RESPONSE) {
    trans.set_response_status(form);
    return;
  }
  if (ext != nullptr && ext->broadcast) {  // streams have one destination
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (trans.get_address() >= nodes || trans.get_address() == params_.node) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const std::uint32_t seq = ext != nullptr ? ext->seq : 0;
  StreamTransmitter* free = nullptr;
  for (auto& t : transmitters_) {
    if (t.state == StreamTransmitter::kFree) {
      free = &t;
      break;
    }
  }
  if (free == nullptr || seq >= (1u << kSeqBits)) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  StreamTransmitter& t = *free;
  const Cycle now = engine()->now();
  const Cycle start = clock_.next_start(now);
  t.state = StreamTransmitter::kLoaded;
  t.dst = static_cast<NodeId>(trans.get_address());
  t.seq = seq;
  t.delivery_cycle = clock_.index(start);
  t.route_bits = 0;
  t.message_pos = 0;
  t.message = {};
  unsigned pos = 0;
  put_bits(t.message, pos, params_.node, params_.height);
  put_bits(t.message, pos, seq, kSeqBits);
  const unsigned char* data = trans.get_data_ptr();
  for (unsigned i = 0; i < kPayloadBytes; ++i) put_bits(t.message, pos, data[i], 8);
  ++active_;
  ++ledger_.injected;
  ++ledger_.deliveries_expected;
  engine()->wake(*this, start);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void BitSerialNic::finish(StreamTransmitter& t, bool delivered, Cycle now) {
  DeliveryReport r;
  r.src = params_.node;
  r.dst = t.dst;
  r.seq = t.seq;
  r.delivered = delivered;
  r.delivery_cycle = t.delivery_cycle;
  r.cycle = now;
  t.state = StreamTransmitter::kFree;
  --active_;
  if (follower_ != nullptr) follower_->reported(params_.node, t.dst, t.seq, delivered, now);
  keep(Outcome::kReported).report = r;
  if (delivered) {
    // Progress on this network is a message acknowledged, not bits moving: a
    // fault-free tree acknowledges at least one stream in every delivery cycle
    // that sends any (a denied stream was denied by streams that got further),
    // so a stretch without one means streams vanish where a fault took them,
    // and the stall watchdog ends the run instead of retries until run.max_cycles.
    engine()->note_progress();
  }
}

BitSerialNic::Outcome& BitSerialNic::keep(Outcome::Kind kind) {
  if (outcomes_.empty()) engine()->request_commit(*this);
  outcomes_.emplace_back();
  outcomes_.back().kind = kind;
  return outcomes_.back();
}

void BitSerialNic::commit(Cycle) {
  for (Outcome& o : outcomes_) {
    const std::uint64_t dc = o.report.delivery_cycle;
    switch (o.kind) {
      case Outcome::kStreamSent:
        if (counts_.size() <= dc) counts_.resize(dc + 1);
        ++counts_[dc].sent;
        break;
      case Outcome::kReported:
        if (counts_.size() <= dc) counts_.resize(dc + 1);
        if (o.report.delivered) {
          ++counts_[dc].delivered;
        } else {
          ++ledger_.lost;
          ++counts_[dc].lost;
        }
        if (report_sink_ != nullptr) report_sink_->report(o.report);
        break;
      case Outcome::kReceived:
        ++ledger_.delivered;
        if (sink_ != nullptr) {
          o.delivery.payload = o.payload.data();
          sink_->deliver(o.delivery);
        }
        break;
    }
  }
  outcomes_.clear();
}

void BitSerialNic::transmit(StreamTransmitter& t, unsigned path, Cycle now) {
  if (t.state == StreamTransmitter::kLoaded) {
    t.generator->load(params_.node, t.dst);  // the load edge; the next clock's output is M
    t.state = StreamTransmitter::kRouting;
    keep(Outcome::kStreamSent).report.delivery_cycle = t.delivery_cycle;
    if (up_->failed()) ++failed_streams_;
    return;  // nothing on the path in the load clock
  }
  if (t.state == StreamTransmitter::kRouting) {
    const StreamBit b = t.generator->next_bit();
    if (b.valid) {
      if (++t.route_bits > BehaviouralRouteStreamGenerator::max_length(params_.height)) {
        ++overlong_;  // a generator that never stops: cut it, the stream will be lost
        t.state = StreamTransmitter::kAwaitAck;
        return;
      }
      up_->drive(now, path, b.bit);
      if (follower_ != nullptr && t.route_bits == 1) follower_->started(params_.node, t.dst, t.seq, up_, path, now);  // M
      return;
    }
    t.state = StreamTransmitter::kMessage;
    const unsigned h = turn_height(params_.node, t.dst);
    if (t.route_bits > 2 * h) buffering_bits_[h] = std::max(buffering_bits_[h], t.route_bits - 2 * h);
  }
  if (t.state == StreamTransmitter::kMessage) {
    up_->drive(now, path, bit_at(t.message, t.message_pos));
    if (++t.message_pos == message_bits_) t.state = StreamTransmitter::kAwaitAck;
  }
}

void BitSerialNic::report_truncated(StreamReceiver& r) {
  if (r.active) ++truncated_;
  r.active = false;
}

void BitSerialNic::receive_bit(unsigned path, bool bit, Cycle now) {
  StreamReceiver& r = receivers_[path];
  const std::uint64_t dc = cursor_.index();
  if (r.active && r.delivery_cycle != dc) report_truncated(r);
  if (!r.active) {
    if (!bit) return;  // idle wire
    r.active = true;   // M
    r.delivery_cycle = dc;
    r.count = 0;
    r.bits = {};
    return;
  }
  if (bit) r.bits[r.count / 64] |= std::uint64_t{1} << (r.count % 64);
  if (++r.count < message_bits_) return;

  r.active = false;
  unsigned pos = 0;
  const auto src = static_cast<NodeId>(get_bits(r.bits, pos, params_.height));
  const auto seq = static_cast<std::uint32_t>(get_bits(r.bits, pos, kSeqBits));
  unsigned char payload[kPayloadBytes];
  for (unsigned i = 0; i < kPayloadBytes; ++i) payload[i] = static_cast<unsigned char>(get_bits(r.bits, pos, 8));
  if (down_ack_->failed()) ++failed_acks_;
  down_ack_->drive(now, path, true);  // the acknowledge starts back along the stream's path
  ++received_;
  if (follower_ != nullptr) follower_->received(params_.node, down_, path, now - 1, now);
  last_arrival_phase_ = std::max(last_arrival_phase_, cursor_.phase());
  Outcome& o = keep(Outcome::kReceived);
  std::memcpy(o.payload.data(), payload, kPayloadBytes);
  Delivery& d = o.delivery;
  d.src = src;
  d.dst = params_.node;
  d.seq = seq;
  d.payload_len = kPayloadBytes;
  d.injected = cursor_.start() + kFirstDrivePhase;
  d.arrived = now - 1;  // the last bit crossed the link in the previous clock
  d.hops = static_cast<std::uint16_t>(src == params_.node ? 0 : 2 * turn_height(src, params_.node));
}

Cycle BitSerialNic::tick(Cycle now) {
  cursor_.seek(now);
  const Cycle phase = cursor_.phase();
  if (down_flush_ != nullptr) {
    down_flush_->receive(now, [&](std::uint32_t path, bool bit) {
      if (!bit || !receivers_[path].active) return;
      receivers_[path].active = false;  // flushed upstream: a new stream follows on this path
      ++flushed_receptions_;
    });
  }
  down_->receive(now, [&](std::uint32_t path, bool bit) { receive_bit(path, bit, now); });
  up_ack_->receive(now, [&](std::uint32_t path, bool bit) {
    if (!bit) return;
    StreamTransmitter& t = transmitters_[path];
    if (t.state != StreamTransmitter::kAwaitAck || t.delivery_cycle != cursor_.index()) {
      ++stray_acks_;
      return;
    }
    last_ack_phase_ = std::max(last_ack_phase_, phase);
    finish(t, true, now);
  });

  bool driving = false, waiting = false;
  Cycle next_load = kNever;
  for (unsigned path = 0; path < transmitters_.size(); ++path) {
    StreamTransmitter& t = transmitters_[path];
    if (t.state == StreamTransmitter::kFree) continue;
    if (t.state == StreamTransmitter::kLoaded && t.delivery_cycle != cursor_.index()) {
      next_load = std::min(next_load, clock_.start(t.delivery_cycle));
      continue;
    }
    if (t.state != StreamTransmitter::kAwaitAck) transmit(t, path, now);
    if (t.state == StreamTransmitter::kAwaitAck && phase == clock_.length() - 1) {
      finish(t, false, now);  // no acknowledge by the end of the delivery cycle: lost
      continue;
    }
    driving = driving || t.state == StreamTransmitter::kRouting || t.state == StreamTransmitter::kMessage;
    waiting = waiting || t.state == StreamTransmitter::kAwaitAck;
  }
  Cycle next = next_load;
  if (driving) next = std::min(next, now + 1);
  else if (waiting) next = std::min(next, now - phase + clock_.length() - 1);
  return next;
}

void BitSerialNic::report_held(std::vector<HeldTraffic>& out) const {
  if (active_ == 0) return;
  for (const auto& t : transmitters_) {
    if (t.state == StreamTransmitter::kFree) continue;
    out.push_back(HeldTraffic{std::string(name()) + " stream transmitter", active_,
                              "message " + std::to_string(params_.node) + " -> " + std::to_string(t.dst) + " seq " +
                                  std::to_string(t.seq),
                              clock_.start(t.delivery_cycle)});
    break;
  }
}

}  // namespace icn::bitserial
