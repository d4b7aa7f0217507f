#include "routers/hpam/rtl_replicator.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

#include "Vinter_level_replicator.h"
#include "verilated.h"
#include "verilated_vcd_c.h"
#include "models/verilated_vcd_file.hpp"

namespace icn::rtl {
extern const unsigned kReplicatorDepth;
extern const unsigned kReplicatorBranches;
}

namespace icn::hpam {
namespace {

constexpr unsigned kDataBits = 64;
// Bits of one branch's fill count in occupancy_o: $clog2(Depth + 1).
unsigned count_bits() {
  unsigned bits = 0;
  while ((1u << bits) < rtl::kReplicatorDepth + 1) ++bits;
  return bits;
}

// Verilator gives a port of up to 64 bits as an integer and a wider one as
// 32-bit words (VlWide); these read and write either, so the code serves any
// verilated Branches.
template <typename Port>
bool port_bit(const Port& p, unsigned bit) {
  if constexpr (std::is_integral_v<Port>) return bit < 64 && (static_cast<std::uint64_t>(p) >> bit & 1u);
  else return p[bit / 32] >> (bit % 32) & 1u;
}

// Bits [lo, lo + n) of a port (n <= 64).
template <typename Port>
std::uint64_t field(const Port& w, unsigned lo, unsigned n) {
  std::uint64_t v = 0;
  for (unsigned k = 0; k < n; ++k)
    if (port_bit(w, lo + k)) v |= std::uint64_t{1} << k;
  return v;
}

template <typename Port>
void write_mask(Port& p, const BranchMask& m) {
  if constexpr (std::is_integral_v<Port>) {
    p = static_cast<Port>(m.word(0));  // truncated to the port's width, as the RTL would
  } else {
    constexpr unsigned words = sizeof(Port) / 4;
    for (unsigned k = 0; k < words; ++k)
      p[k] = k / 2 < BranchMask::kWords ? static_cast<std::uint32_t>(m.word(k / 2) >> (32 * (k % 2))) : 0u;
  }
}

template <typename Port>
BranchMask read_mask(const Port& p) {
  BranchMask m;
  for (unsigned i = 0; i < rtl::kReplicatorBranches && i < kMaxReplicatorBranches; ++i)
    if (port_bit(p, i)) m.set(i);
  return m;
}

}  // namespace

unsigned rtl_replicator_max_branches() { return rtl::kReplicatorBranches; }

unsigned RtlReplicator::max_depth() { return rtl::kReplicatorDepth; }

RtlReplicator::RtlReplicator(unsigned branches, ReplicatorMode mode, unsigned depth, const std::string& instance)
    : branches_(branches), mode_(mode), depth_(depth) {
  if (branches < 1 || branches > rtl::kReplicatorBranches)
    throw std::invalid_argument("replicator: the RTL replicator was verilated with " +
                                std::to_string(rtl::kReplicatorBranches) + " branches; branches must be 1.." +
                                std::to_string(rtl::kReplicatorBranches) +
                                " (reconfigure with -DICNSIM_RTL_REPLICATOR_BRANCHES=N, N <= " +
                                std::to_string(kMaxReplicatorBranches) + ")");
  if (mode == ReplicatorMode::kBuffered && depth < 1)
    throw std::invalid_argument("replicator: a buffered replicator needs depth >= 1");
  if (mode == ReplicatorMode::kBuffered && depth > max_depth())
    throw std::invalid_argument("replicator: the RTL replicator was verilated with " + std::to_string(max_depth()) +
                                " FIFO slots per branch; depth must be 1.." + std::to_string(max_depth()) +
                                " (reconfigure with -DICNSIM_RTL_REPLICATOR_DEPTH=N)");
  context_ = std::make_unique<VerilatedContext>();
  context_->traceEverOn(true);
  dut_ = std::make_unique<Vinter_level_replicator>(context_.get(), instance.c_str());
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

void RtlReplicator::trace(const std::string& path, std::function<std::uint64_t()> now_cycle, std::uint64_t steps_per_cycle,
                          const std::string& unit) {
  finish_trace();
  vcd_file_ = std::make_unique<CheckedVcdFile>();
  vcd_ = std::make_unique<VerilatedVcdC>(vcd_file_.get());
  set_time_base(*vcd_, unit);
  dut_->trace(vcd_.get(), 99);
  vcd_->open(path.c_str());
  if (!vcd_->isOpen()) {
    const std::string why = vcd_file_->error();
    vcd_.reset();
    vcd_file_.reset();
    throw std::runtime_error("replicator: cannot write the RTL waveform " + path + (why.empty() ? "" : ": " + why));
  }
  now_cycle_ = std::move(now_cycle);
  steps_per_cycle_ = steps_per_cycle < 1 ? 1 : steps_per_cycle;
}

void RtlReplicator::dump(std::uint64_t t) {
  if (vcd_) vcd_->dump(t);
}

ReplicatorOutputs RtlReplicator::cycle(const ReplicatorInputs& in) {
  const std::uint64_t now = (now_cycle_ ? now_cycle_() : cycles_) * steps_per_cycle_;
  ++cycles_;
  // Inputs of this cycle with the clock low: the combinational outputs settle.
  dut_->in_valid_i = in.in_valid;
  dut_->in_data_i = in.in.data;
  dut_->in_last_i = in.in.last;
  write_mask(dut_->in_mask_i, in.in_mask);  // truncated to the RTL's branches
  write_mask(dut_->out_ready_i, in.out_ready);
  dut_->clk_i = 0;
  dut_->eval();
  dump(now);

  ReplicatorOutputs out;
  out.in_ready = dut_->in_ready_o;
  // Not masked to the strapped branches here: that is the RTL's job, and the
  // co-simulation test would catch a flit offered on an unused branch.
  out.out_valid = read_mask(dut_->out_valid_o);
  for (unsigned i = 0; i < rtl::kReplicatorBranches && i < kMaxReplicatorBranches; ++i) {
    if (!out.out_valid.test(i)) continue;
    out.out[i].data = field(dut_->out_data_o, i * kDataBits, kDataBits);
    out.out[i].last = port_bit(dut_->out_last_o, i);
  }
  // The clock edge: pushes and pops.
  dut_->clk_i = 1;
  dut_->eval();
  dut_->clk_i = 0;
  return out;
}

unsigned RtlReplicator::occupancy(unsigned branch) const {
  if (branch >= branches_) return 0;
  const unsigned n = count_bits();
  return static_cast<unsigned>(field(dut_->occupancy_o, branch * n, n));
}

std::unique_ptr<ReplicatorCore> make_rtl_replicator(unsigned branches, ReplicatorMode mode, unsigned depth,
                                                    const std::string& instance) {
  return std::make_unique<RtlReplicator>(branches, mode, depth, instance);
}

}  // namespace icn::hpam
