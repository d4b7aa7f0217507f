#include "testbench/message_sets.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace icn {

std::vector<Message> permutation_messages(NodeId n, Rng& rng) {
  std::vector<NodeId> p(n);
  for (NodeId i = 0; i < n; ++i) p[i] = i;
  rng.shuffle(p);
  std::vector<Message> out;
  for (NodeId i = 0; i < n; ++i)
    if (p[i] != i) out.push_back(Message{i, p[i], 0});
  return out;
}

namespace {

// A pseudo-random bijection of [0, 2^bits) (a balanced Feistel network, keys
// from the scenario's random stream), walked until it lands below `size`: a
// uniformly shuffled visit of [0, size) without storing it.
class ShuffledRange {
 public:
  ShuffledRange(std::uint64_t size, Rng& rng) : size_(size) {
    bits_ = 2;
    while ((std::uint64_t{1} << bits_) < size) ++bits_;
    if (bits_ % 2) ++bits_;
    for (auto& k : keys_) k = rng.next();
  }
  std::uint64_t operator()(std::uint64_t i) const {
    std::uint64_t x = i;
    do x = permute(x);
    while (x >= size_);
    return x;
  }

 private:
  std::uint64_t permute(std::uint64_t x) const {
    const unsigned half = bits_ / 2;
    const std::uint64_t mask = (std::uint64_t{1} << half) - 1;
    std::uint64_t l = x >> half, r = x & mask;
    for (std::uint64_t k : keys_) {
      const std::uint64_t f = mix64(k, r) & mask;
      const std::uint64_t nl = r;
      r = l ^ f;
      l = nl;
    }
    return (l << half) | r;
  }
  std::uint64_t size_;
  unsigned bits_;
  std::uint64_t keys_[4];
};

}  // namespace

std::vector<Message> random_messages_at_load(const FatTreeShape& shape, double load_factor, Rng& rng) {
  const NodeId n = shape.leaves();
  std::vector<std::uint64_t> bound(shape.height() + 1, 0);
  for (unsigned l = 1; l <= shape.height(); ++l)
    bound[l] = static_cast<std::uint64_t>(std::floor(load_factor * shape.capacity(l) + 1e-9));
  ChannelLoads loads(shape);
  const std::uint64_t pairs = static_cast<std::uint64_t>(n) * (n - 1);
  const ShuffledRange order(pairs, rng);
  std::vector<Message> out;
  for (std::uint64_t i = 0; i < pairs; ++i) {
    const std::uint64_t x = order(i);
    const NodeId src = static_cast<NodeId>(x / (n - 1));
    NodeId dst = static_cast<NodeId>(x % (n - 1));
    if (dst >= src) ++dst;
    if (!loads.fits(src, dst, [&](unsigned l) { return bound[l]; })) continue;
    loads.add(src, dst);
    out.push_back(Message{src, dst, 0});
  }
  return out;
}

std::vector<Message> all_to_one_messages(NodeId n, NodeId root) {
  std::vector<Message> out;
  for (NodeId i = 0; i < n; ++i)
    if (i != root) out.push_back(Message{i, root, 0});
  return out;
}

std::vector<Message> listed_messages(const std::vector<SourceDestination>& pairs) {
  std::map<std::pair<NodeId, NodeId>, std::uint32_t> count;
  std::vector<Message> out;
  for (const auto& p : pairs) out.push_back(Message{p.src, p.dst, count[{p.src, p.dst}]++});
  return out;
}

std::vector<SourceDestination> pairs_of(const std::vector<Message>& messages) {
  std::vector<SourceDestination> out;
  out.reserve(messages.size());
  for (const auto& m : messages) out.push_back(SourceDestination{m.src, m.dst});
  return out;
}

MessageSetReceiptPlan::MessageSetReceiptPlan(NodeId n, const std::vector<Message>& messages) : first_(n + 1, 0) {
  for (const auto& m : messages) ++first_[m.dst + 1];
  for (NodeId i = 0; i < n; ++i) first_[i + 1] += first_[i];
  entries_.resize(messages.size());
  std::vector<std::size_t> fill(first_.begin(), first_.end() - 1);
  for (const auto& m : messages) entries_[fill[m.dst]++] = (std::uint64_t{m.src} << 32) | m.seq;
  for (NodeId i = 0; i < n; ++i) std::sort(entries_.begin() + first_[i], entries_.begin() + first_[i + 1]);
}

std::size_t MessageSetReceiptPlan::slot(NodeId pe, NodeId src, std::uint32_t seq, bool broadcast) const {
  if (broadcast || pe + 1 >= first_.size()) return kUnexpected;
  const std::uint64_t key = (std::uint64_t{src} << 32) | seq;
  const auto begin = entries_.begin() + first_[pe], end = entries_.begin() + first_[pe + 1];
  const auto it = std::lower_bound(begin, end, key);
  if (it == end || *it != key) return kUnexpected;
  return static_cast<std::size_t>(it - begin);
}

}  // namespace icn
