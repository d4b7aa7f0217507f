// NetworkBuilder: an icnsim network described in C++, without a scenario
// file (docs/library.md, "Networks built in code").
//
//   auto mesh = icn::NetworkBuilder::vc_mesh(8, 2);
//   mesh.set("router.vcs", 4).set("traffic.injection_rate", 0.1).preset("booksim");
//   auto run = mesh.elaborate("mesh");          // routers, links, NICs and traffic, in your design
//
// A builder holds the scenario keys (`icnsim list`, docs/keys.md) under their
// own names, as typed values: one factory per family sets the keys that say
// which network it is, and set() gives any other. prepare() reads and checks
// them the way `icnsim run` reads a scenario. There is one reader: icn::prepare
// (testbench/driver.cpp), which the icnsim command calls on a scenario file's
// keys and prepare() calls on these; it runs the family's configure function,
// which declares and reads every key with its range and builds the family's
// setup. So a network set up here has the same defaults, the same checks and
// the same one-line ConfigError as in a scenario (a value set here is named by
// its key, like a --set value: "network.k = 1: out of range (2..256, ...)"),
// and a key the family does not have is refused when prepared, with the
// nearest key it does have. A scenario file, --set and set() are three ways to
// give the same keys.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "testbench/driver.hpp"
#include "testbench/experiment.hpp"

namespace icn {

class NetworkBuilder {
 public:
  // network.type=vc: the virtual-channel wormhole router (docs/vc_router.md).
  static NetworkBuilder vc_mesh(std::int64_t k, std::int64_t n = 2);
  static NetworkBuilder vc_torus(std::int64_t k, std::int64_t n = 2);
  static NetworkBuilder vc_fattree(std::int64_t leaves);
  // The interlaced bypass torus with unicast routing (network.topology=ibt).
  static NetworkBuilder vc_ibt(std::int64_t k, std::int64_t n, const std::vector<std::int64_t>& bypass);
  // network.type=fattree_packet (Dimakopoulos & Dimopoulos).
  static NetworkBuilder fattree_packet(std::int64_t leaves);
  // network.type=fattree_bitserial (Ishii).
  static NetworkBuilder fattree_bitserial(std::int64_t processors);
  // network.type=torus and ibt: all-port broadcast routers (Zhang & Deng).
  static NetworkBuilder torus(std::int64_t n, std::int64_t d);
  static NetworkBuilder ibt(std::int64_t n, std::int64_t d, const std::vector<std::int64_t>& bypass);
  // network.type=crossbar and hier_crossbar: single-port processors (Sanders & Sibeyn).
  static NetworkBuilder crossbar(std::int64_t processors);
  static NetworkBuilder hier_crossbar(std::int64_t modules, std::int64_t module_size);
  // network.type=hpam: levels top first, [rows, columns] each (Ben Miled et al.).
  static NetworkBuilder hpam(const std::vector<std::vector<std::int64_t>>& levels);
  // The keys a scenario file (Config::from_file) or text gives.
  static NetworkBuilder from_config(Config cfg);

  // Gives `key` a value; a later set() of the same key replaces it.
  NetworkBuilder& set(const std::string& key, std::int64_t value);
  NetworkBuilder& set(const std::string& key, int value) { return set(key, std::int64_t{value}); }
  NetworkBuilder& set(const std::string& key, unsigned value) { return set(key, std::int64_t{value}); }
  NetworkBuilder& set(const std::string& key, double value);
  NetworkBuilder& set(const std::string& key, bool value);
  NetworkBuilder& set(const std::string& key, const std::string& word);
  NetworkBuilder& set(const std::string& key, const char* word) { return set(key, std::string(word)); }
  NetworkBuilder& set(const std::string& key, const std::vector<std::int64_t>& list);
  NetworkBuilder& set(const std::string& key, const std::vector<std::vector<std::int64_t>>& rows);
  NetworkBuilder& set(const std::string& key, const std::vector<std::string>& words);
  // preset=booksim and the like: fills the keys not given (icnsim list).
  NetworkBuilder& preset(const std::string& name) { return set("preset", name); }
  // Takes a key back out: the family's default applies (as --unset).
  NetworkBuilder& unset(const std::string& key);

  // Reads and checks every key (throws ConfigError): the family's setup and
  // the run's context, as `icnsim run` has them. The builder is unchanged:
  // prepare it again after more set() calls.
  Prepared prepare();
  // prepare(), the resource guard (run.max_memory, run.max_cycles), then the
  // network and its traffic as a child module `name` of the module being
  // constructed (or at the top). Run it with sc_core::sc_start(); then
  // write_results() and problem() say what it measured.
  std::unique_ptr<Experiment> elaborate(const std::string& name);

  // The keys as given so far (a platform network reads them, vc_platform.hpp).
  const Config& config() const { return cfg_; }
  // Every key with the value the last prepare() resolved (the results'
  // "scenario" section), defaults and preset values included.
  const nlohmann::ordered_json& resolved() const { return resolved_; }

 private:
  explicit NetworkBuilder(Config cfg) : cfg_(std::move(cfg)) {}
  static NetworkBuilder of_type(const std::string& type);

  Config cfg_;
  nlohmann::ordered_json resolved_;
};

}  // namespace icn
