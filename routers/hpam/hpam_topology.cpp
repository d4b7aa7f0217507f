#include "routers/hpam/hpam_topology.hpp"

namespace icn::hpam {

HpamTopology::HpamTopology(const HpamGeometry& geometry, unsigned vcs, bool replication)
    : geo_(geometry), vcs_(vcs), replication_(replication), all_vcs_(vcs >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << vcs) - 1) {}

std::optional<unsigned> HpamTopology::up_port(unsigned r) const {
  if (!geo_.has_up(geo_.position(r))) return std::nullopt;
  return kFirstLevelPort;
}

unsigned HpamTopology::down_ports(unsigned r) const {
  const Position p = geo_.position(r);
  return geo_.has_down(p) ? geo_.fanout(p.level + 1) : 0;
}

unsigned HpamTopology::down_port(unsigned r, unsigned branch) const {
  return kFirstLevelPort + (up_port(r) ? 1u : 0u) + branch;
}

std::optional<unsigned> HpamTopology::from_replicator_port(unsigned r) const {
  if (!replication_ || !up_port(r)) return std::nullopt;
  return down_port(r, 0) + down_ports(r);
}

std::optional<unsigned> HpamTopology::replicate_port(unsigned r) const {
  if (!replication_ || down_ports(r) == 0) return std::nullopt;
  return down_port(r, 0) + down_ports(r) + (from_replicator_port(r) ? 1u : 0u);
}

std::optional<unsigned> HpamTopology::combine_port(unsigned r) const {
  if (!replicate_port(r)) return std::nullopt;
  return *replicate_port(r) + 1;
}

unsigned HpamTopology::ports(unsigned r) const {
  return kFirstLevelPort + (up_port(r) ? 1u : 0u) + down_ports(r) + (from_replicator_port(r) ? 1u : 0u) +
         (replicate_port(r) ? 2u : 0u);
}

std::optional<vc::PortRef> HpamTopology::neighbor(unsigned r, unsigned p) const {
  const Position at = geo_.position(r);
  const LevelShape& s = geo_.level(at.level);
  auto same_level = [&](unsigned row, unsigned col, unsigned port) {
    return vc::PortRef{geo_.node({at.level, row, col}), port};
  };
  switch (p) {
    case kLocal: return std::nullopt;
    case kEast: if (at.col + 1 < s.cols) return same_level(at.row, at.col + 1, kWest); return std::nullopt;
    case kWest: if (at.col > 0) return same_level(at.row, at.col - 1, kEast); return std::nullopt;
    case kSouth: if (at.row + 1 < s.rows) return same_level(at.row + 1, at.col, kNorth); return std::nullopt;
    case kNorth: if (at.row > 0) return same_level(at.row - 1, at.col, kSouth); return std::nullopt;
    default: break;
  }
  if (up_port(r) && p == kFirstLevelPort) {
    const Position above = geo_.above(at);
    const unsigned a = geo_.node(above);
    return vc::PortRef{a, down_port(a, at.col % geo_.fanout(at.level))};
  }
  if (p == from_replicator_port(r) || p == replicate_port(r) || p == combine_port(r)) return std::nullopt;  // wired by the HPAM network
  const unsigned first_down = down_port(r, 0);
  if (p >= first_down && p < first_down + down_ports(r)) {
    const unsigned b = geo_.node(geo_.below(at, p - first_down));
    return vc::PortRef{b, kFirstLevelPort};
  }
  return std::nullopt;
}

std::string HpamTopology::name_of(const Position& p) {
  return "l" + std::to_string(p.level + 1) + "_r" + std::to_string(p.row) + "_" + std::to_string(p.col);
}

std::string HpamTopology::port_name(unsigned r, unsigned p) const {
  static const char* mesh[] = {"local", "east", "west", "south", "north"};
  if (p < kFirstLevelPort) return mesh[p];
  if (up_port(r) && p == kFirstLevelPort) return "up";
  if (p == from_replicator_port(r)) return "from_replicator";
  if (p == replicate_port(r)) return "replicate";
  if (p == combine_port(r)) return "combine";
  return "down" + std::to_string(p - down_port(r, 0));
}

std::optional<vc::VcLinkAddress> HpamTopology::parse_link(std::string_view text) const {
  vc::VcLinkNames names;
  names.nodes = nodes();
  names.router_named = [this](std::string_view node) -> std::optional<unsigned> {
    // l<L>_r<row>_<col>, every index strictly decimal (models/link_address.hpp).
    if (node.size() < 2 || node[0] != 'l') return std::nullopt;
    const std::size_t us1 = node.find("_r");
    if (us1 == std::string_view::npos) return std::nullopt;
    const std::size_t us2 = node.find('_', us1 + 2);
    if (us2 == std::string_view::npos) return std::nullopt;
    const auto level = parse_index(node.substr(1, us1 - 1), geo_.levels());
    if (!level || *level < 1) return std::nullopt;
    const LevelShape& s = geo_.level(static_cast<unsigned>(*level - 1));
    const auto row = parse_index(node.substr(us1 + 2, us2 - us1 - 2), s.rows - 1);
    const auto col = parse_index(node.substr(us2 + 1), s.cols - 1);
    if (!row || !col) return std::nullopt;
    return geo_.node({static_cast<unsigned>(*level - 1), static_cast<unsigned>(*row), static_cast<unsigned>(*col)});
  };
  names.router_name = [this](unsigned r) { return router_name(r); };
  names.ports = [this](unsigned r) { return ports(r); };
  names.port_name = [this](unsigned r, unsigned p) { return port_name(r, p); };
  names.connected = [this](unsigned r, unsigned p) { return p == kLocal || neighbor(r, p).has_value(); };
  return vc::parse_vc_link(text, names);
}

std::string HpamTopology::describe() const {
  std::string s = "hpam";
  for (unsigned l = 0; l < geo_.levels(); ++l)
    s += (l ? " + " : " ") + std::to_string(geo_.level(l).rows) + "x" + std::to_string(geo_.level(l).cols);
  return s;
}

vc::RouteChoice HpamTopology::route(unsigned at, unsigned in_port, NodeId, NodeId dst, Rng&) const {
  const bool replicate = (dst & kReplicateBit) != 0;
  if ((dst & kCombineBit) != 0) {
    const Position here = geo_.position(at), to = geo_.position(dst & ~kGroupBits);
    if (here.level > to.level) return vc::RouteChoice{here.row > 0 ? unsigned{kNorth} : unsigned{kFirstLevelPort}, all_vcs_};
    const unsigned first_down = down_port(at, 0);
    if (combine_port(at) && in_port >= first_down && in_port < first_down + down_ports(at))
      return vc::RouteChoice{*combine_port(at), all_vcs_};
  }
  const Step s = geo_.route(geo_.position(at), geo_.position(dst & ~kGroupBits));
  if (replicate && s.dir == Step::kDown) return vc::RouteChoice{*replicate_port(at), all_vcs_};
  unsigned port = kLocal;
  switch (s.dir) {
    case Step::kEject: port = kLocal; break;
    case Step::kEast: port = kEast; break;
    case Step::kWest: port = kWest; break;
    case Step::kSouth: port = kSouth; break;
    case Step::kNorth: port = kNorth; break;
    case Step::kUp: port = kFirstLevelPort; break;
    case Step::kDown: port = down_port(at, s.branch); break;
  }
  return vc::RouteChoice{port, all_vcs_};
}

}  // namespace icn::hpam
