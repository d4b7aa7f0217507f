// An 8x8 virtual-channel mesh inside your own sc_main, built from an
// installed icnsim (docs/library.md):
//
//   cmake -S . -B build -DCMAKE_PREFIX_PATH=/where/icnsim/is/installed
//   cmake --build build && build/mesh_in_your_sc_main [key=value ...]
//
// The network is configured with the scenario keys (`icnsim list`), here
// given as text; the arguments override them as `icnsim run --set` does.
// It prints the network's packet latency and writes the JSON results
// (mesh_in_your_sc_main.json) and its scenario (mesh_in_your_sc_main.yaml):
// `icnsim run mesh_in_your_sc_main.yaml --set key=value ... --json r.json`
// gives the same results, which tests/install/install_test.sh checks.
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <systemc>

#include <icnsim/models/config.hpp>
#include <icnsim/testbench/driver.hpp>

namespace {

const char* const kMesh = R"(
seed: 1
network: {type: vc, topology: mesh, k: 8, n: 2}
preset: booksim
traffic: {pattern: uniform, injection_rate: 0.1}
)";

}  // namespace

int sc_main(int argc, char* argv[]) {
  try {
    icn::Config cfg = icn::Config::from_text(kMesh, "mesh_in_your_sc_main");
    for (int i = 1; i < argc; ++i) cfg.apply_override(argv[i]);
    icn::Prepared p = icn::prepare(cfg);  // validates every key: icn::ConfigError names a bad one
    std::unique_ptr<icn::Experiment> mesh = p.setup->elaborate("mesh", p.ctx);
    sc_core::sc_start();  // runs until the experiment has measured what it was asked

    nlohmann::ordered_json results;
    results["scenario"] = cfg.resolved();
    mesh->write_results(results);
    std::ofstream("mesh_in_your_sc_main.json") << results.dump(2) << "\n";
    std::ofstream("mesh_in_your_sc_main.yaml") << kMesh;
    const auto& latency = results["result"]["latency"]["packet"];
    std::cout << "8x8 mesh: " << latency["count"] << " packets, mean latency " << latency["mean"] << " cycles"
              << (mesh->problem().empty() ? "" : " (" + mesh->problem() + ")") << "\n";
    std::cout.flush();
    std::_Exit(mesh->problem().empty() ? 0 : 1);  // one elaboration per process: no teardown
  } catch (const std::exception& e) {
    std::cerr << "mesh_in_your_sc_main: " << e.what() << "\n";
    return 2;
  }
}
