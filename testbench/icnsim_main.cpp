// icnsim: cycle-level simulation of interconnection-network hardware.
//
//   icnsim                      the built-in default scenario (a table)
//   icnsim run SCENARIO.yaml [--set key=value ...] [--json FILE] [--vcd FILE]
//   icnsim list                 network types, collectives, their parameters
//   icnsim sweep SWEEP.yaml ... a parameter sweep (scripts/sweep, in Python)
//
// Exit codes: 0 ok; 1 the run failed its checks (stall, verification,
// conservation); 2 bad input (one line on stderr names the problem).
#include <systemc>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <unistd.h>
#include <vector>

#include "models/config.hpp"
#include "models/engine.hpp"
#include "testbench/driver.hpp"

namespace {

// Large module trees are slow to destroy in SystemC 2.3.4 (quadratic); the
// results are written by now, so leave without tearing the model down.
[[noreturn]] void leave(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

// Freed when memory runs out, so the one-line message can still be printed.
char* emergency_reserve = nullptr;

[[noreturn]] void fail(const std::string& message) {
  delete[] emergency_reserve;
  emergency_reserve = nullptr;
  std::cerr << "icnsim: error: " << icn::shown(message, 2000) << '\n';
  leave(2);
}

[[noreturn]] void out_of_memory() {
  fail("out of memory; make the network or traffic smaller, or lower run.max_memory so the resource guard refuses "
       "such runs before they start");
}

// `icnsim sweep ...` hands its arguments to the sweep orchestrator (a Python
// script: it only starts `icnsim run` processes), telling it which icnsim to run.
[[noreturn]] void exec_sweep(int argc, char* argv[]) {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  const std::string binary = n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string(argv[0]);
  // $ICNSIM_SWEEP_SCRIPT, else an installed icnsim's own copy
  // (PREFIX/bin/icnsim -> PREFIX/share/icnsim/scripts/sweep), else the source tree's.
  const char* env = std::getenv("ICNSIM_SWEEP_SCRIPT");
  std::string script = env != nullptr ? env : ICNSIM_SWEEP_SCRIPT;
  const std::string installed = binary.substr(0, binary.find_last_of('/') + 1) + "../share/icnsim/scripts/sweep";
  if (env == nullptr && access(installed.c_str(), X_OK) == 0) script = installed;
  std::vector<std::string> args = {script, "--icnsim", binary};
  for (int i = 2; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> c_args;
  for (auto& a : args) c_args.push_back(a.data());
  c_args.push_back(nullptr);
  execv(script.c_str(), c_args.data());
  std::cerr << "icnsim: error: cannot start the sweep script " << script << " (it needs /usr/bin/python3)\n";
  std::_Exit(2);
}

extern "C" void on_signal(int sig) {
  if (icn::CycleEngine::interrupted_by() != 0) _exit(128 + sig);
  icn::CycleEngine::interrupt(sig);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  if (argc >= 2 && std::string(argv[1]) == "sweep") exec_sweep(argc, argv);
  // Kernel errors come back to us as exceptions (one line on stderr), never as
  // SystemC's multi-line report on stdout.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
  sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_THROW);
  emergency_reserve = new char[1 << 20];
  CLI::App app{"icnsim: cycle-level SystemC/TLM-2.0 models of interconnection networks"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("icnsim ") + icn::kVersion);
  icn::RunRequest request;
  auto* run = app.add_subcommand("run", "run a scenario file");
  run->add_option("scenario", request.scenario_path, "scenario YAML file")->required();
  run->add_option("--set", request.overrides, "override a scenario key: key=value (repeatable)");
  run->add_option("--unset", request.unsets,
                  "remove a key the scenario gives, so the family's default applies or a key that does not apply "
                  "goes away (repeatable; applied before --set)");
  run->add_option("--json", request.json_path, "write JSON results to FILE");
  run->add_option("--vcd", request.vcd_path,
                  "write the waveforms to FILE: FILE.fst selects GTKWave's compressed FST, any other name a VCD; "
                  "a save file FILE.gtkw is written beside it (gtkwave FILE.vcd FILE.gtkw)");
  run->add_flag("--quiet", request.quiet, "print nothing but errors");
  auto* list = app.add_subcommand("list", "list network types, traffic and their parameters");
  bool markdown = false;
  list->add_flag("--markdown", markdown, "print the key reference as Markdown (docs/keys.md)");
  app.add_subcommand("sweep", "run a parameter sweep: icnsim sweep SWEEP.yaml [--backend local|slurm] "
                              "[--jobs N] [--out DIR] [--dry-run] (docs/sweeps.md)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    leave(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    leave(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    leave(app.exit(e));
  } catch (const CLI::ParseError& e) {
    // Arguments are echoed escaped: raw control bytes would reach the terminal.
    std::cerr << "icnsim: error: " << icn::shown(e.what(), 300) << " (see icnsim --help)\n";
    leave(2);
  }
  // SIGINT / SIGTERM end the run at the end of the current cycle: the results
  // so far are written (status "interrupted"), temporary files are put away,
  // and icnsim exits with 128 + the signal. A second signal leaves at once.
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  try {
    if (list->parsed()) {
      if (markdown) icn::list_kinds_markdown(std::cout);
      else icn::list_kinds(std::cout);
      leave(0);
    }
    if (run->parsed()) leave(icn::run_scenario(request, std::cout));
    leave(icn::run_default_table(std::cout));
  } catch (const icn::ConfigError& e) {
    fail(e.what());
  } catch (const std::bad_alloc&) {
    out_of_memory();
  } catch (const sc_core::sc_report& r) {
    // An exception inside a SystemC process reaches us as a report.
    const std::string what = r.what();
    if (what.find("bad_alloc") != std::string::npos) out_of_memory();
    fail(std::string("internal error in the simulation kernel: ") + what);
  } catch (const std::exception& e) {
    fail(std::string("internal error: ") + e.what());
  }
  return 0;
}

// Our own entry point, so the SystemC banner stays off stdout (the kernel reads
// this variable when it starts, before sc_main).
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
