// Separable input-first allocator (BookSim's separable_input_first, Garnet's
// SwitchAllocator): matches requesters ("inputs") to resources ("outputs"),
// at most one output per input and one input per output.
//
//   1. every input with requests picks one output with its round-robin arbiter;
//   2. every output picks one of the inputs that picked it, with its own
//      round-robin arbiter.
//
// Plain round-robin moves both arbiters' pointers past every grant. The iSLIP
// option (McKeown) runs `iterations` rounds over the still unmatched inputs
// and outputs and moves pointers only for grants of the first round, which
// de-synchronises the output arbiters. With one iteration the two differ only
// in that iSLIP never moves the pointer of an input whose pick lost.
//
// Up to 64 inputs and 64 outputs; requests are one output mask per input.
#pragma once

#include <cstdint>
#include <vector>

#include "routers/common/arbiter.hpp"

namespace icn {

class SeparableAllocator {
 public:
  struct Options {
    bool islip = true;
    unsigned iterations = 1;
  };

  SeparableAllocator() = default;
  SeparableAllocator(unsigned inputs, unsigned outputs, Options options) { resize(inputs, outputs, options); }

  void resize(unsigned inputs, unsigned outputs, Options options) {
    options_ = options;
    if (options_.iterations < 1) options_.iterations = 1;
    input_arb_.assign(inputs, RoundRobinArbiter(outputs));
    output_arb_.assign(outputs, RoundRobinArbiter(inputs));
    picked_by_.assign(outputs, 0);
  }

  unsigned inputs() const { return static_cast<unsigned>(input_arb_.size()); }
  unsigned outputs() const { return static_cast<unsigned>(output_arb_.size()); }

  // requests[i]: the outputs input i asks for. grant[i] receives the output
  // granted to input i, or -1. Returns the number of grants.
  unsigned allocate(const std::uint64_t* requests, int* grant) {
    const unsigned n_in = inputs();
    const unsigned n_out = outputs();
    for (unsigned i = 0; i < n_in; ++i) grant[i] = -1;
    std::uint64_t free_outputs = n_out == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << n_out) - 1);
    unsigned grants = 0;
    const unsigned rounds = options_.islip ? options_.iterations : 1;
    for (unsigned round = 0; round < rounds; ++round) {
      for (unsigned o = 0; o < n_out; ++o) picked_by_[o] = 0;
      int pick[64];
      bool any = false;
      for (unsigned i = 0; i < n_in; ++i) {
        pick[i] = -1;
        if (grant[i] >= 0) continue;
        const std::uint64_t r = requests[i] & free_outputs;
        if (r == 0) continue;
        pick[i] = input_arb_[i].arbitrate(r);
        picked_by_[pick[i]] |= std::uint64_t{1} << i;
        any = true;
      }
      if (!any) break;
      for (unsigned o = 0; o < n_out; ++o) {
        if (picked_by_[o] == 0) continue;
        const int i = output_arb_[o].arbitrate(picked_by_[o]);
        grant[i] = static_cast<int>(o);
        free_outputs &= ~(std::uint64_t{1} << o);
        ++grants;
        if (round == 0) {
          output_arb_[o].update(i);
          input_arb_[i].update(static_cast<int>(o));
        }
      }
      if (!options_.islip) {  // plain round-robin: a losing input's pointer moves too
        for (unsigned i = 0; i < n_in; ++i)
          if (pick[i] >= 0 && grant[i] != pick[i]) input_arb_[i].update(pick[i]);
      }
    }
    return grants;
  }

 private:
  Options options_;
  std::vector<RoundRobinArbiter> input_arb_;
  std::vector<RoundRobinArbiter> output_arb_;
  std::vector<std::uint64_t> picked_by_;
};

}  // namespace icn
