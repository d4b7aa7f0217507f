#include "nics/rtl_route_stream_generator.hpp"

// Verilator's SystemC runtime expects the global names of <systemc.h>.
#include <systemc.h>
#include <verilated.h>
#include <verilated_vcd_sc.h>

#include <stdexcept>

#include "Vroute_stream_generator.h"

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

void RtlRouteStreamGenerator::trace(VerilatedVcdSc& file, int levels) { dut_->trace(&file, levels); }

RtlWaveform::RtlWaveform(sc_core::sc_module_name name, std::string path)
    : sc_module(name), path_(std::move(path)) {
  Verilated::traceEverOn(true);
}

RtlWaveform::~RtlWaveform() { close(); }

void RtlWaveform::start_of_simulation() {
  file_ = std::make_unique<VerilatedVcdSc>();
  for (RtlRouteStreamGenerator* g : generators_) g->trace(*file_, 99);
  file_->open(path_.c_str());
}

void RtlWaveform::close() {
  if (file_) {
    file_->close();
    file_.reset();
  }
}

}  // namespace icn::bitserial
