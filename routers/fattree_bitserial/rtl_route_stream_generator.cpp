#include "routers/fattree_bitserial/rtl_route_stream_generator.hpp"

// Verilator's SystemC runtime expects the global names of <systemc.h>.
#include <systemc.h>
#include <verilated.h>
#include <verilated_vcd_c.h>

#include <stdexcept>

#include "Vroute_stream_generator.h"
#include "models/verilated_vcd_file.hpp"

namespace icn::bitserial {

RtlClock::RtlClock(sc_core::sc_module_name name) : sc_module(name), clk("clk", false), rst_n("rst_n", false) {
  SC_HAS_PROCESS(RtlClock);
  SC_METHOD(toggle);
}

RtlClock::RtlClock(sc_core::sc_module_name name, const CycleEngine& engine) : RtlClock(name) { follow(engine); }

void RtlClock::toggle() {
  if (engine_ == nullptr) throw std::logic_error(std::string(name()) + ": no engine to follow");
  const sc_core::sc_time half = engine_->options().period / 2.0;
  switch (stage_) {
    case Stage::kReset:  // time 0: reset held
      stage_ = Stage::kReleased;
      next_trigger(half);
      return;
    case Stage::kReleased:  // half a period later: reset released, no edge yet
      rst_n.write(true);
      stage_ = Stage::kRunning;
      next_trigger(engine_->options().period);  // first rising edge at 1.5 periods
      return;
    case Stage::kRunning:
      if (engine_->finished()) return;  // no more edges: the kernel may stop
      clk.write(!clk.read());
      next_trigger(half);
      return;
  }
}

unsigned RtlRouteStreamGenerator::max_height() { return ICNSIM_RTL_ROUTE_STREAM_HEIGHT; }

RtlRouteStreamGenerator::RtlRouteStreamGenerator(sc_core::sc_module_name name, unsigned height, BufferFill fill,
                                                 RtlClock& clock)
    : sc_module(name), load_("load", false), height_("height", height),
      turn_fill_("turn_fill", fill == BufferFill::kTurnBit), src_("src", 0), dst_("dst", 0), valid_("valid"),
      bit_("bit") {
  if (height < 1 || height > max_height())
    throw std::invalid_argument("RTL route stream generator: height 1.." + std::to_string(max_height()));
  Verilated::traceEverOn(true);  // before the model exists, so it can be traced later
  dut_ = std::make_unique<Vroute_stream_generator>("rtl");
  dut_->clk_i(clock.clk);
  dut_->rst_ni(clock.rst_n);
  dut_->load_i(load_);
  dut_->height_i(height_);
  dut_->turn_fill_i(turn_fill_);
  dut_->src_i(src_);
  dut_->dst_i(dst_);
  dut_->valid_o(valid_);
  dut_->bit_o(bit_);
}

RtlRouteStreamGenerator::~RtlRouteStreamGenerator() = default;

void RtlRouteStreamGenerator::configure(unsigned height, BufferFill fill) {
  if (height < 1 || height > max_height())
    throw std::invalid_argument("RTL route stream generator: height 1.." + std::to_string(max_height()));
  height_.write(height);
  turn_fill_.write(fill == BufferFill::kTurnBit);
}

void RtlRouteStreamGenerator::load(NodeId src, NodeId dst) {
  src_.write(src);
  dst_.write(dst);
  load_.write(true);  // captured by the next rising edge
}

StreamBit RtlRouteStreamGenerator::next_bit() {
  load_.write(false);  // one load edge only
  return StreamBit{valid_.read(), bit_.read()};
}

void RtlRouteStreamGenerator::trace(VerilatedVcdC& file, int levels) { dut_->trace(&file, levels); }

// Registered with the SystemC kernel, which calls cycle() at the end of every
// time step: Verilator's VCD of the generators is dumped there, in simulated
// time. The sc_trace_file interface's own trace() calls are for SystemC
// signals and are not used: the Verilated models add theirs to the VCD.
class RtlWaveform::TraceFile : public sc_core::sc_trace_file {
 public:
  // `unit` and `steps_per_cycle`: the main waveform's time base
  // (WaveformTracer::timescale, time_per_cycle), so that cycle t has the
  // same time in both files.
  TraceFile(const std::vector<RtlRouteStreamGenerator*>& generators, const sc_core::sc_time& period,
            const std::string& unit, std::uint64_t steps_per_cycle)
      : vcd_(&file_), period_(period.value()), steps_per_cycle_(steps_per_cycle) {
    set_time_base(vcd_, unit);
    for (RtlRouteStreamGenerator* g : generators) g->trace(vcd_, 99);
    sc_core::sc_get_curr_simcontext()->add_trace_file(this);
  }
  ~TraceFile() override { sc_core::sc_get_curr_simcontext()->remove_trace_file(this); }

  void open(const std::string& path) {
    vcd_.open(path.c_str());
    if (!vcd_.isOpen() && file_.error().empty()) file_.close();
  }
  std::string finish() {
    if (!closed_) {
      vcd_.close();
      closed_ = true;
    }
    return file_.finish();
  }
  void set_time_unit(double, sc_core::sc_time_unit) override {}
  void write_comment(const std::string&) override {}
  void trace(const unsigned int&, const std::string&, const char**) override {}
#define ICN_IGNORED_TRACE_A(T) \
  void trace(const T&, const std::string&) override {}
#define ICN_IGNORED_TRACE_B(T) \
  void trace(const T&, const std::string&, int) override {}
  ICN_IGNORED_TRACE_A(sc_core::sc_event)
  ICN_IGNORED_TRACE_A(sc_core::sc_time)
  ICN_IGNORED_TRACE_A(bool)
  ICN_IGNORED_TRACE_A(sc_dt::sc_bit)
  ICN_IGNORED_TRACE_A(sc_dt::sc_logic)
  ICN_IGNORED_TRACE_B(unsigned char)
  ICN_IGNORED_TRACE_B(unsigned short)
  ICN_IGNORED_TRACE_B(unsigned int)
  ICN_IGNORED_TRACE_B(unsigned long)
  ICN_IGNORED_TRACE_B(char)
  ICN_IGNORED_TRACE_B(short)
  ICN_IGNORED_TRACE_B(int)
  ICN_IGNORED_TRACE_B(long)
  ICN_IGNORED_TRACE_B(sc_dt::int64)
  ICN_IGNORED_TRACE_B(sc_dt::uint64)
  ICN_IGNORED_TRACE_A(float)
  ICN_IGNORED_TRACE_A(double)
  ICN_IGNORED_TRACE_A(sc_dt::sc_int_base)
  ICN_IGNORED_TRACE_A(sc_dt::sc_uint_base)
  ICN_IGNORED_TRACE_A(sc_dt::sc_signed)
  ICN_IGNORED_TRACE_A(sc_dt::sc_unsigned)
  ICN_IGNORED_TRACE_A(sc_dt::sc_fxval)
  ICN_IGNORED_TRACE_A(sc_dt::sc_fxval_fast)
  ICN_IGNORED_TRACE_A(sc_dt::sc_fxnum)
  ICN_IGNORED_TRACE_A(sc_dt::sc_fxnum_fast)
  ICN_IGNORED_TRACE_A(sc_dt::sc_bv_base)
  ICN_IGNORED_TRACE_A(sc_dt::sc_lv_base)
#undef ICN_IGNORED_TRACE_A
#undef ICN_IGNORED_TRACE_B

 protected:
  // One sample per cycle, at the whole period where the engine runs cycle t:
  // the generator's registers after the edge of cycle t - 1 (half a period
  // earlier) and the inputs the NIC wrote in cycle t. The edges between are
  // not dumped, as the main file has one step per cycle.
  void cycle(bool delta_cycle) override {
    if (delta_cycle || closed_ || period_ == 0) return;
    const sc_dt::uint64 now = sc_core::sc_time_stamp().value();
    if (now % period_ == 0) vcd_.dump(static_cast<std::uint64_t>(now / period_ * steps_per_cycle_));
  }

 private:
  CheckedVcdFile file_;  // declared before vcd_: the VCD writes into it until destroyed
  VerilatedVcdC vcd_;
  sc_dt::uint64 period_;
  std::uint64_t steps_per_cycle_;
  bool closed_ = false;
};

RtlWaveform::RtlWaveform(sc_core::sc_module_name name, std::string path, const sc_core::sc_time& period,
                         std::string unit, std::uint64_t steps_per_cycle)
    : sc_module(name), path_(std::move(path)), period_(period), unit_(std::move(unit)), steps_per_cycle_(steps_per_cycle) {
  Verilated::traceEverOn(true);
}

RtlWaveform::~RtlWaveform() = default;  // unfinished: the file's destructor removes the partial file

void RtlWaveform::start_of_simulation() {
  file_ = std::make_unique<TraceFile>(generators_, period_, unit_, steps_per_cycle_);
  file_->open(path_);
}

std::string RtlWaveform::finish() {
  if (!file_) return "";
  const std::string why = file_->finish();
  return why.empty() ? "" : "RTL waveform " + why;
}

}  // namespace icn::bitserial
