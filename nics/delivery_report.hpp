// The delivery report: how a processor learns whether a message it handed to
// its NIC reached its destination (Ishii 1985, section 4.4, assumption 3).
//
// The processor side stays TLM-2.0 (icn_extension.hpp): a message is a
// b_transport WRITE. Its outcome comes back later, like deliveries, through a
// callback: the NIC calls report() once per accepted message, in the clock the
// outcome becomes known to the NIC hardware - when the acknowledge arrives on
// the reverse wire of the stream's path (delivered), or at the last clock of
// the delivery cycle without one (lost). How the acknowledge travels is the
// network's business (for the bit-serial fat tree: docs/fattree_bitserial.md).
#pragma once

#include <cstdint>

#include "models/types.hpp"

namespace icn {

struct DeliveryReport {
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  std::uint32_t seq = 0;
  bool delivered = false;
  std::uint64_t delivery_cycle = 0;  // which delivery cycle carried the attempt (from 0)
  Cycle cycle = 0;                   // clock cycle the NIC learned the outcome
};

class DeliveryReportSink {
 public:
  virtual ~DeliveryReportSink() = default;
  virtual void report(const DeliveryReport& report) = 0;
};

}  // namespace icn
