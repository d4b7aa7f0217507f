#include "testbench/crossbar_energy.hpp"

#include <cmath>
#include <map>
#include <utility>

#include "routers/crossbar/crossbar_floorplan.hpp"

namespace icn {

namespace {

// The model's switch holds a waiting head's whole packet (its buffer is
// unbounded); a head waits only when every output of its group is busy
// (congestion.*.max_queue). Default 4: ORION's RouterShape depth, as the
// packet fat tree's queues.
const IntParam kBufferDepth{"power.buffer_depth", 4, 1, 4096,
                            "flits (units) of each switch input port's buffer the area, leakage and read energy are "
                            "priced for (the model's buffers hold a whole waiting packet: congestion.*.max_queue shows "
                            "the heads that waited)"};

}  // namespace

std::vector<ParamSpec> CrossbarPower::params() {
  std::vector<ParamSpec> p = power::power_params();
  // Here power.link_mm is a processor's tile; the floor plan gives each wire's length.
  for (ParamSpec& s : p)
    if (s.key == "power.link_mm")
      s.help = "side of a processor's tile, mm: each wire is priced at its tiles to its switch on the grid floor plan "
               "(docs/energy.md)";
  p.push_back(kBufferDepth.spec());
  return p;
}

CrossbarPower CrossbarPower::read(Config& cfg) {
  CrossbarPower p;
  p.settings = power::read_power(cfg);
  cfg.declare(params());
  p.buffer_depth = static_cast<unsigned>(kBufferDepth.read(cfg));
  return p;
}

CrossbarNetworkActivity CrossbarNetworkActivity::of(const xbar::CrossbarNetwork& network) {
  const auto& shape = network.shape();
  const unsigned a = shape.modules, b = shape.module_size;
  CrossbarNetworkActivity out;
  // The switches by kind.
  out.switches.push_back({a == 1 ? "crossbar" : "module", a, network.switch_at(0).inputs(), {}});
  for (unsigned m = 0; m < a; ++m) out.switches.back().activity += network.switch_at(m).activity();
  if (a > 1) {
    const xbar::CrossbarSwitch& global = network.switch_at(a);
    out.switches.push_back({"global", 1, global.inputs(), global.activity()});
  }
  // The wires by kind and length (in half tiles, the floor plan's grain).
  std::map<std::pair<int, long>, Wires> groups;
  auto add = [&](int kind, double tiles, std::uint64_t links, std::uint64_t flits) {
    Wires& w = groups[{kind, std::lround(2 * tiles)}];
    w.kind = kind == 0 ? "processor" : "inter_module";
    w.tiles = tiles;
    w.links += links;
    w.flits += flits;
  };
  const xbar::GridFloorplan module{b, 1, 1};
  for (NodeId x = 0; x < network.processors(); ++x) {
    const xbar::CrossbarSwitch& sw = network.switch_at(x / b);
    const unsigned port = x % b;
    const xbar::LinkStats& eject = sw.groups()[port].front().stats;
    out.injections += sw.input_packets(port);
    out.injected_flits += sw.input_units(port);
    out.ejections += eject.packets;
    out.ejected_flits += eject.busy_cycles;
    // The port's two wires (in, out) run side by side from the tile to its switch.
    add(0, module.tiles_to_switch(port), 2, sw.input_units(port) + eject.busy_cycles);
  }
  if (a > 1) {
    const xbar::GridFloorplan chip{a, module.width(), module.height()};
    const auto& global_groups = network.switch_at(a).groups();
    for (unsigned m = 0; m < a; ++m) {
      std::uint64_t flits = 0;
      for (const auto& up : network.switch_at(m).groups()[b]) flits += up.stats.busy_cycles;
      for (const auto& down : global_groups[m]) flits += down.stats.busy_cycles;
      add(1, chip.tiles_to_switch(m), 2ull * shape.channels, flits);
    }
  }
  for (auto& [key, w] : groups) out.wires.push_back(std::move(w));
  return out;
}

power::ActivityInput CrossbarEnergy::input(const CrossbarNetworkActivity& a, Cycle cycles) const {
  const power::PowerSettings& p = power_.settings;
  power::ActivityInput in;
  for (const auto& s : a.switches) {
    power::RouterGroup g;
    g.name = s.name + ", " + std::to_string(s.ports) + " ports";
    g.count = s.count;
    // Square, one buffer per input port, no VCs; one register stage, the one
    // that drives the output wires (a unit is on the next block's input the
    // cycle after it crossed).
    g.shape = power::RouterShape{s.ports, s.ports, 1, power_.buffer_depth, p.flit_bits};
    g.shape.register_after_link = g.shape.register_after_buffers = false;
    g.activity = s.activity;
    in.routers.push_back(g);
  }
  for (const auto& w : a.wires) {
    in.links.push_back({w.kind + " links, " + Column::format_fixed(w.tiles, 1) + " tiles", w.links, p.link_mm * w.tiles,
                        p.flit_bits, w.flits});
  }
  in.cycles = cycles;
  in.delivered_flits = a.ejected_flits;
  return in;
}

void CrossbarEnergy::register_stats(StatRegistry& stats) const {
  stats.derived(
      "activity",
      [this] {
        const CrossbarNetworkActivity a = CrossbarNetworkActivity::of(network_);
        const unsigned bits = power_.settings.flit_bits;
        RouterActivity all;
        nlohmann::ordered_json types = nlohmann::ordered_json::array();
        for (const auto& s : a.switches) {
          all += s.activity;
          nlohmann::ordered_json one{{"name", s.name}, {"routers", s.count}, {"ports", s.ports}};
          one.update(power::activity_json(s.activity));
          types.push_back(one);
        }
        nlohmann::ordered_json kinds, by_length = nlohmann::ordered_json::array();
        for (const auto& w : a.wires) {
          nlohmann::ordered_json& k = kinds[w.kind];
          if (k.is_null()) k = {{"links", 0}, {"flits", 0}, {"bits", 0}};
          k["links"] = k.at("links").get<std::uint64_t>() + w.links;
          k["flits"] = k.at("flits").get<std::uint64_t>() + w.flits;
          k["bits"] = k.at("flits").get<std::uint64_t>() * bits;
          by_length.push_back({{"kind", w.kind}, {"tiles", w.tiles}, {"length_mm", w.tiles * power_.settings.link_mm},
                               {"links", w.links}, {"flits", w.flits}, {"bits", w.flits * bits}});
        }
        kinds["by_length"] = by_length;
        nlohmann::ordered_json j;
        j["routers"] = power::activity_json(all);
        j["router_types"] = types;
        j["links"] = kinds;
        j["nics"] = {{"injections", a.injections},
                     {"ejections", a.ejections},
                     {"injected_flits", a.injected_flits},
                     {"ejected_flits", a.ejected_flits}};
        return j;
      },
      "what the hardware did (docs/energy.md): per switch kind clocked cycles, input-buffer writes and reads, "
      "crossbar traversals (units), output-arbiter decisions and requests (heads); per wire kind and length the "
      "units carried; the NICs' packets and units");
}

void CrossbarEnergy::write(nlohmann::ordered_json& result, Cycle cycles) const {
  const CrossbarNetworkActivity a = CrossbarNetworkActivity::of(network_);
  const power::ActivityInput in = input(a, cycles);
  nlohmann::ordered_json e = power::energy_json(power_.settings, in);
  // A packet is `units` flits: the energy per packet a processor received.
  e["delivered_packets"] = a.ejections;
  e["per_packet_pj"] = a.ejections == 0 ? nlohmann::ordered_json(nullptr)
                                        : nlohmann::ordered_json(e.at("total_pj").get<double>() / double(a.ejections));
  e["floorplan"] = "grid";
  result["energy"] = e;
  result["area"] = power::area_json(power_.settings, in);
  result["area"]["buffer_depth"] = power_.buffer_depth;
}

Column CrossbarEnergy::column() {
  return {"nJ", [](const nlohmann::ordered_json& j) {
            const auto& r = j.at("result");
            if (!r.contains("energy")) return std::string("-");
            return Column::format_fixed(r.at("energy").at("total_pj").get<double>() / 1000.0, 1);
          }};
}

}  // namespace icn
