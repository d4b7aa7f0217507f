// GreedyProcessor: a processor of Ishii's greedy routing (1985, section 4.4,
// "Processor Arbitration"). It knows only its own messages, when delivery
// cycles start, and - from its NIC's delivery reports - whether each message it
// sent got through.
//
// At the start of every delivery cycle, while it has unsent messages, it hands
// its NIC a uniformly random subset of them, as many as the NIC can send at
// once (one per physical path to the network; all of them if fewer). Messages
// reported delivered leave the unsent set; lost ones stay and are retried in a
// later delivery cycle. It also checks everything it receives (ReceiptChecker).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/rng.hpp"
#include "nics/delivery_report.hpp"
#include "nics/icn_extension.hpp"
#include "routers/fattree_bitserial/delivery_cycle.hpp"
#include "testbench/message_sets.hpp"
#include "testbench/receipt_checker.hpp"

namespace icn {

class GreedyProcessor : public sc_core::sc_module, public Clocked, public DeliverySink, public DeliveryReportSink {
 public:
  tlm_utils::simple_initiator_socket<GreedyProcessor> socket;

  struct Params {
    NodeId node = 0;
    std::uint64_t content_key = 0;
    unsigned sends_at_once = 1;  // the NIC's stream transmitters
  };

  GreedyProcessor(sc_core::sc_module_name name, Params params, std::vector<Message> outgoing,
                  const ReceiptPlan& receipts, const DeliveryCycleClock& clock, Rng rng, TrafficLedger& ledger);
  ~GreedyProcessor() override { trans_.clear_extension(&ext_); }

  // Schedules the first delivery cycle; call after registering with the engine.
  void start();
  // A counter of messages not yet reported delivered, shared by all processors
  // (the watchdog's cheap view of what the network still holds).
  void share_outstanding(std::uint64_t& counter) {
    outstanding_ = &counter;
    counter += messages_.size();
  }

  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;
  void deliver(const Delivery& delivery) override { checker_.check(delivery); }
  void report(const DeliveryReport& report) override;

  const ReceiptCheck& check() const { return checker_.result(); }
  std::size_t unsent() const { return unsent_.size(); }
  std::uint64_t attempts() const { return attempts_; }
  // Delivery report problems: a report for a message not in flight.
  std::uint64_t bad_reports() const { return bad_reports_; }

 private:
  struct Outgoing {
    Message message;
    std::uint32_t attempts = 0;
  };

  void send(std::size_t index);

  Params params_;
  std::vector<Outgoing> messages_;
  std::vector<std::size_t> unsent_;     // indices into messages_, not delivered yet and not in flight
  std::vector<std::size_t> in_flight_;  // sent in the current delivery cycle, no report yet
  ReceiptChecker checker_;
  const DeliveryCycleClock& clock_;
  Rng rng_;
  TrafficLedger& ledger_;
  std::uint64_t attempts_ = 0;
  std::uint64_t bad_reports_ = 0;
  std::uint64_t* outstanding_ = nullptr;
  Cycle first_waiting_ = kNever;
  tlm::tlm_generic_payload trans_;
  IcnExtension ext_;
  unsigned char buffer_[8] = {};
};

}  // namespace icn
