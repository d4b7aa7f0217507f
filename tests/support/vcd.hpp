// A small VCD reader for tests: variable names and, per variable, the sum over
// cycles of its value (the tracer writes one time step per cycle).
#pragma once

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace icn::test {

struct Vcd {
  std::map<std::string, std::string> names;  // id -> full dotted name
  std::map<std::string, std::uint64_t> integral;  // id -> sum over cycles of the value
  std::uint64_t last_time = 0;
  std::uint64_t last_cycle = 0;
  std::map<std::string, std::string> ids;  // full dotted name -> id
  // id -> (cycle, value) at every change, in time order (one time step per cycle).
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> changes;

  // The values of `name` in cycles 0..last_cycle (one time step per cycle).
  std::vector<std::uint64_t> series(const std::string& name) const {
    std::vector<std::uint64_t> out(last_cycle + 1, 0);
    std::uint64_t v = 0, t = 0;
    for (const auto& [when, value] : changes.at(ids.at(name))) {
      for (; t < when && t <= last_cycle; ++t) out[t] = v;
      v = value;
    }
    for (; t <= last_cycle; ++t) out[t] = v;
    return out;
  }
  // The value of `name` (a full dotted name, "SystemC. ...") in cycle t.
  std::uint64_t at(const std::string& name, std::uint64_t t) const {
    const auto& c = changes.at(ids.at(name));
    std::uint64_t v = 0;
    for (const auto& [when, value] : c) {
      if (when > t) break;
      v = value;
    }
    return v;
  }
};

inline Vcd parse_vcd(const std::string& text) {
  Vcd vcd;
  std::istringstream in(text);
  std::vector<std::string> scope;
  std::map<std::string, std::uint64_t> value, since;
  std::string tok;
  bool body = false;
  std::uint64_t now = 0;
  // Integrates every variable over cycles 1..last, where the tracer's "cycle"
  // variable says which cycle each time step shows (one period per cycle).
  std::string cycle_id;
  auto change = [&](const std::string& id, std::uint64_t v) {
    vcd.changes[id].emplace_back(now, v);
    vcd.integral[id] += value[id] * (now - since[id]);
    value[id] = v;
    since[id] = now;
    if (id == cycle_id) vcd.last_cycle = v;
  };
  while (in >> tok) {
    if (!body) {
      if (tok == "$scope") {
        std::string kind, name;
        in >> kind >> name;
        scope.push_back(name);
      } else if (tok == "$upscope") {
        scope.pop_back();
      } else if (tok == "$var") {
        std::string kind, width, id, name;
        in >> kind >> width >> id >> name;
        std::string full;
        for (const auto& s : scope) full += s + ".";
        vcd.names[id] = full + name;
        vcd.ids[full + name] = id;
        if (full + name == "SystemC.cycle") cycle_id = id;
      } else if (tok == "$enddefinitions") {
        body = true;
      }
      continue;
    }
    if (tok == "$comment") {
      while (in >> tok && tok != "$end") {
      }
      continue;
    }
    if (tok[0] == '#') {
      now = std::stoull(tok.substr(1));
    } else if (tok[0] == 'b') {
      std::string id;
      in >> id;
      change(id, std::stoull(tok.substr(1), nullptr, 2));
    } else if (tok[0] == '0' || tok[0] == '1') {
      change(tok.substr(1), static_cast<std::uint64_t>(tok[0] - '0'));
    }
  }
  // Values hold until the end of the last sampled cycle.
  for (auto& [id, v] : value) vcd.integral[id] += v * (vcd.last_cycle + 1 - since[id]);
  vcd.last_time = now;
  return vcd;
}


}  // namespace icn::test
