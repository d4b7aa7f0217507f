// The wires of an allocation: what an allocator computes and reads within
// one allocation and never keeps (which inputs picked an output, one input's
// free requests, this cycle's grants), kept once per thread instead of once
// per router. A router keeps only its state from cycle to cycle (the
// arbiters' pointers); on a 128x128 mesh these arrays, their vectors and
// heap blocks were about 800 bytes a router, and each busy router read them
// from its own cache lines (docs/performance.md).
//
// Every user leaves the masks it ORs into all zero again (each output's
// word is cleared as it is read), so a scratch shared by routers of any
// size stays zero between allocations. A thread evaluates one block at a
// time (models/engine.hpp), so one set per thread is enough.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace icn {

// Grows to `n` entries, new ones zero (for masks) or -1 (for picks).
template <class T>
T* scratch_at_least(std::vector<T>& v, std::size_t n, T fill) {
  if (v.size() < n) v.resize(n, fill);
  return v.data();
}

struct AllocationScratch {
  // Masks kept all zero between uses: per output, the inputs whose pick it
  // is (a separable allocator's output stage, separable_allocator.hpp; the
  // VC switch allocator's, routers/vc/switch_allocator.hpp) ...
  std::vector<std::uint64_t> picked_by;
  std::vector<std::uint64_t> wanted;        // ... and the outputs some input picked (the switch allocator's)
  // Overwritten before they are read:
  std::vector<std::uint64_t> free_outputs;  // outputs not yet granted in this allocation
  std::vector<std::uint64_t> masked;        // one input's requests among the free outputs
  std::vector<int> pick;                    // per input: its arbiter's pick
  std::vector<std::uint64_t> requests;      // the VC allocator's requests, per input VC ...
  std::vector<int> vc_grants;               // ... and its grants
  std::vector<std::uint64_t> ready;         // the switch allocator's ready VCs, per input port ...
  std::vector<int> sw_grants;               // ... and its grants

  static AllocationScratch& of_this_thread() {
    thread_local AllocationScratch scratch;
    return scratch;
  }
};

}  // namespace icn
