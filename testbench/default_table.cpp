// `icnsim` with no arguments: a first look at every modelled family. Each
// family runs a few small scenarios (its demo rows, registered in its own
// experiment file: testbench/family.hpp), all elaborated into one SystemC
// kernel and simulated together (a fraction of a second), and prints its own
// table with the value the paper gives beside what the simulated hardware did.
#include <iomanip>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "models/host.hpp"
#include "testbench/driver.hpp"
#include "testbench/family.hpp"

namespace icn {

namespace {

// A family's section of the table: its demo rows (registered with the family,
// testbench/family.hpp) and their experiments, once elaborated.
struct Section {
  DemoRows rows;
  std::vector<std::unique_ptr<Experiment>> experiments;
};

// Every family with demo rows, in the order of their ranks.
std::vector<Section> sections() {
  std::vector<Section> out;
  for (const Family& f : families())
    if (f.demo) out.push_back(Section{f.demo(), {}});
  return out;
}

// A --set value as a shell word: quoted when the shell would read it otherwise.
std::string shell_word(const std::string& word) {
  if (word.find_first_of(" []{},*?$'\"\\;&|<>()") == std::string::npos) return word;
  return "'" + word + "'";
}

std::string command_for(const DemoCase& c) {
  std::string cmd = "icnsim run /dev/null";
  for (const std::string& o : c.overrides) cmd += " --set " + shell_word(o);
  return cmd;
}

}  // namespace

int run_default_table(std::ostream& out) {
  std::vector<Section> all = sections();
  std::vector<std::unique_ptr<Config>> configs;  // kept alive with their experiments
  for (Section& f : all) {
    for (const DemoCase& c : f.rows.cases) {
      auto cfg = std::make_unique<Config>(Config::from_text("", "defaults"));
      for (const std::string& o : c.overrides) cfg->apply_override(o);
      Prepared p = prepare(*cfg);
      f.experiments.push_back(p.setup->elaborate(c.name, p.ctx));
      configs.push_back(std::move(cfg));
    }
  }
  WallClock wall;
  sc_core::sc_start();
  const double seconds = wall.seconds();

  out << "icnsim " << kVersion << " - every modelled family, measured cycle by cycle in the simulated hardware\n";
  bool all_ok = true;
  std::size_t runs = 0;
  for (const Section& f : all) {
    out << "\n" << f.rows.title << "\n\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& e : f.experiments) {
      rows.push_back(e->table_row());
      all_ok = all_ok && e->problem().empty();
      ++runs;
    }
    print_table(out, f.experiments.front()->table_header(), rows);
    out << f.rows.paper << "\n";
    // Each row's own command: the same keys on the same defaults, so it
    // prints that row exactly (a test runs every one of them).
    out << "each row from the command line, in order (a scenario file to start from: " << f.rows.scenario << "):\n";
    for (const DemoCase& c : f.rows.cases) out << "  $ " << command_for(c) << "\n";
  }
  out << "\nverified: every processor received exactly what it should and every message is accounted for.\n"
      << runs << " runs in " << std::fixed << std::setprecision(3) << seconds << " s. Next:\n"
      << "  icnsim list                 every network type, traffic and key\n"
      << "  testbench/scenarios/        one scenario per family (icnsim run FILE)\n"
      << "  scripts/reproduce --quick   every paper's tables and figures (docs/reproduction/)\n"
      << "  icnsim sweep SWEEP.yaml     parameter sweeps, local or on Slurm (docs/sweeps.md)\n";
  for (const Section& f : all)
    for (const auto& e : f.experiments) {
      const std::string problem = e->problem();
      if (!problem.empty()) std::cerr << "icnsim: " << e->name() << ": " << problem << '\n';
    }
  return all_ok ? 0 : 1;
}

}  // namespace icn
