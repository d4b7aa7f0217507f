// RunOutputs: everything one run writes, in one place. The JSON results, the
// waveform (and the files a Verilated block writes beside it) and the summary
// lines: their paths are resolved (a command-line --json/--vcd over the
// scenario's outputs.*), checked before anything is elaborated (a path we can
// create, never another output or an input), and written at the end, the JSON
// atomically, a failure as a JSON that says so.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "models/config.hpp"
#include "models/trace.hpp"
#include "testbench/driver.hpp"

namespace icn {

class RunOutputs {
 public:
  // Resolves and checks every output of `request` on the prepared scenario;
  // throws ConfigError naming the key. `failure_json` is set to the results
  // file as soon as it is known to be writable.
  RunOutputs(const RunRequest& request, Config& cfg, const Prepared& prepared, std::string& failure_json);

  const std::string& json_path() const { return json_path_; }
  // Opens the waveform, if one was asked for (nullptr otherwise).
  WaveformTracer* open_waveform(const sc_core::sc_time& period);

  // Closes the waveform and writes the results; returns "" or why an output
  // failed (one line), having written a failure JSON where it could.
  std::string write(const nlohmann::ordered_json& results, const std::string& problem);
  // "" unless the waveform reached outputs.max_trace_bytes and stopped the run.
  std::string waveform_limit_reached() const { return tracer_ ? tracer_->limit_reached() : ""; }
  // The summary: the family's table, the run's cycles and where the outputs are.
  void print_summary(std::ostream& out, const Experiment& experiment, Cycle cycles, double wall_seconds) const;

  // The results file of a run that failed before it had results: it says so.
  // It replaces only a file that is absent, empty or a JSON document (it may
  // be written before the inputs are known): never an input.
  static void write_failure_json(const std::string& path, const std::string& why, int exit_code);

 private:
  std::string json_key_, vcd_key_;
  std::string json_path_, vcd_path_;
  std::unique_ptr<WaveformTracer> tracer_;
};

}  // namespace icn
