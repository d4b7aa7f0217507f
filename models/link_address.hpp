// Link addresses: a fault-injection name parsed once into a typed address.
//
// `network.failed_links` names links as text. Each name is parsed exactly once,
// strictly (decimal digits only: no sign, no space, no leading zero, no
// overflow), into a typed address whose canonical name is the link's own; the
// same parsed address serves validation and lookup, so a name that passes the
// check always finds its link.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace icn {

// A decimal index in [0, max]: digits only, "0" or no leading zero.
inline std::optional<std::uint64_t> parse_index(std::string_view s, std::uint64_t max) {
  if (s.empty() || s.size() > 19 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (v > max) return std::nullopt;
  return v;
}

// A channel of a binary fat tree of height h (leaves 0..2^h-1, routers r<l>_<j>
// at levels 1..h, j < 2^(h-l); the bit-serial tree calls its switches s<l>_<j>):
//   nic<k>.up            processor k's link up to its level-1 router
//   r<l>_<j>.up          router's link up to its parent (l < h)
//   r<l>_<j>.down<s>     router's link down to child s (0 or 1)
// followed, where the family has acknowledge wires, by ".ack" for the
// acknowledge wire running against that channel.
struct FatTreeLinkAddress {
  enum class From : std::uint8_t { kNic, kRouter };
  From from = From::kNic;
  unsigned level = 0;      // 0 for a NIC
  std::uint64_t index = 0;  // NIC number or router index within its level
  bool up = true;
  unsigned side = 0;       // for down channels
  bool ack = false;
  char router_prefix = 'r';

  std::string channel_name() const {
    std::string s = from == From::kNic ? "nic" + std::to_string(index)
                                       : router_prefix + std::to_string(level) + "_" + std::to_string(index);
    s += up ? ".up" : ".down" + std::to_string(side);
    return s;
  }
  std::string name() const { return channel_name() + (ack ? ".ack" : ""); }
};

inline std::optional<FatTreeLinkAddress> parse_fat_tree_link(std::string_view name, unsigned height,
                                                             bool allow_ack, char router_prefix = 'r') {
  FatTreeLinkAddress a;
  a.router_prefix = router_prefix;
  if (allow_ack && name.size() > 4 && name.substr(name.size() - 4) == ".ack") {
    a.ack = true;
    name.remove_suffix(4);
  }
  const std::size_t dot = name.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view node = name.substr(0, dot), port = name.substr(dot + 1);
  if (node.substr(0, 3) == "nic") {
    const auto k = parse_index(node.substr(3), (std::uint64_t{1} << height) - 1);
    if (!k || port != "up") return std::nullopt;
    a.index = *k;
    return a;
  }
  if (node.empty() || node[0] != router_prefix) return std::nullopt;
  const std::size_t us = node.find('_');
  if (us == std::string_view::npos) return std::nullopt;
  const auto level = parse_index(node.substr(1, us - 1), height);
  if (!level || *level < 1) return std::nullopt;
  const auto j = parse_index(node.substr(us + 1), (std::uint64_t{1} << (height - *level)) - 1);
  if (!j) return std::nullopt;
  a.from = FatTreeLinkAddress::From::kRouter;
  a.level = static_cast<unsigned>(*level);
  a.index = *j;
  if (port == "up" && a.level < height) return a;
  if (port == "down0" || port == "down1") {
    a.up = false;
    a.side = port == "down1" ? 1 : 0;
    return a;
  }
  return std::nullopt;
}

}  // namespace icn

namespace icn {

// A link of a direct network named "<node id>.<port name>" (torus, iBT, ...).
struct NodePortAddress {
  std::uint64_t node = 0;
  unsigned port = 0;
};

template <class PortName>
std::optional<NodePortAddress> parse_node_port_link(std::string_view name, std::uint64_t nodes, unsigned ports,
                                                    PortName&& port_name) {
  const std::size_t dot = name.find('.');
  if (dot == std::string_view::npos || nodes == 0) return std::nullopt;
  const auto node = parse_index(name.substr(0, dot), nodes - 1);
  if (!node) return std::nullopt;
  for (unsigned q = 0; q < ports; ++q)
    if (name.substr(dot + 1) == port_name(q)) return NodePortAddress{*node, q};
  return std::nullopt;
}

}  // namespace icn
