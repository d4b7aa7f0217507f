// RtlReplicator: the Verilated RTL of the inter-level replicator
// (rtl/replicator/inter_level_replicator.sv) behind the same ReplicatorCore
// contract as BehavioralReplicator, so a router can use either.
//
// The replicator is called from inside a router's tick and must answer in the
// same cycle (lockstep's in_ready is combinational on out_ready), so the
// Verilated model is plain C++ driven directly, not a SystemC module behind
// sc_signals: cycle() sets the inputs, eval()s the combinational logic, reads
// the outputs, then raises the clock and eval()s the edge. docs/rtl.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "routers/hpam/replicator_core.hpp"

class Vinter_level_replicator;
class VerilatedContext;
class VerilatedVcdC;
namespace icn {
class CheckedVcdFile;
}

namespace icn::hpam {

class RtlReplicator : public ReplicatorCore {
 public:
  // FIFO slots per branch the RTL was verilated with (the deepest it serves).
  static unsigned max_depth();

  // Throws std::invalid_argument for branches outside 1..rtl_replicator_branches(),
  // kBuffered with depth 0, or depth above max_depth().
  // `instance` names the Verilated model: the top scope of its waveform.
  RtlReplicator(unsigned branches, ReplicatorMode mode, unsigned depth, const std::string& instance = "replicator");
  ~RtlReplicator() override;

  unsigned branches() const override { return branches_; }
  ReplicatorMode mode() const override { return mode_; }
  unsigned depth() const override { return mode_ == ReplicatorMode::kBuffered ? depth_ : 0; }
  ReplicatorOutputs cycle(const ReplicatorInputs& in) override;
  unsigned occupancy(unsigned branch) const override;

  // Writes a VCD of the RTL's ports and registers from the next cycle on,
  // one sample per cycle with the clock low: the inputs of the cycle, the
  // combinational outputs they give and the registers of the previous edge.
  // It is at now_cycle() x steps_per_cycle `unit`s ("1ns", "1 ps"), the main
  // waveform's time base, so a cycle has the same time in both files;
  // without now_cycle the replicator counts its own cycles.
  // The file is written like every output (models/verilated_vcd_file.hpp):
  // beside the target until finish_trace() (or destruction) puts it in place;
  // a failed write never aborts, it makes finish_trace() return one line.
  // Throws std::runtime_error if the file cannot be created.
  void trace(const std::string& path, std::function<std::uint64_t()> now_cycle = {}, std::uint64_t steps_per_cycle = 1,
             const std::string& unit = "1 ns");
  // Closes the waveform: "" if every write succeeded, else one line.
  std::string finish_trace();
  void trace_waveform(const std::string& path, std::function<std::uint64_t()> now_cycle, std::uint64_t steps_per_cycle,
                      const std::string& unit) override {
    trace(path, std::move(now_cycle), steps_per_cycle, unit);
  }
  std::string finish_waveform() override { return finish_trace(); }

 private:
  void dump(std::uint64_t t);
  unsigned branches_;
  ReplicatorMode mode_;
  unsigned depth_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Vinter_level_replicator> dut_;
  std::unique_ptr<CheckedVcdFile> vcd_file_;  // outlives vcd_, which writes into it
  std::unique_ptr<VerilatedVcdC> vcd_;
  std::function<std::uint64_t()> now_cycle_;
  std::uint64_t steps_per_cycle_ = 1;
  std::uint64_t cycles_ = 0;
};

// The factory behind make_replicator(ReplicatorImpl::kRtl, ...).
std::unique_ptr<ReplicatorCore> make_rtl_replicator(unsigned branches, ReplicatorMode mode, unsigned depth,
                                                    const std::string& instance);

}  // namespace icn::hpam
