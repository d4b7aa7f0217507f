// Where the wires of a crossbar network run, for their length in the energy
// model (docs/energy.md, "The crossbars (Sanders & Sibeyn)"): `count` blocks
// of w x h tiles sit row by row in a grid of ceil(sqrt(count)) columns, and
// their switch sits at the centre of the grid's bounding box. A block's link
// runs from its centre to the switch along the axes.
//
//   full crossbar        P processor tiles (1 x 1) around the crossbar
//   hier_crossbar        in each module, b processor tiles around the module's
//                        crossbar; the a modules (blocks of the module's grid)
//                        around the global crossbar
#pragma once

#include <cmath>

namespace icn::xbar {

struct GridFloorplan {
  unsigned count = 1;             // blocks
  double block_w = 1, block_h = 1;  // a block's size, tiles

  unsigned columns() const {
    unsigned c = 1;
    while (c * c < count) ++c;
    return c;
  }
  unsigned rows() const { return (count + columns() - 1) / columns(); }
  // Manhattan distance from block i's centre to the switch, tiles.
  double tiles_to_switch(unsigned i) const {
    const unsigned c = columns();
    const double x = (i % c + 0.5) * block_w, y = (i / c + 0.5) * block_h;
    return std::fabs(x - c * block_w / 2) + std::fabs(y - rows() * block_h / 2);
  }
  // The whole grid as a block of the level above.
  double width() const { return columns() * block_w; }
  double height() const { return rows() * block_h; }
};

}  // namespace icn::xbar
