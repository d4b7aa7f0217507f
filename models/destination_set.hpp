// DestinationSet: the nodes one message is addressed to (multicast).
//
// Replicating hardware — a broadcast router, HPAM's inter-level replicator —
// receives one message for a set of destinations and splits the set among its
// output ports. A set is kept compact: one node, every node, a contiguous range
// of node ids, a rectangular sub-mesh of a row-major mesh, or an explicit list
// (sorted, duplicates removed). Splitting keeps the compact forms where it can.
//
// The fan-out of a message is the size of its set: the ledger expects that
// many deliveries (per message, not a per-NIC constant).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn {

class DestinationSet {
 public:
  enum class Kind : std::uint8_t { kEmpty, kOne, kRange, kSubmesh, kList };

  DestinationSet() = default;
  static DestinationSet one(NodeId node) {
    DestinationSet s;
    s.kind_ = Kind::kOne;
    s.first_ = node;
    return s;
  }
  // Nodes first..last inclusive.
  static DestinationSet range(NodeId first, NodeId last) {
    if (last < first) return {};
    DestinationSet s;
    s.kind_ = Kind::kRange;
    s.first_ = first;
    s.last_ = last;
    return s;
  }
  static DestinationSet all(NodeId nodes) { return nodes == 0 ? DestinationSet{} : range(0, nodes - 1); }
  // The rows x cols block at (row, col) of a mesh `mesh_cols` wide, node = r * mesh_cols + c.
  static DestinationSet submesh(NodeId row, NodeId col, NodeId rows, NodeId cols, NodeId mesh_cols) {
    if (rows == 0 || cols == 0) return {};
    if (col + cols > mesh_cols) throw std::invalid_argument("sub-mesh wider than its mesh");
    DestinationSet s;
    s.kind_ = Kind::kSubmesh;
    s.first_ = row * mesh_cols + col;
    s.rows_ = rows;
    s.cols_ = cols;
    s.stride_ = mesh_cols;
    return s;
  }
  static DestinationSet list(std::vector<NodeId> nodes) {
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    if (nodes.empty()) return {};
    if (nodes.size() == 1) return one(nodes[0]);
    if (nodes.back() - nodes.front() + 1 == nodes.size()) return range(nodes.front(), nodes.back());
    DestinationSet s;
    s.kind_ = Kind::kList;
    s.nodes_ = std::move(nodes);
    return s;
  }

  Kind kind() const { return kind_; }
  bool empty() const { return kind_ == Kind::kEmpty; }

  std::uint64_t size() const {
    switch (kind_) {
      case Kind::kEmpty: return 0;
      case Kind::kOne: return 1;
      case Kind::kRange: return std::uint64_t{last_} - first_ + 1;
      case Kind::kSubmesh: return std::uint64_t{rows_} * cols_;
      case Kind::kList: return nodes_.size();
    }
    return 0;
  }

  bool contains(NodeId n) const {
    switch (kind_) {
      case Kind::kEmpty: return false;
      case Kind::kOne: return n == first_;
      case Kind::kRange: return n >= first_ && n <= last_;
      case Kind::kSubmesh: {
        if (n < first_) return false;
        const NodeId r = (n - first_) / stride_, c = (n - first_) % stride_;
        return r < rows_ && c < cols_;
      }
      case Kind::kList: return std::binary_search(nodes_.begin(), nodes_.end(), n);
    }
    return false;
  }

  // Calls fn(node) for every member, in increasing node order.
  template <class Fn>
  void for_each(Fn&& fn) const {
    switch (kind_) {
      case Kind::kEmpty: return;
      case Kind::kOne: fn(first_); return;
      case Kind::kRange:
        for (std::uint64_t n = first_; n <= last_; ++n) fn(static_cast<NodeId>(n));
        return;
      case Kind::kSubmesh:
        for (NodeId r = 0; r < rows_; ++r)
          for (NodeId c = 0; c < cols_; ++c) fn(first_ + r * stride_ + c);
        return;
      case Kind::kList:
        for (NodeId n : nodes_) fn(n);
        return;
    }
  }

  // Splits the set among `parts` outputs: part_of(node) names the output (0..parts-1)
  // that must carry each member. Returns one set per output (empty where none).
  // Hardware that replicates a message uses this to decide which copies to make.
  template <class PartOf>
  std::vector<DestinationSet> split(unsigned parts, PartOf&& part_of) const {
    std::vector<std::vector<NodeId>> members(parts);
    for_each([&](NodeId n) {
      const unsigned p = part_of(n);
      if (p >= parts) throw std::logic_error("destination set split: node " + std::to_string(n) + " has no output");
      members[p].push_back(n);
    });
    std::vector<DestinationSet> out;
    out.reserve(parts);
    for (auto& m : members) {
      // A part that keeps the whole set keeps its compact form.
      out.push_back(m.size() == size() ? *this : list(std::move(m)));
    }
    return out;
  }

  // The members that are also in [first, last].
  DestinationSet restricted_to(NodeId first, NodeId last) const {
    if (kind_ == Kind::kRange) return range(std::max(first, first_), std::min(last, last_));
    std::vector<NodeId> m;
    for_each([&](NodeId n) {
      if (n >= first && n <= last) m.push_back(n);
    });
    return m.size() == size() ? *this : list(std::move(m));
  }

  std::string to_string() const {
    switch (kind_) {
      case Kind::kEmpty: return "{}";
      case Kind::kOne: return "{" + std::to_string(first_) + "}";
      case Kind::kRange: return "{" + std::to_string(first_) + ".." + std::to_string(last_) + "}";
      case Kind::kSubmesh:
        return "{sub-mesh " + std::to_string(rows_) + "x" + std::to_string(cols_) + " at node " +
               std::to_string(first_) + ", row stride " + std::to_string(stride_) + "}";
      case Kind::kList: {
        std::string s = "{";
        for (std::size_t i = 0; i < nodes_.size(); ++i) s += (i ? "," : "") + std::to_string(nodes_[i]);
        return s + "}";
      }
    }
    return "{}";
  }

  bool operator==(const DestinationSet& o) const {
    if (size() != o.size()) return false;
    bool same = true;
    for_each([&](NodeId n) { same = same && o.contains(n); });
    return same;
  }

 private:
  Kind kind_ = Kind::kEmpty;
  NodeId first_ = 0;
  NodeId last_ = 0;
  NodeId rows_ = 0, cols_ = 0, stride_ = 0;
  std::vector<NodeId> nodes_;
};

// The destination sets of packets in flight, beside the PacketPool: only
// multicast packets have an entry, so unicast packets stay 40 bytes.
class DestinationTable {
 public:
  void set(PacketId id, DestinationSet s) { sets_[id] = std::move(s); }
  const DestinationSet* find(PacketId id) const {
    const auto it = sets_.find(id);
    return it == sets_.end() ? nullptr : &it->second;
  }
  void erase(PacketId id) { sets_.erase(id); }
  std::size_t size() const { return sets_.size(); }

 private:
  std::map<PacketId, DestinationSet> sets_;
};

}  // namespace icn
