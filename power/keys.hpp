// The power model's scenario keys, declared here for the session that wires
// them into the families (docs/energy.md, "What is not done yet"). Nothing
// reads them yet: no family declares them, so a scenario giving one is still
// refused as an unknown key.
#pragma once

#include "models/params.hpp"
#include "power/technology.hpp"

namespace icn::power {

// A node of power/technology.cpp ("45nm", "32nm") or a parameter file of
// `key = value` lines (`base = <node>` first; technology_file_keys()).
// Default 45nm: the older of the two nodes, the one ORION 2.0 was validated
// nearest to (its validation chips are 65 nm).
inline const RawParam kTech{
    "power.tech", "45nm", "45nm|32nm, or a file of key = value lines (base = 45nm|32nm, then any technology key)",
    "technology of the energy and area model (ORION 2.0, docs/energy.md)"};

// Default 1 GHz: ORION 2.0's shipped configuration (gem5 orion/router.cfg,
// FREQUENCY = 1.0e9). It sizes the crossbar's input drivers and turns cycles
// into seconds for leakage energy.
inline const RealParam kClockGhz{
    "power.clock_ghz", "1.0", 0.01, 100.0, "router clock for the energy model, GHz", "0.01..100"};

// Default 0: the node's own supply (1.0 V at 45 nm, 0.9 V at 32 nm).
inline const RealParam kVdd{
    "power.vdd", "0", 0.0, 5.0, "supply voltage, V; 0 = the node's (45nm: 1.0, 32nm: 0.9)", "0 or 0.1..5"};

}  // namespace icn::power
