// The verdict's own reduction: a second implementation of every reduction
// operator, written apart from the processors' combine() (fractional_pe.cpp),
// so that an operator that is wrong in the model makes the run `verified no`
// instead of being checked against itself.
#pragma once

#include <vector>

#include "testbench/fractional_pe.hpp"

namespace icn::frac {

// The operator applied to `values` in the order given (rank order): sum is
// lane-wise mod 2^32, max lane-wise, matrix the product of 2x2 matrices
// [v0 v1; v2 v3] mod kMatrixModulus, left to right.
Value reference_reduction(Operator op, const std::vector<Value>& values);

}  // namespace icn::frac
