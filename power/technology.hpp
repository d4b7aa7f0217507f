// Technology parameters for the energy and area model (docs/energy.md).
//
// The model follows ORION 2.0 (Kahng, Li, Peh, Samadi, DATE 2009) as its
// public source implements it (gem5, src/mem/ruby/network/orion/, the
// TechParameter class by Bin Li and Kambiz Samadi). ORION 2.0 ships 90, 65, 45
// and 32 nm; icnsim carries 45 nm and 32 nm with normal-Vt (NVT) transistors
// and global-layer link wires, each value cited in technology.cpp and in the
// table of docs/energy.md.
//
// A Technology is either looked up by node name ("45nm", "32nm") or loaded from
// a small parameter file (key = value lines; `base = <node>` gives the values
// the file does not override). A file is untrusted input: any problem is one
// ConfigError line naming it and the allowed keys.
#pragma once

#include <string>
#include <vector>

namespace icn::power {

struct Technology {
  std::string name;          // "45nm", "32nm" or the parameter file's path
  double node_nm = 0;
  double vdd = 0;            // V: the node's nominal supply (power.vdd overrides it)

  // Devices (CACTI-style capacitances that ORION 2.0 imports; F per um of gate
  // width, F/um^2 of area or F/um of perimeter) and its scaling factors.
  double leff_um = 0;        // effective channel length
  double c_gate = 0;         // F/um^2 (gate cap = width * leff * c_gate)
  double c_polywire = 0;     // F/um
  double c_ndiff_area = 0, c_pdiff_area = 0;   // F/um^2
  double c_ndiff_side = 0, c_pdiff_side = 0;   // F/um
  double c_n_overlap = 0, c_p_overlap = 0;     // F/um
  double scale_t = 1;        // transistor capacitance scale from 65 nm
  double scale_s = 1;        // leakage scale from 65 nm
  double r_p_on = 0;         // ohm*um: PMOS on-resistance (driver sizing)
  double vs_inv = 0;         // switching voltage of an inverter, fraction of Vdd
  double min_driver_um = 0;  // smallest driver PMOS (4 * LSCALE)
  double max_driver_um = 0;  // largest driver PMOS (Wworddrivemax)

  // Transistor widths, um.
  double w_nor_n = 0, w_nor_p = 0;             // decoder NOR (arbiters, flip-flops)
  double w_inv_n = 0, w_inv_p = 0;             // decoder inverter
  double w_dff = 0;                            // flip-flop (leakage width)
  double w_tri_nand_n = 0, w_tri_nand_p = 0;   // tri-state driver's NAND
  double w_tri_nor_n = 0, w_tri_nor_p = 0;     // tri-state driver's NOR
  double w_out_n = 0, w_out_p = 0;             // output driver

  // Router wiring.
  double c_metal = 0;        // F/um: local metal (Cbitmetal / 16)
  double c_metal_3x = 0;     // F/um: metal at three times minimum spacing (crossbar lines)
  double xbar_cell_w_um = 0; // crossbar cell width per bit
  double xbar_cell_h_um = 0; // crossbar cell height per bit
  double c_clock = 0;        // F: clock load of one pipeline-register bit

  // Leakage currents per um of width, A/um, by input state (00, 01, 10, 11).
  double i_nmos = 0, i_pmos = 0;
  double i_nand2[4] = {0, 0, 0, 0};
  double i_nor2[4] = {0, 0, 0, 0};
  double i_dff = 0;

  // Standard-cell areas, um^2.
  double area_nor = 0, area_inv = 0, area_dff = 0;

  // Link wires (global layer, double width and double spacing) and repeaters.
  double wire_width_m = 0, wire_spacing_m = 0, wire_thickness_m = 0;
  double wire_barrier_m = 0, wire_dielectric_m = 0, wire_k = 0;
  double rep_r_ohm = 0;      // repeater drive resistance (minimum size)
  double rep_c_in = 0;       // F: repeater input capacitance (minimum size)
  double rep_ioff_n = 0, rep_ioff_p = 0;  // A: repeater off currents (minimum size)
};

// The nodes carried: "45nm", "32nm".
const std::vector<std::string>& technology_names();

// A node by name; throws ConfigError naming the nodes if there is none.
Technology technology(const std::string& name);

// The keys a parameter file may give ("base" and every number above), for
// error messages and docs.
std::vector<std::string> technology_file_keys();

// A node name, or else a parameter file. Throws ConfigError (one line).
Technology load_technology(const std::string& name_or_path);

// The same from a file's text; `origin` names it in errors.
Technology parse_technology(const std::string& text, const std::string& origin);

}  // namespace icn::power
