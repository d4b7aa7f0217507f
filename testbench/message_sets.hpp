// Message sets for networks that route a whole set M of (source, destination)
// messages (Ishii 1985, section 4): what every processor must send, and the
// ReceiptPlan saying what every processor must receive.
//
//   permutation   a uniformly random permutation p; every i with p(i) != i sends to p(i)
//   random        random many-to-many at a target load factor X: ordered pairs are
//                 visited in a uniformly random order and each is kept if its path
//                 leaves every channel c at load <= floor(X * cap(c)); the scan stops
//                 when every pair has been visited, so the set is maximal: no further
//                 pair fits. lambda(FT, M) = X when some floor(X * cap(c)) = X * cap(c).
//   all_to_one    every processor but the root sends one message to the root
//   pairs         the listed pairs; a pair listed k times is k messages (seq 0..k-1)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/fat_tree.hpp"
#include "models/rng.hpp"
#include "routers/fattree_bitserial/load_factor.hpp"
#include "testbench/traffic.hpp"

namespace icn {

struct Message {
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  std::uint32_t seq = 0;  // distinguishes repeated (src, dst) pairs
};

std::vector<Message> permutation_messages(NodeId n, Rng& rng);
std::vector<Message> random_messages_at_load(const FatTreeShape& shape, double load_factor, Rng& rng);
std::vector<Message> all_to_one_messages(NodeId n, NodeId root);
// Numbers repeated pairs 0, 1, ... in list order.
std::vector<Message> listed_messages(const std::vector<SourceDestination>& pairs);

std::vector<SourceDestination> pairs_of(const std::vector<Message>& messages);

// Every processor must receive exactly the messages addressed to it.
class MessageSetReceiptPlan : public ReceiptPlan {
 public:
  MessageSetReceiptPlan(NodeId n, const std::vector<Message>& messages);
  NodeId nodes() const override { return static_cast<NodeId>(first_.size() - 1); }
  std::size_t slots(NodeId pe) const override { return first_[pe + 1] - first_[pe]; }
  std::size_t slot(NodeId pe, NodeId src, std::uint32_t seq, bool broadcast) const override;

 private:
  std::vector<std::size_t> first_;  // receipts of pe are entries_[first_[pe] .. first_[pe+1])
  std::vector<std::uint64_t> entries_;  // (src << 32 | seq), sorted per pe
};

}  // namespace icn
