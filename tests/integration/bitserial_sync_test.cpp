// network.sync_scheme (Ishii 1985, section 2.1): the four answers to the
// synchronisation problem of the bit-serial fat tree, run through the icnsim
// binary (one simulation per process). Expected values come from the memo:
// the 4(H-h) buffering bits of a stream turning at height h (section 3.1), the
// memory they become when stored in the node (2.1.2: per input path of a
// branch port), and the memo's own example against prefix buffering (2.1.3).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

const char* const kSchemes[] = {"midstream", "store", "flush", "prefix"};

struct SyncRun {
  int exit_code = -1;
  std::string err;
  nlohmann::ordered_json json;
};

SyncRun run_scheme(const std::string& scheme, const std::string& sets) {
  static int count = 0;
  const std::string path = scratch_dir() + "/sync" + std::to_string(count++) + ".json";
  const CommandResult r = run_icnsim("run /dev/null --quiet --set network.type=fattree_bitserial --set network.sync_scheme=" +
                                     scheme + " " + sets + " --json " + path);
  SyncRun out{r.exit_code, r.err, {}};
  out.json = nlohmann::ordered_json::parse(read_file(path));
  return out;
}

std::uint64_t u(const nlohmann::ordered_json& j, const char* key) { return j.at(key).get<std::uint64_t>(); }

}  // namespace

// Conservation in every scheme: each message is delivered exactly once (the
// processors' receipt check), every attempt is delivered or reported lost,
// and the losses are exactly the streams the switches denied or flushed.
TEST(BitSerialSync, EverySchemeDeliversOrReportsLostEveryMessage) {
  for (const char* scheme : kSchemes) {
    for (const char* sets : {"--set network.processors=64 --set network.capacities=constant --set traffic.pattern=random "
                             "--set traffic.load_factor=4 --set seed=2",
                             "--set network.processors=32 --set network.capacities=doubling --set traffic.pattern=random "
                             "--set traffic.load_factor=8 --set seed=3"}) {
      const SyncRun r = run_scheme(scheme, sets);
      const auto& res = r.json.at("result");
      SCOPED_TRACE(std::string(scheme) + " " + sets);
      EXPECT_EQ(res.at("status"), "completed");
      const auto& m = res.at("messages");
      EXPECT_EQ(u(m, "delivered"), u(m, "message_set"));
      std::uint64_t sent = 0, delivered = 0, lost = 0;
      for (const auto& dc : r.json.at("delivery_cycle_log")) {
        sent += u(dc, "sent");
        delivered += u(dc, "delivered");
        lost += u(dc, "lost");
      }
      EXPECT_EQ(sent, u(m, "sent"));
      EXPECT_EQ(sent, delivered + lost);
      EXPECT_EQ(lost, u(m, "lost"));
      EXPECT_EQ(lost, u(res.at("switch_denials"), "up") + u(res.at("switch_denials"), "down") +
                          u(res.at("sync"), "flushed"));
      // Prefix fails where trunks have fewer paths than their branches bring
      // (constant capacities); with doubling ones nothing contends going up,
      // so its late streams all find a path and cost nothing.
      const bool prefix = std::string(scheme) == "prefix";
      const bool fails = prefix && std::string(sets).find("constant") != std::string::npos;
      EXPECT_EQ(r.exit_code, fails ? 1 : 0) << r.err;
      EXPECT_EQ(res.at("verified").get<bool>(), !fails);
      EXPECT_EQ(u(res.at("sync"), "late_requests") > 0, prefix || std::string(scheme) == "flush");
      if (prefix) {
        EXPECT_EQ(u(res.at("sync"), "late_denials") > 0, fails);
      }
    }
  }
}

// The hardware cost, counted by the model from its own parts, against the
// memo's count: a stream turning at height h of a tree of height H carries
// 4(H-h) buffering bits (section 3.1); stored in the node instead (2.1.2),
// they are 4(H-h) memory elements on each input path of each branch port,
// 2 cap(h) paths; flushing needs no memory but a flush wire per down path.
TEST(BitSerialSync, StorageBitsAreTheMemosCount) {
  const unsigned H = 4;
  // One stream turning at each height 1..4, to distinct destinations.
  const std::string sets = "--set network.processors=16 --set network.capacities=doubling --set traffic.pattern=pairs "
                           "--set 'traffic.pairs=[[1,0],[3,1],[7,3],[15,7]]'";
  for (const char* scheme : kSchemes) {
    const SyncRun r = run_scheme(scheme, sets);
    const std::string s = scheme;
    SCOPED_TRACE(s);
    const auto& levels = r.json.at("levels");
    ASSERT_EQ(levels.size(), H);
    for (unsigned h = 1; h <= H; ++h) {
      const auto& l = levels[h - 1];
      const unsigned cap = 1u << (h - 1), buffering = 4 * (H - h);
      EXPECT_EQ(u(l, "capacity"), cap);
      EXPECT_EQ(u(l, "storage_bits"), s == "store" ? 2 * cap * buffering : 0) << "level " << h;
      EXPECT_EQ(u(l, "peak_stored_bits"), s == "store" ? buffering : 0) << "level " << h;
      EXPECT_EQ(u(l, "stream_buffering_bits"), s == "midstream" || s == "prefix" ? buffering : 0) << "level " << h;
      EXPECT_EQ(u(l, "ignored_bits"), s == "midstream" ? buffering : 0) << "level " << h;
      EXPECT_EQ(u(l, "flush_wires"), s == "flush" ? 2 * cap : 0) << "level " << h;
      EXPECT_EQ(r.json.at("result").at("sync").at("storage_bits_per_switch")[h - 1].get<std::uint64_t>(),
                s == "store" ? 2 * cap * buffering : 0);
    }
  }
}

// The memo's argument against prefix buffering, run: below one level-1 switch
// of a 16-processor tree with one path per channel, 0 -> 8 goes through the
// root and 1 -> 2 only one level higher. With its 8 prefix bits 1 -> 2 reaches
// the switch 8 clocks after 0 -> 8 has taken the only trunk path: the switch
// committed it before it knew of 1 -> 2. One late request, lost; a second
// delivery cycle delivers it. The run completes and says why it is wrong.
TEST(BitSerialSync, PrefixWithoutFlushingFailsOnTheMemosExample) {
  const std::string sets = "--set network.processors=16 --set network.capacities=constant --set traffic.pattern=pairs "
                           "--set 'traffic.pairs=[[0,8],[1,2]]'";
  for (const char* scheme : kSchemes) {
    const SyncRun r = run_scheme(scheme, sets);
    const std::string s = scheme;
    SCOPED_TRACE(s);
    const auto& res = r.json.at("result");
    EXPECT_EQ(res.at("status"), "completed");
    EXPECT_EQ(u(res, "delivery_cycles"), 2u);
    EXPECT_EQ(u(res.at("messages"), "lost"), 1u);
    EXPECT_EQ(u(res.at("messages"), "delivered"), 2u);
    if (s == "prefix") {
      EXPECT_EQ(r.exit_code, 1);
      EXPECT_FALSE(res.at("verified").get<bool>());
      EXPECT_NE(res.at("problem").get<std::string>().find("not synchronised: 1 stream(s) lost"), std::string::npos);
      EXPECT_NE(r.err.find("Ishii 2.1.3"), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
      EXPECT_EQ(u(r.json.at("levels")[0], "late_requests"), 1u);
      EXPECT_EQ(u(res.at("sync"), "late_denials"), 1u);
    } else {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(u(res.at("sync"), "late_requests"), 0u);
    }
  }
  // On random sets: never a stall; the verdict at every load factor above 1.
  // At lambda = 1 no output is wanted by more streams than it has paths, so
  // no switch ever decides a port twice: nothing to synchronise, and it passes.
  for (const char* x : {"1", "2", "4", "8"}) {
    const SyncRun r = run_scheme("prefix", std::string("--set network.processors=64 --set network.capacities=constant "
                                                       "--set traffic.pattern=random --set traffic.load_factor=") + x);
    const bool one = std::string(x) == "1";
    EXPECT_EQ(r.exit_code, one ? 0 : 1) << x;
    EXPECT_EQ(r.json.at("result").at("status"), "completed") << x;
    EXPECT_EQ(u(r.json.at("result").at("sync"), "late_requests") > 0, !one) << x;
  }
}

// Flushing: the trunk stream wins the branch output it finds taken by a
// turning stream, which is lost and retried. At a level-1 switch (1 -> 0
// flushed by 4 -> 0 from the root), and at level 2 (0 -> 2 flushed by 4 -> 2),
// where the flush wire must also clear s1_1 and NIC 2 below, or 4 -> 2 would
// arrive mangled.
TEST(BitSerialSync, FlushingGivesTheTrunkStreamThePath) {
  struct Case {
    const char* pairs;
    unsigned level;
  };
  for (const Case c : {Case{"[[1,0],[4,0]]", 1}, Case{"[[0,2],[4,2]]", 2}}) {
    const SyncRun r = run_scheme("flush", std::string("--set network.processors=8 --set network.capacities=constant "
                                                      "--set traffic.pattern=pairs --set 'traffic.pairs=") + c.pairs + "'");
    SCOPED_TRACE(c.pairs);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.json.at("result").at("verified").get<bool>());
    EXPECT_EQ(u(r.json.at("result"), "delivery_cycles"), 2u);
    EXPECT_EQ(u(r.json.at("result").at("messages"), "lost"), 1u);
    EXPECT_EQ(u(r.json.at("levels")[c.level - 1], "flushed"), 1u);
    EXPECT_EQ(u(r.json.at("result").at("sync"), "flushed"), 1u);
    // The first delivery cycle delivered the trunk stream.
    EXPECT_EQ(u(r.json.at("delivery_cycle_log")[0], "delivered"), 1u);
  }
  // A trunk stream is never flushed, not even by a later trunk stream: with
  // doubling capacities 2 -> 0 (turned at level 2) and 4 -> 0 (from the root)
  // both come down s1_0's trunk, 4 clocks apart, for NIC 0's one path. The
  // later one is denied, nothing is flushed.
  const SyncRun r = run_scheme("flush", "--set network.processors=8 --set network.capacities=doubling "
                                        "--set traffic.pattern=pairs --set 'traffic.pairs=[[2,0],[4,0]]'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(u(r.json.at("result").at("sync"), "flushed"), 0u);
  EXPECT_EQ(u(r.json.at("result").at("switch_denials"), "down"), 1u);
  EXPECT_EQ(u(r.json.at("levels")[0], "late_requests"), 1u);
}

// midstream is the default and today's model; storing the bits in the nodes
// moves every stream through the switches at the same clocks (2.1.2:
// "conceptually very similar to mid-stream buffering").
TEST(BitSerialSync, MidstreamIsTheDefaultAndStoreKeepsItsTiming) {
  const std::string sets = "--set network.processors=64 --set network.capacities=constant --set traffic.pattern=random "
                           "--set traffic.load_factor=4 --set seed=5";
  const std::string dir = scratch_dir();
  const CommandResult d = run_icnsim("run /dev/null --quiet --set network.type=fattree_bitserial " + sets + " --json " +
                                     dir + "/default.json");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  const auto by_default = nlohmann::ordered_json::parse(read_file(dir + "/default.json"));
  const SyncRun mid = run_scheme("midstream", sets);
  auto a = deterministic_part(by_default), b = deterministic_part(mid.json);
  a.erase("scenario");  // the scenario echo differs by the one key given
  b.erase("scenario");
  EXPECT_EQ(a, b);
  const SyncRun store = run_scheme("store", sets);
  for (const char* key : {"delivery_cycles", "cycles"})
    EXPECT_EQ(store.json.at("result").at(key), mid.json.at("result").at(key)) << key;
  EXPECT_EQ(store.json.at("result").at("messages"), mid.json.at("result").at("messages"));
  EXPECT_EQ(store.json.at("timing"), mid.json.at("timing"));
}

}  // namespace icn::test
