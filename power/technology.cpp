// Technology parameters; every value is cited. "TP" below is ORION 2.0's
// TechParameter (gem5, src/mem/ruby/network/orion/TechParameter.cc,
// init_tech_32_90(), normal-Vt (NVT) rows, the "<= 65 nm" branch where a
// value is shared by 65, 45 and 32 nm and is scaled by the node's SCALE_*
// factors there). docs/energy.md has the same table.
#include "power/technology.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "models/config.hpp"

namespace icn::power {
namespace {

// Shared by 45 and 32 nm (TP, NVT, "<= 65 nm").
Technology common_nvt() {
  Technology t;
  t.leff_um = 0.0696;            // TP m_Leff (65 nm branch)
  t.c_gate = 3.9664e-14;         // TP m_Cgate, NVT
  t.c_polywire = 1.832e-15;      // TP m_Cpolywire
  t.c_ndiff_area = 2.9535e-15;   // TP m_Cndiffarea, NVT
  t.c_pdiff_area = 3.3306e-15;   // TP m_Cpdiffarea, NVT
  t.c_ndiff_side = 2.55e-16;     // TP m_Cndiffside, NVT
  t.c_pdiff_side = 1.2994e-15;   // TP m_Cpdiffside, NVT
  t.c_n_overlap = 1.27e-16;      // TP m_Cnoverlap, NVT
  t.c_p_overlap = 1.21e-16;      // TP m_Cpoverlap, NVT
  t.r_p_on = 5791;               // TP m_Rpchannelon, NVT (65 nm branch)
  t.vs_inv = 0.456;              // TP m_vs_inv
  t.min_driver_um = 4 * 0.087;   // TP calc_driver_psize: 4 * m_LSCALE (0.087)
  t.max_driver_um = 9.225;       // TP m_Wworddrivemax, NVT
  t.w_nor_n = 1.20;              // TP m_WdecNORn, NVT
  t.w_nor_p = 2.62;              // TP m_WdecNORp
  t.w_inv_n = 1.46;              // TP m_Wdecinvn
  t.w_inv_p = 3.93;              // TP m_Wdecinvp
  t.w_dff = 4.6;                 // TP m_Wdff
  t.w_tri_nand_n = 2.214;        // TP m_Woutdrvnandn
  t.w_tri_nand_p = 0.923;        // TP m_Woutdrvnandp
  t.w_tri_nor_n = 0.554;         // TP m_Woutdrvnorn
  t.w_tri_nor_p = 3.69;          // TP m_Woutdrvnorp
  t.w_out_n = 4.428;             // TP m_Woutdrivern
  t.w_out_p = 7.380;             // TP m_Woutdriverp
  t.c_metal_3x = 0.08689e-15;    // TP m_CC3metal (not scaled below 65 nm in TP)
  t.i_nmos = 115.1e-9;           // TP m_NMOS_TAB[0], NVT
  t.i_pmos = 304.8e-9;           // TP m_PMOS_TAB[0]
  const double nand2[4] = {111.4e-9, 187.2e-9, 230.7e-9, 306.9e-9};  // TP m_NAND2_TAB
  const double nor2[4] = {289.7e-9, 165.7e-9, 236.9e-9, 141.4e-9};   // TP m_NOR2_TAB
  for (int i = 0; i < 4; ++i) {
    t.i_nand2[i] = nand2[i];
    t.i_nor2[i] = nor2[i];
  }
  t.i_dff = 400.3e-9;            // TP m_DFF_TAB[0]
  return t;
}

// Values TP derives from its 65 nm figures by the node's scale factors.
void scale(Technology& t, double scale_t, double scale_m, double scale_s, double scale_crs) {
  t.scale_t = scale_t;
  t.scale_s = scale_s;
  t.c_metal = 3.27e-15 * scale_m / 16;       // TP m_Cmetal = m_Cbitmetal / 16, m_Cbitmetal = 3.27e-15 * SCALE_M
  t.xbar_cell_w_um = 2.06 * scale_crs;       // TP m_CrsbarCellWidth
  t.xbar_cell_h_um = 2.06 * scale_crs;       // TP m_CrsbarCellHeight
  t.area_nor = 2.52 * scale_t;               // TP m_AreaNOR
  t.area_inv = 1.44 * scale_t;               // TP m_AreaINV
  t.area_dff = 8.28 * scale_t;               // TP m_AreaDFF
}

Technology node45() {
  Technology t = common_nvt();
  t.name = "45nm";
  t.node_nm = 45;
  // 1.0 V: ORION 2.0's shipped configuration (gem5 orion/router.cfg, VDD = 1.0)
  // and ITRS 2007's high-performance supply for this node.
  t.vdd = 1.0;
  scale(t, 0.8233582, 0.6442105, 2.1860558, 0.7);  // TP 45 nm NVT: SCALE_T, SCALE_M, SCALE_S, SCALE_Crs
  t.c_clock = 1.5e-14;           // TP m_ClockCap, 45 nm NVT
  t.wire_width_m = 67.5e-9;      // TP 45 nm GLOBAL m_WireMinWidth
  t.wire_spacing_m = 67.5e-9;    // m_WireMinSpacing
  t.wire_thickness_m = 155.25e-9;  // m_WireMetalThickness
  t.wire_barrier_m = 3.3e-9;     // m_WireBarrierThickness
  t.wire_dielectric_m = 141.75e-9;  // m_WireDielectricThickness
  t.wire_k = 2.0;                // m_WireDielectricConstant
  t.rep_r_ohm = 7.3228e3;        // TP 45 nm m_BufferDriveResistance
  t.rep_c_in = 2.5e-15;          // m_BufferInputCapacitance, NVT
  t.rep_ioff_p = 382.3e-9;       // m_BufferPMOSOffCurrent, NVT
  t.rep_ioff_n = 195.5e-9;       // m_BufferNMOSOffCurrent, NVT
  return t;
}

Technology node32() {
  Technology t = common_nvt();
  t.name = "32nm";
  t.node_nm = 32;
  // 0.9 V: ITRS 2007's high-performance 32 nm library as BookSim 2 ships it
  // (src/power/techfile.txt, Vdd = 0.9).
  t.vdd = 0.9;
  scale(t, 0.6352095, 0.4863158, 3.1319851, 0.49);  // TP 32 nm NVT
  t.c_clock = 1.44e-14;          // TP m_ClockCap, 32 nm NVT
  t.wire_width_m = 48e-9;        // TP 32 nm GLOBAL
  t.wire_spacing_m = 48e-9;
  t.wire_thickness_m = 120e-9;
  t.wire_barrier_m = 2.4e-9;
  t.wire_dielectric_m = 110.4e-9;
  t.wire_k = 1.9;
  t.rep_r_ohm = 10.4611e3;       // TP 32 nm m_BufferDriveResistance
  t.rep_c_in = 2.4e-15;          // NVT
  t.rep_ioff_p = 792.4e-9;
  t.rep_ioff_n = 405.1e-9;
  return t;
}

using Field = double& (*)(Technology&);
struct Key {
  const char* name;
  Field at;
};

// Every number a parameter file may set, by the member's name.
const std::vector<Key>& keys() {
  static const std::vector<Key> k = {
      {"vdd", [](Technology& t) -> double& { return t.vdd; }},
      {"leff_um", [](Technology& t) -> double& { return t.leff_um; }},
      {"c_gate", [](Technology& t) -> double& { return t.c_gate; }},
      {"c_polywire", [](Technology& t) -> double& { return t.c_polywire; }},
      {"c_ndiff_area", [](Technology& t) -> double& { return t.c_ndiff_area; }},
      {"c_pdiff_area", [](Technology& t) -> double& { return t.c_pdiff_area; }},
      {"c_ndiff_side", [](Technology& t) -> double& { return t.c_ndiff_side; }},
      {"c_pdiff_side", [](Technology& t) -> double& { return t.c_pdiff_side; }},
      {"c_n_overlap", [](Technology& t) -> double& { return t.c_n_overlap; }},
      {"c_p_overlap", [](Technology& t) -> double& { return t.c_p_overlap; }},
      {"scale_t", [](Technology& t) -> double& { return t.scale_t; }},
      {"scale_s", [](Technology& t) -> double& { return t.scale_s; }},
      {"r_p_on", [](Technology& t) -> double& { return t.r_p_on; }},
      {"vs_inv", [](Technology& t) -> double& { return t.vs_inv; }},
      {"min_driver_um", [](Technology& t) -> double& { return t.min_driver_um; }},
      {"max_driver_um", [](Technology& t) -> double& { return t.max_driver_um; }},
      {"w_nor_n", [](Technology& t) -> double& { return t.w_nor_n; }},
      {"w_nor_p", [](Technology& t) -> double& { return t.w_nor_p; }},
      {"w_inv_n", [](Technology& t) -> double& { return t.w_inv_n; }},
      {"w_inv_p", [](Technology& t) -> double& { return t.w_inv_p; }},
      {"w_dff", [](Technology& t) -> double& { return t.w_dff; }},
      {"w_tri_nand_n", [](Technology& t) -> double& { return t.w_tri_nand_n; }},
      {"w_tri_nand_p", [](Technology& t) -> double& { return t.w_tri_nand_p; }},
      {"w_tri_nor_n", [](Technology& t) -> double& { return t.w_tri_nor_n; }},
      {"w_tri_nor_p", [](Technology& t) -> double& { return t.w_tri_nor_p; }},
      {"w_out_n", [](Technology& t) -> double& { return t.w_out_n; }},
      {"w_out_p", [](Technology& t) -> double& { return t.w_out_p; }},
      {"c_metal", [](Technology& t) -> double& { return t.c_metal; }},
      {"c_metal_3x", [](Technology& t) -> double& { return t.c_metal_3x; }},
      {"xbar_cell_w_um", [](Technology& t) -> double& { return t.xbar_cell_w_um; }},
      {"xbar_cell_h_um", [](Technology& t) -> double& { return t.xbar_cell_h_um; }},
      {"c_clock", [](Technology& t) -> double& { return t.c_clock; }},
      {"i_nmos", [](Technology& t) -> double& { return t.i_nmos; }},
      {"i_pmos", [](Technology& t) -> double& { return t.i_pmos; }},
      {"i_nand2_00", [](Technology& t) -> double& { return t.i_nand2[0]; }},
      {"i_nand2_01", [](Technology& t) -> double& { return t.i_nand2[1]; }},
      {"i_nand2_10", [](Technology& t) -> double& { return t.i_nand2[2]; }},
      {"i_nand2_11", [](Technology& t) -> double& { return t.i_nand2[3]; }},
      {"i_nor2_00", [](Technology& t) -> double& { return t.i_nor2[0]; }},
      {"i_nor2_01", [](Technology& t) -> double& { return t.i_nor2[1]; }},
      {"i_nor2_10", [](Technology& t) -> double& { return t.i_nor2[2]; }},
      {"i_nor2_11", [](Technology& t) -> double& { return t.i_nor2[3]; }},
      {"i_dff", [](Technology& t) -> double& { return t.i_dff; }},
      {"area_nor", [](Technology& t) -> double& { return t.area_nor; }},
      {"area_inv", [](Technology& t) -> double& { return t.area_inv; }},
      {"area_dff", [](Technology& t) -> double& { return t.area_dff; }},
      {"wire_width_m", [](Technology& t) -> double& { return t.wire_width_m; }},
      {"wire_spacing_m", [](Technology& t) -> double& { return t.wire_spacing_m; }},
      {"wire_thickness_m", [](Technology& t) -> double& { return t.wire_thickness_m; }},
      {"wire_barrier_m", [](Technology& t) -> double& { return t.wire_barrier_m; }},
      {"wire_dielectric_m", [](Technology& t) -> double& { return t.wire_dielectric_m; }},
      {"wire_k", [](Technology& t) -> double& { return t.wire_k; }},
      {"rep_r_ohm", [](Technology& t) -> double& { return t.rep_r_ohm; }},
      {"rep_c_in", [](Technology& t) -> double& { return t.rep_c_in; }},
      {"rep_ioff_n", [](Technology& t) -> double& { return t.rep_ioff_n; }},
      {"rep_ioff_p", [](Technology& t) -> double& { return t.rep_ioff_p; }},
  };
  return k;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : ", ") + w;
  return s;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

constexpr std::size_t kMaxFileBytes = 64 * 1024;

}  // namespace

const std::vector<std::string>& technology_names() {
  static const std::vector<std::string> names = {"45nm", "32nm"};
  return names;
}

Technology technology(const std::string& name) {
  if (name == "45nm") return node45();
  if (name == "32nm") return node32();
  throw ConfigError("technology " + shown(name) + ": no such node (nodes: " + joined(technology_names()) + ")");
}

std::vector<std::string> technology_file_keys() {
  std::vector<std::string> k = {"base"};
  for (const Key& key : keys()) k.push_back(key.name);
  return k;
}

Technology parse_technology(const std::string& text, const std::string& origin) {
  const std::string allowed = "allowed keys: " + joined(technology_file_keys());
  auto fail = [&](std::size_t line, const std::string& why) -> void {
    throw ConfigError(origin + ":" + std::to_string(line) + ": " + why + " (" + allowed + ")");
  };
  if (text.size() > kMaxFileBytes) throw ConfigError(origin + ": larger than 64 KiB (" + allowed + ")");
  std::map<std::string, std::pair<double, std::size_t>> given;
  std::string base;
  std::istringstream in(text);
  std::string raw;
  std::size_t line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::string body = trim(raw.substr(0, raw.find('#')));
    if (body.empty()) continue;
    const auto eq = body.find('=');
    if (eq == std::string::npos) fail(line, "expected key = value, got " + shown(body));
    const std::string key = trim(body.substr(0, eq));
    const std::string value = trim(body.substr(eq + 1));
    if (key == "base") {
      if (!base.empty()) fail(line, "base given twice");
      if (value != "45nm" && value != "32nm") fail(line, "base = " + shown(value) + ": not a node (nodes: " + joined(technology_names()) + ")");
      base = value;
      continue;
    }
    bool known = false;
    for (const Key& k : keys()) known = known || key == k.name;
    if (!known) fail(line, "unknown key " + shown(key));
    if (given.count(key)) fail(line, key + " given twice");
    double v = 0;
    if (!parse_decimal_real(value, v) || !std::isfinite(v) || v < 0)
      fail(line, key + " = " + shown(value) + ": not a non-negative decimal number");
    if (key == "vdd" && (v < 0.1 || v > 5)) fail(line, "vdd = " + shown(value) + ": outside 0.1..5 V");
    given[key] = {v, line};
  }
  if (base.empty()) throw ConfigError(origin + ": no base = <node> line (nodes: " + joined(technology_names()) + "; " + allowed + ")");
  Technology t = technology(base);
  t.name = origin;
  for (const Key& k : keys()) {
    const auto it = given.find(k.name);
    if (it != given.end()) k.at(t) = it->second.first;
  }
  return t;
}

Technology load_technology(const std::string& name_or_path) {
  for (const auto& n : technology_names())
    if (n == name_or_path) return technology(n);
  std::ifstream f(name_or_path, std::ios::binary);
  if (!f) throw ConfigError("power.tech = " + shown(name_or_path) + ": neither a node (" + joined(technology_names()) + ") nor a readable parameter file");
  std::string text;
  char buf[4096];
  while (f.read(buf, sizeof buf) || f.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(f.gcount()));
    if (text.size() > kMaxFileBytes) throw ConfigError(shown(name_or_path) + ": larger than 64 KiB (allowed keys: " + joined(technology_file_keys()) + ")");
  }
  if (f.bad()) throw ConfigError(shown(name_or_path) + ": could not be read (a directory?)");
  return parse_technology(text, shown(name_or_path));
}

}  // namespace icn::power
