// Prints ORION 2.0's area of one VC router (power/orion.hpp) and the
// technology's cell areas, for scripts/rtl_area_crosscheck:
//   orion_area PORTS VCS DEPTH FLIT_BITS [TECH]      (TECH: 45nm by default)
// One "key value" line each, in um^2: the cell areas (area_nor, area_inv,
// area_dff) and the blocks (buffers, crossbar, sw_allocator, vc_allocator,
// clock, total).
#include <cstdio>
#include <exception>
#include <string>

#include "power/orion.hpp"

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: orion_area PORTS VCS DEPTH FLIT_BITS [TECH]\n");
    return 2;
  }
  try {
    icn::power::RouterShape s;
    s.ports_in = s.ports_out = static_cast<unsigned>(std::stoul(argv[1]));
    s.vcs = static_cast<unsigned>(std::stoul(argv[2]));
    s.depth = static_cast<unsigned>(std::stoul(argv[3]));
    s.flit_bits = static_cast<unsigned>(std::stoul(argv[4]));
    const auto tech = icn::power::load_technology(argc == 6 ? argv[5] : "45nm");
    const icn::power::OrionModel model(tech, 1.0);
    const auto a = model.router(s).area_mm2;
    const double um2 = 1e6;
    std::printf("area_nor %.9g\narea_inv %.9g\narea_dff %.9g\n", tech.area_nor, tech.area_inv, tech.area_dff);
    std::printf("buffers %.9g\ncrossbar %.9g\nsw_allocator %.9g\nvc_allocator %.9g\nclock %.9g\ntotal %.9g\n",
                a.buffers * um2, a.crossbar * um2, a.sw_allocator * um2, a.vc_allocator * um2, a.clock * um2,
                a.total() * um2);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orion_area: %s\n", e.what());
    return 2;
  }
  return 0;
}
