// ProcessingElement: a processor at a network leaf. It runs a SendProgram
// (handing each message to its NIC through a TLM-2.0 initiator socket at the
// planned step) and checks every delivery against its ReceiptPlan: right
// source, right sequence number, right payload bytes, exactly once.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "nics/icn_extension.hpp"
#include "testbench/receipt_checker.hpp"
#include "testbench/traffic.hpp"

namespace icn {

class ProcessingElement : public sc_core::sc_module, public Clocked, public DeliverySink {
 public:
  tlm_utils::simple_initiator_socket<ProcessingElement> socket;

  ProcessingElement(sc_core::sc_module_name name, NodeId node, std::uint64_t content_key,
                    std::unique_ptr<SendProgram> program, const ReceiptPlan& receipts);

  ~ProcessingElement() override { trans_.clear_extension(&ext_); }  // ext_ is ours, not the payload's

  // Schedules the first send; call after the PE is registered with the engine.
  void start();

  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name(); }
  void deliver(const Delivery& delivery) override;

  const ReceiptCheck& check() const { return checker_.result(); }
  std::uint64_t sent() const { return sent_; }

 private:
  void send(const PlannedSend& s, Cycle now);

  NodeId node_;
  std::uint64_t key_;
  std::unique_ptr<SendProgram> program_;
  std::optional<PlannedSend> pending_;
  ReceiptChecker checker_;
  std::uint64_t sent_ = 0;
  tlm::tlm_generic_payload trans_;
  IcnExtension ext_;
  unsigned char buffer_[8] = {};
};

}  // namespace icn
