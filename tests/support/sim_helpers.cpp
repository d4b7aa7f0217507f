#include "tests/support/sim_helpers.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "models/config.hpp"
#include "testbench/driver.hpp"

namespace icn::test {

std::vector<ScenarioRun> run_scenarios(const std::vector<std::vector<std::string>>& overrides) {
  std::vector<Config> configs;
  std::vector<std::unique_ptr<Experiment>> experiments;
  configs.reserve(overrides.size());
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    configs.push_back(Config::from_text("", "test"));
    for (const auto& o : overrides[i]) configs.back().apply_override(o);
    Prepared p = prepare(configs.back());
    experiments.push_back(p.setup->elaborate("run" + std::to_string(i), p.ctx));
  }
  sc_core::sc_start();
  std::vector<ScenarioRun> runs;
  for (std::size_t i = 0; i < experiments.size(); ++i) {
    ScenarioRun run;
    run.results["scenario"] = configs[i].resolved();
    experiments[i]->write_results(run.results);
    run.problem = experiments[i]->problem();
    runs.push_back(std::move(run));
  }
  return runs;
}

ScenarioRun run_scenario(const std::vector<std::string>& overrides) {
  return run_scenarios({overrides}).front();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::uint64_t cycles(const ScenarioRun& run) { return run.results["result"]["cycles"].get<std::uint64_t>(); }

void expect_clean(const ScenarioRun& run) {
  EXPECT_EQ(run.problem, "");
  EXPECT_TRUE(run.results["result"]["verified"].get<bool>());
  EXPECT_EQ(run.results["result"]["conservation"], "ok");
}

namespace {

std::filesystem::path process_scratch_root() {
  return std::filesystem::temp_directory_path() / ("icnsim-test-" + std::to_string(getpid()));
}

std::string& made_scratch_dir() {
  static std::string made;
  return made;
}

// Without this, every run of the suite left ~500 directories of VCDs, JSON
// and captured output in /tmp (12,000 after a day of mutation testing).
class ScratchCleaner : public testing::EmptyTestEventListener {
  void OnTestEnd(const testing::TestInfo& info) override {
    std::string& made = made_scratch_dir();
    if (made.empty()) return;
    if (info.result()->Passed()) {
      std::error_code ignored;
      std::filesystem::remove_all(made, ignored);
    } else {
      std::printf("[ scratch  ] kept %s\n", made.c_str());
    }
    made.clear();
  }
  void OnTestProgramEnd(const testing::UnitTest&) override {
    std::error_code ignored;
    std::filesystem::remove(process_scratch_root(), ignored);  // only if empty
  }
};

}  // namespace

void install_scratch_cleaner() {
  testing::UnitTest::GetInstance()->listeners().Append(new ScratchCleaner);  // gtest owns it
}

std::string scratch_dir() {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name)
    if (c == '/') c = '_';
  const auto dir = process_scratch_root() / name;
  std::string& made = made_scratch_dir();
  if (made != dir.string()) {  // fresh once per test, stable within it
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    made = dir.string();
  }
  return made;
}

CommandResult run_icnsim(const std::string& args, int timeout_seconds) {
  static int calls = 0;
  const std::string dir = scratch_dir();
  const std::string stem = dir + "/icnsim" + std::to_string(++calls);
  const std::string out = stem + ".stdout", err = stem + ".stderr";
  const std::string cmd = "timeout " + std::to_string(timeout_seconds) + " " + ICNSIM_BINARY + " " + args +
                          " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

nlohmann::ordered_json deterministic_part(nlohmann::ordered_json results) {
  results.erase("sim");
  if (results.contains("scenario") && results["scenario"].contains("outputs"))
    results["scenario"]["outputs"].erase("json");
  return results;
}

void expect_scenarios_verified_and_deterministic(const std::vector<std::string>& names) {
  const std::string dir = scratch_dir();
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    nlohmann::ordered_json first;
    for (int round = 0; round < 2; ++round) {
      const std::string out = dir + "/" + name + std::to_string(round) + ".json";
      const auto r = run_icnsim(std::string("run ") + ICNSIM_SOURCE_DIR + "/testbench/scenarios/" + name +
                                ".yaml --quiet --json " + out, 120);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const auto results = deterministic_part(nlohmann::ordered_json::parse(read_file(out)));
      EXPECT_TRUE(results["result"]["verified"].get<bool>());
      if (round == 0) first = results;
      else EXPECT_EQ(results, first);
    }
  }
}

void expect_rejected(const std::string& args, const std::string& needle) {
  SCOPED_TRACE(args);
  const CommandResult r = run_icnsim(args, 30);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("icnsim: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

}  // namespace icn::test
