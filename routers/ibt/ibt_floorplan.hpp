// IbtFloorplan: where each router of a Torus(n^d) or iBT(n^d; b) sits on a
// chip of square tiles, one router per tile, and so how many tiles each link
// spans (docs/energy.md, "Tori and iBT (Zhang & Deng)"). The energy model
// prices a link at its length in tiles times power.link_mm.
//
// The rule: every ring is folded (Dally & Towles, ch. 5.4), so ring position
// i sits at slot 2i for i < ceil(n/2) and at 2(n-1-i)+1 otherwise; a ring link
// then spans 2 tiles, except the two at the folds, which span 1, and no wrap
// link crosses the chip. Dimensions alternate between the chip's two axes:
// dimensions 1 and 3 along x, 2 and 4 along y, the slower dimension of an
// axis stepping over whole blocks of n tiles. A bypass link of span b runs
// along its dimension over the slots between its two ends: about 2b tiles.
#pragma once

#include <cstdlib>

#include "routers/ibt/ibt_topology.hpp"

namespace icn::ibt {

class IbtFloorplan {
 public:
  explicit IbtFloorplan(const IbtTopology& topo) : topo_(topo) {}

  // The slot of ring position i (0..n-1) along its axis.
  unsigned slot(unsigned i) const {
    const unsigned n = topo_.n();
    return i < (n + 1) / 2 ? 2 * i : 2 * (n - 1 - i) + 1;
  }

  // Tiles the link leaving router x on `port` spans.
  unsigned link_tiles(NodeId x, unsigned port) const {
    const unsigned dim = topo_.port_dim(x, port);
    const NodeId y = topo_.neighbour(x, port);
    const int a = static_cast<int>(slot(topo_.coord(x, dim))), b = static_cast<int>(slot(topo_.coord(y, dim)));
    unsigned block = 1;  // tiles per slot: n for the second dimension on an axis
    for (unsigned k = 2; k <= dim; k += 2) block *= topo_.n();
    return static_cast<unsigned>(std::abs(a - b)) * block;
  }

 private:
  const IbtTopology& topo_;
};

}  // namespace icn::ibt
