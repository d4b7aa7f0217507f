#include "testbench/hpam_energy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "testbench/hpam_setup.hpp"

namespace icn {

using hpam::HpamTopology;
using hpam::Position;

HpamFloorplan::HpamFloorplan(const hpam::HpamGeometry& geo, double tile_mm) : geo_(geo), tile_mm_(tile_mm) {
  unsigned rows = 0;
  for (unsigned l = 0; l < geo.levels(); ++l) {
    first_row_.push_back(rows);
    rows += geo.level(l).rows;
  }
}

// Columns never shrink downwards (c_(l-1) <= c_l), so the bottom level is the widest.
double HpamFloorplan::tile_width_mm(unsigned level) const {
  return tile_mm_ * static_cast<double>(geo_.level(geo_.levels() - 1).cols) / static_cast<double>(geo_.level(level).cols);
}

double HpamFloorplan::x_mm(const Position& p) const { return (p.col + 0.5) * tile_width_mm(p.level); }
double HpamFloorplan::y_mm(const Position& p) const { return (first_row_[p.level] + p.row + 0.5) * tile_mm_; }

double HpamFloorplan::link_mm(const Position& a, const Position& b) const {
  return std::abs(x_mm(a) - x_mm(b)) + std::abs(y_mm(a) - y_mm(b));
}

HpamActivity& HpamActivity::operator-=(const HpamActivity& o) {
  for (std::size_t i = 0; i < net.router_types.size() && i < o.net.router_types.size(); ++i)
    net.router_types[i].activity -= o.net.router_types[i].activity;
  net.routers -= o.net.routers;
  net.channel_flits -= o.net.channel_flits;
  net.injection_flits -= o.net.injection_flits;
  net.ejection_flits -= o.net.ejection_flits;
  for (std::size_t i = 0; i < link_flits.size() && i < o.link_flits.size(); ++i) link_flits[i] -= o.link_flits[i];
  replicator_flits_in -= o.replicator_flits_in;
  replicator_flits_taken -= o.replicator_flits_taken;
  replicator_packets_copied -= o.replicator_packets_copied;
  replicator_branch_fifo_writes -= o.replicator_branch_fifo_writes;
  replicator_branch_flits -= o.replicator_branch_flits;
  combiner_flits_in -= o.combiner_flits_in;
  combiner_flits_out -= o.combiner_flits_out;
  combiner_messages_in -= o.combiner_messages_in;
  combiner_merges -= o.combiner_merges;
  return *this;
}

unsigned HpamEnergy::group_of(const std::string& kind, double length_mm) {
  for (unsigned g = 0; g < groups_.size(); ++g)
    if (groups_[g].name == kind && groups_[g].length_mm == length_mm) return g;  // names get their length last
  groups_.push_back({kind, length_mm, 0});
  return static_cast<unsigned>(groups_.size() - 1);
}

HpamEnergy::HpamEnergy(const HpamSetup& setup, const HpamTopology& topo, const vc::VcNetwork& network,
                       const std::vector<std::unique_ptr<hpam::InterLevelReplicator>>& replicators,
                       const std::vector<std::unique_ptr<hpam::InterLevelCombiner>>& combiners)
    : setup_(setup), topo_(topo), network_(network), replicators_(replicators), combiners_(combiners) {
  flit_bits_ = setup.power_flit_bits_given
                   ? setup.power.flit_bits
                   : 8 * *std::max_element(setup.flit_bytes.begin(), setup.flit_bytes.end());
  const hpam::HpamGeometry& geo = topo.geometry();
  const HpamFloorplan plan(geo, setup.power.link_mm);
  auto level = [](unsigned l) { return std::to_string(l + 1); };
  // Every router-to-router link, by the output port that drives it: mesh
  // links of a level (east-west and north-south differ in length when the
  // level's tiles are wider than tall), and the inter-level links of eq. (1),
  // grouped by length (a down link's branch decides how far it runs sideways).
  for (unsigned r = 0; r < topo.routers(); ++r) {
    const Position at = geo.position(r);
    for (unsigned p = 1; p < topo.ports(r); ++p) {
      const auto far = topo.neighbor(r, p);
      if (!far) continue;
      const Position to = geo.position(far->router);
      const double mm = plan.link_mm(at, to);
      const std::string kind = to.level == at.level
                                   ? "level " + level(at.level) + " mesh"
                                   : "levels " + level(std::min(at.level, to.level)) + "-" +
                                         level(std::max(at.level, to.level));
      const unsigned g = group_of(kind, mm);
      ++groups_[g].links;
      ports_.push_back({r, p, g});
    }
  }
  // A replicator's branch b runs beside its router's down link b, to the same
  // router below (replicators are built in router order).
  for (unsigned r = 0; r < topo.routers() && !replicators.empty(); ++r) {
    if (!topo.replicate_port(r)) continue;
    const Position at = geo.position(r);
    std::vector<unsigned> groups;
    for (unsigned b = 0; b < topo.down_ports(r); ++b) {
      const Position to = geo.below(at, b);
      const unsigned g = group_of("replicator branches " + level(at.level) + "-" + level(to.level),
                                  plan.link_mm(at, to));
      ++groups_[g].links;
      groups.push_back(g);
    }
    branches_.push_back(groups);
  }
  for (auto& g : groups_) {
    char mm[32];
    std::snprintf(mm, sizeof mm, "%g", g.length_mm);
    g.name += ", " + std::string(mm) + " mm";
  }
}

HpamActivity HpamEnergy::read() const {
  HpamActivity a;
  a.net = network_.activity();
  a.link_flits.assign(groups_.size(), 0);
  for (const RouterPort& rp : ports_) a.link_flits[rp.group] += network_.flit_link(rp.router, rp.port).transfers();
  const bool buffered = setup_.replicator_mode == hpam::ReplicatorMode::kBuffered;
  for (std::size_t i = 0; i < replicators_.size(); ++i) {
    const hpam::InterLevelReplicator& rep = *replicators_[i];
    a.replicator_flits_in += rep.flits_in();
    a.replicator_flits_taken += rep.flits_taken();
    a.replicator_packets_copied += rep.packets_copied();
    // Buffered: a flit taken is written into every branch's FIFO (the mask is all branches).
    if (buffered) a.replicator_branch_fifo_writes += rep.flits_taken() * rep.branches();
    for (unsigned b = 0; b < rep.branches(); ++b) {
      a.replicator_branch_flits += rep.flits_out(b);
      a.link_flits[branches_[i][b]] += rep.flits_out(b);
    }
  }
  for (const auto& c : combiners_) {
    a.combiner_flits_in += c->flits_in();
    a.combiner_flits_out += c->flits_out();
    a.combiner_messages_in += c->messages_in();
    a.combiner_merges += c->messages_out();
  }
  return a;
}

power::PowerSettings HpamEnergy::settings() const {
  power::PowerSettings s = setup_.power;
  s.flit_bits = flit_bits_;
  return s;
}

power::ActivityInput HpamEnergy::input(const HpamActivity& a, Cycle cycles) const {
  const unsigned F = flit_bits_, V = setup_.net.router.vcs, B = setup_.net.router.buffer_depth;
  power::ActivityInput in;
  for (const auto& t : a.net.router_types) {
    power::RouterGroup g;
    g.name = std::to_string(t.ports) + " ports";
    g.count = t.routers;
    g.shape = power::RouterShape{t.ports, t.ports, V, B, F};
    // The shared VC router: one pipeline register, after the crossbar (docs/energy.md).
    g.shape.register_after_link = g.shape.register_after_buffers = false;
    g.activity = t.activity;
    in.routers.push_back(g);
  }
  for (std::size_t g = 0; g < groups_.size(); ++g)
    in.links.push_back({groups_[g].name, groups_[g].links, groups_[g].length_mm, F, a.link_flits[g]});
  std::uint64_t branches = 0;
  for (const auto& rep : replicators_) branches += rep->branches();
  const bool buffered = setup_.replicator_mode == hpam::ReplicatorMode::kBuffered;
  // The replicator's input buffer: V VCs of B flits, like a router's input port.
  in.fifos.push_back({"replicator input buffers", replicators_.size() * V, B, F, a.replicator_flits_in,
                      a.replicator_flits_taken});
  // Buffered mode: one FIFO of replicator_depth flits per branch; lockstep has none (its fan-out is wires).
  in.fifos.push_back({"replicator branch FIFOs", buffered ? branches : 0, setup_.replicator_depth, F,
                      a.replicator_branch_fifo_writes, buffered ? a.replicator_branch_flits : 0});
  // The combiner (one beside each replicator, as many branches) stores whole
  // packets; priced as one router.buffer_depth FIFO per branch below, what a
  // router's input port would give it (the model's store is unbounded:
  // hpam.combining.max_stored_flits shows what a run filled).
  in.fifos.push_back({"combiner buffers", combiners_.empty() ? 0 : branches, B, F, a.combiner_flits_in,
                      a.combiner_flits_out});
  in.cycles = cycles;
  in.delivered_flits = a.net.ejection_flits;
  return in;
}

nlohmann::ordered_json HpamEnergy::activity_json(const HpamActivity& a) const {
  const unsigned F = flit_bits_;
  nlohmann::ordered_json j;
  j["routers"] = power::activity_json(a.net.routers);
  nlohmann::ordered_json types = nlohmann::ordered_json::array();
  for (const auto& t : a.net.router_types) {
    nlohmann::ordered_json one{{"ports", t.ports}, {"routers", t.routers}};
    one.update(power::activity_json(t.activity));
    types.push_back(one);
  }
  j["router_types"] = types;
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (std::size_t g = 0; g < groups_.size(); ++g)
    links.push_back({{"name", groups_[g].name},
                     {"links", groups_[g].links},
                     {"length_mm", groups_[g].length_mm},
                     {"flits", a.link_flits[g]},
                     {"bits", a.link_flits[g] * F}});
  j["links"] = links;
  j["nics"] = {{"injections", a.net.injection_flits}, {"ejections", a.net.ejection_flits}};
  j["replicators"] = {{"replicators", replicators_.size()},
                      {"flits_in", a.replicator_flits_in},
                      {"flits_taken", a.replicator_flits_taken},
                      {"packets_copied", a.replicator_packets_copied},
                      {"branch_fifo_writes", a.replicator_branch_fifo_writes},
                      {"branch_flits", a.replicator_branch_flits}};
  j["combiners"] = {{"combiners", combiners_.size()},
                    {"flits_in", a.combiner_flits_in},
                    {"flits_out", a.combiner_flits_out},
                    {"messages_in", a.combiner_messages_in},
                    {"merges", a.combiner_merges}};
  return j;
}

void HpamEnergy::write(nlohmann::ordered_json& result, const HpamActivity& a, Cycle cycles) const {
  const power::PowerSettings s = settings();
  const power::ActivityInput in = input(a, cycles);
  result["energy"] = power::energy_json(s, in);
  // The replication hardware's share (already in `components`: its buffers
  // in buffers, its branch links in links).
  power::ActivityInput branch_links;
  branch_links.cycles = cycles;
  for (const auto& l : in.links)
    if (l.name.rfind("replicator", 0) == 0) branch_links.links.push_back(l);
  auto pj = [](double j) { return j * 1e12; };
  nlohmann::ordered_json rep;
  for (const power::FifoGroup& f : in.fifos) {
    power::ActivityInput one;
    one.fifos = {f};
    one.cycles = cycles;
    const power::EnergyBreakdown e = power::energy(s, one);
    rep[f.name] = {{"dynamic_pj", pj(e.buffers.dynamic_j)}, {"leakage_pj", pj(e.buffers.leakage_j)},
                   {"total_pj", pj(e.total_j())}};
  }
  const power::EnergyBreakdown bl = power::energy(s, branch_links);
  rep["replicator branch links"] = {{"dynamic_pj", pj(bl.links.dynamic_j)}, {"leakage_pj", pj(bl.links.leakage_j)},
                                    {"total_pj", pj(bl.total_j())}};
  result["energy"]["replication_hardware"] = rep;
  result["energy"]["flit_bits_from"] = setup_.power_flit_bits_given ? "power.flit_bits" : "network.flit_bytes";
  result["area"] = power::area_json(s, in);
}

Column HpamEnergy::column() {
  return {"nJ", [](const nlohmann::ordered_json& j) {
            const auto& r = j.at("result");
            if (!r.contains("energy")) return std::string("-");
            return Column::format_fixed(r.at("energy").at("total_pj").get<double>() / 1000.0, 1);
          }};
}

}  // namespace icn
