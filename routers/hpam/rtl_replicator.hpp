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
  RtlReplicator(unsigned branches, ReplicatorMode mode, unsigned depth);
  ~RtlReplicator() override;

  unsigned branches() const override { return branches_; }
  ReplicatorMode mode() const override { return mode_; }
  unsigned depth() const override { return mode_ == ReplicatorMode::kBuffered ? depth_ : 0; }
  ReplicatorOutputs cycle(const ReplicatorInputs& in) override;
  unsigned occupancy(unsigned branch) const override;

  // Writes a VCD of the RTL's ports and registers from the next cycle on.
  // Each cycle leaves two time points: the combinational outputs at `now`
  // and the state after the clock edge half a period later. `now_ps` gives
  // the current simulated time in picoseconds (a router passes its engine's
  // clock so the dump lines up with the SystemC waveform); without it the
  // replicator counts its own cycles, 1 ns each.
  // The file is written like every output (models/verilated_vcd_file.hpp):
  // beside the target until finish_trace() (or destruction) puts it in place;
  // a failed write never aborts, it makes finish_trace() return one line.
  // Throws std::runtime_error if the file cannot be created.
  void trace(const std::string& path, std::function<std::uint64_t()> now_ps = {}, std::uint64_t period_ps = 1000);
  // Closes the waveform: "" if every write succeeded, else one line.
  std::string finish_trace();
  void trace_waveform(const std::string& path, std::function<std::uint64_t()> now_ps, std::uint64_t period_ps) override {
    trace(path, std::move(now_ps), period_ps);
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
  std::function<std::uint64_t()> now_ps_;
  std::uint64_t period_ps_ = 1000;
  std::uint64_t cycles_ = 0;
};

// The factory behind make_replicator(ReplicatorImpl::kRtl, ...).
std::unique_ptr<ReplicatorCore> make_rtl_replicator(unsigned branches, ReplicatorMode mode, unsigned depth);

}  // namespace icn::hpam
