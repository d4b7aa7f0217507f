#include "testbench/run_outputs.hpp"

#include <cctype>
#include <fstream>
#include <iomanip>
#include <stdexcept>
#include <utility>
#include <vector>

#include "testbench/output_file.hpp"

namespace icn {

RunOutputs::RunOutputs(const RunRequest& request, Config& cfg, const Prepared& p, std::string& failure_json)
    : json_key_(request.json_path.empty() ? "outputs.json" : "--json"),
      vcd_key_(request.vcd_path.empty() ? "outputs.vcd" : "--vcd"),
      json_path_(request.json_path.empty() ? p.json_path : request.json_path),
      vcd_path_(request.vcd_path.empty() ? p.vcd_path : request.vcd_path) {
  cfg.resolve("outputs.json", json_path_);
  cfg.resolve("outputs.vcd", vcd_path_);
  if (!json_path_.empty()) {
    check_output_path(json_key_, json_path_);
    failure_json = json_path_;
  }
  // No output may overwrite another output or an input.
  std::vector<std::pair<std::string, std::string>> outputs, inputs{{"scenario file", request.scenario_path}};
  if (!json_path_.empty()) outputs.emplace_back(json_key_, json_path_);
  if (!vcd_path_.empty()) {
    const std::string file = vcd_file_for(vcd_path_);
    check_output_path(vcd_key_, file);
    outputs.emplace_back(vcd_key_, file);
    // The save files beside it (a device such as /dev/null gets none).
    if (const std::string save = WaveformTracer::save_file_for(file); !save.empty()) {
      outputs.emplace_back(vcd_key_ + " (its save file)", save);
      for (std::uint32_t id : p.ctx.trace_packets)
        outputs.emplace_back("outputs.trace_packet", WaveformTracer::packet_save_file_for(file, id));
    }
    for (const std::string& side : p.setup->waveform_side_files(file)) {
      check_output_path(vcd_key_ + " (the RTL waveform beside it)", side);
      outputs.emplace_back(vcd_key_ + " (the RTL waveform beside it)", side);
      if (const std::string save = WaveformTracer::save_file_for(side); !save.empty())
        outputs.emplace_back(vcd_key_ + " (the RTL waveform's save file)", save);
    }
  }
  if (!vcd_path_.empty() && p.ctx.engine.threads > 1)
    cfg.fail("run.threads", "a waveform (" + vcd_key_ + ") is sampled on one thread; use run.threads=1");
  if (vcd_path_.empty() && !p.ctx.trace_packets.empty())
    cfg.fail("outputs.trace_packet", "needs a waveform to follow the packet in: --vcd FILE or outputs.vcd");
  if (vcd_path_.empty() && (p.ctx.trace_from != 0 || p.ctx.trace_to != kNever))
    cfg.fail("outputs.trace_window", "applies only with a waveform: --vcd FILE or outputs.vcd");
  if (vcd_path_.empty() && !p.ctx.trace_blocks.empty())
    cfg.fail("outputs.trace_routers", "applies only with a waveform: --vcd FILE or outputs.vcd");
  for (const std::string& key : cfg.input_file_keys())
    if (const std::string path = cfg.value_text(key); !path.empty()) inputs.emplace_back(key, path);
  check_distinct_files(outputs, inputs);
}

WaveformTracer* RunOutputs::open_waveform(const sc_core::sc_time& period) {
  if (vcd_path_.empty()) return nullptr;
  try {
    tracer_ = std::make_unique<WaveformTracer>(vcd_path_, period);
  } catch (const std::runtime_error& e) {
    throw ConfigError(vcd_key_ + ": " + e.what());
  }
  return tracer_.get();
}

std::string RunOutputs::write(const nlohmann::ordered_json& results, const std::string& problem) {
  const std::string failed = problem.empty() ? "" : "; and the run failed: " + problem;
  // The waveform is complete only once its file is closed and in place; a
  // failed write fails the run's outputs like a failed JSON write does.
  const std::string waveform_problem = tracer_ ? tracer_->finish() : "";
  if (!waveform_problem.empty()) {
    const std::string why = "waveform: " + waveform_problem;
    write_failure_json(json_path_, why + failed, problem.empty() ? 2 : 1);
    return why;
  }
  if (json_path_.empty()) return "";
  try {
    write_file_atomically(json_path_, results.dump(2) + "\n");
  } catch (const OutputError& e) {
    return std::string("JSON results: ") + e.what();
  }
  return "";
}

void RunOutputs::print_summary(std::ostream& out, const Experiment& experiment, Cycle cycles, double wall_seconds) const {
  print_table(out, experiment.table_header(), {experiment.table_row()});
  out << "simulated " << cycles << " cycles in " << std::fixed << std::setprecision(3) << wall_seconds << " s";
  if (tracer_) out << "; waveforms in " << tracer_->path();
  if (!json_path_.empty()) out << "; results in " << json_path_;
  out << '\n';
}

void RunOutputs::write_failure_json(const std::string& path, const std::string& why, int exit_code) {
  if (path.empty()) return;
  if (std::ifstream existing(path); existing) {
    char first = 0;
    while (existing.get(first) && std::isspace(static_cast<unsigned char>(first))) {
    }
    if (existing && first != '{') return;
  }
  nlohmann::ordered_json results;
  results["icnsim"] = {{"version", kVersion}};
  results["result"] = {{"status", "error"}, {"verified", false}, {"exit_code", exit_code}, {"problem", why}};
  try {
    write_file_atomically(path, results.dump(2) + "\n");
  } catch (const OutputError&) {
    // The error being reported is the one that matters.
  }
}

}  // namespace icn
