// network.failed_links, read the same way by every family: each name in the
// list parsed once, strictly, by the family's own parser into its typed link
// address; the first name that is not a link of this network ends the run
// with one line naming it.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "models/config.hpp"

namespace icn {

// `parse(name)` gives an address or std::nullopt; `not_a_link` completes the
// line "'<name>' is not ...". `list` must already be a sequence.
template <class Parse>
auto parse_link_names(Config& cfg, const std::string& key, const YAML::Node& list, Parse parse,
                      const std::string& not_a_link)
    -> std::vector<typename std::invoke_result_t<Parse, const std::string&>::value_type> {
  std::vector<typename std::invoke_result_t<Parse, const std::string&>::value_type> links;
  for (const YAML::Node& item : list) {
    auto address = item.IsScalar() ? parse(item.Scalar()) : std::nullopt;
    if (!address) cfg.fail(key, "'" + (item.IsScalar() ? item.Scalar() : std::string("?")) + not_a_link);
    links.push_back(std::move(*address));
  }
  return links;
}

}  // namespace icn
