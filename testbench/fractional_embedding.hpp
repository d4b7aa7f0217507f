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
#include <string>
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

namespace icn::frac {

// Sanders & Sibeyn's Fig. 4: a fractional tree of group size r on a W x H
// mesh (x = 0..W-1 columns, y = 0..H-1 rows; PU x + W y) under X-Y routing.
// The mesh is cut into r1 x r2 submeshes (r1 rows, r2 columns, r = r1 r2),
// one group each, the PUs of a group in snake order (row by row, alternating
// direction); the G x G groups (G = W/r2 = H/r1, a power of two) pair up
// vertically into G x G/2 cells, and an H-tree over the cells gives a complete
// binary tree of groups with one leaf in every cell: each cell holds one leaf
// group and one inner group (the inner group of an H-tree region sits in the
// free cell nearest the region's centre). The one group left over is the
// root group, whose down successor is the H-tree's root. docs/fractional_tree.md.
struct MeshEmbedding {
  Layout layout;                          // ranks in preorder (subtrees stay contiguous rank ranges)
  std::vector<std::uint32_t> pu_of_rank;  // rank -> PU (x + W y)
  unsigned rows_per_group = 1, columns_per_group = 1;  // r1, r2
};

// "" if a W x H mesh takes the H-tree embedding with group size r, else why not.
std::string htree_fit_problem(unsigned width, unsigned height, unsigned r);
MeshEmbedding embed_htree(unsigned width, unsigned height, unsigned r);

// PUs of a W x H mesh along the boustrophedon path: row 0 left to right, row
// 1 right to left, ... (1-D: W x 1).
std::vector<std::uint32_t> snake_order(unsigned width, unsigned height);

}  // namespace icn::frac
