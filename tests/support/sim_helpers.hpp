// Helpers for tests that run whole scenarios in-process or through the icnsim
// command.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace icn::test {

struct ScenarioRun {
  nlohmann::ordered_json results;  // what `icnsim run --json` would write, minus "sim"
  std::string problem;             // Experiment::problem()
};

// Elaborates one experiment per override list (keys as for --set), runs them
// all in one SystemC simulation, and returns their results in order. Call once
// per test process.
std::vector<ScenarioRun> run_scenarios(const std::vector<std::vector<std::string>>& overrides);
ScenarioRun run_scenario(const std::vector<std::string>& overrides);

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the icnsim binary with `args` (shell words), with a time limit.
CommandResult run_icnsim(const std::string& args, int timeout_seconds = 60);

// A results file without what may differ between two runs of one scenario:
// the host measurements (`sim`) and the JSON file's own path.
nlohmann::ordered_json deterministic_part(nlohmann::ordered_json results);

// Runs each shipped scenario testbench/scenarios/NAME.yaml twice: it must
// exit 0, verify, and give the same deterministic_part both times.
void expect_scenarios_verified_and_deterministic(const std::vector<std::string>& names);

// Bad input: `icnsim ARGS` exits with code 2, prints nothing on stdout and
// exactly one line on stderr, "icnsim: error: ...", containing `needle`.
void expect_rejected(const std::string& args, const std::string& needle);

// A fresh scratch directory for this test, under
// $TMPDIR/icnsim-test-<pid>/<Suite.Test>/. A passing test's directory is
// removed when it ends (install_scratch_cleaner); a failing test's is kept
// for inspection and its path printed.
std::string scratch_dir();
// Registers the listener that does that (called once, from the test main).
void install_scratch_cleaner();

std::string read_file(const std::string& path);

// The shipped scenarios, testbench/scenarios/ (with the trailing slash).
inline const std::string kScenarios = std::string(ICNSIM_SOURCE_DIR) + "/testbench/scenarios/";
// Where icnsim's own signals start in a VCD or FST file.
inline const std::string kWaveformTop = "SystemC.icnsim.";

// A run's result.cycles, and what every clean run shows: no problem, verified,
// conservation ok.
std::uint64_t cycles(const ScenarioRun& run);
void expect_clean(const ScenarioRun& run);

}  // namespace icn::test
