#include "testbench/reduction_oracle.hpp"

#include <cstdint>

namespace icn::frac {

namespace {
// 64-bit accumulators, reduced once at the end: a different computation from
// the processors' lane-by-lane wrap-around on every step.
Value sum_of(const std::vector<Value>& values) {
  std::uint64_t acc[4] = {0, 0, 0, 0};
  for (const Value& v : values)
    for (unsigned lane = 0; lane < 4; ++lane) acc[lane] += v[lane];
  Value out{};
  for (unsigned lane = 0; lane < 4; ++lane) out[lane] = static_cast<std::uint32_t>(acc[lane] & 0xffffffffu);
  return out;
}

// The largest by comparison against a running best, starting from the first.
Value max_of(const std::vector<Value>& values) {
  Value best = values.front();
  for (const Value& v : values)
    for (unsigned lane = 0; lane < 4; ++lane)
      if (v[lane] > best[lane]) best[lane] = v[lane];
  return best;
}

// Row-by-column products with explicit row and column indices.
Value matrix_product_of(const std::vector<Value>& values) {
  const std::uint64_t p = kMatrixModulus;
  std::uint64_t m[2][2] = {{values.front()[0] % p, values.front()[1] % p}, {values.front()[2] % p, values.front()[3] % p}};
  for (std::size_t i = 1; i < values.size(); ++i) {
    const std::uint64_t b[2][2] = {{values[i][0], values[i][1]}, {values[i][2], values[i][3]}};
    std::uint64_t c[2][2] = {{0, 0}, {0, 0}};
    for (unsigned row = 0; row < 2; ++row)
      for (unsigned col = 0; col < 2; ++col)
        for (unsigned k = 0; k < 2; ++k) c[row][col] = (c[row][col] + m[row][k] * b[k][col]) % p;
    for (unsigned row = 0; row < 2; ++row)
      for (unsigned col = 0; col < 2; ++col) m[row][col] = c[row][col];
  }
  return {static_cast<std::uint32_t>(m[0][0]), static_cast<std::uint32_t>(m[0][1]), static_cast<std::uint32_t>(m[1][0]),
          static_cast<std::uint32_t>(m[1][1])};
}
}  // namespace

Value reference_reduction(Operator op, const std::vector<Value>& values) {
  if (values.empty()) return Value{};
  switch (op) {
    case Operator::kSum: return sum_of(values);
    case Operator::kMax: return max_of(values);
    case Operator::kMatrix: return matrix_product_of(values);
  }
  return Value{};
}

}  // namespace icn::frac
