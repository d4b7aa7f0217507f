// Activity counts in, result.energy and result.area out (docs/energy.md,
// "Counters and result fields"): the piece a family calls once its run is
// over. It prices every counted event with ORION 2.0 (power/orion.hpp), adds
// the leakage of every block over the simulated time, and writes the JSON.
//
// A family maps its hardware onto groups: routers of one shape (ports, VCs,
// depth, flit width) and links of one length and width, each with its
// counters (models/activity.hpp). Units: picojoules and square millimetres,
// said in every field name.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/activity.hpp"
#include "power/keys.hpp"
#include "power/orion.hpp"

namespace icn::power {

struct RouterGroup {
  std::string name;          // e.g. "5 ports"
  std::uint64_t count = 0;   // routers of this shape
  RouterShape shape;
  RouterActivity activity;   // summed over them
};

struct LinkGroup {
  std::string name;          // e.g. "channels"
  std::uint64_t count = 0;   // links (one direction each)
  double length_mm = 0;
  unsigned bits = 0;
  std::uint64_t flits = 0;   // flits they carried, each `bits` wide
};

// FIFOs outside a router (HPAM's replicator and combiner buffers): ORION's
// register FIFO of `depth` flits of `bits`, the input buffer of one VC of a
// router (RouterShape{1, 1, 1, depth, bits}), priced as the `buffers` component.
struct FifoGroup {
  std::string name;          // e.g. "replicator branch FIFOs"
  std::uint64_t count = 0;   // FIFOs
  unsigned depth = 0;        // flits each
  unsigned bits = 0;
  std::uint64_t writes = 0;  // flits written, summed over them
  std::uint64_t reads = 0;
};

struct ActivityInput {
  std::vector<RouterGroup> routers;
  std::vector<LinkGroup> links;
  std::vector<FifoGroup> fifos;       // none but in HPAM; area_json lists them only when there are groups
  std::uint64_t cycles = 0;           // simulated cycles: leakage runs through all of them
  std::uint64_t delivered_flits = 0;  // for the energy per flit
};

// The energy of each block kind, dynamic and leakage, joules.
struct EnergyBreakdown {
  struct Part {
    double dynamic_j = 0, leakage_j = 0;
  };
  Part buffers, crossbar, sw_allocator, vc_allocator, clock, links;
  double dynamic_j() const;
  double leakage_j() const;
  double total_j() const { return dynamic_j() + leakage_j(); }
};

// The energy of the counted activity (settings give the node, supply and clock).
EnergyBreakdown energy(const PowerSettings& settings, const ActivityInput& in);
// One FIFO of a FifoGroup as ORION prices it: the buffers of a one-port, one-VC router.
RouterFigures fifo_figures(const OrionModel& model, const FifoGroup& g);

// result.energy: total_pj, dynamic_pj, leakage_pj, per_flit_pj (null with no
// flit delivered), and per component {dynamic_pj, leakage_pj, total_pj}.
nlohmann::ordered_json energy_json(const PowerSettings& settings, const ActivityInput& in);
// result.area: per router type (per router, by block, and all of them), the links, the total.
nlohmann::ordered_json area_json(const PowerSettings& settings, const ActivityInput& in);
// The counters as stats show them.
nlohmann::ordered_json activity_json(const RouterActivity& a);

}  // namespace icn::power
