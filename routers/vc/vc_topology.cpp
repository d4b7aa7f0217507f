#include "routers/vc/vc_topology.hpp"

#include <algorithm>
#include <stdexcept>

namespace icn::vc {

unsigned VcTopology::max_ports() const {
  unsigned m = 0;
  for (unsigned r = 0; r < routers(); ++r) m = std::max(m, ports(r));
  return m;
}

MeshTorusTopology::MeshTorusTopology(TopologyKind kind, unsigned k, unsigned n, unsigned vcs, bool dateline, bool adaptive)
    : MeshTorusTopology(kind, std::vector<unsigned>(n, k), vcs, dateline, adaptive) {}

MeshTorusTopology::MeshTorusTopology(TopologyKind kind, const std::vector<unsigned>& sides, unsigned vcs, bool dateline,
                                     bool adaptive)
    : kind_(kind), n_(static_cast<unsigned>(sides.size())), vcs_(vcs), dateline_(dateline && kind == TopologyKind::kTorus),
      adaptive_(adaptive) {
  if (adaptive && (kind != TopologyKind::kMesh || n_ != 2))
    throw std::invalid_argument("vc topology: adaptive (west-first) routing needs a 2-D mesh");
  if (n_ < 1 || n_ > 3) throw std::invalid_argument("vc topology: k >= 2, n = 1..3");
  routers_ = 1;
  for (unsigned d = 0; d < n_; ++d) {
    if (sides[d] < 2) throw std::invalid_argument("vc topology: k >= 2, n = 1..3");
    side_[d] = sides[d];
    stride_[d] = routers_;
    routers_ *= sides[d];
  }
  if (dateline_ && vcs < 2) throw std::invalid_argument("vc topology: datelines need at least 2 VCs");
}

unsigned MeshTorusTopology::coord(unsigned router, unsigned dim) const { return (router / stride_[dim]) % side_[dim]; }

std::optional<PortRef> MeshTorusTopology::neighbor(unsigned router, unsigned port) const {
  if (port == 0 || port > 2 * n_) return std::nullopt;
  const unsigned d = (port - 1) / 2;
  const bool plus = (port % 2) == 1;
  const unsigned x = coord(router, d);
  const unsigned k = side_[d];
  unsigned nx;
  if (plus) {
    if (x + 1 == k && kind_ == TopologyKind::kMesh) return std::nullopt;
    nx = (x + 1) % k;
  } else {
    if (x == 0 && kind_ == TopologyKind::kMesh) return std::nullopt;
    nx = (x + k - 1) % k;
  }
  return PortRef{router - x * stride_[d] + nx * stride_[d], opposite(port)};
}

std::string MeshTorusTopology::direction_name(unsigned port) {
  if (port == 0) return "local";
  static const char* dims = "xyz";
  return std::string(1, dims[(port - 1) / 2]) + ((port % 2) == 1 ? "+" : "-");
}

std::string MeshTorusTopology::router_name(unsigned router) const {
  std::string s = "r";
  for (unsigned d = 0; d < n_; ++d) s += (d ? "_" : "") + std::to_string(coord(router, d));
  return s;
}

std::string MeshTorusTopology::describe() const {
  std::string s = std::string(kind_ == TopologyKind::kMesh ? "mesh " : "torus ") + std::to_string(side_[0]);
  for (unsigned d = 1; d < n_; ++d) s += "x" + std::to_string(side_[d]);
  return s;
}

RouteChoice MeshTorusTopology::route(unsigned at, unsigned, NodeId src, NodeId dst, Rng& rng) const {
  return route_with(at, src, dst, &rng);
}

RouteChoice MeshTorusTopology::route_with(unsigned at, NodeId src, NodeId dst, Rng* rng) const {
  const std::uint64_t all = vcs_ == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << vcs_) - 1);
  if (adaptive_) {
    const unsigned x = coord(at, 0), y = coord(at, 1), tx = coord(dst, 0), ty = coord(dst, 1);
    if (tx < x) return RouteChoice{2, all};          // west first, and only west
    const unsigned yport = ty > y ? 3u : 4u;
    if (tx > x && ty != y) return RouteChoice{1, all, true, yport};  // east or north/south
    if (tx > x) return RouteChoice{1, all};
    if (ty != y) return RouteChoice{yport, all};
    return RouteChoice{0, all};
  }
  for (unsigned d = 0; d < n_; ++d) {
    const unsigned x = coord(at, d);
    const unsigned t = coord(dst, d);
    const unsigned k = side_[d];
    if (x == t) continue;
    bool plus;
    if (kind_ == TopologyKind::kMesh) {
      plus = t > x;
    } else {
      const unsigned forward = (t + k - x) % k;
      // A tie (forward == k/2) is only possible at the first hop of the
      // dimension; after it the way left is shorter than k/2.
      if (forward == k - forward && torus_.random_ties && rng != nullptr) plus = rng->below(2) == 0;
      else plus = forward <= k - forward;
    }
    RouteChoice c{1 + 2 * d + (plus ? 0u : 1u), all};
    if (dateline_ && torus_.classes == DatelineClasses::kWholeDimension) {
      // The packet entered this dimension at the source's coordinate (lower
      // dimensions are done, higher ones untouched). BookSim 2's rule: the
      // upper half iff the destination's coordinate is below the entry's, in
      // either direction. Going +, that is the packets that cross the wrap
      // link k-1 -> 0; going -, those that do not cross 0 -> k-1. Each ring
      // direction thus keeps its crossing and its other packets apart, which
      // is all the dateline needs (docs/vc_router.md).
      const unsigned s = coord(src, d);
      const bool upper = t < s;
      const unsigned half = vcs_ / 2;
      const std::uint64_t lower = (std::uint64_t{1} << half) - 1;
      c.vc_mask = upper ? (all & ~lower) : lower;
    } else if (dateline_) {
      // The class of the next buffer: upper once this dimension's wrap link is
      // crossed, i.e. when the next coordinate has passed round the source's.
      const unsigned s = coord(src, d);
      const unsigned next = plus ? (x + 1) % k : (x + k - 1) % k;
      const bool crossed = plus ? next < s : next > s;
      const unsigned half = vcs_ / 2;
      const std::uint64_t lower = (std::uint64_t{1} << half) - 1;
      c.vc_mask = crossed ? (all & ~lower) : lower;
    }
    return c;
  }
  return RouteChoice{0, all};  // arrived: eject
}

}  // namespace icn::vc
