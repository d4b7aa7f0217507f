// A white-box test bench for the bit-serial fat tree: builds a network with its
// own engine, sends given rounds of messages (round r in delivery cycle r) from
// the processor side through TLM, and records every delivery and every
// delivery report, so tests can check what the hardware did.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/fat_tree.hpp"
#include "models/ledger.hpp"
#include "models/rng.hpp"
#include "nics/delivery_report.hpp"
#include "nics/icn_extension.hpp"
#include "routers/fattree_bitserial/bit_serial_fat_tree.hpp"
#include "routers/fattree_bitserial/load_factor.hpp"

namespace icn::test {

struct Received {
  NodeId src, dst;
  std::uint32_t seq;
  std::uint64_t payload;
  Cycle arrived;  // Delivery::arrived
  Cycle injected;
};

class BitSerialBench : public sc_core::sc_module, public Clocked, public DeliverySink, public DeliveryReportSink {
 public:
  BitSerialBench(sc_core::sc_module_name name, const FatTreeShape& shape, bitserial::BitSerialOptions options,
                 std::vector<std::vector<SourceDestination>> rounds)
      : sc_module(name), Clocked(Phase::kProcessor), engine("engine", CycleEngine::Options{}),
        net("net", shape, std::move(options), engine, ledger), rounds_(std::move(rounds)) {
    for (NodeId k = 0; k < shape.leaves(); ++k) {
      sockets_.push_back(std::make_unique<tlm_utils::simple_initiator_socket<BitSerialBench>>(
          ("to_nic" + std::to_string(k)).c_str()));
      sockets_.back()->bind(net.nic(k).socket);
      net.nic(k).set_sink(*this);
      net.nic(k).set_report_sink(*this);
    }
    engine.add(*this);
    engine.set_in_flight_probe([this] { return outstanding_; });
    if (!rounds_.empty()) engine.wake(*this, net.clock().start(0));
    trans_.set_extension(&ext_);
  }
  ~BitSerialBench() override { trans_.clear_extension(&ext_); }

  static std::uint64_t content(NodeId src, NodeId dst, std::uint32_t seq) { return mix64(0xbe7c4, src, dst, seq); }

  Cycle tick(Cycle now) override {
    const std::uint64_t r = net.clock().index(now);
    std::uint32_t seq = 0;
    for (const auto& m : rounds_[r]) send(m.src, m.dst, seq++);
    return r + 1 < rounds_.size() ? net.clock().start(r + 1) : kNever;
  }
  std::string block_name() const override { return name(); }

  void deliver(const Delivery& d) override {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | d.payload[i];
    received.push_back(Received{d.src, d.dst, d.seq, v, d.arrived, d.injected});
  }
  void report(const DeliveryReport& r) override {
    reports.push_back(r);
    --outstanding_;  // every accepted message gets exactly one report
  }

  CycleEngine engine;
  TrafficLedger ledger;
  bitserial::BitSerialFatTree net;
  std::vector<Received> received;
  std::vector<DeliveryReport> reports;

 private:
  void send(NodeId src, NodeId dst, std::uint32_t seq) {
    unsigned char bytes[8];
    const std::uint64_t v = content(src, dst, seq);
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(v >> (8 * i));
    prepare_message_write(trans_, ext_, dst, bytes, 8, seq);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    (*sockets_[src])->b_transport(trans_, delay);
    if (trans_.is_response_error())
      throw std::logic_error("bench: NIC refused " + std::to_string(src) + " -> " + std::to_string(dst));
    ++outstanding_;
  }

  std::vector<std::vector<SourceDestination>> rounds_;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<BitSerialBench>>> sockets_;
  std::size_t outstanding_ = 0;
  tlm::tlm_generic_payload trans_;
  IcnExtension ext_;
};

}  // namespace icn::test
