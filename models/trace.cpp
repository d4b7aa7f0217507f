#include "models/trace.hpp"

namespace icn {

WaveformTracer::WaveformTracer(const std::string& path, const sc_core::sc_time& period) {
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  path_ = base + ".vcd";
  file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  // Co-simulated RTL clocks tick at half periods. Our probes change only at
  // whole cycles, so time steps between cycles carry nothing to record.
  sc_core::sc_report_handler::set_actions("current kernel time is not representable in VCD time units",
                                          sc_core::SC_DO_NOTHING);  // SystemC message W713
  // Whole-nanosecond clocks get a nanosecond timescale, finer ones picoseconds.
  file_->set_time_unit(1, period >= sc_core::sc_time(1, sc_core::SC_NS) ? sc_core::SC_NS : sc_core::SC_PS);
  values_.push_back(0);
  sc_core::sc_trace(file_, values_.back(), "cycle", 32);
  probes_.emplace_back([](Cycle t) { return static_cast<std::uint32_t>(t); });
}

WaveformTracer::~WaveformTracer() {
  if (file_ != nullptr) sc_core::sc_close_vcd_trace_file(file_);
}

void WaveformTracer::add(const std::string& name, int bits,
                         std::function<std::uint32_t(Cycle)> probe) {
  values_.push_back(0);
  sc_core::sc_trace(file_, values_.back(), name, bits);
  probes_.push_back(std::move(probe));
}

void WaveformTracer::sample(Cycle t) {
  auto value = values_.begin();
  for (auto& probe : probes_) *value++ = probe(t);
}

int bits_for(std::uint64_t max) {
  int bits = 1;
  while (bits < 64 && (max >> bits) != 0) ++bits;
  return bits;
}

}  // namespace icn
