#include <gtest/gtest.h>

#include "models/config.hpp"

namespace icn {

namespace {
std::vector<ParamSpec> specs() {
  return {{"seed", "1", "0..100", ""},
          {"network.leaves", "16", "a power of two", ""},
          {"network.capacities", "cbft", "cbft|ebft|list", ""},
          {"traffic.collective", "broadcast", "broadcast|scatter", ""},
          {"traffic.pipelined", "true", "true|false", ""}};
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Config, DefaultsFileValuesAndOverridesInThatOrder) {
  Config cfg = Config::from_text("network:\n  leaves: 32\n");
  cfg.apply_override("traffic.collective=scatter");
  cfg.declare(specs());
  EXPECT_EQ(cfg.integer("seed", 0, 100), 1);
  EXPECT_EQ(cfg.integer("network.leaves", 2, 1024), 32);
  EXPECT_EQ(cfg.choice("traffic.collective", {"broadcast", "scatter"}), "scatter");
  EXPECT_TRUE(cfg.boolean("traffic.pipelined"));
  cfg.reject_unknown();
}

TEST(Config, OverrideAcceptsListsAndReplacesNestedKeys) {
  Config cfg = Config::from_text("network:\n  capacities: ebft\n");
  cfg.apply_override("network.capacities=[1,2,2,4]");
  cfg.declare(specs());
  EXPECT_EQ(cfg.integer_list("network.capacities", 1, 100), (std::vector<std::int64_t>{1, 2, 2, 4}));
  const auto resolved = cfg.resolved();
  EXPECT_EQ(resolved["network"]["capacities"].dump(), "[1,2,2,4]");
}

TEST(Config, UnknownKeyNamesTheAllowedKeysOfItsSection) {
  Config cfg = Config::from_text("network:\n  leafs: 8\n");
  cfg.declare(specs());
  const std::string e = error_of([&] { cfg.reject_unknown(); });
  EXPECT_NE(e.find("unknown key 'network.leafs'"), std::string::npos) << e;
  EXPECT_NE(e.find("leaves, capacities"), std::string::npos) << e;
}

TEST(Config, UnknownTopLevelKeyListsTheSections) {
  Config cfg = Config::from_text("sed: 3\n");
  cfg.declare(specs());
  const std::string e = error_of([&] { cfg.reject_unknown(); });
  EXPECT_NE(e.find("unknown key 'sed'"), std::string::npos) << e;
  EXPECT_NE(e.find("seed, network, traffic"), std::string::npos) << e;
}

TEST(Config, UnusedKeySaysWhy) {
  Config cfg = Config::from_text("traffic:\n  pipelined: false\n");
  cfg.declare_unused("traffic.pipelined", "applies only to total_exchange");
  const std::string e = error_of([&] { cfg.reject_unknown(); });
  EXPECT_NE(e.find("applies only to total_exchange"), std::string::npos) << e;
}

TEST(Config, BadValuesNameTheKeyAndTheAllowedValues) {
  Config cfg = Config::from_text("network:\n  leaves: twelve\ntraffic:\n  collective: gossip\n  pipelined: maybe\n");
  cfg.declare(specs());
  std::string e = error_of([&] { cfg.integer("network.leaves", 2, 1024); });
  EXPECT_EQ(e, "network.leaves = twelve: expected an integer (a power of two)");
  e = error_of([&] { cfg.choice("traffic.collective", {"broadcast", "scatter"}); });
  EXPECT_EQ(e, "traffic.collective = gossip: expected one of broadcast|scatter");
  e = error_of([&] { cfg.boolean("traffic.pipelined"); });
  EXPECT_EQ(e, "traffic.pipelined = maybe: expected true or false");
  e = error_of([&] { cfg.integer("seed", 0, 100); });
  EXPECT_EQ(e, "");
  cfg.apply_override("seed=101");
  e = error_of([&] { cfg.integer("seed", 0, 100); });
  EXPECT_EQ(e, "seed = 101: out of range (0..100)");
}

TEST(Config, MalformedYamlGivesFileLineAndColumn) {
  const std::string e = error_of([] { Config::from_text("network:\n  leaves: [1, 2\n", "bad.yaml"); });
  EXPECT_EQ(e.rfind("bad.yaml:", 0), 0u) << e;
  EXPECT_NE(e.find("malformed YAML"), std::string::npos) << e;
}

TEST(Config, MissingFileIsAConfigError) {
  const std::string e = error_of([] { Config::from_file("/nonexistent/scenario.yaml"); });
  EXPECT_EQ(e, "cannot open scenario file '/nonexistent/scenario.yaml': No such file or directory");
}

TEST(Config, BadOverrideSyntax) {
  Config cfg = Config::from_text("");
  EXPECT_NE(error_of([&] { cfg.apply_override("network.leaves"); }).find("expected key=value"), std::string::npos);
  EXPECT_NE(error_of([&] { cfg.apply_override("=3"); }).find("expected key=value"), std::string::npos);
}

TEST(Config, ScenarioMustBeAMapping) {
  EXPECT_NE(error_of([] { Config::from_text("- 1\n- 2\n", "list.yaml"); }).find("mapping"), std::string::npos);
}

}  // namespace icn
