#include "models/fat_tree.hpp"

#include <stdexcept>

namespace icn {

FatTreeShape::FatTreeShape(unsigned height, std::vector<unsigned> capacities)
    : height_(height), capacities_(std::move(capacities)) {
  if (height_ < 1 || height_ > 30) throw std::invalid_argument("fat tree height must be 1..30");
  std::vector<std::int64_t> caps(capacities_.begin(), capacities_.end());
  const std::string problem = capacity_list_problem(caps, height_);
  if (!problem.empty()) throw std::invalid_argument(problem);
}

std::vector<unsigned> capacity_preset(const std::string& preset, unsigned height) {
  std::vector<unsigned> caps(height);
  for (unsigned l = 1; l <= height; ++l) {
    if (preset == "cbft") caps[l - 1] = 1;
    else if (preset == "ebft") caps[l - 1] = 1u << (l - 1);
    else throw std::invalid_argument("unknown capacity preset " + preset);
  }
  return caps;
}

std::string capacity_list_problem(const std::vector<std::int64_t>& caps, unsigned height) {
  if (caps.size() != height) {
    return "needs exactly log2(n) = " + std::to_string(height) + " capacities c_1..c_" +
           std::to_string(height) + " (got " + std::to_string(caps.size()) + ")";
  }
  for (std::size_t i = 0; i < caps.size(); ++i) {
    if (caps[i] < 1) return "capacities must be >= 1 (c_" + std::to_string(i + 1) + " is " + std::to_string(caps[i]) + ")";
    if (caps[i] > (std::int64_t{1} << 20)) return "capacities must be <= 2^20";
    if (i > 0 && caps[i] < caps[i - 1]) {
      return "capacities must be non-decreasing toward the root (c_" + std::to_string(i + 1) +
             " < c_" + std::to_string(i) + ")";
    }
  }
  return "";
}

}  // namespace icn
