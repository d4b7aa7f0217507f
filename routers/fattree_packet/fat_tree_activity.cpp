// FatTreeNetwork::activity(): the routers' counters summed level by level and
// the flits each level's branch carried (Channel::transfers, counted by the
// channels themselves), read once when the results are written.
#include "routers/fattree_packet/fat_tree_network.hpp"

namespace icn::fattree {

std::vector<LevelActivity> FatTreeNetwork::activity() const {
  std::vector<LevelActivity> levels;
  const unsigned h = shape_.height();
  for (unsigned level = 1; level <= h; ++level) {
    LevelActivity a;
    a.level = level;
    a.routers = routers_[level].size();
    a.ports = 2 * shape_.capacity(level) + (level < h ? shape_.capacity(level + 1) : 0);
    for (const auto& r : routers_[level]) a.activity += r->activity();
    a.links = 2ull * shape_.capacity(level) * shape_.routers_at(level - 1);
    for (const Channel* c : up_[level - 1]) a.flits_up += c->transfers();
    for (const Channel* c : down_[level]) a.flits_down += c->transfers();
    levels.push_back(a);
  }
  return levels;
}

}  // namespace icn::fattree
