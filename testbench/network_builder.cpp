#include "testbench/network_builder.hpp"

#include <cstdio>
#include <cstdlib>

namespace icn {

namespace {

// The shortest decimal that reads back as `value` (0.1, not 0.1000000000000000055):
// errors and the results echo what the caller wrote.
std::string shortest_decimal(double value) {
  char text[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;  // inf and nan come out as words, which the reader refuses as numbers
}

YAML::Node list_node(const std::vector<std::int64_t>& list) {
  YAML::Node node(YAML::NodeType::Sequence);
  for (std::int64_t v : list) node.push_back(v);
  return node;
}

}  // namespace

NetworkBuilder NetworkBuilder::of_type(const std::string& type) {
  NetworkBuilder b(Config::from_text("", "code"));
  b.set("network.type", type);
  return b;
}

NetworkBuilder NetworkBuilder::vc_mesh(std::int64_t k, std::int64_t n) {
  return of_type("vc").set("network.topology", "mesh").set("network.k", k).set("network.n", n);
}

NetworkBuilder NetworkBuilder::vc_torus(std::int64_t k, std::int64_t n) {
  return of_type("vc").set("network.topology", "torus").set("network.k", k).set("network.n", n);
}

NetworkBuilder NetworkBuilder::vc_fattree(std::int64_t leaves) {
  return of_type("vc").set("network.topology", "fattree").set("network.leaves", leaves);
}

NetworkBuilder NetworkBuilder::vc_ibt(std::int64_t k, std::int64_t n, const std::vector<std::int64_t>& bypass) {
  return of_type("vc").set("network.topology", "ibt").set("network.k", k).set("network.n", n).set("network.bypass", bypass);
}

NetworkBuilder NetworkBuilder::fattree_packet(std::int64_t leaves) {
  return of_type("fattree_packet").set("network.leaves", leaves);
}

NetworkBuilder NetworkBuilder::fattree_bitserial(std::int64_t processors) {
  return of_type("fattree_bitserial").set("network.processors", processors);
}

NetworkBuilder NetworkBuilder::torus(std::int64_t n, std::int64_t d) {
  return of_type("torus").set("network.n", n).set("network.d", d);
}

NetworkBuilder NetworkBuilder::ibt(std::int64_t n, std::int64_t d, const std::vector<std::int64_t>& bypass) {
  return of_type("ibt").set("network.n", n).set("network.d", d).set("network.bypass", bypass);
}

NetworkBuilder NetworkBuilder::crossbar(std::int64_t processors) {
  return of_type("crossbar").set("network.processors", processors);
}

NetworkBuilder NetworkBuilder::hier_crossbar(std::int64_t modules, std::int64_t module_size) {
  return of_type("hier_crossbar").set("network.modules", modules).set("network.module_size", module_size);
}

NetworkBuilder NetworkBuilder::hpam(const std::vector<std::vector<std::int64_t>>& levels) {
  return of_type("hpam").set("network.levels", levels);
}

NetworkBuilder NetworkBuilder::from_config(Config cfg) { return NetworkBuilder(std::move(cfg)); }

NetworkBuilder& NetworkBuilder::set(const std::string& key, std::int64_t value) {
  cfg_.assign(key, YAML::Node(value));
  return *this;
}

NetworkBuilder& NetworkBuilder::set(const std::string& key, double value) {
  cfg_.assign(key, YAML::Node(shortest_decimal(value)));
  return *this;
}

NetworkBuilder& NetworkBuilder::set(const std::string& key, bool value) {
  cfg_.assign(key, YAML::Node(value ? "true" : "false"));
  return *this;
}

NetworkBuilder& NetworkBuilder::set(const std::string& key, const std::string& word) {
  // A word, never parsed as YAML: "[1, 2]" set as a string stays that string
  // (and a key wanting a list refuses it).
  cfg_.assign(key, YAML::Node(word));
  return *this;
}

NetworkBuilder& NetworkBuilder::set(const std::string& key, const std::vector<std::int64_t>& list) {
  cfg_.assign(key, list_node(list));
  return *this;
}

NetworkBuilder& NetworkBuilder::set(const std::string& key, const std::vector<std::vector<std::int64_t>>& rows) {
  YAML::Node node(YAML::NodeType::Sequence);
  for (const auto& row : rows) node.push_back(list_node(row));
  cfg_.assign(key, node);
  return *this;
}

NetworkBuilder& NetworkBuilder::set(const std::string& key, const std::vector<std::string>& words) {
  YAML::Node node(YAML::NodeType::Sequence);
  for (const auto& w : words) node.push_back(w);
  cfg_.assign(key, node);
  return *this;
}

NetworkBuilder& NetworkBuilder::unset(const std::string& key) {
  cfg_.unset(key);
  return *this;
}

Prepared NetworkBuilder::prepare() {
  Config reading = cfg_;  // declaring and resolving are the reading's, not the builder's
  Prepared p = icn::prepare(reading);
  resolved_ = reading.resolved();
  return p;
}

std::unique_ptr<Experiment> NetworkBuilder::elaborate(const std::string& name) {
  Prepared p = prepare();
  check_resources(p.setup->estimate(), p);
  return p.setup->elaborate(name, p.ctx);
}

}  // namespace icn
