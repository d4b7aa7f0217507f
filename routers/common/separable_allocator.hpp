// Separable input-first allocator (BookSim's separable_input_first, Garnet's
// SwitchAllocator): matches requesters ("inputs") to resources ("outputs"),
// at most one output per input and one input per output.
//
//   1. every input with requests picks one output with its arbiter;
//   2. every output picks one of the inputs that picked it, with its own
//      arbiter.
//
// The arbiters are of one kind, made by name (routers/common/arbiter_factory.hpp:
// round-robin, the default, or matrix).
//
// Plain round-robin moves both arbiters' pointers past every grant. The iSLIP
// option (McKeown) runs `iterations` rounds over the still unmatched inputs
// and outputs and moves pointers only for grants of the first round, which
// de-synchronises the output arbiters. With one iteration the two differ only
// in that iSLIP never moves the pointer of an input whose pick lost.
//
// Any number of inputs and outputs: input i's requests are the
// mask_words(outputs) words at requests + i * mask_words(outputs); up to 64
// outputs that is one word per input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/activity.hpp"
#include "routers/common/allocation_scratch.hpp"
#include "routers/common/allocator.hpp"
#include "routers/common/arbiter.hpp"
#include "routers/common/arbiter_factory.hpp"

namespace icn {

class SeparableAllocator final : public Allocator {
 public:
  struct Options {
    bool islip = true;
    unsigned iterations = 1;
    std::string arbiter = "round_robin";  // a kind of arbiter_factory.hpp
  };

  SeparableAllocator() = default;
  SeparableAllocator(unsigned inputs, unsigned outputs, Options options) { resize(inputs, outputs, options); }

  void resize(unsigned inputs, unsigned outputs, Options options) {
    options_ = options;
    if (options_.iterations < 1) options_.iterations = 1;
    input_arb_ = make_arbiters(options_.arbiter, inputs, outputs);
    output_arb_ = make_arbiters(options_.arbiter, outputs, inputs);
    inputs_ = inputs;
    outputs_ = outputs;
    in_words_ = mask_words(inputs);
    out_words_ = mask_words(outputs);
  }

  unsigned inputs() const override { return inputs_; }
  unsigned outputs() const override { return outputs_; }
  // Words of one input's request mask.
  unsigned request_words() const override { return out_words_; }

  // requests: the outputs each input asks for (request_words() words per
  // input). grant[i] receives the output granted to input i, or -1. Returns
  // the number of grants.
  unsigned allocate(const std::uint64_t* requests, int* grant) override {
    return visit_banks(input_arb_, output_arb_,
                       [&](auto& in_arb, auto& out_arb) { return allocate_with(in_arb, out_arb, requests, grant); });
  }

  // Decisions of the input and output stages' arbiters, and their requests
  // (every round counts: an iSLIP round is one more decision). Each input
  // stage decision is one request to the output stage, so the output stage's
  // requests are the input stage's decisions.
  const ArbiterActivity& input_activity() const override { return input_activity_; }
  ArbiterActivity output_activity() const override { return {output_decisions_, input_activity_.decisions}; }

 private:
  template <class Arbiter>
  unsigned allocate_with(std::vector<Arbiter>& in_arb, std::vector<Arbiter>& out_arb,
                         const std::uint64_t* requests, int* grant) {
    const unsigned n_in = inputs();
    const unsigned n_out = outputs();
    AllocationScratch& s = AllocationScratch::of_this_thread();
    std::uint64_t* const picked_by = scratch_at_least<std::uint64_t>(s.picked_by, std::size_t{n_out} * in_words_, 0);
    std::uint64_t* const free_outputs = scratch_at_least<std::uint64_t>(s.free_outputs, out_words_, 0);
    std::uint64_t* const masked = scratch_at_least<std::uint64_t>(s.masked, out_words_, 0);
    int* const pick = scratch_at_least(s.pick, n_in, -1);
    for (unsigned i = 0; i < n_in; ++i) grant[i] = -1;
    for (unsigned w = 0; w < out_words_; ++w) {
      const unsigned bits = n_out - w * 64;
      free_outputs[w] = bits >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << bits) - 1);
    }
    unsigned grants = 0;
    const unsigned rounds = options_.islip ? options_.iterations : 1;
    for (unsigned round = 0; round < rounds; ++round) {
      // picked_by is all zero here: the output stage clears what it reads.
      bool any = false;
      for (unsigned i = 0; i < n_in; ++i) {
        pick[i] = -1;
        if (grant[i] >= 0) continue;
        const std::uint64_t* req = requests + static_cast<std::size_t>(i) * out_words_;
        bool some = false;
        for (unsigned w = 0; w < out_words_; ++w) {
          masked[w] = req[w] & free_outputs[w];
          some = some || masked[w] != 0;
        }
        if (!some) continue;
        unsigned n = 0;
        for (unsigned w = 0; w < out_words_; ++w) n += static_cast<unsigned>(__builtin_popcountll(masked[w]));
        input_activity_.record(n);
        pick[i] = out_words_ == 1 ? in_arb[i].arbitrate(masked[0]) : in_arb[i].arbitrate_words(masked);
        picked_by[static_cast<std::size_t>(pick[i]) * in_words_ + i / 64] |= std::uint64_t{1} << (i % 64);
        any = true;
      }
      if (!any) break;
      for (unsigned o = 0; o < n_out; ++o) {
        std::uint64_t* by = &picked_by[static_cast<std::size_t>(o) * in_words_];
        bool some = false;
        for (unsigned w = 0; w < in_words_ && !some; ++w) some = by[w] != 0;
        if (!some) continue;
        ++output_decisions_;
        const int i = in_words_ == 1 ? out_arb[o].arbitrate(by[0]) : out_arb[o].arbitrate_words(by);
        if (in_words_ == 1) by[0] = 0;  // without a call to memset
        else for (unsigned w = 0; w < in_words_; ++w) by[w] = 0;
        grant[i] = static_cast<int>(o);
        free_outputs[o / 64] &= ~(std::uint64_t{1} << (o % 64));
        ++grants;
        if (round == 0) {
          out_arb[o].update(i);
          in_arb[i].update(static_cast<int>(o));
        }
      }
      if (!options_.islip) {  // plain round-robin: a losing input's pointer moves too
        for (unsigned i = 0; i < n_in; ++i)
          if (pick[i] >= 0 && grant[i] != pick[i]) in_arb[i].update(pick[i]);
      }
    }
    return grants;
  }

  Options options_;
  ArbiterActivity input_activity_;
  std::uint64_t output_decisions_ = 0;
  ArbiterBank input_arb_;
  ArbiterBank output_arb_;
  unsigned inputs_ = 0, outputs_ = 0;
  unsigned in_words_ = 1, out_words_ = 1;
  // Its stages' wires (which inputs picked each output, the free outputs,
  // one input's masked requests, each input's pick) are the thread's
  // AllocationScratch (allocation_scratch.hpp).
};

}  // namespace icn
