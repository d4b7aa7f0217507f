// Waveform tracing (`--vcd FILE`): link activity and queue occupancy, one VCD
// variable per probe, sampled once per cycle, readable by GTKWave.
//
// The model's state lives in plain C++ objects (links are delay lines, not
// sc_signals), so a probe is a function that reads that state at the end of a
// cycle; its value is stored in a plain integer traced with sc_trace. Probes
// must be added during elaboration (SystemC fixes the traced set at start).
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "models/types.hpp"

namespace icn {

class WaveformTracer {
 public:
  // `path` is the VCD file to write (".vcd" is appended if missing).
  WaveformTracer(const std::string& path, const sc_core::sc_time& period);
  ~WaveformTracer();
  WaveformTracer(const WaveformTracer&) = delete;
  WaveformTracer& operator=(const WaveformTracer&) = delete;

  // `name` is hierarchical with '.' separators; GTKWave shows it as scopes.
  void add(const std::string& name, int bits, std::function<std::uint32_t(Cycle)> probe);

  // Evaluates every probe for the cycle that just ended.
  void sample(Cycle t);

  std::size_t probes() const { return values_.size(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  sc_core::sc_trace_file* file_ = nullptr;
  std::deque<std::uint32_t> values_;  // stable addresses for sc_trace
  std::deque<std::function<std::uint32_t(Cycle)>> probes_;
};

// Bits needed to hold values 0..max.
int bits_for(std::uint64_t max);

}  // namespace icn
