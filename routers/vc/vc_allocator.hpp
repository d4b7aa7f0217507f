// The VC allocator of one virtual-channel router (docs/vc_router.md): input
// VCs (port * V + vc) request free output VCs (port * V + vc) of their routed
// port; an allocator made by name (routers/common/allocator_factory.hpp:
// router.vc_allocator, iSLIP or plain round-robin) matches them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/activity.hpp"
#include "models/types.hpp"
#include "routers/common/allocation_scratch.hpp"
#include "routers/common/arbiter.hpp"
#include "routers/common/allocator_factory.hpp"
#include "routers/vc/input_unit.hpp"
#include "routers/vc/output_unit.hpp"

namespace icn::vc {

// VC allocator: input VCs (port * V + vc) request free output VCs
// (port * V + vc) of their routed port; separable input-first. Each input
// VC's request is request_words() words.
class VcAllocator {
 public:
  void resize(unsigned ports, unsigned vcs, const std::string& kind, const AllocatorOptions& o) {
    alloc_ = make_allocator(kind, ports * vcs, ports * vcs, o);
    words_ = alloc_->request_words();
    inputs_ = ports * vcs;
  }
  unsigned request_words() const { return words_; }

  // The VC allocation stage: every input VC routed and waiting since at most
  // `now` requests the free output VCs its route allows on its routed port,
  // and on the adaptive alternative, never on a failed output (failed(port)).
  // A grant claims the output VC; the packet may request the switch
  // vc_alloc_delay cycles later.
  template <class Failed>
  void allocate(Cycle now, unsigned vc_alloc_delay, InputUnits& in, OutputUnits& out, Failed&& failed) {
    const unsigned V = in.vcs();
    const unsigned n = inputs_;
    AllocationScratch& scratch = AllocationScratch::of_this_thread();
    std::uint64_t* const requests = scratch_at_least<std::uint64_t>(scratch.requests, std::size_t{n} * words_, 0);
    int* const grants = scratch_at_least(scratch.vc_grants, n, -1);
    bool any = false;
    for (unsigned i = 0; i < n; ++i) {
      const InputUnits::VcState& s = in.state(i);
      std::uint64_t* req = &requests[static_cast<std::size_t>(i) * words_];
      if (words_ == 1) req[0] = 0;  // the common case, without a call to memset
      else for (unsigned w = 0; w < words_; ++w) req[w] = 0;
      if (s.stage != InputUnits::Stage::kVcAlloc || s.next > now) continue;
      if (!failed(s.out_port)) or_mask_bits(req, s.out_port * V, out.free_vcs(s.out_port) & s.vc_mask);
      if (s.has_alt && !failed(s.alt_port)) or_mask_bits(req, s.alt_port * V, out.free_vcs(s.alt_port) & s.vc_mask);
      for (unsigned w = 0; w < words_; ++w) any = any || req[w] != 0;
    }
    if (!any) return;
    alloc_->allocate(requests, grants);
    for (unsigned i = 0; i < n; ++i) {
      const int g = grants[i];
      if (g < 0) continue;
      const unsigned port = static_cast<unsigned>(g) / V, vc = static_cast<unsigned>(g) % V;
      out.claim(port, vc, i);
      in.vc_granted(i, port, vc, now, now + vc_alloc_delay);
    }
  }

  const ArbiterActivity& input_activity() const { return alloc_->input_activity(); }
  ArbiterActivity output_activity() const { return alloc_->output_activity(); }

 private:
  std::unique_ptr<Allocator> alloc_;
  unsigned words_ = 1;
  unsigned inputs_ = 0;
  // Its requests and grants are the thread's AllocationScratch
  // (routers/common/allocation_scratch.hpp): they live for one allocation.
};

}  // namespace icn::vc
