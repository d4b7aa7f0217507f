// The section-4 embedding of a fractional tree into an a x b hierarchical
// crossbar (Sanders & Sibeyn): one group of r PUs in every module forms a
// global binary tree over the modules; the other b - r PUs of each module form
// a local fractional tree; a global group with one global child feeds its own
// local tree with its free link, a leaf group feeds its own local tree and,
// with its second link, the local tree of a module whose global group has two
// global children. Every module then needs two channels out and two in, each
// carrying one tree edge.
#pragma once

#include <cstdint>
#include <vector>

#include "testbench/fractional_tree.hpp"

namespace icn::frac {

struct ModuleEmbedding {
  Layout layout;                         // ranks in preorder (subtrees stay contiguous rank ranges)
  std::vector<std::uint32_t> pu_of_rank; // with the root's PU at rank 0 being PU 0
  std::uint32_t inter_module_edges = 0;  // tree edges between modules (a - 1 global + local feeds)
};

// Needs 1 <= r <= b; a >= 1.
ModuleEmbedding embed_in_modules(unsigned modules, unsigned module_size, unsigned r);

}  // namespace icn::frac
