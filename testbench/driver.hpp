// The icnsim command's work: read a scenario, elaborate, run, report.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "testbench/experiment.hpp"

namespace icn {

struct RunRequest {
  std::string scenario_path;           // a readable regular YAML file
  std::vector<std::string> overrides;  // --set key=value
  std::vector<std::string> unsets;     // --unset key: back to the family's default (applied before --set)
  std::string json_path;               // --json (overrides outputs.json)
  std::string vcd_path;                // --vcd (overrides outputs.vcd)
  bool quiet = false;
};

// A scenario read and validated, ready to elaborate (throws ConfigError).
struct Prepared {
  std::unique_ptr<ExperimentSetup> setup;
  RunContext ctx;
  std::string json_path;
  std::string vcd_path;
  double max_memory_bytes = 0;  // run.max_memory, resolved
  double max_work = 0;          // run.max_work: block evaluations
  double max_trace_bytes = 0;   // outputs.max_trace_bytes
};
Prepared prepare(Config& cfg);

// Runs one scenario; prints a summary; returns the process exit code
// (0 ok, 1 the run failed its checks, 2 bad input). Config errors are thrown.
// The elaborated model is not destroyed (the caller is expected to std::_Exit).
int run_scenario(const RunRequest& request, std::ostream& out);

// The resource guard: throws ConfigError (one line: the estimate and the key
// to raise) when `estimate` exceeds run.max_memory or its cycle lower bound
// exceeds run.max_cycles.
void check_resources(const ResourceEstimate& estimate, const Prepared& p);

// run.max_memory's default: a quarter of the machine's physical memory (runs of
// several simulations side by side stay within it), at most half of the
// process's address-space limit or cgroup memory limit.
double default_max_memory_bytes();

// `icnsim` with no arguments: every modelled family, briefly (default_table.cpp).
int run_default_table(std::ostream& out);

// icnsim's version, in the JSON results and the default table.
extern const char* const kVersion;

// `icnsim list`.
void list_kinds(std::ostream& out);
// The same as a Markdown key reference (docs/keys.md is this output; a test
// keeps the two equal).
void list_kinds_markdown(std::ostream& out);

// The keys every scenario has (seed, network.type, run.*, outputs.*).
std::vector<ParamSpec> common_params();

// Prints rows as an aligned text table.
void print_table(std::ostream& out, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows);

}  // namespace icn
