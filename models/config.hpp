// Scenario configuration: a YAML file, overridden by `--set key=value`, read
// through declared, typed parameters.
//
// Each network type and traffic kind declares the parameters it accepts
// (ParamSpec). A key the scenario gives that no component declared is an
// error that names the allowed keys; a value outside its range is an error that
// names the allowed values. Errors are one line (ConfigError); the icnsim
// command prints it and exits with code 2.
//
// Input limits (bad input is refused, never read forever): a scenario is a
// readable regular file (or /dev/null: no keys) of at most kMaxScenarioBytes; YAML aliases may expand
// the document to at most kMaxExpandedNodes nodes, nested at most kMaxDepth
// deep; a key appears once per mapping; one YAML document per file.
// Numbers are decimal everywhere: integers [+-]digits, reals with an optional
// fraction and exponent (1.5, 2e-3); no hex, octal, inf or nan.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace icn {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Shows an input value in a one-line message: bytes outside printable ASCII
// (newlines, ANSI escapes, direction overrides) escaped as \xNN, long values
// cut to `max` characters with their length noted.
std::string shown(const std::string& value, std::size_t max = 80);

// The project's one number syntax (see above).
bool parse_decimal_integer(const std::string& text, std::int64_t& value);
bool parse_decimal_real(const std::string& text, double& value);

inline constexpr std::size_t kMaxScenarioBytes = 16u << 20;
inline constexpr std::size_t kMaxExpandedNodes = 1000000;
inline constexpr std::size_t kMaxDepth = 64;

struct ParamSpec {
  std::string key;           // dotted, e.g. "network.leaves"
  std::string default_yaml;  // YAML text of the default value
  std::string allowed;       // the allowed values, for errors and `icnsim list`
  std::string help;
  // When the key applies, if not always ("network.topology=fattree"): said
  // when a scenario gives the key where it does not apply.
  std::string applies = "";
};

class Config {
 public:
  static Config from_file(const std::string& path);
  static Config from_text(const std::string& text, const std::string& origin = "scenario");

  // "a.b=value"; value is read as YAML, so lists ([1,2,4]) and words both work.
  void apply_override(const std::string& assignment);
  // The same with the value already a node (NetworkBuilder::set): checked when
  // read, like any given value; errors name it by its key, as for --set.
  void assign(const std::string& key, const YAML::Node& value);

  // Makes keys legal and gives them defaults. Re-declaring a key is allowed.
  void declare(const std::vector<ParamSpec>& specs);

  // A preset's value for `key`, used only if the scenario did not give the key
  // (a key given as a mapping counts as given, and is refused when read). A
  // preset value the configuration never reads is not an error.
  void apply_preset(const std::string& key, const std::string& value);

  // Removes a key (and anything under it) that the scenario gives, so the
  // default applies; a key the scenario does not give is an error.
  void unset(const std::string& key);

  // Declared keys that name input files (their spec's `allowed` starts with
  // "a file"): outputs may not overwrite them.
  std::vector<std::string> input_file_keys() const;

  // A key that exists for this network type but is not used by the current
  // configuration: giving it is an error that says why. (Any given key that
  // the configuration never reads is refused too; this only adds the reason.)
  void declare_unused(const std::string& key, const std::string& why) { unused_[key] = why; }

  bool given(const std::string& key) const { return values_.count(key) != 0 || mappings_.count(key) != 0; }

  std::int64_t integer(const std::string& key, std::int64_t lo, std::int64_t hi);
  double real(const std::string& key, double lo, double hi);
  bool boolean(const std::string& key);
  std::string text(const std::string& key);
  std::string choice(const std::string& key, const std::vector<std::string>& choices);
  std::vector<std::int64_t> integer_list(const std::string& key, std::int64_t lo, std::int64_t hi);
  // The raw value (given or default) for keys with a union type, e.g. `cbft` or a list.
  YAML::Node node(const std::string& key);
  // Records the resolved value of a key whose value the caller derived itself.
  void resolve(const std::string& key, nlohmann::ordered_json value);

  // Throws "key = value: why". `why` should name the allowed values.
  [[noreturn]] void fail(const std::string& key, const std::string& why) const;

  // Throws on the first given key that no component declared, or that the
  // configuration never read (it does not apply here: a value that changes
  // nothing is refused, with the reason when one is known).
  void reject_unknown() const;

  // The declared keys with their resolved values, as nested JSON (echoed in results).
  nlohmann::ordered_json resolved() const;

  const std::vector<ParamSpec>& declared() const { return declared_order_; }
  std::string value_text(const std::string& key) const;

 private:
  const ParamSpec& spec(const std::string& key) const;
  // A key as --set and --unset accept it: dotted words of letters, digits and _.
  static bool dotted_words(const std::string& key);
  // Removes `key` and every key under it from what the scenario gives; returns how many entries went.
  std::size_t erase_given(const std::string& key);
  // "file:line:column: " for a key given in a scenario file, else "".
  std::string given_at(const std::string& key) const;
  // The declared key nearest to an unknown one (a typo or a wrong section), or "".
  std::string nearest_key(const std::string& key) const;
  YAML::Node value_or_default(const std::string& key) const;
  void flatten(const YAML::Node& node, const std::string& prefix);
  // Throws if `key` was given as a mapping (its value must be one value).
  void reject_mapping(const std::string& key) const;


  std::string origin_;
  std::map<std::string, YAML::Node> values_;     // given keys (flattened)
  std::map<std::string, YAML::Node> mappings_;   // keys given a mapping as value
  std::map<std::string, ParamSpec> declared_;
  std::vector<ParamSpec> declared_order_;
  std::map<std::string, nlohmann::ordered_json> resolved_;
  std::map<std::string, std::string> unused_;
  std::set<std::string> preset_;  // keys whose value a preset filled in
  std::map<std::string, std::string> given_at_;  // key -> "file:line:column" or "--set key"
};

// Allowed-values text for a list of choices: "a|b|c".
std::string join_choices(const std::vector<std::string>& choices);

}  // namespace icn
