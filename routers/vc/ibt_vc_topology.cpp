#include "routers/vc/ibt_vc_topology.hpp"

#include <stdexcept>

namespace icn::vc {

IbtVcTopology::IbtVcTopology(unsigned k, unsigned n, std::vector<unsigned> bypass, unsigned vcs, bool dateline)
    : ibt_(k, n, std::move(bypass)), vcs_(vcs), dateline_(dateline) {
  if (!ibt_.has_bypass()) throw std::invalid_argument("vc ibt topology: at least one bypass length (else a torus)");
  if (dateline_ && vcs < 2) throw std::invalid_argument("vc topology: datelines need at least 2 VCs");
}

std::optional<PortRef> IbtVcTopology::neighbor(unsigned router, unsigned port) const {
  if (port == 0 || port > ibt_.ports()) return std::nullopt;
  const unsigned p = port - 1;  // IbtTopology's port
  return PortRef{static_cast<unsigned>(ibt_.neighbour(router, p)), (p ^ 1u) + 1};
}

std::string IbtVcTopology::router_name(unsigned router) const {
  std::string s = "r";
  for (unsigned d = 0; d < ibt_.d(); ++d) s += (d ? "_" : "") + std::to_string(ibt_.coord(router, d));
  return s;
}

std::string IbtVcTopology::port_name(unsigned, unsigned port) const {
  return port == 0 ? "local" : ibt_.port_name(port - 1);  // x+ ... z-, b+, b-
}

std::string IbtVcTopology::describe() const {
  std::string s = "ibt " + std::to_string(ibt_.n());
  for (unsigned d = 1; d < ibt_.d(); ++d) s += "x" + std::to_string(ibt_.n());
  s += " bypass <";
  for (std::size_t j = 0; j < ibt_.bypass().size(); ++j) s += (j ? "," : "") + std::to_string(ibt_.bypass()[j]);
  return s + ">";
}

RouteChoice IbtVcTopology::route(unsigned at, unsigned, NodeId src, NodeId dst, Rng&) const {
  return route(at, src, dst);
}

RouteChoice IbtVcTopology::route(unsigned at, NodeId src, NodeId dst) const {
  const std::uint64_t all = vcs_ == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << vcs_) - 1);
  const unsigned k = ibt_.n();
  for (unsigned d = 0; d < ibt_.d(); ++d) {
    const unsigned x = ibt_.coord(at, d);
    const unsigned t = ibt_.coord(dst, d);
    if (x == t) continue;
    // The shorter way round, ties +. Every hop below moves at most the
    // distance left, so the way chosen at the dimension's first hop stays the
    // shorter one (a tie only at the first hop): one direction per dimension.
    const unsigned forward = (t + k - x) % k;
    const bool plus = forward <= k - forward;
    const unsigned left = plus ? forward : k - forward;
    // The bypass when it runs along d and does not overshoot, else the ring.
    unsigned step = 1;
    unsigned port = 1 + 2 * d + (plus ? 0u : 1u);
    if (ibt_.bypass_dim(at) == d && ibt_.bypass_length(at) <= left) {
      step = ibt_.bypass_length(at);
      port = bypass_plus_port() + (plus ? 0u : 1u);
    }
    RouteChoice c{port, all};
    if (dateline_) {
      // Upper class from the hop whose far end has wrapped past coordinate 0
      // (from the source's coordinate, the packet travels less than k in d).
      const unsigned s = ibt_.coord(src, d);
      const unsigned next = plus ? (x + step) % k : (x + k - step) % k;
      const bool crossed = plus ? next < s : next > s;
      const std::uint64_t lower = (std::uint64_t{1} << (vcs_ / 2)) - 1;
      c.vc_mask = crossed ? (all & ~lower) : lower;
    }
    return c;
  }
  return RouteChoice{0, all};  // arrived: eject
}

}  // namespace icn::vc
