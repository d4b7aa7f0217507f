// The arbiters an allocator can be built with, by name (router.vc_arbiter,
// router.sw_arbiter): the separable allocator and the VC router's switch
// allocator hold their arbiters as an ArbiterBank made here. To add an
// arbiter, write its class (the interface of routers/common/arbiter.hpp:
// resize, arbitrate, arbitrate_words, update) in a new header, add it to
// ArbiterBank's list and add one row below.
//
// A bank is one kind for all its arbiters, so an allocator visits the bank
// once per allocation and the arbitration itself is a direct, inlined call
// (the hot path of every router: no virtual call per decision).
#pragma once

#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "routers/common/arbiter.hpp"

namespace icn {

// A matrix arbiter keeps a bit per pair of requesters and decides in O(n^2)
// steps; the keys offer it for arbiters of at most one word of requesters.
inline constexpr unsigned kMaxMatrixRequesters = 64;

using ArbiterBank = std::variant<std::vector<RoundRobinArbiter>, std::vector<MatrixArbiter>>;

struct ArbiterKind {
  const char* name;
  const char* description;
  ArbiterBank (*make)(unsigned count, unsigned requesters);
};

template <class Arbiter>
ArbiterBank make_arbiter_bank(unsigned count, unsigned requesters) {
  return std::vector<Arbiter>(count, Arbiter(requesters));
}

inline const std::vector<ArbiterKind>& arbiter_kinds() {
  static const std::vector<ArbiterKind> kinds{
      {"round_robin", "the first requester at or after a pointer that moves past each winner",
       &make_arbiter_bank<RoundRobinArbiter>},
      {"matrix", "least recently served first: a bit per pair of requesters says who beats whom",
       &make_arbiter_bank<MatrixArbiter>},
  };
  return kinds;
}

inline std::vector<std::string> arbiter_names() {
  std::vector<std::string> names;
  for (const ArbiterKind& k : arbiter_kinds()) names.emplace_back(k.name);
  return names;
}

// `count` arbiters over `requesters` each. Throws std::invalid_argument
// naming the allowed kinds for an unknown one (the keys refuse it earlier,
// with exit 2).
inline ArbiterBank make_arbiters(const std::string& kind, unsigned count, unsigned requesters) {
  for (const ArbiterKind& k : arbiter_kinds())
    if (kind == k.name) return k.make(count, requesters);
  std::string allowed;
  for (const std::string& name : arbiter_names()) allowed += (allowed.empty() ? "" : ", ") + name;
  throw std::invalid_argument("arbiter: unknown kind '" + kind + "' (allowed: " + allowed + ")");
}

// Calls fn(a's arbiters, b's arbiters) for two banks made with one kind (an
// allocator's two stages): one visit, then direct calls.
template <class Fn>
decltype(auto) visit_banks(ArbiterBank& a, ArbiterBank& b, Fn&& fn) {
  return std::visit([&](auto& first) -> decltype(auto) { return fn(first, std::get<std::decay_t<decltype(first)>>(b)); },
                    a);
}

// The arbiters of a bank, for the allocators' size queries.
inline std::size_t bank_size(const ArbiterBank& bank) {
  return std::visit([](const auto& arbiters) { return arbiters.size(); }, bank);
}

}  // namespace icn
