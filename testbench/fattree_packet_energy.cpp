#include "testbench/fattree_packet_energy.hpp"

#include <string>

#include "power/tree_layout.hpp"

namespace icn {

namespace {

// ORION's FIFOs sit at a router's inputs, this router's at its outputs; a
// buffer write or read costs the same wherever the FIFO is, so each physical
// output link's FIFO is priced as one of ORION's (docs/energy.md).
const IntParam kQueueDepth{"power.queue_depth", 4, 1, 4096,
                           "flits of each physical output link's FIFO the area and leakage are priced for (the "
                           "model's output queues are unbounded: levels[].max_queue_* shows what a run needed)"};

}  // namespace

std::vector<ParamSpec> FatTreePower::params() {
  std::vector<ParamSpec> p = power::power_params();
  // Here power.link_mm is the tile a leaf takes; the layout gives each level's length.
  for (ParamSpec& s : p)
    if (s.key == "power.link_mm")
      s.help = "side of a leaf's tile, mm: every link's length with power.tree_layout=uniform, the H-tree's unit with htree";
  p.push_back(kQueueDepth.spec());
  p.push_back(power::kTreeLayout.spec());
  return p;
}

FatTreePower FatTreePower::read(Config& cfg) {
  FatTreePower p;
  p.settings = power::read_power(cfg);
  cfg.declare(params());
  p.queue_depth = static_cast<unsigned>(kQueueDepth.read(cfg));
  p.htree = power::kTreeLayout.read(cfg) == "htree";
  return p;
}

double FatTreePower::link_mm(unsigned level) const { return power::tree_link_mm(htree, settings.link_mm, level); }

power::ActivityInput FatTreeEnergy::input(Cycle cycles) const {
  const power::PowerSettings& p = power_.settings;
  power::ActivityInput in;
  for (const fattree::LevelActivity& a : network_.activity()) {
    power::RouterGroup g;
    g.name = "level " + std::to_string(a.level);
    g.count = a.routers;
    // Every physical link is a crossbar port; no VCs; the output FIFOs; one
    // pipeline register, the one that drives the links (a packet read and
    // routed in a cycle is on the next router's input the next).
    g.shape = power::RouterShape{a.ports, a.ports, 1, power_.queue_depth, p.flit_bits};
    g.shape.register_after_link = g.shape.register_after_buffers = false;
    g.activity = a.activity;
    in.routers.push_back(g);
    // The level-1 branch joins the NICs to their routers, a half tile away in
    // an H-tree: priced like the others.
    in.links.push_back({"level " + std::to_string(a.level), a.links, power_.link_mm(a.level), p.flit_bits,
                        a.flits_up + a.flits_down});
    if (a.level == 1) in.delivered_flits = a.flits_down;  // the ejections
  }
  in.cycles = cycles;
  return in;
}

void FatTreeEnergy::register_stats(StatRegistry& stats) const {
  stats.derived(
      "activity",
      [this] {
        const unsigned bits = power_.settings.flit_bits;
        RouterActivity all;
        nlohmann::ordered_json levels = nlohmann::ordered_json::array();
        std::uint64_t injections = 0, ejections = 0;
        for (const fattree::LevelActivity& a : network_.activity()) {
          all += a.activity;
          nlohmann::ordered_json one{{"level", a.level}, {"routers", a.routers}, {"ports", a.ports}};
          one.update(power::activity_json(a.activity));
          const std::uint64_t flits = a.flits_up + a.flits_down;
          one["links"] = {{"links", a.links},     {"flits_up", a.flits_up}, {"flits_down", a.flits_down},
                          {"bits", flits * bits}, {"length_mm", power_.link_mm(a.level)}};
          levels.push_back(one);
          if (a.level == 1) injections = a.flits_up, ejections = a.flits_down;
        }
        nlohmann::ordered_json j;
        j["routers"] = power::activity_json(all);
        j["levels"] = levels;
        j["nics"] = {{"injections", injections}, {"ejections", ejections}};
        return j;
      },
      "what the hardware did (docs/energy.md): per level and in all, clocked cycles, output-FIFO writes and reads, "
      "crossbar traversals, merge decisions and requests; per level the links, the flits each way, their length");
}

void FatTreeEnergy::write(nlohmann::ordered_json& result, Cycle cycles) const {
  const power::ActivityInput in = input(cycles);
  result["energy"] = power::energy_json(power_.settings, in);
  result["energy"]["tree_layout"] = power_.htree ? "htree" : "uniform";
  result["area"] = power::area_json(power_.settings, in);
  result["area"]["queue_depth"] = power_.queue_depth;
}

Column FatTreeEnergy::column() {
  return {"pJ/flit", [](const nlohmann::ordered_json& j) {
            const auto& e = j.at("result").at("energy").at("per_flit_pj");
            return e.is_null() ? std::string("-") : Column::format_fixed(e.get<double>(), 1);
          }};
}

}  // namespace icn
