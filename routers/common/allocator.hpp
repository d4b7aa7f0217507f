// Allocators behind one interface: an allocator matches requesters ("inputs")
// to resources ("outputs"), at most one output per input and one input per
// output, once per call. A router holds one through this interface and makes
// it by name (routers/common/allocator_factory.hpp), so a new allocator is a
// new header and one line in the factory's table, not a new flag in a router.
//
// Requests: input i's are the request_words() words at requests + i *
// request_words() (bit o of the mask: output o), as mask_words(outputs).
#pragma once

#include <cstdint>

#include "models/activity.hpp"

namespace icn {

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual unsigned inputs() const = 0;
  virtual unsigned outputs() const = 0;
  // Words of one input's request mask.
  virtual unsigned request_words() const = 0;
  // grant[i] receives the output granted to input i, or -1. Returns the
  // number of grants.
  virtual unsigned allocate(const std::uint64_t* requests, int* grant) = 0;
  // What its arbiters did (models/activity.hpp; docs/energy.md prices it):
  // the input stage's decisions and requests, the output stage's.
  virtual const ArbiterActivity& input_activity() const = 0;
  virtual ArbiterActivity output_activity() const = 0;
};

}  // namespace icn
