// Basic vocabulary shared by every model: cycles, node ids, packet handles.
#pragma once

#include <cstdint>
#include <limits>

namespace icn {

// One clock per network (ARCHITECTURE rule 2): a cycle is one bit time on a
// bit-serial link, one packet time on a packet link. Cycles count from 1; the
// first transmission of a run happens in cycle 1.
using Cycle = std::uint64_t;
inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();

// A packet is a small handle into a PacketPool, never a copied object (rule 6).
using PacketId = std::uint32_t;
inline constexpr PacketId kNoPacket = std::numeric_limits<PacketId>::max();

}  // namespace icn
