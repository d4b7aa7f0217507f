// Registered statistics: histogram figures against an independent computation
// over the raw samples, and the registry's JSON shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "models/rng.hpp"
#include "models/stats.hpp"

namespace icn {

namespace {
// Nearest rank, computed from the sorted samples.
std::uint64_t nearest_rank(std::vector<std::uint64_t> v, double p) {
  std::sort(v.begin(), v.end());
  const std::size_t rank = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(p / 100.0 * v.size())));
  return v[rank - 1];
}
}  // namespace

TEST(Histogram, FiguresMatchTheSortedSamples) {
  Rng rng(7, "stats");
  for (int trial = 0; trial < 20; ++trial) {
    Histogram h;
    std::vector<std::uint64_t> samples;
    const int n = 1 + static_cast<int>(rng.below(500));
    for (int i = 0; i < n; ++i) {
      const std::uint64_t v = 3 + rng.below(1 + 40 * (trial + 1));
      samples.push_back(v);
      h.add(v);
    }
    EXPECT_EQ(h.count(), samples.size());
    EXPECT_EQ(h.min(), *std::min_element(samples.begin(), samples.end()));
    EXPECT_EQ(h.max(), *std::max_element(samples.begin(), samples.end()));
    const double mean = std::accumulate(samples.begin(), samples.end(), 0.0) / samples.size();
    EXPECT_NEAR(h.mean(), mean, 1e-9 * mean);
    for (double p : {1.0, 25.0, 50.0, 90.0, 99.0, 100.0}) EXPECT_EQ(h.percentile(p), nearest_rank(samples, p)) << p;
    // The bins cover every sample exactly once.
    std::uint64_t binned = 0;
    const auto json = h.to_json();
    for (const auto& b : json["bins"]) {
      const std::uint64_t lo = b[0], hi = b[1], c = b[2];
      EXPECT_EQ(c, static_cast<std::uint64_t>(std::count_if(samples.begin(), samples.end(),
                                                              [&](std::uint64_t v) { return v >= lo && v <= hi; })));
      binned += c;
    }
    EXPECT_EQ(binned, samples.size());
  }
}

TEST(Histogram, EmptyAndHugeValues) {
  Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.percentile(50), 0u);
  EXPECT_EQ(h.to_json()["bins"].size(), 0u);
  h.add(5);
  h.add(1u << 20);  // above the exact range: reported by its power-of-two bucket
  EXPECT_EQ(h.max(), 1u << 20);
  EXPECT_EQ(h.percentile(50), 5u);
  EXPECT_EQ(h.percentile(100), 1u << 20);
}

TEST(StatRegistry, NestsDottedNamesInRegistrationOrder) {
  StatRegistry reg;
  std::uint64_t& moved = reg.counter("links.transfers", "packets moved");
  Histogram& lat = reg.histogram("latency.packet", "cycles");
  reg.derived("links.utilisation", [&] { return nlohmann::ordered_json(0.5); }, "busy fraction");
  moved += 3;
  lat.add(10);
  const auto j = reg.to_json();
  EXPECT_EQ(j["links"]["transfers"], 3u);
  EXPECT_EQ(j["links"]["utilisation"], 0.5);
  EXPECT_EQ(j["latency"]["packet"]["count"], 1u);
  EXPECT_EQ(j.begin().key(), "links");
  EXPECT_THROW(reg.counter("links.transfers", "again"), std::logic_error);
  EXPECT_EQ(reg.describe().size(), 3u);
}

TEST(LatencyStats, CountsBothEndCyclesOfTheTransfer) {
  // A packet injected in cycle 5 (first link transfer) that arrives at the end
  // of cycle 7 spent cycles 5, 6 and 7 in the network.
  LatencyStats s;
  s.record(5, 7, 3);
  EXPECT_EQ(s.network.max(), 3u);
  EXPECT_EQ(s.hops.max(), 3u);
}

}  // namespace icn
