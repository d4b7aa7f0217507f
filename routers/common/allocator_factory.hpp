// The allocators a router can be built with, by name: router.vc_allocator's
// values are this table's names (testbench/vc_experiment.cpp reads them from
// here). To add an allocator, implement routers/common/allocator.hpp in a new
// header and add one row below.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "routers/common/allocator.hpp"
#include "routers/common/separable_allocator.hpp"

namespace icn {

struct AllocatorOptions {
  unsigned iterations = 1;              // rounds, for the allocators that iterate
  std::string arbiter = "round_robin";  // its arbiters' kind (arbiter_factory.hpp)
};

struct AllocatorKind {
  const char* name;
  const char* description;
  std::unique_ptr<Allocator> (*make)(unsigned inputs, unsigned outputs, const AllocatorOptions& options);
};

inline const std::vector<AllocatorKind>& allocator_kinds() {
  static const std::vector<AllocatorKind> kinds{
      {"islip", "separable input-first, pointers move on first-round grants only (McKeown's iSLIP), "
                "router.alloc_iterations rounds",
       [](unsigned in, unsigned out, const AllocatorOptions& o) -> std::unique_ptr<Allocator> {
         return std::make_unique<SeparableAllocator>(in, out, SeparableAllocator::Options{true, o.iterations, o.arbiter});
       }},
      {"round_robin", "separable input-first, every arbiter's priority moves past its pick, one round",
       [](unsigned in, unsigned out, const AllocatorOptions& o) -> std::unique_ptr<Allocator> {
         return std::make_unique<SeparableAllocator>(in, out, SeparableAllocator::Options{false, 1, o.arbiter});
       }},
  };
  return kinds;
}

inline std::vector<std::string> allocator_names() {
  std::vector<std::string> names;
  for (const AllocatorKind& k : allocator_kinds()) names.emplace_back(k.name);
  return names;
}

// Throws std::invalid_argument naming the allowed kinds for an unknown one
// (the key's check refuses it earlier, with exit 2).
inline std::unique_ptr<Allocator> make_allocator(const std::string& kind, unsigned inputs, unsigned outputs,
                                                 const AllocatorOptions& options) {
  for (const AllocatorKind& k : allocator_kinds())
    if (kind == k.name) return k.make(inputs, outputs, options);
  std::string allowed;
  for (const std::string& name : allocator_names()) allowed += (allowed.empty() ? "" : ", ") + name;
  throw std::invalid_argument("allocator: unknown kind '" + kind + "' (allowed: " + allowed + ")");
}

}  // namespace icn
