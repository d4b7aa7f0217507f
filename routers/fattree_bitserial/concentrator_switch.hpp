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
// (acknowledge) wire of an output path finds its way back.
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
  unsigned free_paths() const { return paths_ - used_; }
  unsigned used_paths() const { return used_; }

  // A new delivery cycle: every path free.
  void clear() { used_ = 0; }

  // A stream asks for this output in the current cycle.
  void request(PathRef input, bool from_trunk) {
    (from_trunk ? trunk_ : others_).push_back(input);
  }
  bool pending() const { return !trunk_.empty() || !others_.empty(); }

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
    return denied;
  }

  // The input connected to output path `path` in this delivery cycle (path < used_paths()).
  PathRef source(unsigned path) const { return source_[path]; }

  std::uint64_t requests() const { return requests_; }
  std::uint64_t denials() const { return denials_; }
  std::uint64_t contended_decisions() const { return contended_; }

 private:
  // Grants a uniformly random subset of `group`, as large as the free paths allow.
  template <class Grant, class Deny>
  unsigned serve(std::vector<PathRef>& group, Grant& grant, Deny& deny) {
    const std::size_t k = group.size();
    const std::size_t winners = k < free_paths() ? k : free_paths();
    grant_random_subset(group, winners, rng_);  // the shared arbiter (routers/common/arbiter.hpp)
    for (std::size_t i = 0; i < k; ++i) {
      if (i < winners) {
        const unsigned path = used_++;
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
};

}  // namespace icn::bitserial
