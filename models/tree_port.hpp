// The three ports of a binary fat-tree node, shared by every tree family: up
// toward the root and two down branches. Ishii calls them the trunk and
// branches 0 and 1 (counter-clockwise order, which his routing-bit encoding
// relies on); the packet tree calls them up, down0, down1. Same numbering.
#pragma once

namespace icn {

enum TreePort : unsigned {
  kUp = 0,
  kDown0 = 1,
  kDown1 = 2,
  kTrunk = kUp,       // Ishii's names
  kBranch0 = kDown0,
  kBranch1 = kDown1,
};
inline constexpr unsigned kTreePorts = 3;

}  // namespace icn
