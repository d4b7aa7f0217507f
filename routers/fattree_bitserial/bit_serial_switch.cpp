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
  // Storing routing bits: a shift register per branch input path, as long as a
  // turning stream waits here (none at the root, where nothing waits).
  if (params_.scheme == SyncScheme::kStore && port != kTrunk && !store_ && params_.store_depth > 0)
    store_ = std::make_unique<TurnStore>(in.width(), params_.store_depth);
}

void BitSerialSwitch::connect_flush(unsigned branch, BitChannel& out_flush) { out_flush_[branch] = &out_flush; }

void BitSerialSwitch::connect_trunk_flush(BitChannel& in_flush) {
  in_flush_ = &in_flush;
  in_flush.connect_receiver(*this);
}

void BitSerialSwitch::start_delivery_cycle(std::uint64_t index) {
  for (const PathRef r : touched_) {
    inputs_[r.port][r.path] = InputPath{};
    if (store_ && r.port != kTrunk) store_->clear(r.port, r.path);
  }
  touched_.clear();
  shifting_out_.clear();
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
  drive_out(out_port, out_path, true, now);  // M, in the clock of the removed routing bit
  if (follower_ != nullptr)
    follower_->granted(params_.level, params_.index, in_[input.port], input.port, input.path, out_[out_port], out_port,
                       out_path, now);
}

void BitSerialSwitch::deny(PathRef input, unsigned out_port, Cycle now) {
  inputs_[input.port][input.path].kind = InputPath::kLost;
  if (follower_ != nullptr)
    follower_->denied(params_.level, params_.index, in_[input.port], input.port, input.path, out_port, false, now);
  if (store_ && input.port != kTrunk) store_->clear(input.port, input.path);  // the stored bits are dropped
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
  ++activity_.buffer_writes;  // the input path's cell latches every bit that arrives
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
      if (stored(port, p)) store_->push(port, path, bit);  // shifted out by shift_out_stored()
      else drive_out(p.out_port, p.out_path, bit, now);
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
      if (turning && holds_turning_streams(params_.scheme) && phase < params_.down_decision) {
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
      if (store_) {  // storing routing bits: keep it, nothing is ignored
        store_->push(port, path, bit);
        return;
      }
      if (p.ignored == 0) p.first_ignored = static_cast<std::uint16_t>(p.seen - 1);
      ++p.ignored;
      ++stats_.ignored_bits;
      return;
    default:  // requesting (cannot get a second bit in its clock) or lost
      return;
  }
}

void BitSerialSwitch::receive_port(unsigned port, Cycle now, Cycle phase) {
  if (in_[port] == nullptr) return;
  in_[port]->receive(now, [&](std::uint32_t path, bool bit) { on_bit(port, path, bit, now, phase); });
}

void BitSerialSwitch::arbitrate(unsigned port, Cycle now) {
  if (!concentrators_[port] || !concentrators_[port]->pending()) return;
  activity_.sw_output.record(concentrators_[port]->pending_requests());
  concentrators_[port]->arbitrate(
      [&](PathRef input, unsigned path) {
        if (inputs_[input.port][input.path].kind == InputPath::kRequesting) grant(input, port, path, now);
      },
      [&](PathRef input) {
        if (!flush_for(input, port, now)) deny(input, port, now);
      });
}

// Flushing (2.1.1): a trunk stream denied a branch output takes the path of a
// turning stream there, which is lost; the path's flush wire tells the blocks
// downstream. Only trunk streams have the priority to flush.
bool BitSerialSwitch::flush_for(PathRef input, unsigned port, Cycle now) {
  if (params_.scheme != SyncScheme::kFlush || input.port != kTrunk || port == kTrunk) return false;
  ConcentratorSwitch& c = *concentrators_[port];
  unsigned path = 0;
  if (!c.flushable_path(path)) return false;
  const PathRef victim = c.source(path);
  inputs_[victim.port][victim.path].kind = InputPath::kLost;
  if (follower_ != nullptr)
    follower_->denied(params_.level, params_.index, in_[victim.port], victim.port, victim.path, port, true, now);
  ++stats_.flushed;
  c.reassign(path, input);
  out_flush_[port]->drive(now, path, true);
  grant(input, port, path, now);
  return true;
}

// A flush arriving on a trunk input path: the stream on it was flushed above.
// Drop it, free its output path and pass the flush on down that path.
void BitSerialSwitch::receive_flushes(Cycle now) {
  if (in_flush_ == nullptr) return;
  in_flush_->receive(now, [&](std::uint32_t path, bool bit) {
    if (!bit) return;
    InputPath& p = inputs_[kTrunk][path];
    if (p.kind == InputPath::kConnected) {
      concentrators_[p.out_port]->release(p.out_path);
      out_flush_[p.out_port]->drive(now, p.out_path, true);
      ++stats_.flush_relayed;
    } else if (p.kind == InputPath::kLost) {
      ++stats_.flushed_lost;  // denied here before the flush: one loss, already counted
    }
    p = InputPath{};  // still in touched_: cleared again at the next delivery cycle
  });
}

// Storing routing bits: each connected stored path shifts its oldest bit out.
void BitSerialSwitch::shift_out_stored(Cycle now) {
  std::size_t kept = 0;
  for (const PathRef r : shifting_out_) {
    const InputPath& p = inputs_[r.port][r.path];
    bool bit = false;
    if (p.kind != InputPath::kConnected || !store_->pop(r.port, r.path, bit)) continue;  // the stream has left
    drive_out(p.out_port, p.out_path, bit, now);
    shifting_out_[kept++] = r;
  }
  shifting_out_.resize(kept);
}

Cycle BitSerialSwitch::tick(Cycle now) {
  ++activity_.clocked_cycles;
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
      ++ack_bits_switched_;  // back through the setting on the reverse wires
      ++activity_.crossbar;
      in_ack_[from.port]->drive(now, from.path, true);
    });
  }
  // Bits moving are not progress on this network: acknowledged messages are
  // (BitSerialNic::finish), which is what the stall watchdog watches.
  receive_flushes(now);
  receive_port(kTrunk, now, phase);
  // Flushing: trunk streams decide (and flush) before the branch inputs shift,
  // so a flushed stream drives nothing in the clock its path is taken.
  if (params_.scheme == SyncScheme::kFlush)
    for (unsigned port = kBranch0; port <= kBranch1; ++port) arbitrate(port, now);
  receive_port(kBranch0, now, phase);
  receive_port(kBranch1, now, phase);
  if (!shifting_out_.empty()) shift_out_stored(now);
  if (phase == params_.down_decision && !held_.empty()) {
    for (const PathRef r : held_) {
      InputPath& p = inputs_[r.port][r.path];
      p.kind = InputPath::kRequesting;
      ++stats_.requests_down;
      concentrators_[p.out_port]->request(r, false);
    }
  }
  for (unsigned port = 0; port < kPorts; ++port) arbitrate(port, now);
  if (phase == params_.down_decision && !held_.empty()) {
    for (const PathRef r : held_) {
      const bool granted = inputs_[r.port][r.path].kind == InputPath::kConnected;
      log_turn(r, granted);
      if (granted && store_) shifting_out_.push_back(r);
    }
    held_.clear();
  }
  if (!turned_now_.empty()) {
    for (const PathRef r : turned_now_) log_turn(r, inputs_[r.port][r.path].kind == InputPath::kConnected);
    turned_now_.clear();
  }
  // A stored stream shifts out one bit per clock until its register is empty.
  if (!shifting_out_.empty()) return now + 1;
  // Held streams keep arriving bits, but the decision clock must not be missed.
  if (!held_.empty() && phase < params_.down_decision) return cursor_.start() + params_.down_decision;
  return kNever;
}

unsigned BitSerialSwitch::flush_wires() const {
  unsigned n = 0;
  for (const BitChannel* c : out_flush_) n += c ? c->width() : 0;
  return n;
}

std::uint64_t BitSerialSwitch::late_requests() const {
  std::uint64_t n = 0;
  for (const auto& c : concentrators_) n += c ? c->late_requests() : 0;
  return n;
}

std::uint64_t BitSerialSwitch::late_denials() const {
  std::uint64_t n = 0;
  for (const auto& c : concentrators_) n += c ? c->late_denials() : 0;
  return n - stats_.flushed;  // a late trunk stream that flushed a path was not denied
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
