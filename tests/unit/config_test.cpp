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
  EXPECT_EQ(e, "scenario:2:11: network.leaves = twelve: expected an integer (a power of two)");  // where it was given
  e = error_of([&] { cfg.choice("traffic.collective", {"broadcast", "scatter"}); });
  EXPECT_EQ(e, "scenario:4:15: traffic.collective = gossip: expected one of broadcast|scatter");
  e = error_of([&] { cfg.boolean("traffic.pipelined"); });
  EXPECT_EQ(e, "scenario:5:14: traffic.pipelined = maybe: expected true or false");
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

// ---- Input hardening (issue 13) ----

TEST(ConfigHardening, DuplicateKeysAreRejectedNamingTheKey) {
  EXPECT_NE(error_of([] { Config::from_text("seed: 1\nseed: 2\n", "s.yaml"); }).find("s.yaml:2:1: key 'seed' is given twice"),
            std::string::npos);
  const std::string e = error_of([] { Config::from_text("network:\n  leaves: 4\nnetwork:\n  capacities: ebft\n"); });
  EXPECT_NE(e.find("key 'network' is given twice"), std::string::npos) << e;
  // A dotted key and the same key nested are the same key.
  EXPECT_NE(error_of([] { Config::from_text("network.leaves: 4\nnetwork:\n  leaves: 8\n"); }).find("given twice"),
            std::string::npos);
}

TEST(ConfigHardening, ASecondDocumentIsRejected) {
  const std::string e = error_of([] { Config::from_text("seed: 1\n---\nseed: 2\n", "two.yaml"); });
  EXPECT_NE(e.find("two.yaml:2:1: a second YAML document"), std::string::npos) << e;
  EXPECT_NE(error_of([] { Config::from_text("seed: 1\n...\nseed: 2\n"); }).find("after the document end"), std::string::npos);
  // A leading '---' and comments are one document.
  EXPECT_EQ(error_of([] { Config::from_text("# c\n--- # start\nseed: 1\n...\n# end\n"); }), "");
}

// Found by the libFuzzer target: yaml-cpp's LoadAll never returned on junk
// after a flow collection, and Load silently dropped it.
TEST(ConfigHardening, NothingAfterATopLevelFlowCollection) {
  Config cfg = Config::from_text("");
  EXPECT_NE(error_of([&] { cfg.apply_override("traffic.pairs=[[0,1],[2,3]],,,"); }).find("unexpected ',,,' after the closing ']'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { cfg.apply_override("network.type={a: 1} x"); }).find("unexpected 'x'"), std::string::npos);
  EXPECT_EQ(error_of([&] { cfg.apply_override("traffic.pairs=[[0, 1], ['a]', \"b]\\\"\"]] # fine"); }), "");
}

TEST(ConfigHardening, AliasExpansionIsBounded) {
  // 10^9 leaves if expanded ("billion laughs"): refused after at most
  // kMaxExpandedNodes visits.
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) text += (j ? ", *a" : "*a") + std::to_string(i - 1);
    text += "]\n";
  }
  const std::string e = error_of([&] { Config::from_text(text, "bomb.yaml"); });
  EXPECT_NE(e.find("expands to more than 1000000"), std::string::npos) << e;
  // A few aliases are fine.
  EXPECT_EQ(error_of([] { Config::from_text("x: &a [1, 2]\ny: *a\n"); }), "");
}

TEST(ConfigHardening, NestingIsBounded) {
  const std::string deep = "seed: " + std::string(100, '[') + std::string(100, ']') + "\n";
  EXPECT_NE(error_of([&] { Config::from_text(deep); }).find("nested more than 64 levels"), std::string::npos);
}

TEST(ConfigHardening, NumbersAreDecimalOnly) {
  std::int64_t i = 0;
  double d = 0;
  for (const char* ok : {"0", "17", "-3", "+5", "9223372036854775807"}) EXPECT_TRUE(parse_decimal_integer(ok, i)) << ok;
  for (const char* bad : {"0x10", "0o17", "1_000", "1e3", "", " 1", "1 ", "9223372036854775808", "--1", "0b1"})
    EXPECT_FALSE(parse_decimal_integer(bad, i)) << bad;
  for (const char* ok : {"1", "1.5", "-0.25", ".5", "5.", "2e-3", "1E6", "+1.0e+2"}) EXPECT_TRUE(parse_decimal_real(ok, d)) << ok;
  for (const char* bad : {"0x10", "0x1p3", "inf", "nan", ".inf", "1e999", "1e", "e5", ".", "1.2.3", " 1"})
    EXPECT_FALSE(parse_decimal_real(bad, d)) << bad;
  EXPECT_TRUE(parse_decimal_real("2e-3", d));
  EXPECT_DOUBLE_EQ(d, 0.002);
}

TEST(ConfigHardening, MessagesShowValuesEscapedAndShortened) {
  EXPECT_EQ(shown("a\nb\x1b[31m"), "a\\nb\\x1b[31m");
  EXPECT_EQ(shown("\xe2\x80\xae" "x"), "\\xe2\\x80\\xaex");  // U+202E, a direction override
  const std::string big(5'000'000, 'z');
  EXPECT_EQ(shown(big), std::string(80, 'z') + "... (5000000 bytes)");
  Config cfg = Config::from_text("");
  cfg.declare(specs());
  cfg.apply_override("seed=\"1\\n\\u001b[2J" + std::string(100000, '9') + "\"");
  const std::string e = error_of([&] { cfg.integer("seed", 0, 100); });
  EXPECT_EQ(e.find('\n'), std::string::npos);
  EXPECT_EQ(e.find('\x1b'), std::string::npos);
  EXPECT_LT(e.size(), 200u) << e;
  EXPECT_EQ(e.rfind("seed = 1\\n\\x1b[2J999", 0), 0u) << e;
}

TEST(ConfigHardening, AMappingWhereOneValueBelongsBlamesThatKey) {
  Config cfg = Config::from_text("");
  cfg.declare(specs());
  cfg.apply_override("traffic.collective={a: 1}");
  const std::string e = error_of([&] { cfg.choice("traffic.collective", {"broadcast", "scatter"}); });
  EXPECT_EQ(e.rfind("traffic.collective = {a: 1}: expected a single value or a list, not a mapping", 0), 0u) << e;
  // Also when the key is never read: reject_unknown names it, not "traffic.collective.a".
  Config cfg2 = Config::from_text("traffic:\n  pipelined: {x: [1]}\n");
  cfg2.declare(specs());
  const std::string e2 = error_of([&] { cfg2.reject_unknown(); });
  EXPECT_EQ(e2.rfind("traffic.pipelined = {x: [1]}", 0), 0u) << e2;
}

TEST(ConfigHardening, ScenarioPathMustBeAReadableRegularFile) {
  EXPECT_EQ(error_of([] { Config::from_file(""); }), "the scenario path is empty; give a YAML scenario file");
  EXPECT_NE(error_of([] { Config::from_file("/tmp"); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([] { Config::from_file("/dev/zero"); }).find("is a character device"), std::string::npos);
  EXPECT_NE(error_of([] { Config::from_file("/proc/self/mem"); }).find("cannot read scenario file"), std::string::npos);
  EXPECT_EQ(error_of([] { Config::from_file("/dev/null"); }), "");  // no keys: the defaults
}

TEST(ConfigHardening, OverrideKeysAreWords) {
  Config cfg = Config::from_text("");
  EXPECT_NE(error_of([&] { cfg.apply_override("net\x1bwork.leaves=4"); }).find("net\\x1bwork.leaves"), std::string::npos);
  EXPECT_NE(error_of([&] { cfg.apply_override("a b=1"); }).find("a key is dotted words"), std::string::npos);
}

// Results are JSON (UTF-8): text that is not UTF-8 is refused when the scenario
// is read, not when the results are written. Cases after RFC 3629's table.
TEST(ConfigHardening, ScenarioTextMustBeUtf8) {
  const std::vector<std::string> good = {"caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf",
                                         "\xed\x9f\xbf", "\xee\x80\x80", "\"\\u00e9\""};
  for (const auto& v : good) {
    Config cfg = Config::from_text("");
    EXPECT_EQ(error_of([&] { cfg.apply_override("outputs.json=" + v); }), "") << shown(v);
  }
  const std::vector<std::string> bad = {"0\xf6\x84", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                        "\xf5\x80\x80\x80", "x\xe2\x82", "\x80"};
  for (const auto& v : bad) {
    Config cfg = Config::from_text("");
    const std::string e = error_of([&] { cfg.apply_override("outputs.json=" + v); });
    EXPECT_NE(e.find("is not UTF-8 text"), std::string::npos) << shown(v) << " -> " << e;
    EXPECT_EQ(e.find('\n'), std::string::npos);
  }
  // A lone surrogate escape is refused by the YAML parser itself.
  Config cfg = Config::from_text("");
  EXPECT_NE(error_of([&] { cfg.apply_override("outputs.json=\"\\uD800\""); }).find("invalid unicode"), std::string::npos);
  const std::string e = error_of([] { Config::from_text("network:\n  type: \"a\xff\"\n", "s.yaml"); });
  EXPECT_EQ(e.rfind("s.yaml:2:", 0), 0u) << e;
  EXPECT_NE(e.find("'a\\xff' is not UTF-8 text"), std::string::npos) << e;
}

}  // namespace icn
