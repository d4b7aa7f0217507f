// Synthetic traffic for open-loop network experiments: destination patterns,
// injection processes, packet sizes and trace files (Dally & Towles ch. 3,
// BookSim's traffic.cpp and injection.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/rng.hpp"
#include "models/types.hpp"

namespace icn {

enum class PatternKind { kUniform, kTranspose, kBitComp, kBitRev, kShuffle, kTornado, kNeighbor, kHotspot, kTrace };
const std::vector<std::string>& pattern_names();

// Where a packet from `src` goes. Nodes are numbered as routers of a k-ary
// n-cube: src = x0 + k x1 + k^2 x2. The bit patterns (transpose, bitcomp,
// bitrev, shuffle) need a power-of-two node count (transpose: an even number
// of address bits).
struct DestinationPattern {
  PatternKind kind = PatternKind::kUniform;
  unsigned nodes = 1;
  unsigned k = 1, n = 1;
  bool self_traffic = true;
  double hotspot_fraction = 0;
  std::vector<NodeId> hotspots;

  // "" if the pattern can run on this network, else why not.
  std::string problem() const;
  NodeId pick(NodeId src, Rng& rng) const;
};

// Packet lengths in flits: one fixed size or sizes drawn with weights.
struct PacketSizes {
  std::vector<unsigned> sizes{4};
  std::vector<double> weights{1.0};
  double mean() const;
  unsigned pick(Rng& rng) const;
};

// One line of a trace file: `cycle source destination size`.
struct TraceEntry {
  Cycle cycle = 0;
  NodeId src = 0, dst = 0;
  unsigned size = 1;
};
// Reads a trace; throws ConfigError (one line naming file:line) on a
// malformed line or a node outside 0..nodes-1.
std::vector<TraceEntry> read_trace(const std::string& path, unsigned nodes, unsigned max_size);

}  // namespace icn
