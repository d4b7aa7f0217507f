#include "models/config.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <set>

namespace icn {

namespace {

std::string scalar_text(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "null";
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

bool parse_int(const std::string& text, std::int64_t& value) { return parse_decimal_integer(text, value); }
bool parse_real(const std::string& text, double& value) { return parse_decimal_real(text, value); }

std::string where(const std::string& origin, const YAML::Mark& mark) {
  if (mark.is_null()) return origin;
  return origin + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

// Offset of the first byte that is not part of well-formed UTF-8 (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF), or npos.
std::size_t first_bad_utf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c < 0x80) n = 0;
    else if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c == 0xE0) n = 2, lo = 0xA0;
    else if (c == 0xED) n = 2, hi = 0x9F;
    else if (c >= 0xE1 && c <= 0xEF) n = 2;
    else if (c == 0xF0) n = 3, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) n = 3;
    else if (c == 0xF4) n = 3, hi = 0x8F;
    else return i;
    if (i + n >= s.size()) return i;  // cut short by the end of the text
    for (std::size_t k = 1; k <= n; ++k) {
      const unsigned char min = k == 1 ? lo : 0x80, max = k == 1 ? hi : 0xBF;
      if (b(i + k) < min || b(i + k) > max) return i;
    }
    i += n + 1;
  }
  return std::string::npos;
}

// Walks the document as it would be expanded (an alias counts every time it is
// used), so a "billion laughs" alias bomb is refused after a bounded walk
// instead of being expanded later by the reader or the JSON echo.
void check_expansion(const YAML::Node& node, std::size_t depth, std::size_t& count, const std::string& origin) {
  if (++count > kMaxExpandedNodes) {
    throw ConfigError(origin + ": the document expands to more than " + std::to_string(kMaxExpandedNodes) +
                      " YAML nodes (nested aliases?); that is the limit for a scenario");
  }
  if (depth > kMaxDepth) {
    throw ConfigError(where(origin, node.Mark()) + ": values nested more than " + std::to_string(kMaxDepth) +
                      " levels deep; that is the limit for a scenario");
  }
  // Results are JSON, which is UTF-8: a scalar (or an escape such as "\uD800")
  // that is not would fail when the results are written, after the run.
  if (node.IsScalar()) {
    if (const auto bad = first_bad_utf8(node.Scalar()); bad != std::string::npos) {
      throw ConfigError(where(origin, node.Mark()) + ": '" + shown(node.Scalar(), 60) + "' is not UTF-8 text (byte " +
                        std::to_string(bad) + "); a scenario is UTF-8 text");
    }
  }
  if (node.IsMap()) {
    for (const auto& kv : node) {
      check_expansion(kv.first, depth + 1, count, origin);
      check_expansion(kv.second, depth + 1, count, origin);
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) check_expansion(item, depth + 1, count, origin);
  }
}

// yaml-cpp 0.7's LoadAll loops forever on some junk after a document (e.g.
// "[1],"), and Load ignores what follows the first document. So the text is
// checked here: no document marker after content, and nothing after the
// closing bracket of a top-level flow collection.
void check_single_document(const std::string& text, const std::string& origin) {
  bool content = false, ended = false;
  std::size_t line_no = 0;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto marker = [&](const char* m) {
      return line.compare(0, 3, m) == 0 && (line.size() == 3 || line[3] == ' ' || line[3] == '\t');
    };
    const auto first = line.find_first_not_of(" \t");
    const bool blank = first == std::string::npos || line[first] == '#';
    const std::string here = origin + ":" + std::to_string(line_no) + ":1";
    if (marker("---")) {
      if (content || ended) throw ConfigError(here + ": a second YAML document (after '---'); a scenario is one document");
      const auto rest = line.find_first_not_of(" \t", 3);
      content = rest != std::string::npos && line[rest] != '#';
    } else if (marker("...")) {
      ended = true;
    } else if (!blank && !(line[0] == '%' && !content)) {
      if (ended) throw ConfigError(here + ": text after the document end '...'; a scenario is one document");
      content = true;
    }
    if (end == text.size()) break;
  }
  // A top-level flow collection: nothing but blanks and comments after it.
  const auto open = text.find_first_not_of(" \t\r\n");
  if (open == std::string::npos || (text[open] != '[' && text[open] != '{')) return;
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '\'') {
      for (++i; i < text.size(); ++i) {
        if (text[i] != '\'') continue;
        if (i + 1 < text.size() && text[i + 1] == '\'') ++i;
        else break;
      }
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (--depth == 0) {
        const auto next = text.find_first_not_of(" \t\r\n", i + 1);
        if (next != std::string::npos && text[next] != '#')
          throw ConfigError(origin + ": unexpected '" + shown(text.substr(next, 20)) + "' after the closing '" + c + "'");
        return;
      }
    }
  }
}

// One YAML document, its expansion bounded.
YAML::Node load_one_document(const std::string& text, const std::string& origin) {
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    throw ConfigError(origin + ": not a text file (a NUL byte at offset " + std::to_string(nul) + ")");
  check_single_document(text, origin);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(where(origin, e.mark) + ": malformed YAML: " + shown(e.msg, 200));
  }
  std::size_t count = 0;
  check_expansion(root, 0, count, origin);
  return root;
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

std::string shown(const std::string& value, std::size_t max) {
  std::string out;
  std::size_t i = 0;
  for (; i < value.size() && out.size() < max; ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (i < value.size()) out += "... (" + std::to_string(value.size()) + " bytes)";
  return out;
}

namespace {

bool all_digits(const std::string& t, std::size_t from, std::size_t to) {
  if (from >= to) return false;
  for (std::size_t i = from; i < to; ++i)
    if (t[i] < '0' || t[i] > '9') return false;
  return true;
}

}  // namespace

bool parse_decimal_integer(const std::string& text, std::int64_t& value) {
  const std::size_t sign = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (!all_digits(text, sign, text.size())) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  value = v;
  return true;
}

bool parse_decimal_real(const std::string& text, double& value) {
  // [+-] digits [. digits] [e [+-] digits], or [+-] . digits [e ...]
  std::size_t i = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  const std::size_t mantissa = i;
  std::size_t digits = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  }
  if (digits == 0 || i == mantissa) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!all_digits(text, i, text.size())) return false;
    i = text.size();
  }
  if (i != text.size()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
  value = v;
  return true;
}

std::string join_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (const auto& c : choices) out += (out.empty() ? "" : "|") + c;
  return out;
}

Config Config::from_text(const std::string& text, const std::string& origin) {
  Config cfg;
  cfg.origin_ = origin;
  const YAML::Node root = load_one_document(text, origin);
  if (root.IsNull()) return cfg;  // no keys: the all-defaults scenario
  if (!root.IsMap()) throw ConfigError(origin + ": a scenario must be a YAML mapping of keys");
  cfg.flatten(root, "");
  return cfg;
}

Config Config::from_file(const std::string& path) {
  if (path.empty()) throw ConfigError("the scenario path is empty; give a YAML scenario file");
  const std::string name = "'" + shown(path) + "'";
  // Non-blocking, so a FIFO without a writer is refused instead of waited on.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw ConfigError("cannot open scenario file " + name + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw ConfigError("cannot open scenario file " + name + ": " + std::strerror(errno));
  // /dev/null is the documented way to say "no scenario file, only --set".
  if (!S_ISREG(st.st_mode) && path != "/dev/null") {
    const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    throw ConfigError("scenario " + name + " is " + kind + "; give a YAML scenario file");
  }
  const std::string limit = "; scenarios are limited to " + std::to_string(kMaxScenarioBytes >> 20) + " MiB";
  if (static_cast<std::uint64_t>(st.st_size) > kMaxScenarioBytes)
    throw ConfigError("scenario " + name + " is " + std::to_string(st.st_size) + " bytes" + limit);
  // Files in /proc report size 0: read at most one byte past the limit.
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw ConfigError("cannot read scenario file " + name + ": " + std::strerror(errno));
    if (got == 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > kMaxScenarioBytes) throw ConfigError("scenario " + name + " is over the size limit" + limit);
  }
  const YAML::Node root = load_one_document(text, shown(path, 200));
  if (!root.IsNull() && !root.IsMap())
    throw ConfigError("scenario " + name + " must be a YAML mapping of keys like network.type");
  Config cfg;
  cfg.origin_ = shown(path);
  if (root.IsMap()) cfg.flatten(root, "");  // no keys: the all-defaults scenario
  return cfg;
}

void Config::flatten(const YAML::Node& node, const std::string& prefix) {
  if (node.IsMap()) {
    if (!prefix.empty()) mappings_[prefix] = node;
    std::set<std::string> seen;
    for (const auto& kv : node) {
      if (!kv.first.IsScalar()) throw ConfigError(where(origin_, kv.first.Mark()) + ": keys must be plain words");
      const std::string& word = kv.first.Scalar();
      const std::string key = prefix.empty() ? word : prefix + "." + word;
      if (!seen.insert(word).second || values_.count(key))
        throw ConfigError(where(origin_, kv.first.Mark()) + ": key '" + shown(key) + "' is given twice");
      flatten(kv.second, key);
    }
    return;
  }
  values_[prefix] = node;
  // Where the value was given, for errors: a scenario's file and line, or the --set.
  given_at_[prefix] = origin_.rfind("--set ", 0) == 0 ? origin_ : where(origin_, node.Mark());
}

void Config::apply_override(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == assignment.size()) {
    throw ConfigError("--set '" + shown(assignment) + "': expected key=value, e.g. network.leaves=16");
  }
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  if (!dotted_words(key))
    throw ConfigError("--set '" + shown(key) + "': a key is dotted words (letters, digits, _), e.g. network.leaves");
  assign(key, load_one_document(text, "--set " + key));
}

void Config::assign(const std::string& key, const YAML::Node& value) {
  if (!dotted_words(key))
    throw ConfigError("key '" + shown(key) + "': a key is dotted words (letters, digits, _), e.g. network.leaves");
  erase_given(key);  // replace the key and anything nested under it
  const std::string origin = origin_;
  origin_ = "--set " + key;  // named like a --set value in errors: by its key
  flatten(value, key);
  origin_ = origin;
}

void Config::unset(const std::string& key) {
  if (!dotted_words(key))
    throw ConfigError("--unset '" + shown(key) + "': a key is dotted words (letters, digits, _), e.g. traffic.pipelined");
  if (erase_given(key) == 0)
    throw ConfigError("--unset " + shown(key) + ": the scenario does not give this key (nothing to remove)");
}

bool Config::dotted_words(const std::string& key) {
  if (key.empty() || key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos) return false;
  for (const char c : key) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    if (!word) return false;
  }
  return true;
}

std::size_t Config::erase_given(const std::string& key) {
  std::size_t erased = 0;
  auto erase_under = [&](auto& map) {
    for (auto it = map.begin(); it != map.end();) {
      if (it->first == key || it->first.rfind(key + ".", 0) == 0) it = map.erase(it), ++erased;
      else ++it;
    }
  };
  erase_under(values_);
  erase_under(mappings_);
  erase_under(given_at_);
  return erased;
}

std::vector<std::string> Config::input_file_keys() const {
  std::vector<std::string> keys;
  for (const auto& s : declared_order_)
    if (s.allowed.rfind("a file", 0) == 0 && s.key.rfind("outputs.", 0) != 0) keys.push_back(s.key);
  return keys;
}

void Config::apply_preset(const std::string& key, const std::string& value) {
  if (given(key)) return;
  apply_override(key + "=" + value);
  preset_.insert(key);
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

void Config::reject_mapping(const std::string& key) const {
  auto m = mappings_.find(key);
  if (m == mappings_.end() || values_.count(key)) return;
  throw ConfigError(key + " = " + shown(scalar_text(m->second)) + ": expected a single value or a list, not a mapping (" +
                    spec(key).allowed + ")");
}

YAML::Node Config::value_or_default(const std::string& key) const {
  auto it = values_.find(key);
  if (it != values_.end()) return it->second;
  reject_mapping(key);
  const ParamSpec& s = spec(key);
  return YAML::Load(s.default_yaml);
}

std::string Config::value_text(const std::string& key) const {
  return scalar_text(value_or_default(key));
}

std::string Config::given_at(const std::string& key) const {
  // A value from a scenario file names its file and line; --set values are named by their key already.
  const auto at = given_at_.find(key);
  return at != given_at_.end() && at->second.rfind("--set ", 0) != 0 ? at->second + ": " : "";
}

void Config::fail(const std::string& key, const std::string& why) const {
  throw ConfigError(given_at(key) + key + " = " + shown(value_text(key)) + ": " + why);
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
    if (x < lo || x > hi) fail(key, "element " + shown(item.Scalar()) + " out of range (" + s.allowed + ")");
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

namespace {

// Edit distance (insertions, deletions, substitutions), for suggestions.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string last_word(const std::string& key) { return key.substr(key.rfind('.') + 1); }

}  // namespace

std::string Config::nearest_key(const std::string& key) const {
  if (key.size() > 200) return "";
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, key.size() / 4) + 1;
  for (const auto& s : declared_order_) {
    // The same last word in another section ("network.vcs" for "router.vcs") counts as close.
    const std::size_t d = last_word(s.key) == last_word(key) ? 1 : edit_distance(key, s.key);
    if (d < best_distance) best_distance = d, best = s.key;
  }
  return best;
}

void Config::reject_unknown() const {
  for (const auto& kv : values_) {
    if (declared_.count(kv.first)) {
      if (resolved_.count(kv.first) || preset_.count(kv.first)) continue;
      // Declared for this family, given, and never read: it changes nothing here.
      const ParamSpec& s = spec(kv.first);
      std::string why;
      if (auto u = unused_.find(kv.first); u != unused_.end()) why = u->second;
      else if (!s.applies.empty()) why = "applies only to " + s.applies;
      else why = "this configuration does not read it";
      throw ConfigError(given_at(kv.first) + "key '" + kv.first + "' is not used here: " + why);
    }
    // A value given as a mapping shows up as keys under a declared key.
    for (auto dot = kv.first.rfind('.'); dot != std::string::npos; dot = kv.first.rfind('.', dot - 1)) {
      const std::string parent = kv.first.substr(0, dot);
      if (declared_.count(parent)) reject_mapping(parent);
      if (auto u = unused_.find(parent); u != unused_.end())
        throw ConfigError("key '" + parent + "' is not used here: " + u->second);
      if (dot == 0) break;
    }
    const std::string key = shown(kv.first);
    if (auto u = unused_.find(kv.first); u != unused_.end())
      throw ConfigError("key '" + key + "' is not used here: " + u->second);
    const std::string section = key.substr(0, key.find('.'));
    std::string allowed;
    for (const auto& s : declared_order_) {
      const bool same_section = s.key.substr(0, s.key.find('.')) == section;
      if (same_section && s.key.find('.') != std::string::npos)
        allowed += (allowed.empty() ? "" : ", ") + s.key.substr(s.key.find('.') + 1);
    }
    std::string msg = given_at(kv.first) + "unknown key '" + key + "'";
    if (const std::string near = nearest_key(kv.first); !near.empty()) msg += " (did you mean '" + near + "'?)";
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
