#include "testbench/receipt_checker.hpp"

#include "models/packet.hpp"

namespace icn {

void store_le64(unsigned char* out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
}

std::uint64_t load_le64(const unsigned char* in) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | in[i];
  return v;
}

ReceiptChecker::ReceiptChecker(std::string owner, NodeId node, std::uint64_t content_key, const ReceiptPlan& plan)
    : owner_(std::move(owner)), node_(node), key_(content_key), plan_(plan) {
  check_.expected = plan_.slots(node_);
  seen_.assign(check_.expected, false);
}

void ReceiptChecker::check(const Delivery& d) {
  if (d.arrived > check_.last_arrival) check_.last_arrival = d.arrived;
  const std::size_t slot = plan_.slot(node_, d.src, d.seq, d.broadcast);
  auto note = [&](std::uint64_t& counter, const char* what) {
    ++counter;
    if (check_.first_problem.empty()) {
      check_.first_problem = owner_ + ": " + what + " message from " + std::to_string(d.src) + " seq " +
                             std::to_string(d.seq) + " at cycle " + std::to_string(d.arrived);
      // A misdelivered message: its content, a keyed hash the source made of
      // (source, destination, sequence), names the node it was meant for.
      if (d.payload_len == 8 && !d.broadcast)
        for (NodeId n = 0; n < plan_.nodes(); ++n)
          if (n != node_ && load_le64(d.payload) == message_content(key_, d.src, n, d.seq)) {
            check_.first_problem += ": meant for node " + std::to_string(n) + " and received by node " +
                                    std::to_string(node_);
            break;
          }
    }
  };
  if (slot == ReceiptPlan::kUnexpected) return note(check_.unexpected, "unexpected");
  const NodeId content_dst = d.broadcast ? kBroadcastDestination : node_;
  if (d.payload_len != 8 || load_le64(d.payload) != message_content(key_, d.src, content_dst, d.seq))
    return note(check_.corrupted, "corrupted");
  if (seen_[slot]) return note(check_.duplicates, "duplicate");
  seen_[slot] = true;
  ++check_.received;
}

}  // namespace icn
