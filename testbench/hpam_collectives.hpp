// The collectives of Ben Miled et al. (sections 3-5) as processor programs on
// a two-level HPAM machine: which processor sends which message to whom, and
// after receiving what. The network, the NICs and their costs decide when.
//
// Broadcast and scatter: brute force (the source sends to every destination in
// turn) and hybrid (the source sends to the root (i p2, j q2)_2 of every
// p2 x q2 sub-mesh of level 2 in turn, then each root runs the binary-tree
// algorithm in its sub-mesh: halve the columns, then the rows, the holder
// sending to the far half's corner). A scatter message to a root carries the
// pieces of its whole region. With destinations=all the source then runs the
// same tree over level 1 (rooted at itself: coordinates XOR the source's).
// Multicast (with the replication hardware): for every row block i and
// every bottom-row router j of level 1, the source sends one message toward
// (i p2, j f)_2 that the replicator copies to (i p2, j f + b)_2 for every
// branch b; each then runs the binary tree down its p2 x 1 column. A scatter's
// replicated message carries the pieces of all f columns' blocks (the paper's
// replicator copies whole messages); each root keeps its column's.
// A multicast gather reverses it with the combining router: each column root
// sends its column block up with the combine bit; the router above merges the
// f blocks of a row into one message to the sink, from the router's node.
// Gather is the exact reverse: a processor sends its region's pieces to its
// parent once all its children's messages have arrived.
//
// Contents: every piece has an 8-byte tag, a keyed hash of (seed, source,
// owner); a message's tag is the XOR of the tags of the pieces it carries (a
// broadcast's is the one piece's). Each processor knows what it must receive.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routers/hpam/hpam_geometry.hpp"

namespace icn::hpam {

enum class Collective { kBroadcast, kScatter, kGather };
enum class Algorithm { kBruteForce, kHybrid, kMulticast };

struct CollectiveSpec {
  Collective collective = Collective::kBroadcast;
  Algorithm algorithm = Algorithm::kHybrid;
  unsigned p2 = 1, q2 = 1;    // level-2 sub-mesh (hybrid, multicast)
  Position source;            // a level-1 processor (the sink of a gather)
  bool all_levels = false;    // destinations in both levels (else level 2 only)
  bool scaled = false;        // level-1 pieces are Q * S bytes (else S)
  unsigned q = 2;             // Q
  std::uint64_t piece_bytes = 0;  // S
  std::uint64_t seed = 1;
};

struct PlannedMessage {
  NodeId src = 0, dst = 0;
  std::uint64_t bytes = 0;
  std::uint64_t tag = 0;
  // Multicast: sent once toward dst with the replicate bit; the inter-level
  // replicator above dst delivers a copy to the same row of each of its columns.
  bool replicate = false;
  // Gather with the combining router: sent toward dst with the combine bit,
  // merged with the other columns' at the router above.
  bool combine = false;
};

struct CollectivePlan {
  // What node n sends, in order, once it has received waits[n] messages (at
  // the start if waits[n] is 0 and it sends anything).
  std::vector<std::vector<PlannedMessage>> sends;
  std::vector<unsigned> waits;
  // What node n must receive (any order).
  std::vector<std::vector<PlannedMessage>> receives;
  std::size_t messages = 0;
  std::uint64_t bytes = 0;
};

// Sub-mesh shapes the algorithm accepts on level 2 (rows x cols), every power-of-two pair.
std::vector<std::pair<unsigned, unsigned>> submesh_shapes(const HpamGeometry& g, Algorithm a);
std::uint64_t piece_tag(std::uint64_t seed, NodeId source, NodeId owner);
CollectivePlan plan_collective(const HpamGeometry& g, const CollectiveSpec& spec);

const char* to_string(Collective c);
const char* to_string(Algorithm a);

}  // namespace icn::hpam
