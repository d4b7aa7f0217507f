#include "testbench/fractional_pe.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "models/rng.hpp"

namespace icn::frac {

const char* to_string(Operator op) {
  switch (op) {
    case Operator::kSum: return "sum";
    case Operator::kMax: return "max";
    case Operator::kMatrix: return "matrix";
  }
  return "?";
}

Value combine(Operator op, const Value& a, const Value& b) {
  Value c{};
  switch (op) {
    case Operator::kSum:
      for (int i = 0; i < 4; ++i) c[i] = a[i] + b[i];  // lane-wise, mod 2^32
      break;
    case Operator::kMax:
      for (int i = 0; i < 4; ++i) c[i] = std::max(a[i], b[i]);
      break;
    case Operator::kMatrix: {  // [a0 a1; a2 a3] x [b0 b1; b2 b3] mod p
      const std::uint64_t p = kMatrixModulus;
      c[0] = static_cast<std::uint32_t>((std::uint64_t{a[0]} * b[0] + std::uint64_t{a[1]} * b[2]) % p);
      c[1] = static_cast<std::uint32_t>((std::uint64_t{a[0]} * b[1] + std::uint64_t{a[1]} * b[3]) % p);
      c[2] = static_cast<std::uint32_t>((std::uint64_t{a[2]} * b[0] + std::uint64_t{a[3]} * b[2]) % p);
      c[3] = static_cast<std::uint32_t>((std::uint64_t{a[2]} * b[1] + std::uint64_t{a[3]} * b[3]) % p);
      break;
    }
  }
  return c;
}

Value own_value(std::uint64_t key, Operator op, NodeId pu, std::uint32_t j) {
  const std::uint64_t h1 = mix64(key, pu, j, 1), h2 = mix64(key, pu, j, 2);
  Value v{static_cast<std::uint32_t>(h1), static_cast<std::uint32_t>(h1 >> 32), static_cast<std::uint32_t>(h2),
          static_cast<std::uint32_t>(h2 >> 32)};
  if (op == Operator::kMatrix)
    for (auto& x : v) x %= kMatrixModulus;
  return v;
}

FractionalPe::FractionalPe(sc_core::sc_module_name name, std::uint32_t rank, const RunShape& shape,
                           std::unique_ptr<Program> program)
    : sc_module(name),
      Clocked(Phase::kProcessor),
      socket("socket"),
      rank_(rank),
      pu_(shape.pu(rank)),
      shape_(shape),
      program_(std::move(program)) {
  trans_.set_extension(&ext_);
  post_.set_extension(&post_ext_);
  if (!shape.reduction) seen_.assign(shape.packets, false);
  slots_.resize(shape.window);
  if (shape.reduction && rank == 0) root_parts_.resize(shape.packets);
}

bool FractionalPe::have(std::uint32_t src_rank, std::uint32_t pkt) const {
  if (shape_.reduction && rank_ == 0) {
    for (const auto& p : root_parts_[pkt])
      if (p.first == src_rank) return true;
    return false;
  }
  const Slot& sl = slot(pkt);
  if (sl.pkt != pkt) return false;
  for (std::uint32_t i = 0; i < sl.count; ++i)
    if (sl.src[i] == src_rank) return true;
  return false;
}

Value FractionalPe::value_to_send(std::uint32_t pkt) {
  if (!shape_.reduction) {
    if (rank_ == 0) return own_value(shape_.key, shape_.op, pu_, pkt);
    const Slot& sl = slot(pkt);
    if (sl.pkt != pkt || sl.count == 0) {
      fail("rank " + std::to_string(rank_) + " must forward packet " + std::to_string(pkt) + " it no longer holds");
      return Value{};
    }
    return sl.value[0];
  }
  // Own value, then the subtrees' partial results in rank order.
  std::vector<std::pair<std::uint32_t, Value>> parts;
  if (rank_ == 0) {
    parts = root_parts_[pkt];
  } else {
    Slot& sl = slot(pkt);
    if (sl.pkt == pkt)
      for (std::uint32_t i = 0; i < sl.count; ++i) parts.push_back({sl.src[i], sl.value[i]});
    sl = Slot{};  // consumed: each PE sends each packet of a reduction once
  }
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Value v = own_value(shape_.key, shape_.op, pu_, pkt);
  for (const auto& p : parts) v = combine(shape_.op, v, p.second);
  return v;
}

Cycle FractionalPe::tick(Cycle now) {
  const std::uint64_t lines = program_->lines();
  while (line_ < lines) {
    if (!started_) {
      cur_ = program_->line(line_);
      started_ = true;
      if (cur_.recv_from != kNone && !have(cur_.recv_from, cur_.recv_pkt)) {
        prepare_message_write(post_, post_ext_, shape_.pu(cur_.recv_from),
                              reinterpret_cast<unsigned char*>(post_buffer_.data()), sizeof post_buffer_, cur_.recv_pkt);
        post_.set_command(tlm::TLM_READ_COMMAND);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(post_, delay);
        if (post_.is_response_error())
          throw std::logic_error(std::string(name()) + ": NIC refused a receive: " + post_.get_response_string());
      }
      if (cur_.send_to != kNone) {
        buffer_ = value_to_send(cur_.send_pkt);
        prepare_message_write(trans_, ext_, shape_.pu(cur_.send_to), reinterpret_cast<unsigned char*>(buffer_.data()),
                              sizeof buffer_, cur_.send_pkt);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(trans_, delay);
        if (trans_.is_response_error())
          throw std::logic_error(std::string(name()) + ": NIC refused a send: " + trans_.get_response_string());
        send_pending_ = true;
      }
    }
    if (send_pending_) return kNever;  // woken by send_completed
    if (cur_.recv_from != kNone && !have(cur_.recv_from, cur_.recv_pkt)) return kNever;  // woken by deliver
    ++line_;
    started_ = false;
  }
  if (shape_.reduction && rank_ == 0 && results_.empty()) {
    for (std::uint32_t j = 0; j < shape_.packets; ++j) results_.push_back(value_to_send(j));
  }
  return kNever;
}

void FractionalPe::deliver(const Delivery& d) {
  const std::uint32_t src = shape_.rank(d.src);
  Value v{};
  std::memcpy(v.data(), d.payload, sizeof v);
  last_arrival_ = std::max(last_arrival_, d.arrived);
  ++received_;
  if (d.seq >= shape_.packets) {
    fail("rank " + std::to_string(rank_) + " received packet " + std::to_string(d.seq) + " of a " +
         std::to_string(shape_.packets) + "-packet message");
  } else if (shape_.reduction && rank_ == 0) {
    root_parts_[d.seq].push_back({src, v});
  } else {
    if (!shape_.reduction) {
      if (seen_[d.seq]) fail("rank " + std::to_string(rank_) + " received packet " + std::to_string(d.seq) + " twice");
      seen_[d.seq] = true;
      if (v != own_value(shape_.key, shape_.op, shape_.pu(0), d.seq))
        fail("rank " + std::to_string(rank_) + " received a wrong payload in packet " + std::to_string(d.seq));
    }
    Slot& sl = slot(d.seq);
    if (sl.pkt != d.seq) {
      if (shape_.reduction && sl.count != 0)
        fail("rank " + std::to_string(rank_) + " overwrote unsent partial results of packet " + std::to_string(sl.pkt));
      sl = Slot{};
      sl.pkt = d.seq;
    }
    if (sl.count == sl.src.size()) {
      fail("rank " + std::to_string(rank_) + " received more than three parts of packet " + std::to_string(d.seq));
    } else {
      sl.src[sl.count] = src;
      sl.value[sl.count] = v;
      ++sl.count;
    }
  }
  engine()->wake(*this, d.arrived + 1);
}

void FractionalPe::send_completed(Cycle now) {
  send_pending_ = false;
  engine()->wake(*this, now + 1);
}

std::string FractionalPe::problem() const {
  if (!error_.empty()) return error_;
  if (!finished()) {
    std::string why = "rank " + std::to_string(rank_) + " (PU " + std::to_string(pu_) + ") stopped at line " +
                      std::to_string(line_) + " of " + std::to_string(program_->lines());
    if (send_pending_) why += ", its send of packet " + std::to_string(cur_.send_pkt) + " not completed";
    else if (cur_.recv_from != kNone)
      why += ", waiting for packet " + std::to_string(cur_.recv_pkt) + " from rank " + std::to_string(cur_.recv_from);
    return why;
  }
  if (!shape_.reduction && rank_ != 0 && received_ != shape_.packets)
    return "rank " + std::to_string(rank_) + " received " + std::to_string(received_) + " of " +
           std::to_string(shape_.packets) + " packets";
  return "";
}

}  // namespace icn::frac
