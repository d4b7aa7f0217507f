// The switch allocator of one virtual-channel router (docs/vc_router.md):
// separable input-first at port level, iSLIP's pointer rule, one iteration,
// with arbiters of one kind made by name (router.sw_arbiter:
// routers/common/arbiter_factory.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/activity.hpp"
#include "models/types.hpp"
#include "routers/common/allocation_scratch.hpp"
#include "routers/common/arbiter.hpp"
#include "routers/common/arbiter_factory.hpp"
#include "routers/vc/input_unit.hpp"
#include "routers/vc/output_unit.hpp"

namespace icn::vc {

// Switch allocator: separable input-first at port level. Each input port's
// arbiter picks one of its VCs that has a flit ready and a credit; each
// output port's arbiter picks one of the input ports that picked it.
// Pointers move only on final grants (iSLIP's rule; one iteration).
class SwitchAllocator {
 public:
  void resize(unsigned ports, unsigned vcs, const std::string& arbiter = "round_robin") {
    vc_arb_ = make_arbiters(arbiter, ports, vcs);
    port_arb_ = make_arbiters(arbiter, ports, ports);
    ports_ = ports;
    words_ = mask_words(ports);
  }
  // The switch allocation stage: each input port offers its VCs that hold a
  // packet with an output VC, a flit that may leave in `now` and a credit for
  // the downstream buffer; granted(port, vc) is called for every input VC that
  // won, by input port in ascending order (the switch traversal that follows
  // is VcRouter's: it moves the flit between the blocks).
  template <class Granted>
  void allocate(Cycle now, const InputUnits& in, const OutputUnits& out, Granted&& granted) {
    const unsigned V = in.vcs();
    const unsigned n = ports_;
    AllocationScratch& scratch = AllocationScratch::of_this_thread();
    std::uint64_t* const ready_of = scratch_at_least<std::uint64_t>(scratch.ready, n, 0);
    int* const grant = scratch_at_least(scratch.sw_grants, n, -1);
    bool any = false;
    for (unsigned p = 0; p < n; ++p) {
      std::uint64_t ready = 0;
      if (in.port_flits(p) != 0) {
        for (unsigned v = 0; v < V; ++v) {
          const unsigned ivc = p * V + v;
          const InputUnits::VcState& s = in.state(ivc);
          if (s.stage != InputUnits::Stage::kActive || s.next > now || s.size == 0) continue;
          if (in.front(ivc).ready > now) continue;
          if (out.credits(s.out_port, s.out_vc) == 0) continue;
          ready |= std::uint64_t{1} << v;
        }
      }
      ready_of[p] = ready;
      any = any || ready != 0;
    }
    if (!any) return;
    run(ready_of, [&](unsigned p, int v) { return in.state(p * V + v).out_port; }, grant);
    for (unsigned p = 0; p < n; ++p)
      if (grant[p] >= 0) granted(p, static_cast<unsigned>(grant[p]));
  }

  // ready[p]: VCs of input p that may traverse; out_of(p, vc) their output.
  // grant[p] receives the winning VC of input p, or -1.
  template <class OutOf>
  void run(const std::uint64_t* ready, OutOf out_of, int* grant) {
    visit_banks(vc_arb_, port_arb_, [&](auto& vc_arb, auto& port_arb) { run_with(vc_arb, port_arb, ready, out_of, grant); });
  }

  // Decisions of the input ports' and the output ports' arbiters, and their
  // requests: each input port's decision is one request to an output port.
  const ArbiterActivity& input_activity() const { return input_activity_; }
  ArbiterActivity output_activity() const { return {output_decisions_, input_activity_.decisions}; }

 private:
  template <class Arbiter, class OutOf>
  void run_with(std::vector<Arbiter>& vc_arb, std::vector<Arbiter>& port_arb, const std::uint64_t* ready, OutOf out_of,
                int* grant) {
    const unsigned n = static_cast<unsigned>(vc_arb.size());
    AllocationScratch& scratch = AllocationScratch::of_this_thread();
    int* const picked = scratch_at_least(scratch.pick, n, -1);
    std::uint64_t* const wanted_by = scratch_at_least<std::uint64_t>(scratch.picked_by, std::size_t{n} * words_, 0);
    std::uint64_t* const wanted = scratch_at_least<std::uint64_t>(scratch.wanted, words_, 0);
    for (unsigned p = 0; p < n; ++p) {
      grant[p] = -1;
      picked[p] = ready[p] ? vc_arb[p].arbitrate(ready[p]) : -1;
      if (picked[p] < 0) continue;
      input_activity_.record(static_cast<unsigned>(__builtin_popcountll(ready[p])));
      const unsigned o = out_of(p, picked[p]);
      wanted_by[static_cast<std::size_t>(o) * words_ + p / 64] |= std::uint64_t{1} << (p % 64);
      wanted[o / 64] |= std::uint64_t{1} << (o % 64);
    }
    // Outputs in ascending order, each served once; their masks are cleared
    // for the next cycle as they are read.
    for (unsigned w = 0; w < words_; ++w) {
      for (std::uint64_t m = wanted[w]; m != 0; m &= m - 1) {
        const unsigned o = w * 64 + static_cast<unsigned>(__builtin_ctzll(m));
        std::uint64_t* by = &wanted_by[static_cast<std::size_t>(o) * words_];
        ++output_decisions_;
        const int p = words_ == 1 ? port_arb[o].arbitrate(by[0]) : port_arb[o].arbitrate_words(by);
        if (words_ == 1) by[0] = 0;  // the common case, without a call to memset
        else for (unsigned k = 0; k < words_; ++k) by[k] = 0;
        port_arb[o].update(p);
        vc_arb[p].update(picked[p]);
        grant[p] = picked[p];
      }
      wanted[w] = 0;
    }
  }

  ArbiterActivity input_activity_;
  std::uint64_t output_decisions_ = 0;
  ArbiterBank vc_arb_;    // per input port, over its VCs
  ArbiterBank port_arb_;  // per output port, over the input ports
  unsigned ports_ = 0;
  unsigned words_ = 1;
  // The stage's wires (each input port's ready VCs and pick, the input ports
  // whose pick each output is, the grants) are the thread's
  // AllocationScratch (routers/common/allocation_scratch.hpp).
};

}  // namespace icn::vc
