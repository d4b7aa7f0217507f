// Link lengths of a binary tree on a chip (docs/energy.md, "The packet fat
// tree", "Link lengths"): the H-tree both fat-tree families are priced on.
// One leaf per square tile of power.link_mm; the pairings alternate
// horizontal (level 1) and vertical (level 2), each node at the midpoint of
// its two children (Leiserson, FOCS 1980).
#pragma once

#include <cmath>

#include "models/params.hpp"

namespace icn::power {

// Default htree: the layout the papers' trees are drawn for on a chip.
inline const ChoiceParam kTreeLayout{"power.tree_layout", "htree", {"htree", "uniform"},
                                     "link lengths: htree = a level-l link spans 2^(ceil(l/2)-2) tiles of power.link_mm "
                                     "(H-tree layout, one leaf per tile); uniform = every link power.link_mm"};

// Tiles spanned by one link of branch level l (between levels l-1 and l): the
// two children of a level-l node lie 2^(ceil(l/2)-1) tiles apart and the node
// sits halfway, so each of its down links spans half that.
inline double htree_link_tiles(unsigned level) { return std::ldexp(1.0, static_cast<int>((level + 1) / 2) - 2); }

// A level-l link's length, mm: the H-tree's, or every link `tile_mm` (uniform).
inline double tree_link_mm(bool htree, double tile_mm, unsigned level) {
  return htree ? tile_mm * htree_link_tiles(level) : tile_mm;
}

}  // namespace icn::power
