#include "testbench/vc_energy.hpp"

#include <stdexcept>
#include <string>

#include "testbench/vc_setup.hpp"

namespace icn {

namespace {

nlohmann::ordered_json link_json(std::uint64_t links, std::uint64_t flits, unsigned bits) {
  return {{"links", links}, {"flits", flits}, {"bits", flits * bits}};
}

// The circuit ORION prices for an arbiter kind of routers/common/arbiter_factory.hpp.
power::ArbiterCircuit arbiter_circuit(const std::string& kind) {
  if (kind == "round_robin") return power::ArbiterCircuit::kRoundRobin;
  if (kind == "matrix") return power::ArbiterCircuit::kMatrix;
  throw std::logic_error("energy: no ORION circuit for arbiter kind '" + kind + "'");
}

}  // namespace

power::ActivityInput VcEnergy::input(Cycle cycles) const {
  const vc::VcNetwork::Activity a = network_.activity();
  const power::PowerSettings& p = spec_.power;
  power::ActivityInput in;
  for (const auto& t : a.router_types) {
    power::RouterGroup g;
    g.name = std::to_string(t.ports) + " ports";
    g.count = t.routers;
    g.shape = power::RouterShape{t.ports, t.ports, spec_.net.router.vcs, spec_.net.router.buffer_depth, p.flit_bits};
    // icnsim's VC router clocks one pipeline register, after the crossbar.
    g.shape.register_after_link = g.shape.register_after_buffers = false;
    g.shape.sw_arbiter = arbiter_circuit(spec_.net.router.sw_arbiter);
    g.shape.vc_arbiter = arbiter_circuit(spec_.net.router.vc_arbiter);
    g.activity = t.activity;
    in.routers.push_back(g);
  }
  // Router-to-router links at power.link_mm; the NICs' links are tile-local
  // wires and not priced (their flits are in stats.activity).
  in.links.push_back({"channels", a.channels, p.link_mm, p.flit_bits, a.channel_flits});
  in.cycles = cycles;
  in.delivered_flits = a.ejection_flits;
  return in;
}

void VcEnergy::register_stats(StatRegistry& stats) const {
  stats.derived(
      "activity",
      [this] {
        const vc::VcNetwork::Activity a = network_.activity();
        const unsigned bits = spec_.power.flit_bits;
        nlohmann::ordered_json j;
        j["routers"] = power::activity_json(a.routers);
        nlohmann::ordered_json types = nlohmann::ordered_json::array();
        for (const auto& t : a.router_types) {
          nlohmann::ordered_json one{{"ports", t.ports}, {"routers", t.routers}};
          one.update(power::activity_json(t.activity));
          types.push_back(one);
        }
        j["router_types"] = types;
        j["links"] = {{"channels", link_json(a.channels, a.channel_flits, bits)},
                      {"injection", link_json(a.injection_links, a.injection_flits, bits)},
                      {"ejection", link_json(a.ejection_links, a.ejection_flits, bits)}};
        j["links"]["channels"]["length_mm"] = spec_.power.link_mm;
        return j;
      },
      "what the hardware did (docs/energy.md): per router and router type, clocked cycles, buffer writes and "
      "reads, crossbar traversals, allocator decisions and requests; per kind of link the flits and bits carried");
}

void VcEnergy::write(nlohmann::ordered_json& result, Cycle cycles) const {
  const power::ActivityInput in = input(cycles);
  result["energy"] = power::energy_json(spec_.power, in);
  result["area"] = power::area_json(spec_.power, in);
  // RTL routers (router.model=rtl) are priced as the C++ router's blocks from
  // what their ports show; their allocators' decisions are not seen.
  const unsigned rtl = network_.activity().rtl_routers;
  if (rtl != 0) {
    result["energy"]["rtl_routers"] = rtl;
    result["energy"]["rtl_note"] = "buffers, crossbar and clock from the RTL routers' ports; their allocators not counted";
  }
}

Column VcEnergy::column() {
  return {"pJ/flit", [](const nlohmann::ordered_json& j) {
            const auto& e = j.at("result").at("energy").at("per_flit_pj");
            return e.is_null() ? std::string("-") : Column::format_fixed(e.get<double>(), 1);
          }};
}

}  // namespace icn
