// FractionalPe: a processing element running its line of a pipelined
// broadcast or reduction (testbench/fractional_tree.hpp), synchronised only by
// the communication: each line posts its receive and starts its send (through
// the NIC's TLM socket) and waits until the send has completed and the packet
// it receives is in.
// Lines with nothing to do take no time.
//
// Broadcast: the root sends its own message; every other PE checks each
// packet it receives against the root's message and forwards what it
// received. Reduction: the data paths reversed; a PE sends, for packet j, its
// own value combined with what it received for j, in rank order (subtrees are
// contiguous rank ranges), and the root's result is checked against the
// operator applied to all PEs' values in rank order.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "nics/single_port_nic.hpp"
#include "testbench/fractional_tree.hpp"

namespace icn::frac {

using Value = std::array<std::uint32_t, 4>;

enum class Operator : std::uint8_t { kSum, kMax, kMatrix };
const char* to_string(Operator op);
inline constexpr std::uint32_t kMatrixModulus = 65521;  // 2x2 matrix product mod p: not commutative

Value combine(Operator op, const Value& a, const Value& b);
// PU `pu`'s own value of packet j (reduction input; the root's is the broadcast message).
Value own_value(std::uint64_t key, Operator op, NodeId pu, std::uint32_t j);

// What every PE of one run shares.
struct RunShape {
  std::uint32_t processors = 2;
  std::uint32_t root = 0;  // PU of rank 0; rank x is PU (root + x) mod P
  std::uint32_t packets = 1;
  bool reduction = false;
  Operator op = Operator::kSum;
  std::uint64_t key = 0;
  // Packets a PE keeps (a power of two): a PE forwards at most 2r packet
  // numbers behind the newest it received (the Fig. 2 code).
  std::uint32_t window = 64;
  // An embedding's placement (rank -> PU, and its inverse); empty: rank x is
  // PU (root + x) mod P.
  std::vector<NodeId> placement;
  std::vector<std::uint32_t> rank_of_pu;
  NodeId pu(std::uint32_t rank) const { return placement.empty() ? (root + rank) % processors : placement[rank]; }
  std::uint32_t rank(NodeId pu) const {
    return placement.empty() ? (pu + processors - root) % processors : rank_of_pu[pu];
  }
};

class FractionalPe : public sc_core::sc_module, public Clocked, public DeliverySink, public SendCompletion {
 public:
  tlm_utils::simple_initiator_socket<FractionalPe> socket;

  FractionalPe(sc_core::sc_module_name name, std::uint32_t rank, const RunShape& shape,
               std::unique_ptr<Program> program);
  ~FractionalPe() override {
    trans_.clear_extension(&ext_);
    post_.clear_extension(&post_ext_);
  }

  void start() { engine()->wake(*this, 1); }
  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name(); }
  void deliver(const Delivery& d) override;
  void send_completed(Cycle now) override;

  bool finished() const { return line_ >= program_->lines(); }
  // "" or what went wrong at this PE (wrong payload, duplicate, missing packet, unfinished program).
  std::string problem() const;
  Cycle last_arrival() const { return last_arrival_; }
  std::uint64_t received() const { return received_; }
  // Root of a reduction: the result of packet j.
  const std::vector<Value>& results() const { return results_; }

 private:
  Value value_to_send(std::uint32_t pkt);
  bool have(std::uint32_t src_rank, std::uint32_t pkt) const;
  void fail(const std::string& why) {
    if (error_.empty()) error_ = why;
  }

  std::uint32_t rank_;
  NodeId pu_;
  const RunShape& shape_;
  std::unique_ptr<Program> program_;
  std::uint64_t line_ = 0;
  bool started_ = false;
  bool send_pending_ = false;
  Line cur_;
  // The packets a PE holds, by packet number modulo the window: broadcast, the
  // packet received (and its sender); reduction, the partial results received
  // for it (at most three: chain successor, right successor, couple partner).
  struct Slot {
    std::uint32_t pkt = kNone;
    std::uint32_t count = 0;
    std::array<std::uint32_t, 3> src{};
    std::array<Value, 3> value{};
  };
  Slot& slot(std::uint32_t pkt) { return slots_[pkt & (shape_.window - 1)]; }
  const Slot& slot(std::uint32_t pkt) const { return slots_[pkt & (shape_.window - 1)]; }
  std::vector<Slot> slots_;
  std::vector<std::vector<std::pair<std::uint32_t, Value>>> root_parts_;  // reduction root: every packet
  std::vector<bool> seen_;
  std::vector<Value> results_;
  std::uint64_t received_ = 0;
  Cycle last_arrival_ = 0;
  std::string error_;
  tlm::tlm_generic_payload trans_;
  IcnExtension ext_;
  tlm::tlm_generic_payload post_;  // READ: post a receive
  IcnExtension post_ext_;
  Value post_buffer_{};
  Value buffer_{};
};

}  // namespace icn::frac
