// Conservation bookkeeping (ARCHITECTURE rule 8): every injected message is
// delivered or reported lost by the modelled hardware.
#pragma once

#include <cstdint>
#include <string>

namespace icn {

struct TrafficLedger {
  std::uint64_t injected = 0;            // messages accepted by NICs (every attempt)
  std::uint64_t deliveries_expected = 0; // sum of the destinations of the injected messages
  std::uint64_t delivered = 0;           // packet deliveries to processing elements
  std::uint64_t lost = 0;                // copies dropped by the hardware (e.g. arbitration)
  std::uint64_t retried = 0;             // re-sends of lost messages (greedy routing)

  // Returns an empty string when the books balance, otherwise why they do not.
  std::string check(std::uint64_t packets_still_held) const {
    std::string why;
    if (delivered + lost != deliveries_expected) {
      why = "conservation violated: expected " + std::to_string(deliveries_expected) +
            " deliveries, saw " + std::to_string(delivered) + " delivered + " +
            std::to_string(lost) + " lost";
    }
    if (packets_still_held != 0) {
      if (!why.empty()) why += "; ";
      why += std::to_string(packets_still_held) + " packet(s) still held in the network";
    }
    return why;
  }
};

}  // namespace icn
