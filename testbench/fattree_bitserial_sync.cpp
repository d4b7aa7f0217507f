#include "testbench/fattree_bitserial_sync.hpp"

namespace icn {

std::string bitserial_sync_problem(bitserial::SyncScheme scheme, const std::vector<bitserial::BitSerialLevelStats>& levels) {
  std::uint64_t late = 0, denied = 0;
  for (const auto& l : levels) {
    late += l.late_requests;
    denied += l.late_denials;
  }
  if (denied == 0 || scheme == bitserial::SyncScheme::kMidstream || scheme == bitserial::SyncScheme::kFlush) return "";
  return "not synchronised: " + std::to_string(denied) +
         " stream(s) lost at a switch output that had committed its paths before they arrived (" +
         std::to_string(late) + " late request(s) in all; " + bitserial::to_string(scheme) +
         ": switches decide before every stream has arrived; Ishii 2.1.3)";
}

nlohmann::ordered_json bitserial_sync_json(bitserial::SyncScheme scheme,
                                           const std::vector<bitserial::BitSerialLevelStats>& levels) {
  nlohmann::ordered_json storage = nlohmann::ordered_json::array(), buffering = nlohmann::ordered_json::array();
  std::uint64_t late = 0, late_denied = 0, flushed = 0;
  for (const auto& l : levels) {
    storage.push_back(l.storage_bits);
    buffering.push_back(l.stream_buffering_bits);
    late += l.late_requests;
    late_denied += l.late_denials;
    flushed += l.flushed - l.flushed_lost;  // streams a flush made lost (not denied before)
  }
  return {{"scheme", bitserial::to_string(scheme)},
          {"storage_bits_per_switch", storage},
          {"stream_buffering_bits", buffering},
          {"late_requests", late},
          {"late_denials", late_denied},
          {"flushed", flushed}};
}

}  // namespace icn
