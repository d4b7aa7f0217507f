#include "routers/fattree_packet/fat_tree_network.hpp"

#include <algorithm>

namespace icn::fattree {

namespace {
std::string router_name(unsigned level, unsigned index) {
  return "r" + std::to_string(level) + "_" + std::to_string(index);
}
}  // namespace

FatTreeNetwork::FatTreeNetwork(sc_core::sc_module_name name, const FatTreeShape& shape,
                               unsigned link_latency, CycleEngine& engine, PacketPool& pool,
                               TrafficLedger& ledger, const EjectionSwap& swap)
    : sc_module(name), shape_(shape), pool_(pool) {
  const unsigned h = shape_.height();
  const NodeId n = shape_.leaves();

  // A broadcast reaches every leaf but its source.
  for (NodeId leaf = 0; leaf < n; ++leaf) {
    PacketNic::Params p{leaf, n, n - 1};
    nics_.push_back(std::make_unique<PacketNic>(("nic" + std::to_string(leaf)).c_str(), p, pool, ledger));
    nics_.back()->set_locality(FatTreeShape::subtree_order(0, leaf));
    engine.add(*nics_.back());
  }
  routers_.resize(h + 1);
  for (unsigned level = 1; level <= h; ++level) {
    for (unsigned j = 0; j < shape_.routers_at(level); ++j) {
      routers_[level].push_back(std::make_unique<FatTreeRouter>(
          router_name(level, j).c_str(), level, j, level == h, pool));
      routers_[level].back()->set_locality(FatTreeShape::subtree_order(level, j));
      engine.add(*routers_[level].back());
    }
  }

  // Branch between level l-1 (child k) and level l (parent k/2): capacity c_l.
  up_.resize(h + 1);
  down_.resize(h + 1);
  for (unsigned level = 1; level <= h; ++level) {
    const unsigned width = shape_.capacity(level);
    const unsigned children = shape_.routers_at(level - 1);  // 2^(h-l+1); leaves when l = 1
    for (unsigned k = 0; k < children; ++k) {
      const std::string child = level == 1 ? "nic" + std::to_string(k) : router_name(level - 1, k);
      const std::string parent = router_name(level, k / 2);
      Channel& up = make_channel(child + ".up", width, link_latency);
      Channel& down = make_channel(parent + ".down" + std::to_string(k % 2), width, link_latency);
      up_[level - 1].push_back(&up);
      down_[level].push_back(&down);
      FatTreeRouter& p = *routers_[level][k / 2];
      p.connect(kDown0 + k % 2, up, down);
      if (level > 1) routers_[level - 1][k]->connect(kUp, down, up);
    }
  }
  // Each NIC's up and down links; a wiring fault crosses two leaves' down links.
  ejects_to_.resize(n);
  for (NodeId k = 0; k < n; ++k) {
    nics_[k]->attach(*up_[0][k], *down_[1][swap.wired_to(k)]);
    ejects_to_[swap.wired_to(k)] = k;
  }
}

Channel& FatTreeNetwork::make_channel(const std::string& name, unsigned width, unsigned latency) {
  channels_.emplace_back(std::string(this->name()) + "." + name, width, latency);
  return channels_.back();
}

FatTreeRouter& FatTreeNetwork::router(unsigned level, unsigned index) {
  return *routers_.at(level).at(index);
}

Channel* FatTreeNetwork::channel(const std::string& name) {
  const std::string full = std::string(this->name()) + "." + name;
  for (Channel& c : channels_) {
    if (c.name() == full) return &c;
  }
  return nullptr;
}

std::uint64_t FatTreeNetwork::failed_link_requests(const FatTreeLinkAddress& link) const {
  if (link.from == FatTreeLinkAddress::From::kNic) return nics_.at(link.index)->failed_injection_requests();
  return routers_.at(link.level).at(link.index)->failed_output_requests(link.up ? kUp : kDown0 + link.side);
}

std::vector<std::string> FatTreeNetwork::channel_names() const {
  std::vector<std::string> names;
  const std::size_t skip = std::string(name()).size() + 1;
  for (const Channel& c : channels_) names.push_back(c.name().substr(skip));
  return names;
}

std::vector<LevelStats> FatTreeNetwork::level_stats(Cycle cycles) const {
  std::vector<LevelStats> stats;
  for (unsigned level = 1; level <= shape_.height(); ++level) {
    LevelStats s;
    s.level = level;
    s.capacity = shape_.capacity(level);
    s.links = static_cast<std::uint64_t>(s.capacity) * shape_.routers_at(level - 1);
    for (const Channel* c : up_[level - 1]) s.transfers_up += c->transfers();
    for (const Channel* c : down_[level]) s.transfers_down += c->transfers();
    const double capacity_cycles = static_cast<double>(s.links) * static_cast<double>(cycles);
    if (capacity_cycles > 0) {
      s.utilisation_up = static_cast<double>(s.transfers_up) / capacity_cycles;
      s.utilisation_down = static_cast<double>(s.transfers_down) / capacity_cycles;
    }
    for (const auto& r : routers_[level]) {
      if (r->output(kUp).connected())
        s.max_queue_up = std::max(s.max_queue_up, r->output(kUp).queue().max_occupancy());
      for (unsigned port : {kDown0, kDown1})
        s.max_queue_down = std::max(s.max_queue_down, r->output(port).queue().max_occupancy());
    }
    stats.push_back(s);
  }
  return stats;
}

std::size_t FatTreeNetwork::max_nic_queue() const {
  std::size_t m = 0;
  for (const auto& nic : nics_) m = std::max(m, nic->injection_queue().max_occupancy());
  return m;
}

}  // namespace icn::fattree
