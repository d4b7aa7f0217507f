#include "routers/vc/fattree_topology.hpp"

#include <stdexcept>
#include <string>

#include "models/rng.hpp"
#include "routers/vc/vc_router.hpp"

namespace icn::vc {

FatTreeTopology::FatTreeTopology(unsigned height, std::vector<unsigned> capacities, unsigned vcs)
    : height_(height), capacities_(std::move(capacities)), vcs_(vcs) {
  if (height < 1 || height > 20) throw std::invalid_argument("vc fat tree: height 1..20");
  if (capacities_.size() != height) throw std::invalid_argument("vc fat tree: one capacity per level");
  if (capacities_[0] != 1) throw std::invalid_argument("vc fat tree: c_1 must be 1 (one NIC port per leaf)");
  for (unsigned c : capacities_)
    if (c < 1 || c > kMaxRouterInputVcs)  // a wider branch could not fit one router
      throw std::invalid_argument("vc fat tree: capacities 1.." + std::to_string(kMaxRouterInputVcs));
  first_.assign(height + 2, 0);
  for (unsigned l = 1; l <= height; ++l) first_[l + 1] = first_[l] + (1u << (height - l));
  routers_ = first_[height + 1];
}

unsigned FatTreeTopology::level(unsigned r) const {
  unsigned l = 1;
  while (r >= first_[l + 1]) ++l;
  return l;
}

unsigned FatTreeTopology::ports(unsigned r) const {
  const unsigned l = level(r);
  return 2 * capacity(l) + up_links(l);
}

PortRef FatTreeTopology::node_port(NodeId n) const { return {router_at(1, n >> 1), n & 1u}; }

std::optional<PortRef> FatTreeTopology::neighbor(unsigned r, unsigned p) const {
  const unsigned l = level(r), j = index(r), c = capacity(l);
  if (p < 2 * c) {  // down to child p / c, link p % c
    if (l == 1) return std::nullopt;  // a leaf's NIC
    const unsigned child = router_at(l - 1, 2 * j + p / c);
    return PortRef{child, 2 * capacity(l - 1) + p % c};
  }
  if (p >= 2 * c + up_links(l)) return std::nullopt;
  // Up link i of child side j & 1 arrives on the parent's down port side * c' + i.
  const unsigned i = p - 2 * c, cp = capacity(l + 1);
  return PortRef{router_at(l + 1, j >> 1), (j & 1u) * cp + i};
}

std::string FatTreeTopology::router_name(unsigned r) const {
  return "r" + std::to_string(level(r)) + "_" + std::to_string(index(r));
}

// "down0", "down1", "up" for single links (as network.failed_links names the
// channels of the packet fat tree); "down1_2", "up3" for link i of a wider branch.
std::string FatTreeTopology::port_name(unsigned r, unsigned p) const {
  const unsigned l = level(r), c = capacity(l);
  if (p < 2 * c) return "down" + std::to_string(p / c) + (c > 1 ? "_" + std::to_string(p % c) : "");
  return "up" + (up_links(l) > 1 ? std::to_string(p - 2 * c) : "");
}

std::string FatTreeTopology::describe() const {
  std::string caps;
  for (unsigned c : capacities_) caps += (caps.empty() ? "" : ",") + std::to_string(c);
  return "fat tree " + std::to_string(nodes()) + " [" + caps + "]";
}

RouteChoice FatTreeTopology::route(unsigned at, unsigned, NodeId, NodeId dst, Rng& rng) const {
  const std::uint64_t all = vcs_ == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << vcs_) - 1);
  const unsigned l = level(at), j = index(at);
  if ((dst >> l) == j) {  // in this subtree: down toward the destination's side
    const unsigned c = capacity(l), side = (dst >> (l - 1)) & 1u;
    const unsigned link = c == 1 ? 0u : static_cast<unsigned>(rng.below(c));
    return RouteChoice{side * c + link, all};
  }
  const unsigned u = up_links(l);
  const unsigned link = u == 1 ? 0u : static_cast<unsigned>(rng.below(u));
  return RouteChoice{2 * capacity(l) + link, all};
}

}  // namespace icn::vc
