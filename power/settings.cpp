// The power keys read and checked (power/keys.hpp).
#include "power/keys.hpp"

#include <string>

namespace icn::power {

std::vector<ParamSpec> power_params() {
  return {kTech.spec(), kClockGhz.spec(), kVdd.spec(), kFlitBits.spec(), kLinkMm.spec()};
}

PowerSettings read_power(Config& cfg) {
  cfg.declare(power_params());
  PowerSettings p;
  const YAML::Node tech = kTech.read(cfg);
  if (!tech.IsScalar()) cfg.fail(kTech.key, "expected a node or a file name (" + kTech.allowed + ")");
  try {
    p.tech = load_technology(tech.Scalar());
  } catch (const ConfigError& e) {
    // load_technology names the key itself when the value is neither a node nor a file.
    std::string why = e.what();
    if (why.rfind(kTech.key + " = ", 0) == 0 && why.find(": ") != std::string::npos) why = why.substr(why.find(": ") + 2);
    cfg.fail(kTech.key, why);
  }
  p.clock_ghz = kClockGhz.read(cfg);
  p.vdd = kVdd.read(cfg);
  if (p.vdd != 0 && p.vdd < 0.1) cfg.fail(kVdd.key, "expected 0 (the node's) or 0.1..5 V");
  p.flit_bits = static_cast<unsigned>(kFlitBits.read(cfg));
  p.link_mm = kLinkMm.read(cfg);
  return p;
}

}  // namespace icn::power
