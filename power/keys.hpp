// The power model's scenario keys (docs/energy.md, "Keys"). A family that
// reports energy declares them with power_params() and reads them with
// read_power() (power/settings.cpp); the VC family does
// (testbench/vc_experiment.cpp).
#pragma once

#include <vector>

#include "models/params.hpp"
#include "power/technology.hpp"

namespace icn::power {

// A node of power/technology.cpp ("45nm", "32nm") or a parameter file of
// `key = value` lines (`base = <node>` first; technology_file_keys()).
// The allowed text starts with "a file" so that the run's outputs may not
// overwrite it (Config::input_file_keys). Default 45nm: the older of the two nodes, the one ORION 2.0 was validated
// nearest to (its validation chips are 65 nm).
inline const RawParam kTech{
    "power.tech", "45nm", "a file of key = value lines (base = 45nm|32nm, then any technology key), or 45nm|32nm",
    "technology of the energy and area model (ORION 2.0, docs/energy.md)"};

// Default 1 GHz: ORION 2.0's shipped configuration (gem5 orion/router.cfg,
// FREQUENCY = 1.0e9). It sizes the crossbar's input drivers and turns cycles
// into seconds for leakage energy.
inline const RealParam kClockGhz{
    "power.clock_ghz", "1.0", 0.01, 100.0, "router clock for the energy model, GHz", "0.01..100"};

// Default 0: the node's own supply (1.0 V at 45 nm, 0.9 V at 32 nm).
inline const RealParam kVdd{
    "power.vdd", "0", 0.0, 5.0, "supply voltage, V; 0 = the node's (45nm: 1.0, 32nm: 0.9)", "0 or 0.1..5"};

// The width of a flit and of a link, bits. icnsim's timing does not depend on
// it (a flit is one link transfer whatever its width), so it is the energy
// model's key. Default 64: the RouterShape of docs/energy.md.
inline const IntParam kFlitBits{"power.flit_bits", 64, 1, 4096,
                                "flit and link width for the energy and area model, bits"};

// Default 1 mm: a link between two neighbouring routers spans one tile of
// about 1 mm (every router-to-router link is priced at this length; the NICs'
// links are tile-local and not priced).
inline const RealParam kLinkMm{"power.link_mm", "1.0", 0.0, 100.0,
                               "length of every router-to-router link for the energy and area model, mm", "0..100"};

// What the keys say, read and checked.
struct PowerSettings {
  Technology tech = technology("45nm");
  double clock_ghz = 1.0;
  double vdd = 0;  // 0: the node's
  unsigned flit_bits = 64;
  double link_mm = 1.0;
};

// The keys, for Config::declare and `icnsim list`.
std::vector<ParamSpec> power_params();

// Reads and checks them: any problem is one ConfigError line.
PowerSettings read_power(Config& cfg);

}  // namespace icn::power
