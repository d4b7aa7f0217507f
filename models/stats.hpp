// Registered statistics.
//
// Blocks and experiments register named statistics once — counters, histograms
// and derived figures — and the JSON results are generated from the registry
// (in the spirit of gem5's regStats() and BookSim's Stats). Names are dotted;
// "latency.packet" lands in the JSON as {"latency": {"packet": {...}}}.
//
// Histogram keeps exact counts per value up to kExactLimit (cycles and hop
// counts of every run icnsim makes stay far below it) and power-of-two buckets
// above, so percentiles are exact in practice and memory stays bounded.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn {

class Histogram {
 public:
  static constexpr std::uint64_t kExactLimit = 1u << 16;

  void add(std::uint64_t value, std::uint64_t times = 1) {
    if (times == 0) return;
    if (value < kExactLimit) {
      if (value >= exact_.size()) exact_.resize(std::max<std::size_t>(value + 1, exact_.size() * 2), 0);
      exact_[value] += times;
    } else {
      over_[63 - __builtin_clzll(value)] += times;  // bucket [2^b, 2^(b+1))
    }
    count_ += times;
    sum_ += static_cast<long double>(value) * times;
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
  }

  std::uint64_t count() const { return count_; }
  std::uint64_t min() const { return count_ ? min_ : 0; }
  std::uint64_t max() const { return max_; }
  double mean() const { return count_ ? static_cast<double>(sum_ / count_) : 0.0; }

  // Nearest-rank percentile (p in (0, 100]): the smallest recorded value v with
  // at least p % of the samples <= v. Above kExactLimit: the bucket's lower bound.
  std::uint64_t percentile(double p) const {
    if (count_ == 0) return 0;
    const std::uint64_t rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(p / 100.0 * count_)));
    std::uint64_t seen = 0;
    for (std::size_t v = 0; v < exact_.size(); ++v) {
      seen += exact_[v];
      if (seen >= rank) return v;
    }
    for (const auto& [b, n] : over_) {
      seen += n;
      if (seen >= rank) return std::uint64_t{1} << b;
    }
    return max_;
  }

  // {mean, p50, p99, max, min, count}: a latency or hop count as the results
  // report it (result.latency.packet and the like; to_json() adds the bins).
  nlohmann::ordered_json summary() const {
    return {{"mean", mean()}, {"p50", percentile(50)}, {"p99", percentile(99)},
            {"max", max()},   {"min", min()},          {"count", count()}};
  }

  // {count, min, mean, max, p50, p99, bins: [[lo, hi, count], ...]}: up to 32
  // bins of equal width over [min, max] (one bin per value when they are few).
  nlohmann::ordered_json to_json() const {
    nlohmann::ordered_json j;
    j["count"] = count_;
    j["min"] = min();
    j["mean"] = mean();
    j["max"] = max();
    j["p50"] = percentile(50);
    j["p99"] = percentile(99);
    nlohmann::ordered_json bins = nlohmann::ordered_json::array();
    if (count_ != 0) {
      const std::uint64_t span = max_ - min() + 1;
      const std::uint64_t width = (span + 31) / 32;
      std::map<std::uint64_t, std::uint64_t> by_bin;
      for (std::size_t v = 0; v < exact_.size(); ++v)
        if (exact_[v] != 0) by_bin[(v - min()) / width] += exact_[v];
      for (const auto& [b, n] : over_) by_bin[((std::uint64_t{1} << b) - min()) / width] += n;
      for (const auto& [bin, n] : by_bin) {
        const std::uint64_t lo = min() + bin * width;
        bins.push_back({lo, std::min(max_, lo + width - 1), n});
      }
    }
    j["bins"] = bins;
    return j;
  }

 private:
  std::vector<std::uint64_t> exact_;
  std::map<int, std::uint64_t> over_;
  std::uint64_t count_ = 0;
  long double sum_ = 0;
  std::uint64_t min_ = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max_ = 0;
};

// Message latency as every family reports it: injection (the first link
// transfer) to delivery (the end of the last), and links traversed.
struct LatencyStats {
  Histogram network;  // cycles from injection to delivery
  Histogram hops;     // links traversed

  void record(Cycle injected, Cycle arrived, unsigned hops_taken) {
    network.add(arrived >= injected ? arrived - injected + 1 : 0);
    hops.add(hops_taken);
  }
};

class StatRegistry {
 public:
  using Figure = std::function<nlohmann::ordered_json()>;

  // A counter the caller increments; the registry reads it at report time.
  std::uint64_t& counter(const std::string& name, const std::string& help) {
    auto& e = add(name, help);
    e.counter = std::make_unique<std::uint64_t>(0);
    return *e.counter;
  }
  Histogram& histogram(const std::string& name, const std::string& help) {
    auto& e = add(name, help);
    e.histogram = std::make_unique<Histogram>();
    return *e.histogram;
  }
  // A histogram owned elsewhere (e.g. inside a block).
  void histogram(const std::string& name, const Histogram& h, const std::string& help) {
    add(name, help).figure = [&h] { return h.to_json(); };
  }
  // A figure computed at report time (a ratio, a per-level table, ...).
  void derived(const std::string& name, Figure figure, const std::string& help) {
    add(name, help).figure = std::move(figure);
  }
  void latency(const std::string& prefix, const LatencyStats& s) {
    histogram(prefix + ".network", s.network, "cycles from injection (first link transfer) to delivery (end of the last)");
    histogram(prefix + ".hops", s.hops, "links traversed");
  }

  // Every statistic as nested JSON, in registration order.
  nlohmann::ordered_json to_json() const {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& e : entries_) {
      nlohmann::ordered_json* node = &out;
      std::size_t start = 0;
      for (;;) {
        const std::size_t dot = e.name.find('.', start);
        if (dot == std::string::npos) break;
        node = &(*node)[e.name.substr(start, dot - start)];
        start = dot + 1;
      }
      const std::string leaf = e.name.substr(start);
      if (e.counter) (*node)[leaf] = *e.counter;
      else if (e.histogram) (*node)[leaf] = e.histogram->to_json();
      else (*node)[leaf] = e.figure();
    }
    return out;
  }

  // (name, help) of every statistic, for documentation and `icnsim list`.
  std::vector<std::pair<std::string, std::string>> describe() const {
    std::vector<std::pair<std::string, std::string>> d;
    for (const auto& e : entries_) d.emplace_back(e.name, e.help);
    return d;
  }

 private:
  struct Entry {
    std::string name;
    std::string help;
    std::unique_ptr<std::uint64_t> counter;
    std::unique_ptr<Histogram> histogram;
    Figure figure;
  };
  Entry& add(const std::string& name, const std::string& help) {
    for (const auto& e : entries_)
      if (e.name == name) throw std::logic_error("statistic registered twice: " + name);
    entries_.push_back(Entry{name, help, nullptr, nullptr, nullptr});
    return entries_.back();
  }
  std::vector<Entry> entries_;
};

}  // namespace icn
