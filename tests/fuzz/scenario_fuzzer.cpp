// libFuzzer target (issue 13): the scenario parser, --set handling and every
// family's validation and resource estimate, i.e. everything icnsim does with
// its input before it elaborates a model. Built by -DICNSIM_FUZZ=ON with
// clang (scripts/fuzz runs it for a bounded time under ASan/UBSan).
//
// Input: scenario YAML text, optionally followed by a line "%%" and one
// --set assignment per line.
//
// Contract checked beyond "no crash, no leak, no UB, no hang": bad input is a
// ConfigError whose message, as icnsim prints it, is one line.
#include <systemc>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "models/config.hpp"
#include "testbench/driver.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::string scenario = input, sets;
  if (const auto split = input.find("\n%%\n"); split != std::string::npos) {
    scenario = input.substr(0, split);
    sets = input.substr(split + 4);
  }
  try {
    icn::Config cfg = icn::Config::from_text(scenario, "fuzz.yaml");
    std::size_t start = 0;
    while (start < sets.size()) {
      std::size_t end = sets.find('\n', start);
      if (end == std::string::npos) end = sets.size();
      cfg.apply_override(sets.substr(start, end - start));
      start = end + 1;
    }
    icn::Prepared p = icn::prepare(cfg);
    const icn::ResourceEstimate e = p.setup->estimate();
    if (!(e.memory_bytes >= 0) || !(e.cycles_lower_bound >= 0)) std::abort();
    (void)cfg.resolved().dump();
  } catch (const icn::ConfigError& e) {
    const std::string line = icn::shown(e.what(), 2000);
    if (line.find('\n') != std::string::npos || line.empty()) std::abort();
  }
  return 0;
}

// libsystemc provides main() and calls sc_main; libFuzzer's main() wins, but
// the library still needs the symbol.
int sc_main(int, char**) { return 0; }
