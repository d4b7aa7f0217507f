// Typed parameter specifications.
//
// A family declares each of its keys once, as a typed constant: the key, its
// default, its range or choices and a line of help. The allowed-values text that
// errors and `icnsim list` show is generated from the same range, so the prose
// and the check cannot disagree, and a spec is used by name, never by position:
//
//   const IntParam kLatency{"network.link_latency", 1, 1, 64, "cycles for a packet to cross a link"};
//   unsigned latency = kLatency.read(cfg);   // declares the key, reads and checks it
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/config.hpp"

namespace icn {

struct IntParam {
  std::string key;
  std::int64_t fallback;
  std::int64_t lo;
  std::int64_t hi;
  std::string help;
  std::string rule = "";     // a further condition, said before the range ("a power of two")
  std::string allowed = "";  // replaces the generated text when the range depends on other keys ("0..n-1")
  std::string applies = "";  // when the key applies, if not always (ParamSpec::applies)

  ParamSpec spec() const {
    std::string text = allowed;
    if (text.empty()) text = (rule.empty() ? "" : rule + ", ") + std::to_string(lo) + ".." + std::to_string(hi);
    return {key, std::to_string(fallback), text, help, applies};
  }
  // Declares the key, then reads it within [lo, hi].
  std::int64_t read(Config& cfg) const { return read(cfg, lo, hi); }
  // ... within a range known only now (e.g. 0..n-1).
  std::int64_t read(Config& cfg, std::int64_t low, std::int64_t high) const {
    cfg.declare({spec()});
    return cfg.integer(key, low, high);
  }
};

struct RealParam {
  std::string key;
  std::string fallback;  // as written in YAML
  double lo;
  double hi;
  std::string help;
  std::string allowed;
  std::string applies = "";

  ParamSpec spec() const { return {key, fallback, allowed, help, applies}; }
  double read(Config& cfg) const {
    cfg.declare({spec()});
    return cfg.real(key, lo, hi);
  }
};

struct BoolParam {
  std::string key;
  bool fallback;
  std::string help;
  std::string applies = "";

  ParamSpec spec() const { return {key, fallback ? "true" : "false", "true|false", help, applies}; }
  bool read(Config& cfg) const {
    cfg.declare({spec()});
    return cfg.boolean(key);
  }
};

struct ChoiceParam {
  std::string key;
  std::string fallback;
  std::vector<std::string> choices;
  std::string help;
  std::string applies = "";

  ParamSpec spec() const { return {key, fallback, join_choices(choices), help, applies}; }
  std::string read(Config& cfg) const {
    cfg.declare({spec()});
    return cfg.choice(key, choices);
  }
};

// A key whose value has a union type (a word or a list, ...): the family reads
// the raw node and checks it itself; `allowed` says what it accepts.
struct RawParam {
  std::string key;
  std::string fallback;  // YAML text
  std::string allowed;
  std::string help;
  std::string applies = "";

  ParamSpec spec() const { return {key, fallback, allowed, help, applies}; }
  YAML::Node read(Config& cfg) const {
    cfg.declare({spec()});
    return cfg.node(key);
  }
};

}  // namespace icn
