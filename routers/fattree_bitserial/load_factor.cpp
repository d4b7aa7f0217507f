#include "routers/fattree_bitserial/load_factor.hpp"

#include <algorithm>

namespace icn {

ChannelLoads::ChannelLoads(const FatTreeShape& shape) : shape_(shape) {
  up_.resize(shape.height() + 1);
  down_.resize(shape.height() + 1);
  for (unsigned l = 1; l <= shape.height(); ++l) {
    up_[l].assign(shape.routers_at(l - 1), 0);
    down_[l].assign(shape.routers_at(l - 1), 0);
  }
}

void ChannelLoads::add(NodeId src, NodeId dst, int sign) {
  const unsigned top = FatTreeShape::lca_level(src, dst);
  for (unsigned l = 1; l <= top; ++l) {
    up_[l][src >> (l - 1)] += static_cast<std::uint64_t>(static_cast<std::int64_t>(sign));
    down_[l][dst >> (l - 1)] += static_cast<std::uint64_t>(static_cast<std::int64_t>(sign));
  }
}

std::string LoadFactor::where() const {
  if (level == 0) return "no messages";
  return std::string(up ? "up from" : "down into") + " subtree " + std::to_string(subtree) + " of level " +
         std::to_string(level - 1) + " (cap " + std::to_string(capacity) + ")";
}

LoadFactor load_factor(const FatTreeShape& shape, const std::vector<SourceDestination>& messages) {
  ChannelLoads loads(shape);
  for (const auto& m : messages) loads.add(m.src, m.dst);
  LoadFactor best;
  best.max_load_per_level.assign(shape.height(), 0);
  for (unsigned l = 1; l <= shape.height(); ++l) {
    const unsigned cap = shape.capacity(l);
    for (NodeId k = 0; k < shape.routers_at(l - 1); ++k) {
      for (bool up : {true, false}) {
        const std::uint64_t load = up ? loads.up(l, k) : loads.down(l, k);
        best.max_load_per_level[l - 1] = std::max(best.max_load_per_level[l - 1], load);
        // load / cap > best.load / best.capacity, in integers
        if (load * best.capacity > best.load * cap || (best.level == 0 && load > 0)) {
          best.load = load;
          best.capacity = cap;
          best.level = l;
          best.up = up;
          best.subtree = k;
        }
      }
    }
  }
  return best;
}

double max_load_factor(const FatTreeShape& shape) {
  double best = 0;
  const double n = static_cast<double>(shape.leaves());
  for (unsigned l = 1; l <= shape.height(); ++l) {
    const double inside = static_cast<double>(NodeId{1} << (l - 1));
    best = std::max(best, inside * (n - inside) / shape.capacity(l));
  }
  return best;
}

}  // namespace icn
