#include "testbench/driver.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>

#include "models/host.hpp"

namespace icn {

const char* const kVersion = "0.1.0";

namespace {

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const auto& k : network_kinds()) names.push_back(k.type);
  return names;
}

}  // namespace

Prepared prepare(Config& cfg) {
  Prepared p;
  cfg.declare(common_params());
  p.ctx.seed = static_cast<std::uint64_t>(cfg.integer("seed", 0, std::numeric_limits<std::int64_t>::max()));
  const std::string type = cfg.choice("network.type", kind_names());
  const auto& kinds = network_kinds();
  const auto kind = std::find_if(kinds.begin(), kinds.end(), [&](const NetworkKind& k) { return k.type == type; });
  p.setup = kind->configure(cfg);
  p.ctx.engine.max_cycles = static_cast<Cycle>(cfg.integer("run.max_cycles", 1, std::int64_t{1} << 50));
  p.ctx.engine.watchdog_cycles = static_cast<Cycle>(cfg.integer("run.watchdog_cycles", 1, std::int64_t{1} << 40));
  p.ctx.engine.per_block_methods = cfg.choice("run.scheduler", {"engine", "per_block_methods"}) == "per_block_methods";
  const double period_ns = cfg.real("run.clock_period_ns", 0.001, 1e6);
  p.ctx.engine.period = sc_core::sc_time(period_ns, sc_core::SC_NS);
  p.json_path = cfg.text("outputs.json");
  p.vcd_path = cfg.text("outputs.vcd");
  cfg.reject_unknown();
  return p;
}

namespace {

nlohmann::ordered_json sim_figures(const Experiment& e, const CycleEngine& engine, double wall) {
  const double router_cycles = static_cast<double>(e.routers()) * static_cast<double>(engine.outcome().last_cycle);
  return {{"wall_seconds", wall},
          {"simulated_cycles", engine.outcome().last_cycle},
          {"routers", e.routers()},
          {"router_cycles_per_second", wall > 0 ? router_cycles / wall : 0.0},
          {"block_evaluations", engine.evaluations()},
          {"peak_rss_mb", peak_rss_mb()}};
}

}  // namespace

std::vector<ParamSpec> common_params() {
  return {
      {"seed", "1", "0..2^63-1", "scenario seed; every random stream derives from it"},
      {"network.type", "fattree_packet", join_choices(kind_names()), "the network family"},
      {"run.max_cycles", "10000000", "1..2^50", "stop (and fail) if the traffic is not done by then"},
      {"run.watchdog_cycles", "10000", "1..2^40", "stall watchdog: cycles without any packet moving"},
      {"run.scheduler", "engine", "engine|per_block_methods",
       "engine: one SC_METHOD per network evaluates only blocks with work; per_block_methods: "
       "one SC_METHOD per block every cycle (the simple scheme, for comparison)"},
      {"run.clock_period_ns", "1", "0.001..1e6", "clock period, for waveforms and reports in seconds"},
      {"outputs.json", "", "a file path or empty", "write the JSON results here (also --json)"},
      {"outputs.vcd", "", "a file path or empty", "write waveforms here (also --vcd)"},
  };
}

void print_table(std::ostream& out, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size(), 0);
  for (std::size_t i = 0; i < header.size(); ++i) width[i] = header[i].size();
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], row[i].size());
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      out << std::left << std::setw(static_cast<int>(width[i])) << cells[i];
      if (i + 1 < cells.size()) out << "  ";
    }
    out << '\n';
  };
  line(header);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.push_back(std::string(w, '-'));
  line(rule);
  for (const auto& row : rows) line(row);
}

int run_scenario(const RunRequest& request, std::ostream& out) {
  Config cfg = request.scenario_path.empty() ? Config::from_text("", "defaults")
                                             : Config::from_file(request.scenario_path);
  for (const auto& o : request.overrides) cfg.apply_override(o);
  Prepared p = prepare(cfg);
  if (!request.json_path.empty()) p.json_path = request.json_path;
  if (!request.vcd_path.empty()) p.vcd_path = request.vcd_path;
  cfg.resolve("outputs.json", p.json_path);
  cfg.resolve("outputs.vcd", p.vcd_path);

  std::unique_ptr<WaveformTracer> tracer;
  if (!p.vcd_path.empty()) {
    tracer = std::make_unique<WaveformTracer>(p.vcd_path, p.ctx.engine.period);
    p.ctx.tracer = tracer.get();
  }
  WallClock elaboration;
  auto experiment = p.setup->elaborate("icnsim", p.ctx);
  CycleEngine& engine = experiment->engine();
  if (tracer) {
    WaveformTracer* t = tracer.get();
    engine.add_cycle_hook([t](Cycle c) { t->sample(c); });
  }
  const double elaboration_seconds = elaboration.seconds();
  WallClock wall;
  sc_core::sc_start();
  const double wall_seconds = wall.seconds();

  nlohmann::ordered_json results;
  results["icnsim"] = {{"version", kVersion}};
  results["scenario"] = cfg.resolved();
  experiment->write_results(results);
  results["sim"] = sim_figures(*experiment, engine, wall_seconds);
  results["sim"]["elaboration_seconds"] = elaboration_seconds;

  if (!p.json_path.empty()) {
    std::ofstream f(p.json_path);
    if (!f) throw ConfigError("cannot write JSON results to '" + p.json_path + "'");
    f << results.dump(2) << '\n';
  }
  if (!request.quiet) {
    print_table(out, experiment->table_header(), {experiment->table_row()});
    out << "simulated " << engine.outcome().last_cycle << " cycles in " << std::fixed
        << std::setprecision(3) << wall_seconds << " s";
    if (tracer) out << "; waveforms in " << tracer->path();
    if (!p.json_path.empty()) out << "; results in " << p.json_path;
    out << '\n';
  }
  const std::string problem = experiment->problem();
  // The results are written: hand the module tree to the caller's std::_Exit
  // instead of destroying it here (SystemC 2.3.4 tears modules down in
  // quadratic time: minutes for a million-router network).
  (void)experiment.release();
  if (!problem.empty()) {
    std::cerr << "icnsim: run failed: " << problem << '\n';
    return 1;
  }
  return 0;
}

void list_kinds(std::ostream& out) {
  out << "Scenario keys common to every network:\n";
  for (const auto& s : common_params())
    out << "  " << std::left << std::setw(26) << s.key << " default " << std::setw(10)
        << (s.default_yaml.empty() ? "\"\"" : s.default_yaml) << " " << s.allowed << "\n      " << s.help << '\n';
  for (const auto& kind : network_kinds()) {
    out << "\nnetwork.type=" << kind.type << ": " << kind.summary << '\n';
    for (const auto& group : kind.params()) {
      for (const auto& s : group.params) {
        out << "  " << std::left << std::setw(26) << s.key << " default " << std::setw(10)
            << (s.default_yaml.empty() ? "\"\"" : s.default_yaml) << " " << s.allowed << "\n      " << s.help << '\n';
      }
    }
  }
}

}  // namespace icn
