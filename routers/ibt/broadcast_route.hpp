// The broadcast header of a packet (its 32-bit route word) and the
// BroadcastRouteUnit that turns it into the output ports a router may use.
//
// Every broadcast in this family is a set of colours. A colour is a spanning
// structure built from line broadcasts along an ordered list of dimensions;
// a packet carries its colour, and each router decides from the header, the
// source's coordinates and its own which of its ports may carry that colour.
// Which of the allowed neighbours actually get a packet, and when, is decided
// by the output ports (see broadcast_port_arbiter.hpp) from the neighbours' holdings.
//
// Two colour schemes:
//
// kDimensionOrdered (Zhang & Deng, sections 4.1, 5.1, 6.1) over a dimension
// list L = [l_0..l_{m-1}] (m = 1: line, m = 2: rectangle, m = d: global);
// colour c visits the dimensions in the cyclic order l_c, l_{c+1}, ...:
//   - the source broadcasts colour c along l_c (its torus and, when its bypass
//     runs along l_c, its bypass ports) - rule 1;
//   - a node x whose offset from the source is non-zero in l_c belongs to
//     colour c's tree. Let j be the last dimension, in colour c's order, in
//     which x differs from the source: x lies on a colour-c line along j and
//     starts colour-c lines along every later dimension (rules 2 and 3; its
//     later dimensions are chi^c(c, k_m(x, s)) in the paper's notation). It may
//     use the torus ports of those dimensions and its bypass ports if its
//     bypass runs along one of them;
//   - nodes with offset 0 in l_c (other than the source) are leaves of colour
//     c: their torus neighbours at offset +1 and -1 in l_c fill them (rule 4).
// Colours never share a link: a node uses dimension j for colour c only if its
// differing dimensions include l_c and lie in the cyclic interval l_c..j, and
// two such intervals ending at j cannot both hold the other's start.
//
// kDirectedTorus: the 2m edge-disjoint spanning trees of a torus (the paper's
// baseline, eqs. 5 and 6). Colour (c, sigma), sigma = +1 or -1, visits the
// dimensions l_c, l_{c+1}, ... as directed chains of n-1 hops, with sign sigma
// until the order wraps past l_{m-1} and -sigma after it (for m = 2 the four
// colours are the four 90-degree rotations of one tree). A node on a chain
// along j forwards along j unless the next node is the chain's start, and
// starts chains along every later dimension. Nodes with offset 0 in l_c are
// filled from their neighbour at offset sigma, against the chain direction:
// that arc is the unused wrap-around arc of every chain that could use it.
// Each tree has depth m(n-1) (for n >= 3) and the 2m trees are arc-disjoint,
// so k packets split evenly take m(n-1) + ceil(k/(2m)) - 1 steps.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace icn::ibt {

enum class ColourScheme : std::uint8_t { kDimensionOrdered = 0, kDirectedTorus = 1 };

// Packet-sending pattern bits, rRLl read as a 4-bit number (section 4.2):
// a set bit sends that link's packets in reverse order (pkt(k) first).
inline constexpr unsigned kPatternTorusPlus = 3;    // r
inline constexpr unsigned kPatternBypassPlus = 2;   // R
inline constexpr unsigned kPatternBypassMinus = 1;  // L
inline constexpr unsigned kPatternTorusMinus = 0;   // l

struct BroadcastRoute {
  ColourScheme scheme = ColourScheme::kDimensionOrdered;
  unsigned dims_count = 1;              // m
  std::array<std::uint8_t, 4> dims{};   // the dimension list, 0-based
  unsigned colour = 0;
  unsigned pattern = 0;                 // rRLl for this colour's first line

  unsigned colours() const { return scheme == ColourScheme::kDirectedTorus ? 2 * dims_count : dims_count; }
  // Position q (0..m-1) in colour `colour`'s order -> dimension, and (directed
  // scheme) the sign of its chains.
  unsigned colour_dim(unsigned q) const;
  int colour_sign(unsigned q) const;

  // Layout: bits 0-3 colour, 4 scheme, 6-7 m-1, 8-15 dims (2 bits each),
  // 16-19 pattern.
  std::uint32_t pack() const;
  static BroadcastRoute unpack(std::uint32_t word);
  // The part every packet of one broadcast shares (no colour, no pattern).
  static std::uint32_t broadcast_key(std::uint32_t word) { return word & 0xFFF0u; }
  static unsigned colour_of(std::uint32_t word) { return word & 0xFu; }
  static unsigned pattern_of(std::uint32_t word) { return (word >> 16) & 0xFu; }
};

// A node's position relative to the source, as the route unit sees it.
struct NodeOffsets {
  unsigned d = 0;
  unsigned n = 0;
  std::array<unsigned, 4> offset{};  // (x_i - s_i) mod n
  int bypass_dim = -1;                // the node's bypass dimension, -1 in a torus
};

class BroadcastRouteUnit {
 public:
  // Bit mask of the output ports (numbered as IbtTopology's) that may carry
  // packets of route.colour at this node.
  static unsigned ports(const BroadcastRoute& route, const NodeOffsets& at);

  // Whether the node is in the broadcast group (differs from the source only
  // in the listed dimensions).
  static bool in_group(const BroadcastRoute& route, const NodeOffsets& at);
};

}  // namespace icn::ibt
