#include "routers/hpam/rtl_replicator.hpp"

#include <stdexcept>
#include <string>

#include "Vinter_level_replicator.h"
#include "verilated.h"
#include "verilated_vcd_c.h"
#include "models/verilated_vcd_file.hpp"

namespace icn::rtl {
extern const unsigned kReplicatorDepth;
}

namespace icn::hpam {
namespace {

constexpr unsigned kDataBits = 64;
static_assert(kMaxReplicatorBranches == 16, "rtl/CMakeLists.txt verilates the replicator with 16 branches");
// Bits of one branch's fill count in occupancy_o: $clog2(Depth + 1).
unsigned count_bits() {
  unsigned bits = 0;
  while ((1u << bits) < rtl::kReplicatorDepth + 1) ++bits;
  return bits;
}

// Bits [lo, lo + n) of a Verilated wide port (n <= 64).
template <typename Wide>
std::uint64_t field(const Wide& w, unsigned lo, unsigned n) {
  std::uint64_t v = 0;
  for (unsigned k = 0; k < n; ++k) {
    const unsigned bit = lo + k;
    if (w[bit / 32] >> (bit % 32) & 1u) v |= std::uint64_t{1} << k;
  }
  return v;
}

}  // namespace

unsigned RtlReplicator::max_depth() { return rtl::kReplicatorDepth; }

RtlReplicator::RtlReplicator(unsigned branches, ReplicatorMode mode, unsigned depth)
    : branches_(branches), mode_(mode), depth_(depth) {
  if (branches < 1 || branches > kMaxReplicatorBranches)
    throw std::invalid_argument("replicator: branches must be 1.." + std::to_string(kMaxReplicatorBranches));
  if (mode == ReplicatorMode::kBuffered && depth < 1)
    throw std::invalid_argument("replicator: a buffered replicator needs depth >= 1");
  if (mode == ReplicatorMode::kBuffered && depth > max_depth())
    throw std::invalid_argument("replicator: the RTL replicator was verilated with " + std::to_string(max_depth()) +
                                " FIFO slots per branch; depth must be 1.." + std::to_string(max_depth()) +
                                " (reconfigure with -DICNSIM_RTL_REPLICATOR_DEPTH=N)");
  context_ = std::make_unique<VerilatedContext>();
  context_->traceEverOn(true);
  dut_ = std::make_unique<Vinter_level_replicator>(context_.get(), "replicator");
  // Straps, then an asynchronous reset pulse.
  dut_->branches_i = branches;
  dut_->depth_i = mode == ReplicatorMode::kBuffered ? depth : 1;
  dut_->buffered_i = mode == ReplicatorMode::kBuffered;
  dut_->clk_i = 0;
  dut_->rst_ni = 1;
  dut_->eval();
  dut_->rst_ni = 0;
  dut_->eval();
  dut_->rst_ni = 1;
  dut_->eval();
}

RtlReplicator::~RtlReplicator() {
  finish_trace();
  if (dut_) dut_->final();
}

std::string RtlReplicator::finish_trace() {
  if (!vcd_) return "";
  vcd_->close();
  vcd_.reset();
  const std::string why = vcd_file_->finish();
  vcd_file_.reset();
  return why.empty() ? "" : "replicator RTL waveform " + why;
}

void RtlReplicator::trace(const std::string& path, std::function<std::uint64_t()> now_ps, std::uint64_t period_ps) {
  finish_trace();
  vcd_file_ = std::make_unique<CheckedVcdFile>();
  vcd_ = std::make_unique<VerilatedVcdC>(vcd_file_.get());
  dut_->trace(vcd_.get(), 99);
  vcd_->open(path.c_str());
  if (!vcd_->isOpen()) {
    const std::string why = vcd_file_->error();
    vcd_.reset();
    vcd_file_.reset();
    throw std::runtime_error("replicator: cannot write the RTL waveform " + path + (why.empty() ? "" : ": " + why));
  }
  now_ps_ = std::move(now_ps);
  period_ps_ = period_ps < 2 ? 2 : period_ps;
}

void RtlReplicator::dump(std::uint64_t t) {
  if (vcd_) vcd_->dump(t);
}

ReplicatorOutputs RtlReplicator::cycle(const ReplicatorInputs& in) {
  const std::uint64_t now = now_ps_ ? now_ps_() : cycles_ * period_ps_;
  ++cycles_;
  // Inputs of this cycle with the clock low: the combinational outputs settle.
  dut_->in_valid_i = in.in_valid;
  dut_->in_data_i = in.in.data;
  dut_->in_last_i = in.in.last;
  dut_->in_mask_i = in.in_mask;  // truncated to the RTL's 16 branches
  dut_->out_ready_i = in.out_ready;
  dut_->clk_i = 0;
  dut_->eval();
  dump(now);

  ReplicatorOutputs out;
  out.in_ready = dut_->in_ready_o;
  // Not masked to the strapped branches here: that is the RTL's job, and the
  // co-simulation test would catch a flit offered on an unused branch.
  out.out_valid = dut_->out_valid_o;
  for (unsigned i = 0; i < kMaxReplicatorBranches; ++i) {
    if (!(out.out_valid >> i & 1u)) continue;
    out.out[i].data = field(dut_->out_data_o, i * kDataBits, kDataBits);
    out.out[i].last = dut_->out_last_o >> i & 1u;
  }
  // The clock edge: pushes and pops.
  dut_->clk_i = 1;
  dut_->eval();
  dump(now + period_ps_ / 2);
  dut_->clk_i = 0;
  return out;
}

unsigned RtlReplicator::occupancy(unsigned branch) const {
  if (branch >= branches_) return 0;
  const unsigned n = count_bits();
  return static_cast<unsigned>(field(dut_->occupancy_o, branch * n, n));
}

std::unique_ptr<ReplicatorCore> make_rtl_replicator(unsigned branches, ReplicatorMode mode, unsigned depth) {
  return std::make_unique<RtlReplicator>(branches, mode, depth);
}

}  // namespace icn::hpam
