// ConcentratorSwitch: the output side of one port of a bit-serial switch
// (Ishii 1985, section 4): cap(Z) physical paths, and the arbitration that maps
// the streams requesting them onto free paths.
//
// Perfect concentration: any set of requests no larger than the free paths is
// granted whole. When more streams want the output than it has free paths, the
// switch grants a uniformly random subset of exactly that size (the "Switch
// Arbitration" pseudocode of section 4.4: every requester is granted with
// probability free / requesters); the rest are lost for this delivery cycle.
// With trunk priority, streams coming down the trunk are granted first (random
// among themselves if they alone are too many) and turning streams share what
// is left.
//
// Paths, once granted, stay connected until the delivery cycle ends: the switch
// remembers which input drives each output path, which is also how the reverse
// (acknowledge) wire of an output path finds its way back. Only the flushing
// scheme (Ishii 2.1.1) takes a path back before then: release() frees a path
// whose stream was flushed upstream, reassign() hands a path to the stream that
// flushes its owner.
//
// Synchronisation check (section 2.1): the streams that want an output must
// all have arrived when it decides. A request in a later clock of the same
// delivery cycle than a decision already taken is a late request: the port
// committed paths before it knew every stream. Mid-stream buffering and
// storing never make one; prefix buffering does.
#pragma once

#include <cstdint>
#include <vector>

#include "models/rng.hpp"
#include "routers/common/arbiter.hpp"
#include "routers/fattree_bitserial/routing_bits.hpp"

namespace icn::bitserial {

enum class Arbitration : std::uint8_t { kRandom, kTrunkPriority };

// An input path of a switch: port (trunk, branch0, branch1) and path index.
struct PathRef {
  std::uint32_t port : 2;
  std::uint32_t path : 30;
};

class ConcentratorSwitch {
 public:
  ConcentratorSwitch(unsigned paths, Arbitration policy, Rng rng)
      : paths_(paths), policy_(policy), rng_(rng), source_(paths) {}

  unsigned paths() const { return paths_; }
  unsigned free_paths() const { return paths_ - used_ + static_cast<unsigned>(released_.size()); }
  unsigned used_paths() const { return used_; }

  // A new delivery cycle: every path free.
  void clear() {
    used_ = 0;
    released_.clear();
    committed_ = false;
  }

  // Flushing (2.1.1): the stream on `path` was flushed upstream; the path is free again.
  void release(unsigned path) { released_.push_back(path); }
  // Flushing: `path` now carries `input`, which flushed the stream that had it.
  void reassign(unsigned path, PathRef input) { source_[path] = input; }
  // Flushing: a path carrying a stream that did not come down the trunk (the
  // low-priority kind); false if every connected path carries a trunk stream.
  bool flushable_path(unsigned& path) const {
    for (unsigned p = 0; p < used_; ++p) {
      if (source_[p].port == kTrunk || is_released(p)) continue;
      path = p;
      return true;
    }
    return false;
  }

  // A stream asks for this output in the current cycle.
  void request(PathRef input, bool from_trunk) {
    (from_trunk ? trunk_ : others_).push_back(input);
  }
  bool pending() const { return !trunk_.empty() || !others_.empty(); }
  unsigned pending_requests() const { return static_cast<unsigned>(trunk_.size() + others_.size()); }

  // Grants this cycle's requests onto free paths: grant(input, path) for each
  // winner, deny(input) for each loser. Returns the number denied.
  template <class Grant, class Deny>
  unsigned arbitrate(Grant&& grant, Deny&& deny) {
    const unsigned requested = static_cast<unsigned>(trunk_.size() + others_.size());
    requests_ += requested;
    if (requested > free_paths()) ++contended_;
    unsigned denied = 0;
    if (policy_ == Arbitration::kTrunkPriority) {
      denied += serve(trunk_, grant, deny);
      denied += serve(others_, grant, deny);
    } else {
      trunk_.insert(trunk_.end(), others_.begin(), others_.end());
      others_.clear();
      denied += serve(trunk_, grant, deny);
    }
    trunk_.clear();
    others_.clear();
    denials_ += denied;
    if (committed_) {  // an earlier clock of this delivery cycle already decided this port
      late_requests_ += requested;
      late_denials_ += denied;
    }
    committed_ = true;
    return denied;
  }

  // The input connected to output path `path` in this delivery cycle (path < used_paths()).
  PathRef source(unsigned path) const { return source_[path]; }

  std::uint64_t requests() const { return requests_; }
  std::uint64_t denials() const { return denials_; }
  std::uint64_t contended_decisions() const { return contended_; }
  // Requests (and denials among them) that came after the port had decided in
  // the same delivery cycle: the synchronisation check above.
  std::uint64_t late_requests() const { return late_requests_; }
  std::uint64_t late_denials() const { return late_denials_; }

 private:
  // Grants a uniformly random subset of `group`, as large as the free paths allow.
  template <class Grant, class Deny>
  unsigned serve(std::vector<PathRef>& group, Grant& grant, Deny& deny) {
    const std::size_t k = group.size();
    const std::size_t winners = k < free_paths() ? k : free_paths();
    grant_random_subset(group, winners, rng_);  // the shared arbiter (routers/common/arbiter.hpp)
    for (std::size_t i = 0; i < k; ++i) {
      if (i < winners) {
        unsigned path;
        if (released_.empty()) {
          path = used_++;
        } else {
          path = released_.back();
          released_.pop_back();
        }
        source_[path] = group[i];
        grant(group[i], path);
      } else {
        deny(group[i]);
      }
    }
    return static_cast<unsigned>(k - winners);
  }

  unsigned paths_;
  Arbitration policy_;
  Rng rng_;
  unsigned used_ = 0;
  std::vector<PathRef> source_;
  std::vector<PathRef> trunk_;
  std::vector<PathRef> others_;
  std::uint64_t requests_ = 0;
  std::uint64_t denials_ = 0;
  std::uint64_t contended_ = 0;
  std::vector<unsigned> released_;  // paths freed by a flush, reused first
  bool committed_ = false;          // this port decided in this delivery cycle
  std::uint64_t late_requests_ = 0;
  std::uint64_t late_denials_ = 0;

  bool is_released(unsigned path) const {
    for (unsigned p : released_)
      if (p == path) return true;
    return false;
  }
};

}  // namespace icn::bitserial
