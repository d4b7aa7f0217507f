#include "testbench/driver.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <cctype>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>

#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "models/host.hpp"
#include "models/params.hpp"
#include "testbench/output_file.hpp"
#include "testbench/run_outputs.hpp"

namespace icn {

// The project version, from CMake's project() (one place to change it).
const char* const kVersion = ICNSIM_VERSION;

namespace {

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const auto& k : network_kinds()) names.push_back(k.type);
  return names;
}

}  // namespace

double default_max_memory_bytes() {
  // A quarter of the machine, and at most half of what this process may use:
  // its address-space limit (ulimit -v) or its cgroup's memory limit, as a
  // batch system sets them, so a run that cannot fit is refused, not killed.
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  double limit = pages > 0 && page > 0 ? 0.25 * static_cast<double>(pages) * static_cast<double>(page) : 4.0 * (1ull << 30);
  struct rlimit as {};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    limit = std::min(limit, 0.5 * static_cast<double>(as.rlim_cur));
  if (std::FILE* f = std::fopen("/sys/fs/cgroup/memory.max", "r")) {
    unsigned long long bytes = 0;
    if (std::fscanf(f, "%llu", &bytes) == 1 && bytes > 0) limit = std::min(limit, 0.5 * static_cast<double>(bytes));
    std::fclose(f);
  }
  return limit;
}

namespace {

const char* kMaxMemoryAllowed = "auto (a quarter of the machine's memory, at most half of ulimit -v or the cgroup limit) or a size like 512MiB, 8GiB (1MiB..1024TiB)";

// A size such as 512MiB or 8GiB, within [least, most] bytes; 0 if `text` is not one.
double size_bytes(const std::string& text, double least, double most) {
  const std::vector<std::pair<std::string, double>> units{{"KiB", 1024.0}, {"MiB", 1024.0 * 1024}, {"GiB", 1024.0 * 1024 * 1024},
                                                         {"TiB", 1024.0 * 1024 * 1024 * 1024}};
  for (const auto& [unit, scale] : units) {
    if (text.size() <= unit.size() || text.compare(text.size() - unit.size(), unit.size(), unit) != 0) continue;
    std::int64_t count = 0;
    if (!parse_decimal_integer(text.substr(0, text.size() - unit.size()), count)) return 0;
    const double bytes = static_cast<double>(count) * scale;
    return bytes < least || bytes > most ? 0 : bytes;
  }
  return 0;
}

double max_memory(Config& cfg) {
  const std::string text = cfg.text("run.max_memory");
  if (text == "auto") return default_max_memory_bytes();
  if (const double bytes = size_bytes(text, 1024.0 * 1024, 1024.0 * 1024 * 1024 * 1024 * 1024); bytes > 0) return bytes;
  cfg.fail("run.max_memory", std::string("expected ") + kMaxMemoryAllowed);
}

const char* kMaxTraceAllowed = "a size like 64MiB, 4GiB or a count of bytes (1KiB..1024TiB)";

// outputs.max_trace_bytes: the largest waveform a run may write.
double max_trace_bytes(Config& cfg) {
  const std::string text = cfg.text("outputs.max_trace_bytes");
  const double most = 1024.0 * 1024 * 1024 * 1024 * 1024;
  if (const double bytes = size_bytes(text, 1024.0, most); bytes > 0) return bytes;
  std::int64_t count = 0;
  if (parse_decimal_integer(text, count) && count >= 1024 && static_cast<double>(count) <= most)
    return static_cast<double>(count);
  cfg.fail("outputs.max_trace_bytes", std::string("expected ") + kMaxTraceAllowed);
}

std::string size_text(double bytes) {
  char buf[64];
  if (bytes >= 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  else if (bytes >= 1024.0 * 1024) std::snprintf(buf, sizeof buf, "%.0f MiB", std::ceil(bytes / (1024.0 * 1024)));
  else std::snprintf(buf, sizeof buf, "%.0f KiB", std::ceil(bytes / 1024.0));
  return buf;
}

}  // namespace

namespace {

std::string rate_text(double per_second) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g million", per_second / 1e6);
  return buf;
}

std::string duration_text(double seconds) {
  char buf[64];
  if (seconds < 120) std::snprintf(buf, sizeof buf, "about %.0f s", seconds);
  else if (seconds < 7200) std::snprintf(buf, sizeof buf, "about %.0f min", seconds / 60);
  else if (seconds < 2 * 86400) std::snprintf(buf, sizeof buf, "about %.0f h", seconds / 3600);
  else std::snprintf(buf, sizeof buf, "about %.3g days", seconds / 86400);
  return buf;
}

}  // namespace

void check_resources(const ResourceEstimate& estimate, const Prepared& p) {
  if (estimate.memory_bytes > p.max_memory_bytes) {
    const double gib = std::ceil(estimate.memory_bytes / (1 << 30));
    const std::string suggestion = estimate.memory_bytes < (1 << 30)
                                       ? std::to_string(static_cast<long long>(std::ceil(estimate.memory_bytes / (1 << 20))) + 1) + "MiB"
                                       : std::to_string(static_cast<long long>(gib) + 1) + "GiB";
    throw ConfigError("this run needs about " + size_text(estimate.memory_bytes) + " (" + estimate.what +
                      "), over run.max_memory = " + size_text(p.max_memory_bytes) +
                      "; make the network or traffic smaller, or raise run.max_memory (e.g. --set run.max_memory=" + suggestion +
                      ")");
  }
  if (estimate.cycles_lower_bound > static_cast<double>(p.ctx.engine.max_cycles)) {
    char bound[32];
    std::snprintf(bound, sizeof bound, "%.3g", estimate.cycles_lower_bound);
    throw ConfigError("this traffic needs at least " + std::string(bound) + " cycles (" + estimate.cycles_why +
                      "), over run.max_cycles = " + std::to_string(p.ctx.engine.max_cycles) +
                      "; make the network or traffic smaller, or raise run.max_cycles (1..2^50)");
  }
  if (estimate.work > p.max_work) {
    char work[32], limit[32], suggestion[32];
    std::snprintf(work, sizeof work, "%.2g", estimate.work);
    std::snprintf(limit, sizeof limit, "%.2g", p.max_work);
    const double decade = std::pow(10.0, std::floor(std::log10(estimate.work)));  // the estimate rounded up to one digit
    std::snprintf(suggestion, sizeof suggestion, "%.0e", std::ceil(estimate.work / decade) * decade);
    throw ConfigError("this run needs about " + std::string(work) + " block evaluations (" + estimate.work_why +
                      "; " + duration_text(estimate.work / estimate.evaluations_per_second) + " at " +
                      rate_text(estimate.evaluations_per_second) + " a second), over run.max_work = " + limit +
                      "; make the network or traffic smaller, or raise run.max_work (e.g. --set run.max_work=" + suggestion + ")");
  }
}

namespace {

// The keys every network has, each declared once with its range (the spec
// that validates a run is the one `icnsim list` and docs/keys.md show).
const IntParam kSeed{"seed", 1, 0, std::numeric_limits<std::int64_t>::max(),
                     "scenario seed; every random stream derives from it", "", "0..2^63-1"};
const IntParam kMaxCycles{"run.max_cycles", 10000000, 1, std::int64_t{1} << 50,
                          "stop (and fail) if the traffic is not done by then", "", "1..2^50"};
const IntParam kWatchdogCycles{"run.watchdog_cycles", 10000, 1, std::int64_t{1} << 40,
                               "stall watchdog: cycles without progress while traffic is held (a packet or flit moving; "
                               "on the bit-serial tree, a message acknowledged, at least two delivery cycles)",
                               "", "1..2^40"};
const ChoiceParam kScheduler{"run.scheduler", "engine", {"engine", "per_block_methods"},
                             "engine: one SC_METHOD per network evaluates only blocks with work; per_block_methods: "
                             "one SC_METHOD per block every cycle (the simple scheme, for comparison)"};
// At most 64: the engine keeps (threads + 1) x threads wake-up lanes per ring
// slot, 25 MB of empty vectors at 64.
const IntParam kThreads{"run.threads", 1, 1, 64,
                         "threads that evaluate each cycle's network phase; the results are the same for any count "
                         "(docs/performance.md, \"Several threads\"); above 1 on every family, but not with Verilated "
                         "models or a waveform",
                         "", "1..64"};
const RealParam kClockPeriod{"run.clock_period_ns", "1", 0.001, 1e6,
                             "clock period, for waveforms and reports in seconds", "0.001..1e6"};
const RealParam kMaxWork{"run.max_work", "1e9", 1e3, 1e18,
                         "resource guard: a run whose estimated simulated work (block evaluations, about 2 million a "
                         "second on one core; sim.work_estimate in the JSON) exceeds this is refused before it starts",
                         "1e3..1e18"};

// outputs.trace_packet: one id or a list, each a message id (32 bits).
std::vector<std::uint32_t> read_trace_packets(Config& cfg, const ExperimentSetup& setup) {
  const std::string key = "outputs.trace_packet";
  const YAML::Node node = cfg.node(key);
  std::vector<std::int64_t> ids;
  if (node.IsScalar()) ids.push_back(cfg.integer(key, 0, 0xffffffffLL));
  else ids = cfg.integer_list(key, 0, 0xffffffffLL);
  if (ids.empty()) return {};
  if (ids.size() > 64) cfg.fail(key, std::to_string(ids.size()) + " packets; at most 64 (one save file each)");
  if (!setup.follows_packets())
    cfg.fail(key, "this network.type does not follow packets (every shipped family does; a new one overrides "
                  "ExperimentSetup::follows_packets)");
  return {ids.begin(), ids.end()};
}

}  // namespace

// outputs.trace_window: [FROM, TO] in cycles, or [] for the whole run.
void read_trace_window(Config& cfg, RunContext& ctx) {
  const std::string key = "outputs.trace_window";
  const std::vector<std::int64_t> w = cfg.integer_list(key, 0, std::int64_t{1} << 50);
  if (w.empty()) return;
  if (w.size() != 2 || w[0] > w[1]) cfg.fail(key, "expected [FROM, TO] with FROM <= TO (cycles, 0..2^50)");
  ctx.trace_from = static_cast<Cycle>(w[0]);
  ctx.trace_to = static_cast<Cycle>(w[1]);
}

// outputs.trace_routers: block names (r3_2, nic5) or [x, y] / [x, y, z]
// coordinates, read as the mesh and torus name their routers (r<x>_<y>...).
std::vector<std::string> read_trace_routers(Config& cfg) {
  const std::string key = "outputs.trace_routers";
  const YAML::Node node = cfg.node(key);
  if (!node.IsSequence()) cfg.fail(key, "expected a list of router or NIC names (r3_2, nic5) or [x, y] coordinates");
  std::vector<std::string> names;
  auto word = [](const std::string& w) {
    if (w.empty()) return false;
    for (char c : w)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
  };
  for (const YAML::Node& item : node) {
    if (item.IsScalar() && word(item.Scalar())) {
      names.push_back(item.Scalar());
      continue;
    }
    std::string name = "r";
    bool ok = item.IsSequence() && item.size() >= 1 && item.size() <= 4;
    for (std::size_t i = 0; ok && i < item.size(); ++i) {
      const std::string v = item[i].IsScalar() ? item[i].Scalar() : "";
      ok = !v.empty() && v.size() <= 9 && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
      name += (i == 0 ? "" : "_") + v;
    }
    if (!ok) cfg.fail(key, "'" + (item.IsScalar() ? item.Scalar() : std::string("?")) +
                               "' is neither a block name (letters, digits, _) nor [x, y] coordinates");
    names.push_back(name);
  }
  if (names.size() > 4096) cfg.fail(key, std::to_string(names.size()) + " blocks; at most 4096");
  return names;
}

Prepared prepare(Config& cfg) {
  Prepared p;
  cfg.declare(common_params());
  p.ctx.seed = static_cast<std::uint64_t>(kSeed.read(cfg));
  const std::string type = cfg.choice("network.type", kind_names());
  const auto& kinds = network_kinds();
  const auto kind = std::find_if(kinds.begin(), kinds.end(), [&](const NetworkKind& k) { return k.type == type; });
  p.setup = kind->configure(cfg);
  p.ctx.engine.max_cycles = static_cast<Cycle>(kMaxCycles.read(cfg));
  p.ctx.engine.watchdog_cycles = static_cast<Cycle>(kWatchdogCycles.read(cfg));
  p.ctx.engine.per_block_methods = kScheduler.read(cfg) == "per_block_methods";
  p.ctx.engine.threads = static_cast<unsigned>(kThreads.read(cfg));
  const double period_ns = kClockPeriod.read(cfg);
  p.ctx.engine.period = sc_core::sc_time(period_ns, sc_core::SC_NS);
  p.max_memory_bytes = max_memory(cfg);
  p.max_work = kMaxWork.read(cfg);
  p.json_path = cfg.text("outputs.json");
  p.vcd_path = cfg.text("outputs.vcd");
  p.ctx.trace_packets = read_trace_packets(cfg, *p.setup);
  read_trace_window(cfg, p.ctx);
  p.ctx.trace_blocks = read_trace_routers(cfg);
  p.max_trace_bytes = max_trace_bytes(cfg);
  if (p.ctx.engine.threads > 1) {
    const std::string why = p.setup->single_thread_reason();
    if (!why.empty()) cfg.fail("run.threads", why + "; use run.threads=1");
    if (p.ctx.engine.per_block_methods) cfg.fail("run.threads", "values above 1 need run.scheduler=engine");
  }
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
      kSeed.spec(),
      {"network.type", "fattree_packet", join_choices(kind_names()), "the network family"},
      kMaxCycles.spec(),
      kWatchdogCycles.spec(),
      kScheduler.spec(),
      kThreads.spec(),
      kClockPeriod.spec(),
      {"run.max_memory", "auto", kMaxMemoryAllowed,
       "resource guard: a run whose estimated memory exceeds this is refused before it starts"},
      kMaxWork.spec(),
      {"outputs.json", "", "a file path or empty", "write the JSON results here (also --json)"},
      {"outputs.vcd", "", "a file path or empty", "write waveforms here (also --vcd)"},
      {"outputs.trace_window", "[]", "[FROM, TO]: cycles, FROM <= TO", "trace only these cycles (inclusive; default the whole run)"},
      {"outputs.trace_routers", "[]", "a list of router or NIC names (r3_2, nic5) or [x, y] coordinates",
       "trace only the rows of these blocks (default all)"},
      {"outputs.max_trace_bytes", "4GiB", kMaxTraceAllowed,
       "the largest waveform a run may write: a run whose waveform is estimated larger is refused before it starts "
       "(sim.trace_bytes_estimate in the JSON), and one that grows past it stops with exit 2"},
      {"outputs.trace_packet", "[]",
       "a packet id (the flit bus's packet field; on the crossbars, torus and iBT the packet number, on the bit-serial "
       "tree the message's index in the set) or a list of at most 64",
       "beside the waveform, a save file per packet, FILE.packet<ID>.gtkw: the links and buffers it crossed, in path "
       "order (every family: docs/waveforms/README.md)"},
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

namespace {

// The progress line of a long run on a terminal: simulated cycle, the
// fraction of the known work done (where the family knows it) and the rate,
// redrawn in place at most four times a second. A timer thread asks the
// engine for a report; the engine gives it on the simulation thread at the
// end of a cycle, so no model state is read concurrently.
class ProgressLine {
 public:
  ProgressLine(Experiment& experiment, std::ostream& out) : experiment_(experiment), out_(out) {
    CycleEngine& engine = experiment.engine();
    engine.set_progress_report([this](Cycle now) { draw(now); });
    timer_ = std::thread([this, &engine] {
      std::unique_lock<std::mutex> lock(mutex_);
      while (!stop_) {
        if (wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; })) break;
        engine.request_progress();
      }
    });
  }
  ~ProgressLine() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    timer_.join();
    experiment_.engine().set_progress_report(nullptr);
    if (drawn_) out_ << "\r\033[K" << std::flush;  // leave the terminal as it was
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  void draw(Cycle now) {
    const double t = clock_.seconds();
    const double rate = t > last_seconds_ ? static_cast<double>(now - last_cycle_) / (t - last_seconds_) : 0;
    last_seconds_ = t;
    last_cycle_ = now;
    char line[160];
    const double done = experiment_.work_done();
    int n = std::snprintf(line, sizeof line, "icnsim: cycle %llu", static_cast<unsigned long long>(now));
    if (done >= 0) n += std::snprintf(line + n, sizeof line - n, ", %.1f%% of the work done", 100 * done);
    std::snprintf(line + n, sizeof line - n, ", %.3g cycles/s, %.0f s", rate, t);
    out_ << "\r\033[K" << line << std::flush;
    drawn_ = true;
  }

  Experiment& experiment_;
  std::ostream& out_;
  WallClock clock_;
  double last_seconds_ = 0;
  Cycle last_cycle_ = 0;
  bool drawn_ = false;
  std::thread timer_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
};

// Elaborates and simulates the run. The experiment is never destroyed: the
// caller leaves with std::_Exit (SystemC 2.3.4 tears modules down in
// quadratic time: minutes for a million-router network), also when an error
// unwinds.
struct Simulated {
  Experiment* experiment = nullptr;
  double elaboration_seconds = 0;
  double wall_seconds = 0;
  double trace_bytes_estimate = 0;  // with a waveform
};
Simulated simulate(Prepared& p, RunOutputs& outputs, const ResourceEstimate& estimate, bool quiet) {
  Simulated s;
  WaveformTracer* tracer = outputs.open_waveform(p.ctx.engine.period);
  p.ctx.tracer = tracer;
  if (tracer != nullptr) {
    tracer->select_blocks(p.ctx.trace_blocks);               // outputs.trace_routers
    tracer->set_window(p.ctx.trace_from, p.ctx.trace_to);  // outputs.trace_window
  }
  WallClock elaboration;
  s.experiment = p.setup->elaborate("icnsim", p.ctx).release();
  if (tracer != nullptr) {
    // A name that matched nothing would leave a waveform of the cycle counter alone.
    if (const auto missing = tracer->unmatched_blocks(); !missing.empty())
      throw ConfigError("outputs.trace_routers: '" + missing.front() + "' names no traced block of this network " +
                        "(names are the save file's groups: routers such as r3_2, NICs such as nic5, "
                        "replicators such as repl_l1_r0_0)");
    // outputs.max_trace_bytes: refused before the first cycle if the
    // estimate is over; stopped during the run if the file grows past it.
    // A device (/dev/null) takes no disk: not limited.
    std::string why;
    s.trace_bytes_estimate = tracer->estimate_bytes(estimate.trace, p.ctx.trace_from, p.ctx.trace_to, why);
    if (!tracer->to_device() && s.trace_bytes_estimate > p.max_trace_bytes)
      throw ConfigError("outputs.max_trace_bytes = " + size_text(p.max_trace_bytes) + ": the waveform is estimated at " +
                        size_text(s.trace_bytes_estimate) + " (" + why + "); narrow it with outputs.trace_window or " +
                        "outputs.trace_routers, or raise outputs.max_trace_bytes");
    CycleEngine* engine = &s.experiment->engine();
    if (!tracer->to_device()) tracer->set_byte_limit(p.max_trace_bytes, [engine] { engine->stop(); });
    const Cycle from = p.ctx.trace_from, to = p.ctx.trace_to;  // outputs.trace_window
    s.experiment->engine().add_cycle_hook([tracer, from, to](Cycle c) {
      if (c >= from && c <= to) tracer->sample(c);
    });
  }
  s.elaboration_seconds = elaboration.seconds();
  WallClock wall;
  {
    // Only for a person watching: nothing when stderr is not a terminal, so
    // tests, sweeps and redirected runs stay byte-identical.
    std::unique_ptr<ProgressLine> progress;
    if (!quiet && ::isatty(STDERR_FILENO) == 1) progress = std::make_unique<ProgressLine>(*s.experiment, std::cerr);
    sc_core::sc_start();
  }
  s.wall_seconds = wall.seconds();
  return s;
}

int run_checked(const RunRequest& request, std::ostream& out, std::string& failure_json) {
  Config cfg = Config::from_file(request.scenario_path);
  for (const auto& key : request.unsets) cfg.unset(key);
  for (const auto& o : request.overrides) cfg.apply_override(o);
  Prepared p = prepare(cfg);
  // Every output and the resources are checked before anything is elaborated.
  RunOutputs outputs(request, cfg, p, failure_json);
  const ResourceEstimate estimate = p.setup->estimate();
  check_resources(estimate, p);
  const Simulated run = simulate(p, outputs, estimate, request.quiet);
  // The user's limit stopped the run: what it measured is cut short, not wrong.
  if (const std::string limit = outputs.waveform_limit_reached(); !limit.empty()) throw ConfigError(limit);
  Experiment& experiment = *run.experiment;
  const CycleEngine& engine = experiment.engine();

  nlohmann::ordered_json results;
  results["icnsim"] = {{"version", kVersion}};
  results["scenario"] = cfg.resolved();
  experiment.write_results(results);
  results["sim"] = sim_figures(experiment, engine, run.wall_seconds);
  results["sim"]["elaboration_seconds"] = run.elaboration_seconds;
  if (estimate.work > 0) results["sim"]["work_estimate"] = estimate.work;
  if (run.trace_bytes_estimate > 0) results["sim"]["trace_bytes_estimate"] = std::llround(run.trace_bytes_estimate);
  const std::string problem = experiment.problem();
  if (const std::string why = outputs.write(results, problem); !why.empty()) {
    std::cerr << "icnsim: error: " << shown(why, 300) << (problem.empty() ? "" : "; and the run failed: " + shown(problem, 300)) << '\n';
    return problem.empty() ? 2 : 1;
  }
  if (!request.quiet) outputs.print_summary(out, experiment, engine.outcome().last_cycle, run.wall_seconds);
  if (const int sig = CycleEngine::interrupted_by(); sig != 0) {
    // One line; the JSON (status "interrupted") holds what was measured so far.
    std::cerr << "icnsim: " << (engine.outcome().status == RunOutcome::Status::kInterrupted ? problem : "interrupted")
              << (outputs.json_path().empty() ? "" : "; results so far in " + outputs.json_path()) << '\n';
    return 128 + sig;
  }
  if (!problem.empty()) std::cerr << "icnsim: run failed: " << problem << '\n';
  return problem.empty() ? 0 : 1;
}

}  // namespace

int run_scenario(const RunRequest& request, std::ostream& out) {
  // A --json from the command line is checked first, so that any later
  // failure, bad input included, leaves a results file that says it failed.
  std::string failure_json;
  if (!request.json_path.empty()) {
    check_output_path("--json", request.json_path);
    // Never write even a failure report over the scenario itself.
    check_distinct_files({{"--json", request.json_path}}, {{"scenario file", request.scenario_path}});
    failure_json = request.json_path;
  }
  try {
    return run_checked(request, out, failure_json);
  } catch (const ConfigError& e) {
    RunOutputs::write_failure_json(failure_json, e.what(), 2);
    throw;
  } catch (const std::bad_alloc&) {
    RunOutputs::write_failure_json(failure_json, "out of memory", 2);
    throw;
  } catch (const OutputError& e) {
    // A side file (a waveform's save file) could not be written.
    RunOutputs::write_failure_json(failure_json, e.what(), 2);
    throw ConfigError(e.what());
  }
}

namespace {

// A Markdown table cell: pipes escaped, never empty.
std::string md_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out.empty() ? "\"\"" : out;
}

void markdown_keys(std::ostream& out, const std::vector<ParamSpec>& specs) {
  out << "| key | default | allowed | applies only to | meaning |\n|---|---|---|---|---|\n";
  for (const auto& s : specs)
    out << "| `" << s.key << "` | " << md_cell(s.default_yaml) << " | " << md_cell(s.allowed) << " | "
        << (s.applies.empty() ? std::string("") : md_cell(s.applies)) << " | " << md_cell(s.help) << " |\n";
}

}  // namespace

void list_kinds_markdown(std::ostream& out) {
  out << "# Scenario keys\n\n"
      << "Generated by `icnsim list --markdown` from the keys each family declares (the same\n"
      << "specs validate every run); `Keys.ReferenceIsCurrent` fails when this page is stale.\n"
      << "A key given where it does not apply is refused with the reason.\n\n"
      << "## Every network\n\n";
  markdown_keys(out, common_params());
  for (const auto& kind : network_kinds()) {
    out << "\n## network.type=" << kind.type << "\n\n" << kind.summary << "\n\n";
    std::vector<ParamSpec> specs;
    for (const auto& group : kind.params())
      for (const auto& s : group.params) specs.push_back(s);
    markdown_keys(out, specs);
  }
}

void list_kinds(std::ostream& out) {
  auto key_line = [&out](const ParamSpec& s) {
    out << "  " << std::left << std::setw(26) << s.key << " default " << std::setw(10)
        << (s.default_yaml.empty() ? "\"\"" : s.default_yaml) << " " << s.allowed << "\n      " << s.help << '\n';
    if (!s.applies.empty()) out << "      (applies only to " << s.applies << ")\n";
  };
  out << "Scenario keys common to every network:\n";
  for (const auto& s : common_params()) key_line(s);
  for (const auto& kind : network_kinds()) {
    out << "\nnetwork.type=" << kind.type << ": " << kind.summary << '\n';
    for (const auto& group : kind.params())
      for (const auto& s : group.params) key_line(s);
  }
}

}  // namespace icn
