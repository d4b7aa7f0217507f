// EjectionSwap: a wiring fault that crosses the ejection links of two nodes,
// so the network hands node a's traffic to node b's interface and the other
// way round (network.swap_ejection). It exists to prove the verdicts: every
// family compares the node that received a message with the destination its
// source meant, kept apart from the message in flight, so a run with this
// fault must end `verified no`, naming the message, the node meant and the
// node that received it.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "models/config.hpp"
#include "models/types.hpp"

namespace icn {

struct EjectionSwap {
  NodeId a = kNoNode;
  NodeId b = kNoNode;

  bool active() const { return a != kNoNode; }
  // The node whose ejection link node n's interface is wired to.
  NodeId wired_to(NodeId n) const { return n == a ? b : n == b ? a : n; }
};

inline ParamSpec swap_ejection_param(const std::string& nodes_word = "nodes") {
  return {"network.swap_ejection", "[]", "[] or [a, b]: two different " + nodes_word,
          "wiring fault (for testing the verdict): the ejection links of nodes a and b are crossed, so each "
          "receives the other's traffic; the run must end unverified, naming the first misdelivered message"};
}

// Reads network.swap_ejection for a network of `nodes` nodes (declared with
// swap_ejection_param()); refuses anything but [] or two different nodes.
inline EjectionSwap parse_swap_ejection(Config& cfg, std::uint64_t nodes) {
  const std::string allowed = "expected [] or two different nodes [a, b] in 0.." + std::to_string(nodes - 1);
  const auto v = cfg.integer_list("network.swap_ejection", std::numeric_limits<std::int64_t>::min(),
                                  std::numeric_limits<std::int64_t>::max());
  if (v.empty()) return {};
  for (const std::int64_t n : v)
    if (n < 0 || static_cast<std::uint64_t>(n) >= nodes)
      cfg.fail("network.swap_ejection", "node " + std::to_string(n) + " out of range: " + allowed);
  if (v.size() != 2 || v[0] == v[1]) cfg.fail("network.swap_ejection", allowed);
  return {static_cast<NodeId>(v[0]), static_cast<NodeId>(v[1])};
}

}  // namespace icn
