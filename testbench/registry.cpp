// The network families icnsim knows, gathered from their registrations: each
// family registers itself in its own experiment file (testbench/family.hpp).
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "testbench/family.hpp"

namespace icn {

namespace {

// Filled during static initialisation, in whatever order the linker put the
// families' files; families() orders them by rank.
std::vector<Family>& registrations() {
  static std::vector<Family> all;
  return all;
}

}  // namespace

RegisterFamily::RegisterFamily(int rank, std::vector<NetworkKind (*)()> kinds, DemoRows (*demo)()) {
  registrations().push_back(Family{rank, std::move(kinds), demo});
}

const std::vector<Family>& families() {
  static const std::vector<Family> by_rank = [] {
    std::vector<Family> all = registrations();
    if (all.empty())
      throw std::logic_error("no network family is linked in (link icnsim_testbench_whole: testbench/CMakeLists.txt)");
    std::sort(all.begin(), all.end(), [](const Family& a, const Family& b) { return a.rank < b.rank; });
    for (std::size_t i = 1; i < all.size(); ++i)
      if (all[i].rank == all[i - 1].rank)
        throw std::logic_error("two network families are registered with rank " + std::to_string(all[i].rank) +
                               " (testbench/family.hpp): give each its own");
    return all;
  }();
  return by_rank;
}

const std::vector<NetworkKind>& network_kinds() {
  static const std::vector<NetworkKind> kinds = [] {
    std::vector<NetworkKind> all;
    std::set<std::string> types;
    for (const Family& f : families())
      for (NetworkKind (*kind)() : f.kinds) {
        all.push_back(kind());
        if (!types.insert(all.back().type).second)
          throw std::logic_error("network.type=" + all.back().type + " is registered twice (testbench/family.hpp)");
      }
    return all;
  }();
  return kinds;
}

}  // namespace icn
