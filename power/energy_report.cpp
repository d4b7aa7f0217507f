#include "power/energy_report.hpp"

namespace icn::power {

namespace {

constexpr double kPj = 1e12;

OrionModel model_of(const PowerSettings& s) { return OrionModel(s.tech, s.clock_ghz, s.vdd); }

// Energy of an arbiter stage: ORION's energy of one decision is linear in its
// requests (docs/energy.md, "Arbiters"), so the decisions at their mean
// request count price every decision exactly.
double arbiter_stage_j(const OrionModel& m, unsigned width, const ArbiterActivity& a, double wire_um,
                       ArbiterCircuit circuit) {
  if (a.decisions == 0) return 0;
  const double mean = static_cast<double>(a.requests) / static_cast<double>(a.decisions);
  return static_cast<double>(a.decisions) * m.arbiter_energy(width, mean, wire_um, circuit);
}

nlohmann::ordered_json part_json(const EnergyBreakdown::Part& p) {
  return {{"dynamic_pj", p.dynamic_j * kPj}, {"leakage_pj", p.leakage_j * kPj},
          {"total_pj", (p.dynamic_j + p.leakage_j) * kPj}};
}

nlohmann::ordered_json blocks_json(const RouterBlocks& b) {
  return {{"buffers", b.buffers},       {"crossbar", b.crossbar}, {"sw_allocator", b.sw_allocator},
          {"vc_allocator", b.vc_allocator}, {"clock", b.clock},   {"total", b.total()}};
}

nlohmann::ordered_json arbiter_json(const ArbiterActivity& a) {
  return {{"decisions", a.decisions}, {"requests", a.requests}};
}

}  // namespace

double EnergyBreakdown::dynamic_j() const {
  return buffers.dynamic_j + crossbar.dynamic_j + sw_allocator.dynamic_j + vc_allocator.dynamic_j + clock.dynamic_j +
         links.dynamic_j;
}
double EnergyBreakdown::leakage_j() const {
  return buffers.leakage_j + crossbar.leakage_j + sw_allocator.leakage_j + vc_allocator.leakage_j + clock.leakage_j +
         links.leakage_j;
}

RouterFigures fifo_figures(const OrionModel& model, const FifoGroup& g) {
  return model.router(RouterShape{1, 1, 1, g.depth, g.bits});
}

EnergyBreakdown energy(const PowerSettings& settings, const ActivityInput& in) {
  const OrionModel m = model_of(settings);
  const double seconds = static_cast<double>(in.cycles) / (settings.clock_ghz * 1e9);
  EnergyBreakdown e;
  for (const RouterGroup& g : in.routers) {
    const RouterFigures f = m.router(g.shape);
    const OrionModel::ArbiterWidths w = m.arbiter_widths(g.shape);
    const RouterActivity& a = g.activity;
    const double n = static_cast<double>(g.count) * seconds;  // router-seconds of leakage
    e.buffers.dynamic_j += double(a.buffer_writes) * f.energy.buffer_write + double(a.buffer_reads) * f.energy.buffer_read;
    e.crossbar.dynamic_j += double(a.crossbar) * f.energy.crossbar;
    const ArbiterCircuit sw = g.shape.sw_arbiter, vc = g.shape.vc_arbiter;
    e.sw_allocator.dynamic_j += arbiter_stage_j(m, w.sw_input, a.sw_input, 0, sw) +
                                arbiter_stage_j(m, w.sw_output, a.sw_output, w.sw_output_wire_um, sw);
    e.vc_allocator.dynamic_j +=
        arbiter_stage_j(m, w.vc_input, a.vc_input, 0, vc) + arbiter_stage_j(m, w.vc_output, a.vc_output, 0, vc);
    e.clock.dynamic_j += double(a.clocked_cycles) * f.energy.clock;
    e.buffers.leakage_j += f.leakage_w.buffers * n;
    e.crossbar.leakage_j += f.leakage_w.crossbar * n;
    e.sw_allocator.leakage_j += f.leakage_w.sw_allocator * n;
    e.vc_allocator.leakage_j += f.leakage_w.vc_allocator * n;
    e.clock.leakage_j += f.leakage_w.clock * n;
  }
  for (const LinkGroup& g : in.links) {
    const LinkFigures f = m.link(g.length_mm, g.bits);
    e.links.dynamic_j += double(g.flits) * g.bits * f.energy_per_bit;
    e.links.leakage_j += f.leakage_w * static_cast<double>(g.count) * seconds;
  }
  for (const FifoGroup& g : in.fifos) {
    if (g.count == 0) continue;
    const RouterFigures f = fifo_figures(m, g);
    e.buffers.dynamic_j += double(g.writes) * f.energy.buffer_write + double(g.reads) * f.energy.buffer_read;
    e.buffers.leakage_j += f.leakage_w.buffers * static_cast<double>(g.count) * seconds;
  }
  return e;
}

nlohmann::ordered_json energy_json(const PowerSettings& settings, const ActivityInput& in) {
  const EnergyBreakdown e = energy(settings, in);
  nlohmann::ordered_json j;
  j["model"] = "ORION 2.0 (docs/energy.md)";
  j["tech"] = settings.tech.name;
  j["vdd"] = settings.vdd > 0 ? settings.vdd : settings.tech.vdd;
  j["clock_ghz"] = settings.clock_ghz;
  j["flit_bits"] = settings.flit_bits;
  j["link_mm"] = settings.link_mm;
  j["cycles"] = in.cycles;
  j["total_pj"] = e.total_j() * kPj;
  j["dynamic_pj"] = e.dynamic_j() * kPj;
  j["leakage_pj"] = e.leakage_j() * kPj;
  j["delivered_flits"] = in.delivered_flits;
  j["per_flit_pj"] = in.delivered_flits == 0 ? nlohmann::ordered_json(nullptr)
                                             : nlohmann::ordered_json(e.total_j() * kPj / double(in.delivered_flits));
  j["components"] = {{"buffers", part_json(e.buffers)},           {"crossbar", part_json(e.crossbar)},
                     {"sw_allocator", part_json(e.sw_allocator)}, {"vc_allocator", part_json(e.vc_allocator)},
                     {"clock", part_json(e.clock)},               {"links", part_json(e.links)}};
  return j;
}

nlohmann::ordered_json area_json(const PowerSettings& settings, const ActivityInput& in) {
  const OrionModel m = model_of(settings);
  nlohmann::ordered_json types = nlohmann::ordered_json::array();
  double routers = 0, links = 0;
  for (const RouterGroup& g : in.routers) {
    const RouterFigures f = m.router(g.shape);
    const double all = f.area_mm2.total() * static_cast<double>(g.count);
    routers += all;
    types.push_back({{"name", g.name},
                     {"routers", g.count},
                     {"ports", g.shape.ports_in},
                     {"vcs", g.shape.vcs},
                     {"depth", g.shape.depth},
                     {"flit_bits", g.shape.flit_bits},
                     {"per_router_mm2", blocks_json(f.area_mm2)},
                     {"total_mm2", all}});
  }
  nlohmann::ordered_json link_list = nlohmann::ordered_json::array();
  for (const LinkGroup& g : in.links) {
    const double one = m.link(g.length_mm, g.bits).area_mm2;
    links += one * static_cast<double>(g.count);
    link_list.push_back({{"name", g.name},
                         {"links", g.count},
                         {"length_mm", g.length_mm},
                         {"bits", g.bits},
                         {"per_link_mm2", one},
                         {"total_mm2", one * static_cast<double>(g.count)}});
  }
  nlohmann::ordered_json area{{"total_mm2", routers + links}, {"routers_mm2", routers}, {"links_mm2", links},
                              {"router_types", types},        {"links", link_list}};
  if (in.fifos.empty()) return area;
  double fifos = 0;
  nlohmann::ordered_json fifo_list = nlohmann::ordered_json::array();
  for (const FifoGroup& g : in.fifos) {
    const double one = g.count == 0 ? 0.0 : fifo_figures(m, g).area_mm2.buffers;
    fifos += one * static_cast<double>(g.count);
    fifo_list.push_back({{"name", g.name},
                         {"fifos", g.count},
                         {"depth", g.depth},
                         {"bits", g.bits},
                         {"per_fifo_mm2", one},
                         {"total_mm2", one * static_cast<double>(g.count)}});
  }
  area["total_mm2"] = routers + links + fifos;
  area["fifos_mm2"] = fifos;
  area["fifos"] = fifo_list;
  return area;
}

nlohmann::ordered_json activity_json(const RouterActivity& a) {
  return {{"clocked_cycles", a.clocked_cycles},
          {"buffer_writes", a.buffer_writes},
          {"buffer_reads", a.buffer_reads},
          {"crossbar_traversals", a.crossbar},
          {"sw_allocator", {{"input", arbiter_json(a.sw_input)}, {"output", arbiter_json(a.sw_output)}}},
          {"vc_allocator", {{"input", arbiter_json(a.vc_input)}, {"output", arbiter_json(a.vc_output)}}}};
}

}  // namespace icn::power
