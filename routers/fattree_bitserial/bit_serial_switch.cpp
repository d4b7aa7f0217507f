#include "routers/fattree_bitserial/bit_serial_switch.hpp"

#include <stdexcept>

namespace icn::bitserial {

BitSerialSwitch::BitSerialSwitch(sc_core::sc_module_name name, Params params, const DeliveryCycleClock& clock)
    : sc_module(name), Clocked(Phase::kNetwork), params_(std::move(params)), clock_(clock), cursor_(clock) {}

void BitSerialSwitch::connect(unsigned port, BitChannel& in, BitChannel& in_ack, BitChannel& out,
                              BitChannel& out_ack) {
  in_[port] = &in;
  in_ack_[port] = &in_ack;
  out_[port] = &out;
  out_ack_[port] = &out_ack;
  in.connect_receiver(*this);
  out_ack.connect_receiver(*this);
  inputs_[port].assign(in.width(), InputPath{});
  concentrators_[port] = std::make_unique<ConcentratorSwitch>(
      out.width(), params_.policy, Rng(params_.seed, params_.rng_name + "." + port_name(port)));
}

void BitSerialSwitch::start_delivery_cycle(std::uint64_t index) {
  for (const PathRef r : touched_) inputs_[r.port][r.path] = InputPath{};
  touched_.clear();
  held_.clear();
  for (auto& c : concentrators_)
    if (c) c->clear();
  delivery_cycle_ = index;
}

void BitSerialSwitch::grant(PathRef input, unsigned out_port, unsigned out_path, Cycle now) {
  InputPath& p = inputs_[input.port][input.path];
  p.kind = InputPath::kConnected;
  p.out_port = static_cast<std::uint8_t>(out_port);
  p.out_path = out_path;
  out_[out_port]->drive(now, out_path, true);  // M, in the clock of the removed routing bit
}

void BitSerialSwitch::deny(PathRef input, unsigned out_port) {
  inputs_[input.port][input.path].kind = InputPath::kLost;
  if (out_port == kTrunk) ++stats_.denials_up;
  else ++stats_.denials_down;
}

void BitSerialSwitch::log_turn(PathRef input, bool granted) {
  if (turn_log_ == nullptr) return;
  const InputPath& p = inputs_[input.port][input.path];
  turn_log_->push_back(TurnRecord{delivery_cycle_, params_.level, params_.index, input.port, input.path,
                                  p.ignored, p.first_ignored, granted});
}

void BitSerialSwitch::on_bit(unsigned port, unsigned path, bool bit, Cycle now, Cycle phase) {
  InputPath& p = inputs_[port][path];
  if (p.kind == InputPath::kIdle) {
    if (!bit) return;  // an idle wire: no stream
    p.kind = InputPath::kRouting;
    p.seen = 1;
    touched_.push_back(PathRef{port, path});
    return;
  }
  ++p.seen;
  switch (p.kind) {
    case InputPath::kConnected:
      out_[p.out_port]->drive(now, p.out_path, bit);
      return;
    case InputPath::kRouting: {
      const unsigned out = exit_port(port, bit);
      if (out_[out] == nullptr) {  // only the root's missing trunk: a malformed stream
        p.kind = InputPath::kLost;
        ++stats_.misrouted;
        return;
      }
      p.out_port = static_cast<std::uint8_t>(out);
      if (out_[out]->failed()) ++failed_streams_[out];
      const bool turning = port != kTrunk && out != kTrunk;
      if (turning && phase < params_.down_decision) {
        p.kind = InputPath::kHeld;
        held_.push_back(PathRef{port, path});
        return;
      }
      p.kind = InputPath::kRequesting;
      if (turning) turned_now_.push_back(PathRef{port, path});  // turns with nothing to wait for (the root)
      if (out == kTrunk) ++stats_.requests_up;
      else ++stats_.requests_down;
      concentrators_[out]->request(PathRef{port, path}, port == kTrunk);
      return;
    }
    case InputPath::kHeld:
      if (p.ignored == 0) p.first_ignored = static_cast<std::uint16_t>(p.seen - 1);
      ++p.ignored;
      ++stats_.ignored_bits;
      return;
    default:  // requesting (cannot get a second bit in its clock) or lost
      return;
  }
}

Cycle BitSerialSwitch::tick(Cycle now) {
  cursor_.seek(now);
  const std::uint64_t dc = cursor_.index();
  const Cycle phase = cursor_.phase();
  if (dc != delivery_cycle_) start_delivery_cycle(dc);

  for (unsigned port = 0; port < kPorts; ++port) {
    if (out_ack_[port] == nullptr) continue;
    ConcentratorSwitch& c = *concentrators_[port];
    out_ack_[port]->receive(now, [&](std::uint32_t path, bool bit) {
      if (!bit) return;
      if (path >= c.used_paths()) {
        ++stats_.stray_acks;
        return;
      }
      const PathRef from = c.source(path);
      if (in_ack_[from.port]->failed()) ++failed_acks_[from.port];
      in_ack_[from.port]->drive(now, from.path, true);
    });
  }
  // Bits moving are not progress on this network: acknowledged messages are
  // (BitSerialNic::finish), which is what the stall watchdog watches.
  for (unsigned port = 0; port < kPorts; ++port) {
    if (in_[port] == nullptr) continue;
    in_[port]->receive(now, [&](std::uint32_t path, bool bit) { on_bit(port, path, bit, now, phase); });
  }
  if (phase == params_.down_decision && !held_.empty()) {
    for (const PathRef r : held_) {
      InputPath& p = inputs_[r.port][r.path];
      p.kind = InputPath::kRequesting;
      ++stats_.requests_down;
      concentrators_[p.out_port]->request(r, false);
    }
  }
  for (unsigned port = 0; port < kPorts; ++port) {
    if (!concentrators_[port] || !concentrators_[port]->pending()) continue;
    concentrators_[port]->arbitrate(
        [&](PathRef input, unsigned path) {
          if (inputs_[input.port][input.path].kind == InputPath::kRequesting) grant(input, port, path, now);
        },
        [&](PathRef input) { deny(input, port); });
  }
  if (phase == params_.down_decision && !held_.empty()) {
    for (const PathRef r : held_) log_turn(r, inputs_[r.port][r.path].kind == InputPath::kConnected);
    held_.clear();
  }
  if (!turned_now_.empty()) {
    for (const PathRef r : turned_now_) log_turn(r, inputs_[r.port][r.path].kind == InputPath::kConnected);
    turned_now_.clear();
  }
  // Held streams keep arriving bits, but the decision clock must not be missed.
  if (!held_.empty() && phase < params_.down_decision) return cursor_.start() + params_.down_decision;
  return kNever;
}

std::uint64_t BitSerialSwitch::failed_requests(const BitChannel& channel) const {
  for (unsigned port = 0; port < kPorts; ++port) {
    if (out_[port] == &channel) return failed_streams_[port];
    if (in_ack_[port] == &channel) return failed_acks_[port];
  }
  return 0;
}

unsigned BitSerialSwitch::output_source_port(unsigned port, unsigned path, Cycle t) const {
  if (!concentrators_[port] || !current(t) || path >= concentrators_[port]->used_paths()) return 0;
  return 1 + concentrators_[port]->source(path).port;
}

unsigned BitSerialSwitch::output_source_path(unsigned port, unsigned path, Cycle t) const {
  if (!concentrators_[port] || !current(t) || path >= concentrators_[port]->used_paths()) return 0;
  return concentrators_[port]->source(path).path;
}

unsigned BitSerialSwitch::input_state(unsigned port, unsigned path, Cycle t) const {
  if (!current(t) || path >= inputs_[port].size()) return InputPath::kIdle;
  return inputs_[port][path].kind;
}

}  // namespace icn::bitserial
