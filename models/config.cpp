#include "models/config.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace icn {

namespace {

std::string scalar_text(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "null";
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

bool parse_int(const std::string& text, std::int64_t& value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end == text.c_str() || *end != '\0') return false;
  value = v;
  return true;
}

bool parse_real(const std::string& text, double& value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end == text.c_str() || *end != '\0' || !std::isfinite(v)) return false;
  value = v;
  return true;
}

nlohmann::ordered_json to_json(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return nullptr;
  if (node.IsSequence()) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& item : node) list.push_back(to_json(item));
    return list;
  }
  if (node.IsMap()) {
    nlohmann::ordered_json map = nlohmann::ordered_json::object();
    for (const auto& kv : node) map[kv.first.Scalar()] = to_json(kv.second);
    return map;
  }
  const std::string& s = node.Scalar();
  std::int64_t i;
  double d;
  if (parse_int(s, i)) return i;
  if (parse_real(s, d)) return d;
  if (s == "true") return true;
  if (s == "false") return false;
  return s;
}

}  // namespace

std::string join_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (const auto& c : choices) out += (out.empty() ? "" : "|") + c;
  return out;
}

Config Config::from_text(const std::string& text, const std::string& origin) {
  Config cfg;
  cfg.origin_ = origin;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(origin + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": malformed YAML: " + e.msg);
  }
  if (root.IsNull()) return cfg;  // an empty file is the all-defaults scenario
  if (!root.IsMap()) throw ConfigError(origin + ": a scenario must be a YAML mapping of keys");
  cfg.flatten(root, "");
  return cfg;
}

Config Config::from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("cannot open scenario file '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return from_text(buffer.str(), path);
}

void Config::flatten(const YAML::Node& node, const std::string& prefix) {
  if (node.IsMap()) {
    for (const auto& kv : node) {
      if (!kv.first.IsScalar()) throw ConfigError(origin_ + ": keys must be plain words");
      const std::string key = prefix.empty() ? kv.first.Scalar() : prefix + "." + kv.first.Scalar();
      flatten(kv.second, key);
    }
    return;
  }
  values_[prefix] = node;
}

void Config::apply_override(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == assignment.size()) {
    throw ConfigError("--set '" + assignment + "': expected key=value, e.g. network.leaves=16");
  }
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  YAML::Node value;
  try {
    value = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + key + ": malformed value '" + text + "': " + e.msg);
  }
  // Replace the key and anything nested under it.
  for (auto it = values_.begin(); it != values_.end();) {
    if (it->first == key || it->first.rfind(key + ".", 0) == 0) it = values_.erase(it);
    else ++it;
  }
  flatten(value, key);
}

void Config::declare(const std::vector<ParamSpec>& specs) {
  for (const auto& s : specs) {
    if (declared_.count(s.key) == 0) declared_order_.push_back(s);
    declared_[s.key] = s;
  }
}

const ParamSpec& Config::spec(const std::string& key) const {
  auto it = declared_.find(key);
  if (it == declared_.end()) throw std::logic_error("config key read before it was declared: " + key);
  return it->second;
}

YAML::Node Config::value_or_default(const std::string& key) const {
  auto it = values_.find(key);
  if (it != values_.end()) return it->second;
  const ParamSpec& s = spec(key);
  return YAML::Load(s.default_yaml);
}

std::string Config::value_text(const std::string& key) const {
  return scalar_text(value_or_default(key));
}

void Config::fail(const std::string& key, const std::string& why) const {
  throw ConfigError(key + " = " + value_text(key) + ": " + why);
}

std::int64_t Config::integer(const std::string& key, std::int64_t lo, std::int64_t hi) {
  const ParamSpec& s = spec(key);
  const YAML::Node v = value_or_default(key);
  std::int64_t value = 0;
  if (!v.IsScalar() || !parse_int(v.Scalar(), value)) fail(key, "expected an integer (" + s.allowed + ")");
  if (value < lo || value > hi) fail(key, "out of range (" + s.allowed + ")");
  resolved_[key] = value;
  return value;
}

double Config::real(const std::string& key, double lo, double hi) {
  const ParamSpec& s = spec(key);
  const YAML::Node v = value_or_default(key);
  double value = 0;
  if (!v.IsScalar() || !parse_real(v.Scalar(), value)) fail(key, "expected a number (" + s.allowed + ")");
  if (value < lo || value > hi) fail(key, "out of range (" + s.allowed + ")");
  resolved_[key] = value;
  return value;
}

bool Config::boolean(const std::string& key) {
  spec(key);
  const YAML::Node v = value_or_default(key);
  if (v.IsScalar()) {
    const std::string& t = v.Scalar();
    bool value;
    if (t == "true" || t == "yes" || t == "on") value = true;
    else if (t == "false" || t == "no" || t == "off") value = false;
    else fail(key, "expected true or false");
    resolved_[key] = value;
    return value;
  }
  fail(key, "expected true or false");
}

std::string Config::text(const std::string& key) {
  spec(key);
  const YAML::Node v = value_or_default(key);
  if (v.IsNull()) {
    resolved_[key] = "";
    return "";
  }
  if (!v.IsScalar()) fail(key, "expected a single word or path");
  resolved_[key] = v.Scalar();
  return v.Scalar();
}

std::string Config::choice(const std::string& key, const std::vector<std::string>& choices) {
  spec(key);
  const YAML::Node v = value_or_default(key);
  if (v.IsScalar()) {
    for (const auto& c : choices) {
      if (v.Scalar() == c) {
        resolved_[key] = c;
        return c;
      }
    }
  }
  fail(key, "expected one of " + join_choices(choices));
}

std::vector<std::int64_t> Config::integer_list(const std::string& key, std::int64_t lo,
                                               std::int64_t hi) {
  const ParamSpec& s = spec(key);
  const YAML::Node v = value_or_default(key);
  if (!v.IsSequence()) fail(key, "expected a list of integers (" + s.allowed + ")");
  std::vector<std::int64_t> out;
  for (const auto& item : v) {
    std::int64_t x = 0;
    if (!item.IsScalar() || !parse_int(item.Scalar(), x)) fail(key, "expected a list of integers (" + s.allowed + ")");
    if (x < lo || x > hi) fail(key, "element " + item.Scalar() + " out of range (" + s.allowed + ")");
    out.push_back(x);
  }
  resolved_[key] = out;
  return out;
}

YAML::Node Config::node(const std::string& key) {
  spec(key);
  const YAML::Node v = value_or_default(key);
  resolved_[key] = to_json(v);
  return v;
}

void Config::resolve(const std::string& key, nlohmann::ordered_json value) {
  spec(key);
  resolved_[key] = std::move(value);
}

void Config::reject_unknown() const {
  for (const auto& kv : values_) {
    if (declared_.count(kv.first)) continue;
    const std::string& key = kv.first;
    if (auto u = unused_.find(key); u != unused_.end())
      throw ConfigError("key '" + key + "' is not used here: " + u->second);
    const std::string section = key.substr(0, key.find('.'));
    std::string allowed;
    for (const auto& s : declared_order_) {
      const bool same_section = s.key.substr(0, s.key.find('.')) == section;
      if (same_section && s.key.find('.') != std::string::npos)
        allowed += (allowed.empty() ? "" : ", ") + s.key.substr(s.key.find('.') + 1);
    }
    std::string msg = "unknown key '" + key + "'";
    if (!allowed.empty()) {
      msg += "; allowed under '" + section + "' here: " + allowed;
    } else {
      std::vector<std::string> sections;
      for (const auto& s : declared_order_) {
        const std::string top = s.key.substr(0, s.key.find('.'));
        if (std::find(sections.begin(), sections.end(), top) == sections.end()) sections.push_back(top);
      }
      std::string list;
      for (const auto& top : sections) list += (list.empty() ? "" : ", ") + top;
      msg += "; top-level keys are: " + list;
    }
    throw ConfigError(msg);
  }
}

nlohmann::ordered_json Config::resolved() const {
  nlohmann::ordered_json root = nlohmann::ordered_json::object();
  for (const auto& s : declared_order_) {
    nlohmann::ordered_json value;
    auto it = resolved_.find(s.key);
    value = it != resolved_.end() ? it->second : to_json(value_or_default(s.key));
    nlohmann::ordered_json* cursor = &root;
    std::string rest = s.key;
    for (auto dot = rest.find('.'); dot != std::string::npos; dot = rest.find('.')) {
      cursor = &(*cursor)[rest.substr(0, dot)];
      rest = rest.substr(dot + 1);
    }
    (*cursor)[rest] = value;
  }
  return root;
}

}  // namespace icn
