#include "testbench/fractional_embedding.hpp"

#include <cstdlib>
#include <deque>
#include <functional>
#include <iterator>
#include <utility>
#include <stdexcept>
#include <string>

namespace icn::frac {
namespace {

// A group of the tree before ranks are numbered.
struct Node {
  unsigned module = 0;
  std::uint32_t size = 0;
  int down = -1, right = -1;
};

// A tree of groups to be numbered: child links, group sizes, and where a
// group's k-th member sits.
struct GroupTree {
  std::function<int(int)> down, right;
  std::function<std::uint32_t(int)> size;
  std::function<std::uint32_t(int, std::uint32_t)> pu_of_member;
};

// Numbers ranks in preorder (a group's members, its down subtree, its right
// subtree), the order the PE programs' Layout expects, and places each rank on
// its member's PU. Both embeddings end here, so they differ only in shape.
void number_in_preorder(const GroupTree& t, int root, unsigned r, std::uint32_t P, Layout& l,
                        std::vector<std::uint32_t>& pu_of_rank, const char* what) {
  l.algorithm = r == 1 ? Algorithm::kBinary : Algorithm::kFractional;
  l.r = r;
  l.group_of.assign(P, kNone);
  l.index_in_group.assign(P, 0);
  pu_of_rank.assign(P, kNone);
  std::uint32_t next_rank = 0;
  std::function<std::uint32_t(int, std::uint32_t, bool)> number = [&](int ni, std::uint32_t parent,
                                                                      bool is_right) -> std::uint32_t {
    const auto gi = static_cast<std::uint32_t>(l.groups.size());
    l.groups.push_back(Group{});
    l.groups[gi].parent = parent;
    l.groups[gi].is_right = is_right;
    for (std::uint32_t k = 0, n = t.size(ni); k < n; ++k) {
      const std::uint32_t rank = next_rank++;
      if (rank >= P) throw std::logic_error(std::string(what) + ": more members than PUs");
      l.group_of[rank] = gi;
      l.index_in_group[rank] = k;
      l.groups[gi].members.push_back(rank);
      pu_of_rank[rank] = t.pu_of_member(ni, k);
    }
    if (const int d = t.down(ni); d >= 0) {
      const std::uint32_t c = number(d, gi, false);
      l.groups[gi].down = c;
    }
    if (const int rt = t.right(ni); rt >= 0) {
      const std::uint32_t c = number(rt, gi, true);
      l.groups[gi].right = c;
    }
    return gi;
  };
  number(root, kNone, false);
  if (next_rank != P) throw std::logic_error(std::string(what) + ": not every PU is in the tree");
}

}  // namespace

ModuleEmbedding embed_in_modules(unsigned a, unsigned b, unsigned r) {
  if (r < 1 || r > b || a < 1) throw std::invalid_argument("module embedding needs 1 <= r <= b and a >= 1");
  std::vector<Node> nodes;
  // Global groups: node m is module m's group; heap order gives the global
  // binary tree (children 2m + 1, 2m + 2).
  for (unsigned m = 0; m < a; ++m) nodes.push_back({m, r, -1, -1});
  // Local fractional trees of b - r PUs, shaped by the recurrence like
  // Layout::fractional (down subtree as full as its budget allows).
  std::vector<int> local(a, -1);
  const std::uint64_t n_local = b - r;
  std::function<int(unsigned, std::uint64_t, std::uint64_t)> build = [&](unsigned m, std::uint64_t n,
                                                                       std::uint64_t budget) -> int {
    const int gi = static_cast<int>(nodes.size());
    const auto g = static_cast<std::uint32_t>(std::min<std::uint64_t>(r, n));
    nodes.push_back({m, g, -1, -1});
    const std::uint64_t rest = n - g;
    if (rest == 0) return gi;
    const std::uint64_t down_cap = budget >= r ? reach(r, budget - r) : 0;
    const std::uint64_t down_n = std::min(rest, down_cap);
    const std::uint64_t right_n = rest - down_n;
    if (down_n > 0) {
      const int c = build(m, down_n, budget - r);
      nodes[gi].down = c;
    }
    if (right_n > 0) {
      const int c = build(m, right_n, budget - r - 1);
      nodes[gi].right = c;
    }
    return gi;
  };
  if (n_local > 0)
    for (unsigned m = 0; m < a; ++m) local[m] = build(m, n_local, depth(r, n_local) + 1);

  // Connect: global children first; a free link of a one-child group feeds
  // its own local tree; a leaf feeds its own and one of a two-child module.
  ModuleEmbedding e;
  std::deque<unsigned> unfed;  // two-child modules whose local tree has no feeder yet (breadth-first order)
  std::vector<unsigned> leaves;
  for (unsigned m = 0; m < a; ++m) {
    std::vector<unsigned> kids;
    for (unsigned c : {2 * m + 1, 2 * m + 2})
      if (c < a) kids.push_back(c);
    Node& g = nodes[m];
    if (kids.size() == 2) {
      g.down = static_cast<int>(kids[0]);
      g.right = static_cast<int>(kids[1]);
      if (local[m] >= 0) unfed.push_back(m);
    } else if (kids.size() == 1) {
      g.down = static_cast<int>(kids[0]);
      g.right = local[m];
    } else {
      g.down = local[m];
      leaves.push_back(m);
    }
    e.inter_module_edges += static_cast<std::uint32_t>(kids.size());
  }
  for (unsigned leaf : leaves) {
    if (unfed.empty()) break;
    nodes[leaf].right = local[unfed.front()];
    unfed.pop_front();
    ++e.inter_module_edges;
  }
  if (!unfed.empty()) throw std::logic_error("module embedding: a local tree has no feeder");

  // Each group's members go to its module's next free PUs, in preorder.
  std::vector<std::uint32_t> next_slot(a, 0);
  const GroupTree tree{[&](int ni) { return nodes[static_cast<std::size_t>(ni)].down; },
                       [&](int ni) { return nodes[static_cast<std::size_t>(ni)].right; },
                       [&](int ni) { return nodes[static_cast<std::size_t>(ni)].size; },
                       [&](int ni, std::uint32_t) {
                         const unsigned m = nodes[static_cast<std::size_t>(ni)].module;
                         return m * b + next_slot[m]++;
                       }};
  number_in_preorder(tree, 0, r, a * b, e.layout, e.pu_of_rank, "module embedding");
  return e;
}

}  // namespace icn::frac

namespace icn::frac {

namespace {

bool power_of_two(unsigned x) { return x != 0 && (x & (x - 1)) == 0; }

// Fig. 4 with edge congestion one under X-Y routing: the embeddings that
// scripts/fig4_embedding_search found in the H-tree's space (1 x 2 groups, one
// leaf group in every 2 x 2 submesh, every H-tree region's subtree inside its
// region, each group's direction and down/right free). The centred
// construction below puts up to 3 tree edges on a link of these meshes.
// Groups in preorder: member 0's PU, member 1's PU, down and right
// successors (indices, -1: none); group 0 is the root group.
struct SearchedGroup {
  std::uint32_t member0, member1;
  int down, right;
};
constexpr SearchedGroup kMesh8x4[] = {
    {0, 1, 1, -1}, {4, 5, 2, 9}, {6, 7, 3, 6}, {23, 22, 4, 5}, {14, 15, -1, -1}, {31, 30, -1, -1},
    {21, 20, 7, 8}, {12, 13, -1, -1}, {29, 28, -1, -1}, {11, 10, 10, 13}, {16, 17, 11, 12}, {25, 24, -1, -1},
    {8, 9, -1, -1}, {19, 18, 14, 15}, {26, 27, -1, -1}, {3, 2, -1, -1},
};
constexpr SearchedGroup kMesh16x8[] = {
    {0, 1, 1, -1}, {40, 41, 2, 33}, {12, 13, 3, 18}, {78, 79, 4, 11}, {15, 14, 5, 8}, {45, 44, 6, 7},
    {60, 61, -1, -1}, {29, 28, -1, -1}, {47, 46, 9, 10}, {30, 31, -1, -1}, {63, 62, -1, -1}, {77, 76, 12, 15},
    {108, 109, 13, 14}, {125, 124, -1, -1}, {92, 93, -1, -1}, {110, 111, 16, 17}, {127, 126, -1, -1}, {94, 95, -1, -1},
    {74, 75, 19, 26}, {59, 58, 20, 23}, {25, 24, 21, 22}, {8, 9, -1, -1}, {57, 56, -1, -1}, {27, 26, 24, 25},
    {10, 11, -1, -1}, {43, 42, -1, -1}, {73, 72, 27, 30}, {104, 105, 28, 29}, {121, 120, -1, -1}, {88, 89, -1, -1},
    {106, 107, 31, 32}, {123, 122, -1, -1}, {90, 91, -1, -1}, {20, 21, 34, 49}, {70, 71, 35, 42}, {55, 54, 36, 39},
    {53, 52, 37, 38}, {36, 37, -1, -1}, {38, 39, -1, -1}, {23, 22, 40, 41}, {5, 4, -1, -1}, {7, 6, -1, -1},
    {69, 68, 43, 46}, {100, 101, 44, 45}, {117, 116, -1, -1}, {84, 85, -1, -1}, {102, 103, 47, 48}, {119, 118, -1, -1},
    {86, 87, -1, -1}, {67, 66, 50, 57}, {65, 64, 51, 54}, {96, 97, 52, 53}, {113, 112, -1, -1}, {80, 81, -1, -1},
    {98, 99, 55, 56}, {115, 114, -1, -1}, {82, 83, -1, -1}, {35, 34, 58, 61}, {33, 32, 59, 60}, {16, 17, -1, -1},
    {49, 48, -1, -1}, {19, 18, 62, 63}, {50, 51, -1, -1}, {3, 2, -1, -1},
};

// The searched embedding of a W x H mesh with group size r and its number of
// groups, or {nullptr, 0} if none was searched for that size.
std::pair<const SearchedGroup*, std::size_t> searched_htree(unsigned width, unsigned height, unsigned r) {
  if (r == 2 && width == 8 && height == 4) return {kMesh8x4, std::size(kMesh8x4)};
  if (r == 2 && width == 16 && height == 8) return {kMesh16x8, std::size(kMesh16x8)};
  return {nullptr, 0};
}

MeshEmbedding embed_searched(const SearchedGroup* table, std::size_t groups, unsigned width, unsigned height) {
  MeshEmbedding e;
  e.rows_per_group = 1;
  e.columns_per_group = 2;
  auto row = [&](int g) -> const SearchedGroup& { return table[static_cast<std::size_t>(g)]; };
  const GroupTree tree{[&](int g) { return row(g).down; }, [&](int g) { return row(g).right; },
                       [&](int) { return std::uint32_t{2}; },
                       [&](int g, std::uint32_t k) { return k == 0 ? row(g).member0 : row(g).member1; }};
  if (groups * 2 != std::size_t{width} * height) throw std::logic_error("htree table: wrong size");
  number_in_preorder(tree, 0, 2, width * height, e.layout, e.pu_of_rank, "htree embedding");
  return e;
}

// r2 (columns per group) for which W/r2 = H/r1 is a power of two >= 2, or 0.
unsigned htree_columns(unsigned width, unsigned height, unsigned r) {
  for (unsigned c = 1; c <= r; ++c) {
    if (r % c != 0 || width % c != 0 || height % (r / c) != 0) continue;
    const unsigned g = width / c;
    if (g == height / (r / c) && g >= 2 && power_of_two(g)) return c;
  }
  return 0;
}

}  // namespace

std::string htree_fit_problem(unsigned width, unsigned height, unsigned r) {
  if (r < 1) return "r must be at least 1";
  if (htree_columns(width, height, r) != 0) return "";
  return "a " + std::to_string(width) + " x " + std::to_string(height) + " mesh does not take groups of r = " +
         std::to_string(r) + ": needs r = r1 r2 with W/r2 = H/r1 a power of two >= 2 (e.g. 16 x 8 with r = 2)";
}

namespace {

// Other sizes: the inner group of every H-tree region in the free cell
// nearest its centre (not searched; more than one tree edge per link).
MeshEmbedding embed_htree_centred(unsigned width, unsigned height, unsigned r, unsigned r2) {
  const unsigned r1 = r / r2, G = width / r2;
  // Cells: groups (gx, 2 cy) and (gx, 2 cy + 1); the lower holds the leaf, the
  // upper an inner group.
  struct Cell {
    unsigned x, y;
  };
  struct TreeNode {
    unsigned gx = 0, gy = 0;  // the group's place in the G x G grid of groups
    int down = -1, right = -1;
  };
  std::vector<TreeNode> nodes;
  // An H-tree region of w x h cells: returns its subtree's root and the one
  // cell whose inner slot is still free.
  std::function<std::pair<int, Cell>(unsigned, unsigned, unsigned, unsigned)> region =
      [&](unsigned x0, unsigned y0, unsigned w, unsigned h) -> std::pair<int, Cell> {
    if (w == 1 && h == 1) {
      nodes.push_back({x0, 2 * y0, -1, -1});
      return {static_cast<int>(nodes.size() - 1), Cell{x0, y0}};
    }
    const bool split_x = w >= h;
    const auto a = split_x ? region(x0, y0, w / 2, h) : region(x0, y0, w, h / 2);
    const auto b = split_x ? region(x0 + w / 2, y0, w / 2, h) : region(x0, y0 + h / 2, w, h / 2);
    // The inner group goes to the free cell nearer the region's centre
    // (doubled coordinates, ties: the first half's).
    auto dist = [&](const Cell& c) {
      const long cx = 2l * x0 + w - 1, cy = 2l * y0 + h - 1;
      return std::labs(2l * c.x - cx) + std::labs(2l * c.y - cy);
    };
    const bool use_a = dist(a.second) <= dist(b.second);
    const Cell use = use_a ? a.second : b.second;
    nodes.push_back({use.x, 2 * use.y + 1, a.first, b.first});
    return {static_cast<int>(nodes.size() - 1), use_a ? b.second : a.second};
  };
  const auto top = region(0, 0, G, G / 2);
  nodes.push_back({top.second.x, 2 * top.second.y + 1, top.first, -1});  // the root group
  const int root = static_cast<int>(nodes.size() - 1);

  MeshEmbedding e;
  e.rows_per_group = r1;
  e.columns_per_group = r2;
  // A group's r1 x r2 members fill its block row by row, boustrophedon.
  const GroupTree tree{[&](int ni) { return nodes[static_cast<std::size_t>(ni)].down; },
                       [&](int ni) { return nodes[static_cast<std::size_t>(ni)].right; },
                       [&](int) { return static_cast<std::uint32_t>(r1 * r2); },
                       [&](int ni, std::uint32_t k) {
                         const TreeNode& n = nodes[static_cast<std::size_t>(ni)];
                         const unsigned j = k / r2, i = k % r2;
                         const unsigned x = n.gx * r2 + (j % 2 == 0 ? i : r2 - 1 - i), y = n.gy * r1 + j;
                         return static_cast<std::uint32_t>(x + width * y);
                       }};
  number_in_preorder(tree, root, r, width * height, e.layout, e.pu_of_rank, "htree embedding");
  return e;
}

}  // namespace

MeshEmbedding embed_htree(unsigned width, unsigned height, unsigned r) {
  const unsigned r2 = htree_columns(width, height, r);
  if (r2 == 0) throw std::invalid_argument(htree_fit_problem(width, height, r));
  if (const auto [table, groups] = searched_htree(width, height, r); table != nullptr)
    return embed_searched(table, groups, width, height);
  return embed_htree_centred(width, height, r, r2);
}

std::vector<std::uint32_t> snake_order(unsigned width, unsigned height) {
  std::vector<std::uint32_t> out;
  out.reserve(static_cast<std::size_t>(width) * height);
  for (unsigned y = 0; y < height; ++y)
    for (unsigned i = 0; i < width; ++i) out.push_back((y % 2 == 0 ? i : width - 1 - i) + width * y);
  return out;
}

}  // namespace icn::frac
