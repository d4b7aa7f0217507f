#include "testbench/ibt_energy.hpp"

#include <string>

namespace icn {

power::RouterShape IbtEnergy::shape(const power::PowerSettings& p, const IbtTopology& topo, unsigned packets) {
  const unsigned ports = topo.ports() + 1;  // + the node's: injection in, ejection out
  power::RouterShape s;
  s.ports_in = s.ports_out = ports;
  s.vcs = 1;
  // The packet store's k slots, spread over the input ports' register FIFOs:
  // ceil(k / ports) slots each, at least k in all.
  s.depth = (packets + ports - 1) / ports;
  s.flit_bits = p.flit_bits;
  // A packet is read off its link into the store in the cycle after it was
  // sent and read out of the store combinationally: the one register is the
  // step's, after the crossbar (the link's one cycle).
  s.register_after_link = s.register_after_buffers = false;
  return s;
}

power::ActivityInput IbtEnergy::input(const power::PowerSettings& p, const IbtTopology& topo, unsigned packets,
                                      const ibt::IbtNetworkActivity& a, Cycle cycles) {
  power::ActivityInput in;
  power::RouterGroup g;
  g.name = std::to_string(topo.ports()) + " ports + node";
  g.count = topo.nodes();
  g.shape = shape(p, topo, packets);
  g.activity = a.routers;
  in.routers.push_back(g);
  // Each link at its length on the floor plan, power.link_mm per tile; the
  // node's injection and ejection are tile-local and not priced.
  for (const auto& l : a.links) {
    const std::string name = std::string(l.bypass ? "bypass" : "ring") + " links, " + std::to_string(l.tiles) + " tiles";
    in.links.push_back({name, l.links, p.link_mm * l.tiles, p.flit_bits, l.flits});
  }
  in.cycles = cycles;
  in.delivered_flits = a.ejections;
  return in;
}

nlohmann::ordered_json IbtEnergy::activity_json(const power::PowerSettings& p, const ibt::IbtNetworkActivity& a,
                                                std::uint64_t injections) {
  nlohmann::ordered_json j;
  j["routers"] = power::activity_json(a.routers);
  nlohmann::ordered_json ring{{"links", 0}, {"flits", 0}}, bypass = ring;
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const auto& l : a.links) {
    nlohmann::ordered_json& kind = l.bypass ? bypass : ring;
    kind["links"] = kind["links"].get<std::uint64_t>() + l.links;
    kind["flits"] = kind["flits"].get<std::uint64_t>() + l.flits;
    groups.push_back({{"kind", l.bypass ? "bypass" : "ring"}, {"tiles", l.tiles}, {"length_mm", p.link_mm * l.tiles},
                      {"links", l.links}, {"flits", l.flits}, {"bits", l.flits * p.flit_bits}});
  }
  for (nlohmann::ordered_json* kind : {&ring, &bypass})
    (*kind)["bits"] = (*kind)["flits"].get<std::uint64_t>() * p.flit_bits;
  j["links"] = {{"ring", ring}, {"bypass", bypass}, {"by_length", groups}};
  j["injections"] = injections;
  j["ejections"] = a.ejections;
  j["duplicates_discarded"] = a.duplicates;
  return j;
}

void IbtEnergy::write(nlohmann::ordered_json& result, const power::PowerSettings& p, const IbtTopology& topo,
                      unsigned packets, const ibt::IbtNetworkActivity& a, Cycle cycles) {
  const power::ActivityInput in = input(p, topo, packets, a, cycles);
  result["energy"] = power::energy_json(p, in);
  result["area"] = power::area_json(p, in);
}

Column IbtEnergy::column() {
  return {"nJ", [](const nlohmann::ordered_json& j) {
            const auto& r = j.at("result");
            if (!r.contains("energy")) return std::string("-");
            return Column::format_fixed(r.at("energy").at("total_pj").get<double>() / 1000.0, 1);
          }};
}

}  // namespace icn
