// Reductions checked against the test's own arithmetic: the expected root
// results are computed here, with this file's small implementation of each
// operator over every processor's initial value, never with the model's
// combine() or the verdict's reduction oracle. A processor that combines
// wrongly (max computing the minimum, a product in the wrong order, a lost
// part) fails these tests.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "testbench/fractional_pe.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {
using Lanes = std::array<std::uint32_t, 4>;
constexpr std::uint64_t kP = 65521;  // the matrix operator's modulus, as docs/fractional_tree.md states

Lanes add(const Lanes& a, const Lanes& b) {
  Lanes c{};
  for (int i = 0; i < 4; ++i) c[i] = static_cast<std::uint32_t>((std::uint64_t{a[i]} + b[i]) % (1ull << 32));
  return c;
}
Lanes larger(const Lanes& a, const Lanes& b) {
  Lanes c{};
  for (int i = 0; i < 4; ++i) c[i] = a[i] < b[i] ? b[i] : a[i];
  return c;
}
// [a0 a1; a2 a3] x [b0 b1; b2 b3] mod p.
Lanes times(const Lanes& a, const Lanes& b) {
  return {static_cast<std::uint32_t>((a[0] * std::uint64_t{b[0]} % kP + a[1] * std::uint64_t{b[2]} % kP) % kP),
          static_cast<std::uint32_t>((a[0] * std::uint64_t{b[1]} % kP + a[1] * std::uint64_t{b[3]} % kP) % kP),
          static_cast<std::uint32_t>((a[2] * std::uint64_t{b[0]} % kP + a[3] * std::uint64_t{b[2]} % kP) % kP),
          static_cast<std::uint32_t>((a[2] * std::uint64_t{b[1]} % kP + a[3] * std::uint64_t{b[3]} % kP) % kP)};
}

struct Reduction {
  std::string op;
  std::string algorithm;
  unsigned processors;
  unsigned root;
  unsigned packets;
};

std::vector<std::string> overrides(const Reduction& r) {
  return {"network.type=crossbar", "network.processors=" + std::to_string(r.processors),
          "traffic.collective=reduction", "traffic.operator=" + r.op, "traffic.algorithm=" + r.algorithm,
          "traffic.packets=" + std::to_string(r.packets), "traffic.message_units=" + std::to_string(4 * r.packets),
          "traffic.root=" + std::to_string(r.root), "nic.startup=4", "seed=7"};
}

// The expected result of packet j: the processors' initial values (the
// model's input, own_value) combined in rank order (rank x is PU (root + x) mod P).
Lanes expected(const Reduction& r, std::uint64_t key, std::uint32_t j) {
  const frac::Operator op = r.op == "sum" ? frac::Operator::kSum : r.op == "max" ? frac::Operator::kMax : frac::Operator::kMatrix;
  Lanes acc{};
  for (unsigned x = 0; x < r.processors; ++x) {
    const frac::Value v = frac::own_value(key, op, (r.root + x) % r.processors, j);
    const Lanes lanes{v[0], v[1], v[2], v[3]};
    if (x == 0) acc = lanes;
    else if (r.op == "sum") acc = add(acc, lanes);
    else if (r.op == "max") acc = larger(acc, lanes);
    else acc = times(acc, lanes);
  }
  return acc;
}
}  // namespace

TEST(ReductionOracle, RootResultsEqualTheTestsOwnArithmetic) {
  const std::vector<Reduction> cases{{"sum", "fractional", 16, 3, 8},  {"max", "binary", 16, 0, 5},
                                     {"max", "chain", 8, 5, 4},         {"matrix", "binary", 16, 5, 6},
                                     {"matrix", "fractional", 12, 7, 8}, {"sum", "chain", 9, 2, 3}};
  std::vector<std::vector<std::string>> runs;
  for (const auto& c : cases) runs.push_back(overrides(c));
  const auto results = run_scenarios(runs);
  ASSERT_EQ(results.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Reduction& c = cases[i];
    SCOPED_TRACE(c.op + " " + c.algorithm + " P=" + std::to_string(c.processors));
    const auto& r = results[i].results["result"];
    ASSERT_EQ(r["verified"], true) << results[i].problem;
    const auto& red = r["reduction"];
    const std::uint64_t key = red["value_key"].get<std::uint64_t>();
    EXPECT_EQ(red["first_packet"].get<Lanes>(), expected(c, key, 0));
    EXPECT_EQ(red["last_packet"].get<Lanes>(), expected(c, key, c.packets - 1));
  }
}

// The operators themselves, on values small enough to work out by hand.
TEST(ReductionOracle, TheTestsOwnOperatorsOnHandWorkedValues) {
  EXPECT_EQ(add({1, 2, 0xffffffffu, 4}, {1, 1, 2, 0}), (Lanes{2, 3, 1, 4}));
  EXPECT_EQ(larger({1, 9, 3, 0}, {2, 8, 3, 1}), (Lanes{2, 9, 3, 1}));
  // [1 2; 3 4] x [5 6; 7 8] = [19 22; 43 50]; the other order [23 34; 31 46].
  EXPECT_EQ(times({1, 2, 3, 4}, {5, 6, 7, 8}), (Lanes{19, 22, 43, 50}));
  EXPECT_EQ(times({5, 6, 7, 8}, {1, 2, 3, 4}), (Lanes{23, 34, 31, 46}));
}

}  // namespace icn::test
