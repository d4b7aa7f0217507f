// An independent step-level model of Zhang & Deng's broadcasts, written apart
// from the router model to cross-check it (its own network definition too:
// only n, d and the bypass lengths come from the IbtTopology it is given).
//
// It keeps one global table of which node holds which packet and advances it
// step by step, applying the paper's rules as the paper states them (the sets
// Omega(x, s), chi(i, k) and k_m of section 3.1, rules 1-4 of sections 4.1,
// 5.1 and 6.1), with the choices icnsim documents in docs/ibt.md:
//   - a node sends on each allowed link one packet per step that it holds and
//     that the neighbour did not hold two steps earlier (the routers' status
//     sideband is one cycle late) and that it has not sent on that link;
//   - the source orders each link's packets by the colour's rRLl pattern;
//     other nodes send the lowest packet first on + links and the highest
//     first on - links, within the colour of the lowest candidate;
//   - rule 4's "nearest neighbour" is the torus neighbour along the colour's
//     first dimension.
// Dimension-ordered colours only (the iBT algorithms and the torus ring).
#pragma once

#include <cstdint>
#include <vector>

#include "routers/ibt/ibt_topology.hpp"

namespace icn::test {

struct StepModelConfig {
  NodeId source = 0;
  unsigned packets = 32;              // k <= 64
  std::vector<unsigned> dims;         // the dimension list L, 0-based; colour c starts at dims[c]
  std::vector<unsigned> split;        // packets per colour
  std::vector<unsigned> patterns;     // rRLl per colour
};

struct StepModelResult {
  std::uint64_t steps = 0;         // step in which the last missing packet arrived
  bool complete = false;           // every group node holds all k packets
  std::uint64_t transfers = 0;     // link transfers until every link fell idle
  std::uint64_t duplicates = 0;    // transfers of a packet the receiver already held
};

StepModelResult run_step_model(const IbtTopology& topo, const StepModelConfig& config);

}  // namespace icn::test
