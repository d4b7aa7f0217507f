// Sanders & Sibeyn on meshes and fat trees: the fractional-tree programs on
// the virtual-channel routers (network.type=vc with traffic.collective),
// through VcSinglePortFabric.
//
// Expected values come from the test: the chain's (P - 2 + s)(t + m) on a
// line of neighbours (the paper's cost model), the crossbar family's own run
// of the same program, and an independent count of the tree edges on every
// mesh link along X-Y paths computed here from the embedding's placement.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "testbench/fractional_embedding.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

const std::vector<std::string> kMesh16x8 = {"network.type=vc", "network.topology=mesh", "network.k=[16, 8]",
                                           "traffic.collective=broadcast", "traffic.group=2", "traffic.packets=8",
                                           "traffic.message_units=256", "nic.startup=16"};

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

// The mesh link from (x, y) one hop in direction `dir`, named as the VC
// network names it: router r<x>_<y>, port x+ / x- / y+ / y-.
std::string link_name(unsigned x, unsigned y, const std::string& dir) {
  return "r" + std::to_string(x) + "_" + std::to_string(y) + "." + dir;
}

}  // namespace

// The H-tree embedding of Fig. 4 (16 x 8, r = 2) on its own: every PU once;
// every group a 1 x 2 submesh in snake order; the groups form one root group
// with one successor above a complete binary tree of 63 groups whose 32 leaves
// lie one in each 2 x 2 submesh.
TEST(SandersSibeynMesh, HtreeEmbeddingHasOneLeafInEvery2x2Submesh) {
  const frac::MeshEmbedding e = frac::embed_htree(16, 8, 2);
  const frac::Layout& l = e.layout;
  ASSERT_EQ(l.processors(), 128u);
  ASSERT_EQ(l.groups.size(), 64u);
  EXPECT_EQ(e.rows_per_group, 1u);
  EXPECT_EQ(e.columns_per_group, 2u);
  std::set<std::uint32_t> pus(e.pu_of_rank.begin(), e.pu_of_rank.end());
  EXPECT_EQ(pus.size(), 128u);
  std::set<std::pair<unsigned, unsigned>> leaf_blocks;
  unsigned leaves = 0, one_child = 0, two_children = 0;
  for (const auto& g : l.groups) {
    ASSERT_EQ(g.members.size(), 2u);
    const std::uint32_t a = e.pu_of_rank[g.members[0]], b = e.pu_of_rank[g.members[1]];
    EXPECT_EQ(a / 16, b / 16);                 // one row
    EXPECT_EQ(std::max(a, b) - std::min(a, b), 1u);  // neighbours
    EXPECT_EQ(std::min(a, b) % 2, 0u);         // aligned 1 x 2 block
    const int kids = (g.down != frac::kNone) + (g.right != frac::kNone);
    if (kids == 0) {
      ++leaves;
      leaf_blocks.insert({(a % 16) / 2, (a / 16) / 2});
    } else if (kids == 1) {
      ++one_child;
    } else {
      ++two_children;
    }
  }
  EXPECT_EQ(leaves, 32u);
  EXPECT_EQ(leaf_blocks.size(), 32u);  // one leaf in every 2 x 2 submesh
  EXPECT_EQ(two_children, 31u);
  EXPECT_EQ(one_child, 1u);
  EXPECT_EQ(l.groups[0].right, frac::kNone);  // the root group feeds the H-tree's root
  EXPECT_EQ(frac::htree_fit_problem(16, 8, 2), "");
  EXPECT_EQ(frac::htree_fit_problem(16, 16, 1), "");
  EXPECT_EQ(frac::htree_fit_problem(32, 8, 4), "");
  EXPECT_NE(frac::htree_fit_problem(16, 16, 2), "");
  EXPECT_NE(frac::htree_fit_problem(12, 6, 2), "");
}

// The congestion the hardware reports, link by link, equals the test's own
// count: for every transfer of the broadcast (chain edges inside a group, the
// last member to the down successor's top, every member to the right
// successor's top) the X-Y path, and per directed link the distinct tree
// edges (a right edge counts once whichever member sends).
TEST(SandersSibeynMesh, HtreeCongestionEqualsAnIndependentCountAlongXYPaths) {
  const auto run = run_scenario(with(kMesh16x8, {"traffic.embedding=htree"}));
  ASSERT_EQ(run.problem, "");
  const frac::MeshEmbedding e = frac::embed_htree(16, 8, 2);
  const frac::Layout& l = e.layout;
  std::map<std::string, std::set<std::string>> edges;
  std::map<std::string, std::set<std::pair<std::uint32_t, std::uint32_t>>> flows;
  auto route = [&](std::uint32_t from, std::uint32_t to, const std::string& edge) {
    unsigned x = from % 16, y = from / 16;
    const unsigned tx = to % 16, ty = to / 16;
    while (x != tx) {
      const bool plus = tx > x;
      edges[link_name(x, y, plus ? "x+" : "x-")].insert(edge);
      flows[link_name(x, y, plus ? "x+" : "x-")].insert({from, to});
      x = plus ? x + 1 : x - 1;
    }
    while (y != ty) {
      const bool plus = ty > y;
      edges[link_name(x, y, plus ? "y+" : "y-")].insert(edge);
      flows[link_name(x, y, plus ? "y+" : "y-")].insert({from, to});
      y = plus ? y + 1 : y - 1;
    }
  };
  for (std::size_t gi = 0; gi < l.groups.size(); ++gi) {
    const auto& g = l.groups[gi];
    const std::string id = std::to_string(gi);
    for (std::size_t i = 0; i + 1 < g.members.size(); ++i)
      route(e.pu_of_rank[g.members[i]], e.pu_of_rank[g.members[i + 1]], "chain " + id + "." + std::to_string(i));
    if (g.down != frac::kNone)
      route(e.pu_of_rank[g.members.back()], e.pu_of_rank[l.groups[g.down].members.front()], "down " + id);
    if (g.right != frac::kNone)
      for (auto m : g.members) route(e.pu_of_rank[m], e.pu_of_rank[l.groups[g.right].members.front()], "right " + id);
  }
  std::size_t most = 0, most_flows = 0;
  for (const auto& [link, set] : edges) most = std::max(most, set.size());
  for (const auto& [link, set] : flows) most_flows = std::max(most_flows, set.size());
  const auto& c = run.results["congestion"];
  EXPECT_EQ(c["tree_edge_congestion"].get<std::size_t>(), most);
  EXPECT_EQ(c["edge_congestion"].get<std::size_t>(), most_flows);
  EXPECT_EQ(c["links_used"].get<std::size_t>(), edges.size());
  for (const auto& link : c["links"]) {
    const std::string name = link["link"];
    SCOPED_TRACE(name);
    ASSERT_EQ(edges.count(name), 1u);
    EXPECT_EQ(link["tree_edges"].get<std::size_t>(), edges[name].size());
    EXPECT_EQ(link["flows"].get<std::size_t>(), flows[name].size());
  }
  // The paper: "edge congestion one even with x-y routing" (directed links).
  // A right edge's two members always merge onto one path under X-Y, so two
  // flows (never at once) share its links.
  EXPECT_EQ(most, 1u);
  EXPECT_EQ(c["tree_edge_congestion"].get<std::size_t>(), 1u);
  EXPECT_EQ(most_flows, 2u);
}

// The 8 x 4 mesh (r = 2) too: the count along X-Y paths, from the placement
// alone, finds one tree edge per directed link.
TEST(SandersSibeynMesh, Htree8x4HasEdgeCongestionOneAlongXYPaths) {
  const frac::MeshEmbedding e = frac::embed_htree(8, 4, 2);
  const frac::Layout& l = e.layout;
  std::map<std::string, std::set<std::string>> edges;
  auto route = [&](std::uint32_t from, std::uint32_t to, const std::string& edge) {
    unsigned x = from % 8, y = from / 8;
    const unsigned tx = to % 8, ty = to / 8;
    for (; x != tx; x = tx > x ? x + 1 : x - 1) edges[link_name(x, y, tx > x ? "x+" : "x-")].insert(edge);
    for (; y != ty; y = ty > y ? y + 1 : y - 1) edges[link_name(x, y, ty > y ? "y+" : "y-")].insert(edge);
  };
  for (std::size_t gi = 0; gi < l.groups.size(); ++gi) {
    const auto& g = l.groups[gi];
    const std::string id = std::to_string(gi);
    route(e.pu_of_rank[g.members[0]], e.pu_of_rank[g.members[1]], "chain " + id);
    if (g.down != frac::kNone)
      route(e.pu_of_rank[g.members[1]], e.pu_of_rank[l.groups[g.down].members.front()], "down " + id);
    if (g.right != frac::kNone)
      for (auto m : g.members) route(e.pu_of_rank[m], e.pu_of_rank[l.groups[g.right].members.front()], "right " + id);
  }
  ASSERT_EQ(l.groups.size(), 16u);
  for (const auto& [link, set] : edges) EXPECT_EQ(set.size(), 1u) << link;
}

// A chain along a line of neighbours (a 1-D mesh in rank order) meets the
// paper's cost model exactly: the fabric's pipeline is the neighbours' latency,
// part of t, and nothing waits: (P - 2 + s)(t + m).
TEST(SandersSibeynMesh, ChainOfNeighboursCostsExactlyTPlusMPerStep) {
  const long P = 8, s = 10, m = 7;
  const std::vector<long> ts = {13, 16, 40};
  std::vector<std::vector<std::string>> cases;
  for (long t : ts)
    cases.push_back({"network.type=vc", "network.topology=mesh", "network.k=[8]", "traffic.collective=broadcast",
                     "traffic.algorithm=chain", "traffic.packets=10", "traffic.message_units=70",
                     "nic.startup=" + std::to_string(t)});
  const auto runs = run_scenarios(cases);
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const long t = ts[i];
    SCOPED_TRACE(t);
    ASSERT_EQ(runs[i].problem, "");
    EXPECT_EQ(runs[i].results["result"]["cycles"].get<long>(), (P - 2 + s) * (t + m));
    EXPECT_EQ(runs[i].results["result"]["crossbar_cycles"].get<long>(), (P - 2 + s) * (t + m));
    EXPECT_EQ(runs[i].results["congestion"]["wait_cycles"].get<long>(), 0);
    EXPECT_EQ(runs[i].results["congestion"]["max_packets_on_link"].get<long>(), 1);
  }
}

// Broadcast and reduction are delivered and verified with every algorithm and
// embedding on the mesh, the torus and the fat tree; the reference crossbar
// inside the run takes exactly what the crossbar family takes for the same
// program; the routers are never faster than the crossbar.
TEST(SandersSibeynMesh, BroadcastAndReductionVerifiedOnMeshTorusAndFatTree) {
  const std::vector<std::string> common = {"network.type=vc", "traffic.packets=8", "traffic.message_units=96",
                                           "nic.startup=20"};
  std::vector<std::vector<std::string>> cases;
  for (const std::string collective : {"broadcast", "reduction"}) {
    const std::vector<std::string> c = {"traffic.collective=" + collective};
    const std::vector<std::string> op = collective == "reduction" ? std::vector<std::string>{"traffic.operator=matrix"}
                                                                  : std::vector<std::string>{};
    for (const std::string alg : {"chain", "binary", "fractional"}) {
      std::vector<std::string> a = {"traffic.algorithm=" + alg};
      if (alg == "fractional") a.push_back("traffic.group=2");
      for (const std::string emb : {"rank_order", "snake"})
        cases.push_back(with(with(with(with(common, c), op), a), {"network.k=[8, 4]", "traffic.embedding=" + emb}));
      cases.push_back(with(with(with(with(common, c), op), a), {"network.topology=torus", "network.k=[4, 4]",
                                                                 "traffic.embedding=snake"}));
      cases.push_back(with(with(with(with(common, c), op), a), {"network.topology=fattree", "network.leaves=32"}));
      if (alg != "chain")
        cases.push_back(with(with(with(with(common, c), op), {"traffic.algorithm=fractional", "traffic.group=2"}),
                             {"network.k=[8, 4]", "traffic.embedding=htree"}));
    }
  }
  // The reference equals the crossbar family's run of the same (rank-order) program.
  cases.push_back({"network.type=crossbar", "network.processors=32", "traffic.collective=reduction",
                   "traffic.operator=matrix", "traffic.group=2", "traffic.packets=8", "traffic.message_units=96",
                   "nic.startup=20"});
  cases.push_back({"network.type=vc", "network.topology=fattree", "network.leaves=32", "traffic.collective=reduction",
                   "traffic.operator=matrix", "traffic.group=2", "traffic.packets=8", "traffic.message_units=96",
                   "nic.startup=20"});
  const auto runs = run_scenarios(cases);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::string what;
    for (const auto& s : cases[i]) what += s + " ";
    SCOPED_TRACE(what);
    ASSERT_EQ(runs[i].problem, "");
    const auto& r = runs[i].results["result"];
    EXPECT_TRUE(r["verified"].get<bool>());
    if (i + 2 != runs.size()) {
      EXPECT_GE(r["cycles"].get<long>(), r["crossbar_cycles"].get<long>());
    }
  }
  const auto& xbar = runs[runs.size() - 2].results;
  const auto& vc = runs.back().results;
  EXPECT_EQ(vc["result"]["crossbar_cycles"], xbar["result"]["cycles"]);
}

TEST(SandersSibeynMesh, ScenariosRunVerifiedAndDeterministically) {
  expect_scenarios_verified_and_deterministic({"fractional_mesh_htree", "fractional_fattree"});
}

TEST(SandersSibeynMesh, BadSizesExitTwoWithOneLine) {
  const std::string mesh = "run /dev/null --set network.type=vc --set traffic.collective=broadcast ";
  expect_rejected(mesh + "--set network.k=[16,16] --set traffic.embedding=htree --set traffic.group=2",
                  "network.k = [16, 16]: a 16 x 16 mesh does not take groups of r = 2");
  expect_rejected(mesh + "--set network.k=[12,6] --set traffic.embedding=htree --set traffic.group=2",
                  "does not take groups of r = 2");
  expect_rejected(mesh + "--set network.k=[16,8] --set traffic.embedding=htree --set traffic.algorithm=chain",
                  "htree applies to binary and fractional trees");
  expect_rejected(mesh + "--set network.k=[16,8] --set traffic.embedding=htree --set traffic.group=2 --set traffic.root=3",
                  "traffic.root = 3: the htree embedding of this mesh broadcasts from PU 0");
  expect_rejected(mesh + "--set network.k=[4,4,4] --set traffic.embedding=htree", "traffic.embedding = htree");
  expect_rejected(mesh + "--set network.topology=fattree --set traffic.embedding=snake", "traffic.embedding = snake");
  expect_rejected(mesh + "--set nic.startup=12", "nic.startup = 12: t = 12 cycles is less than this network's pipeline");
  expect_rejected(mesh + "--set network.k=[16,8] --set network.n=3", "network.n = 3: must equal the number of sides");
  expect_rejected(mesh + "--set network.k=[16,1]", "network.k");
  expect_rejected("run /dev/null --set network.type=vc --set network.k=[16,8]",
                  "a list of sides applies only with traffic.collective");
  expect_rejected(mesh + "--set traffic.pattern=uniform", "traffic.pattern");
}

}  // namespace icn::test
