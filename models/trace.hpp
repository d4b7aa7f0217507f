// Waveform tracing (`--vcd FILE`): link activity and queue occupancy, one
// variable per probe, sampled once per cycle, readable by GTKWave. The file's
// extension picks the format: ".fst" writes GTKWave's compressed, indexed FST
// (for large runs: a fraction of the VCD's size, and GTKWave opens it without
// reading it all); anything else writes a VCD through SystemC's tracer.
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
#include <utility>
#include <vector>

#include "models/types.hpp"

namespace icn {

class WaveformTracer {
 public:
  // `path` is the file to write: FILE.fst, or a VCD (".vcd" is appended if missing).
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
  bool fst() const { return fst_ != nullptr; }

 private:
  void declare_fst();  // the FST's scopes and variables, once, before the first value

  std::string path_;
  sc_core::sc_trace_file* file_ = nullptr;  // VCD through SystemC
  void* fst_ = nullptr;                     // FST writer context (fstapi)
  std::uint64_t time_per_cycle_ = 1;        // FST time units per clock period
  bool fst_declared_ = false;
  std::deque<std::pair<std::string, int>> fst_vars_;  // name, bits, per probe
  std::vector<std::uint32_t> fst_handles_;
  std::vector<std::uint32_t> fst_last_;
  std::deque<std::uint32_t> values_;  // stable addresses for sc_trace
  std::deque<std::function<std::uint32_t(Cycle)>> probes_;
};

// Bits needed to hold values 0..max.
int bits_for(std::uint64_t max);

}  // namespace icn
