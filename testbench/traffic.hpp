// What processing elements do: a SendProgram says what each one sends and
// when; a ReceiptPlan says what each one must receive, so every run can check
// contents, not only counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/types.hpp"

namespace icn {

struct PlannedSend {
  Cycle step = 1;           // earliest cycle to hand the message to the NIC
  NodeId dst = kNoNode;     // ignored for a broadcast
  bool broadcast = false;
  std::uint32_t seq = 0;
  std::uint32_t route = 0;  // family-specific routing word (IcnExtension::route)
};

// Yields one processing element's sends in non-decreasing step order.
class SendProgram {
 public:
  virtual ~SendProgram() = default;
  virtual std::optional<PlannedSend> next() = 0;
};

class ListProgram : public SendProgram {
 public:
  explicit ListProgram(std::vector<PlannedSend> sends) : sends_(std::move(sends)) {}
  std::optional<PlannedSend> next() override {
    if (pos_ == sends_.size()) return std::nullopt;
    return sends_[pos_++];
  }

 private:
  std::vector<PlannedSend> sends_;
  std::size_t pos_ = 0;
};

// The receipts a processing element must see, each exactly once.
class ReceiptPlan {
 public:
  static constexpr std::size_t kUnexpected = static_cast<std::size_t>(-1);
  virtual ~ReceiptPlan() = default;
  virtual NodeId nodes() const = 0;
  // Number of distinct receipts node `pe` must see.
  virtual std::size_t slots(NodeId pe) const = 0;
  // Index in [0, slots(pe)) of this receipt, or kUnexpected.
  virtual std::size_t slot(NodeId pe, NodeId src, std::uint32_t seq, bool broadcast) const = 0;
};

// Node `pe` must receive message seq 0 from every node in [0, n) except itself
// (multinode broadcast, total exchange) or only from `source` (broadcast,
// scatter), or, when `sink` is set, node `sink` receives from all (gather).
class SimpleReceiptPlan : public ReceiptPlan {
 public:
  enum class Kind { kFromOne, kFromAll, kAllToOne };
  SimpleReceiptPlan(Kind kind, NodeId n, NodeId root, bool broadcast)
      : kind_(kind), n_(n), root_(root), broadcast_(broadcast) {}

  NodeId nodes() const override { return n_; }
  std::size_t slots(NodeId pe) const override {
    switch (kind_) {
      case Kind::kFromOne: return pe == root_ ? 0 : 1;
      case Kind::kFromAll: return n_ - 1;
      case Kind::kAllToOne: return pe == root_ ? n_ - 1 : 0;
    }
    return 0;
  }
  std::size_t slot(NodeId pe, NodeId src, std::uint32_t seq, bool broadcast) const override {
    if (seq != 0 || broadcast != broadcast_ || src >= n_ || src == pe) return kUnexpected;
    switch (kind_) {
      case Kind::kFromOne: return src == root_ && pe != root_ ? 0 : kUnexpected;
      case Kind::kFromAll: return src < pe ? src : src - 1;
      case Kind::kAllToOne: return pe == root_ ? (src < pe ? src : src - 1) : kUnexpected;
    }
    return kUnexpected;
  }

 private:
  Kind kind_;
  NodeId n_;
  NodeId root_;
  bool broadcast_;
};

// The 8 content bytes of a message: a keyed hash of who sent what to whom, so a
// receiver can tell a misdelivered or corrupted payload from a correct one.
std::uint64_t message_content(std::uint64_t key, NodeId src, NodeId dst, std::uint32_t seq);

}  // namespace icn
