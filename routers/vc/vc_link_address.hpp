// A link of the virtual-channel network named for fault injection
// (network.failed_links), parsed once into a typed address (models/link_address.hpp
// has the strict index syntax):
//   nic<k>.up              node k's injection link into its router
//   <router>.<port>        the output link of a router's port, named as the
//                          topology names them: r3_5.x+ (mesh/torus: the router's
//                          coordinates), r2_1.down0 or r1_0.up (fat tree); the
//                          port toward a node is its ejection link
// A name that parses always finds its link: the router comes from the parsed
// indices, the port from the topology's own port names, and a port without a
// link (a mesh edge) is refused.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/link_address.hpp"

namespace icn::vc {

struct VcLinkAddress {
  bool injection = false;  // nic<k>.up
  unsigned node = 0;       // for an injection link
  unsigned router = 0;     // otherwise: router and output port
  unsigned port = 0;
  std::string name;        // canonical, equal to the text it was parsed from
};

// How a topology names its routers and ports, for the parser.
struct VcLinkNames {
  std::uint64_t nodes = 0;
  // The router whose name is "r" + the indices joined by '_', or nullopt.
  std::function<std::optional<unsigned>(const std::vector<std::uint64_t>&)> router_of;
  // A family whose routers are named otherwise (HPAM's l<level>_r<row>_<col>)
  // parses the router part itself; when set, router_of is not used.
  std::function<std::optional<unsigned>(std::string_view)> router_named;
  std::function<std::string(unsigned)> router_name;
  std::function<unsigned(unsigned)> ports;
  std::function<std::string(unsigned, unsigned)> port_name;
  // Whether router r's output port p has a link (to a router or a node).
  std::function<bool(unsigned, unsigned)> connected;
};

inline std::optional<VcLinkAddress> parse_vc_link(std::string_view text, const VcLinkNames& names) {
  const std::size_t dot = text.find('.');
  if (dot == std::string_view::npos || names.nodes == 0) return std::nullopt;
  const std::string_view node = text.substr(0, dot), port = text.substr(dot + 1);
  VcLinkAddress a;
  a.name = std::string(text);
  if (node.substr(0, 3) == "nic") {
    const auto k = parse_index(node.substr(3), names.nodes - 1);
    if (!k || port != "up") return std::nullopt;
    a.injection = true;
    a.node = static_cast<unsigned>(*k);
    return a;
  }
  std::optional<unsigned> r;
  if (names.router_named) {
    r = names.router_named(node);
  } else {
    if (node.size() < 2 || node[0] != 'r') return std::nullopt;
    std::vector<std::uint64_t> indices;
    std::string_view rest = node.substr(1);
    while (true) {
      const std::size_t us = rest.find('_');
      const auto v = parse_index(rest.substr(0, us), std::uint64_t{1} << 32);
      if (!v || indices.size() >= 8) return std::nullopt;
      indices.push_back(*v);
      if (us == std::string_view::npos) break;
      rest = rest.substr(us + 1);
    }
    r = names.router_of(indices);
  }
  if (!r || names.router_name(*r) != node) return std::nullopt;
  for (unsigned p = 0; p < names.ports(*r); ++p) {
    if (names.port_name(*r, p) != port) continue;
    if (!names.connected(*r, p)) return std::nullopt;  // a port without a link (a mesh edge)
    a.router = *r;
    a.port = p;
    return a;
  }
  return std::nullopt;
}

}  // namespace icn::vc
