// Sanders & Sibeyn, pipelined broadcast and reduction on single-port
// processors, observed in the simulated crossbar.
//
// Expected step counts come from the test itself: the recurrences of the paper
// (computed here, not with the model's code), the chain's P - 2 + s, and an
// independent interpreter of the Fig. 2 pseudocode below that executes every
// PU's lines under synchronous (rendezvous) communication, one step per
// transfer, and reports when the last packet arrives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testbench/fractional_embedding.hpp"
#include "tests/support/sim_helpers.hpp"

namespace icn::test {

namespace {

constexpr int kNo = -1;

// P_i of the paper: P_i = i + 1 (i <= r), r + P_{i-r} + P_{i-r-1}.
std::vector<long> recurrence(int r, long up_to) {
  std::vector<long> p;
  for (int i = 0;; ++i) {
    p.push_back(i <= r ? i + 1 : r + p[i - r] + p[i - r - 1]);
    if (p.back() >= up_to) return p;
  }
}
long depth_of(int r, long processors) { return static_cast<long>(recurrence(r, processors).size()) - 2; }
long depth_of_binary(long processors) {  // P_i = 1 + P_{i-1} + P_{i-2}, P_0 = 1, P_1 = 2
  long a = 1, b = 2;
  if (processors <= 1) return -1;
  if (processors <= 2) return 0;
  for (long i = 2;; ++i) {
    const long c = 1 + b + a;
    a = b;
    b = c;
    if (c >= processors) return i - 1;
  }
}

// The test's own fractional tree: groups of r ranks in preorder (members, down, right).
struct Tree {
  struct G {
    std::vector<int> members;
    int down = kNo, right = kNo, parent = kNo;
    bool is_right = false;
  };
  std::vector<G> groups;
  std::vector<int> group_of, index;
};

Tree build_tree(int processors, int r) {
  Tree t;
  t.group_of.assign(processors, kNo);
  t.index.assign(processors, 0);
  const auto p = recurrence(r, processors);
  auto cap = [&](long budget) -> long {
    if (budget < 0) return 0;
    if (budget < static_cast<long>(p.size())) return p[budget];
    return processors;
  };
  int next = 0;
  std::function<int(long, long, int, bool)> build = [&](long n, long budget, int parent, bool right) {
    const int g = static_cast<int>(t.groups.size());
    t.groups.push_back({});
    t.groups[g].parent = parent;
    t.groups[g].is_right = right;
    const long members = std::min<long>(r, n);
    for (long m = 0; m < members; ++m) {
      t.group_of[next] = g;
      t.index[next] = static_cast<int>(m);
      t.groups[g].members.push_back(next++);
    }
    const long rest = n - members;
    const long down = std::min(rest, cap(budget - r));
    if (down > 0) {
      const int c = build(down, budget - r, g, false);
      t.groups[g].down = c;
    }
    if (rest - down > 0) {
      const int c = build(rest - down, budget - r - 1, g, true);
      t.groups[g].right = c;
    }
    return g;
  };
  build(processors, static_cast<long>(p.size()) - 1, kNo, false);
  return t;
}

struct Op {
  int to = kNo, send = kNo, from = kNo, recv = kNo;
};

// Fig. 2 as written: recv(D[0]); pipeDown(r, 0); for k = r to s - r step r:
// sendRight|Recv(D[k-r+i], D[k]); pipeDown(r, k); sendRight(D[s-r+i]).
std::vector<Op> fig2(const Tree& t, int rank, int r, int s) {
  const auto& g = t.groups[t.group_of[rank]];
  const int i = t.index[rank];
  const bool root = rank == 0;
  int down = kNo, right = kNo;
  if (i + 1 < static_cast<int>(g.members.size())) down = g.members[i + 1];
  else if (g.down != kNo) down = t.groups[g.down].members[0];
  if (g.right != kNo) right = t.groups[g.right].members[0];
  auto source = [&](int pkt) {
    if (root) return kNo;
    if (i > 0) return g.members[i - 1];
    const auto& parent = t.groups[g.parent];
    return g.is_right ? parent.members[pkt % r] : parent.members.back();
  };
  std::vector<Op> lines;
  auto add = [&](int to, int send, int recv) {
    Op op;
    if (to != kNo) {
      op.to = to;
      op.send = send;
    }
    if (recv != kNo && !root) {
      op.recv = recv;
      op.from = source(recv);
    }
    lines.push_back(op);
  };
  auto pipe_down = [&](int k) {
    for (int j = k; j <= k + r - 2; ++j) add(down, j, j + 1);
    add(down, k + r - 1, kNo);
  };
  add(kNo, kNo, 0);
  pipe_down(0);
  for (int k = r; k <= s - r; k += r) {
    add(right, k - r + i, k);
    pipe_down(k);
  }
  add(right, s - r + i, kNo);
  return lines;
}

// Synchronous execution of every PU's lines: a transfer starts when both
// partners finished their previous lines and takes duration(packet) (one
// step, or t + the packet's units for cycles); a line ends with its
// transfers; a line without any takes no time. Returns when the last packet
// arrives.
long interpret(const std::vector<std::vector<Op>>& programs,
               const std::function<long(int)>& duration = [](int) { return 1L; }) {
  const int n = static_cast<int>(programs.size());
  // Match each send with its receive line.
  std::map<std::tuple<int, int, int>, int> recv_line;  // (receiver, sender, packet) -> line
  for (int y = 0; y < n; ++y)
    for (int l = 0; l < static_cast<int>(programs[y].size()); ++l)
      if (programs[y][l].from != kNo) recv_line[{y, programs[y][l].from, programs[y][l].recv}] = l;
  std::vector<std::vector<long>> end(n);
  for (int x = 0; x < n; ++x) end[x].assign(programs[x].size(), -1);
  auto before = [&](int x, int l) -> long { return l == 0 ? 0 : end[x][l - 1]; };
  long last = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    for (int x = 0; x < n; ++x) {
      for (int l = 0; l < static_cast<int>(programs[x].size()); ++l) {
        if (end[x][l] >= 0) continue;
        const long mine = before(x, l);
        if (mine < 0) break;
        const Op& op = programs[x][l];
        long e = mine;
        bool ready = true;
        if (op.to != kNo) {
          const int rl = recv_line.at({op.to, x, op.send});
          const long theirs = before(op.to, rl);
          if (theirs < 0) ready = false;
          else e = std::max(e, std::max(mine, theirs) + duration(op.send));
        }
        if (op.from != kNo) {
          // The sender's line for this packet.
          const auto& sp = programs[op.from];
          int sl = -1;
          for (int q = 0; q < static_cast<int>(sp.size()); ++q)
            if (sp[q].to == x && sp[q].send == op.recv) sl = q;
          const long theirs = before(op.from, sl);
          if (theirs < 0) ready = false;
          else {
            e = std::max(e, std::max(mine, theirs) + duration(op.recv));
            last = std::max(last, std::max(mine, theirs) + duration(op.recv));
          }
        }
        if (!ready) break;
        end[x][l] = e;
        changed = true;
      }
    }
  }
  for (int x = 0; x < n; ++x)
    if (!programs[x].empty() && end[x].back() < 0) return -1;  // deadlock
  return last;
}

long pseudocode_steps(int processors, int r, int s) {
  const Tree t = build_tree(processors, r);
  std::vector<std::vector<Op>> programs;
  for (int x = 0; x < processors; ++x) programs.push_back(fig2(t, x, r, s));
  return interpret(programs);
}

// Cycles of the pseudocode when every transfer costs t + its packet's units,
// the last packet (s - 1) carrying `last_units`, the others `units`.
long pseudocode_cycles(int processors, int r, int s, long t, long units, long last_units) {
  const Tree tree = build_tree(processors, r);
  std::vector<std::vector<Op>> programs;
  for (int x = 0; x < processors; ++x) programs.push_back(fig2(tree, x, r, s));
  return interpret(programs, [&](int pkt) { return t + (pkt == s - 1 ? last_units : units); });
}

std::vector<std::string> crossbar(int p, const std::string& algorithm, int s, std::vector<std::string> more = {}) {
  std::vector<std::string> o{"network.type=crossbar", "network.processors=" + std::to_string(p),
                             "traffic.algorithm=" + algorithm, "traffic.packets=" + std::to_string(s),
                             "traffic.message_units=" + std::to_string(3 * s), "nic.startup=5"};
  o.insert(o.end(), more.begin(), more.end());
  return o;
}

}  // namespace

// The interpreter itself against the paper's statements: the worked example's
// d = 57 and the binary-tree recurrence's P_5 = 20 (READING-NOTES: the text says 18).
TEST(SandersSibeyn, RecurrencesGiveThePapersDepths) {
  EXPECT_EQ(depth_of(8, 1024), 57);
  EXPECT_EQ(recurrence(1, 20)[5], 20);
  for (long p = 2; p < 3000; p += 7) EXPECT_EQ(depth_of(1, p), depth_of_binary(p)) << p;
}

// Step counts on the crossbar: chain P - 2 + s, binary tree d + 2s - 1 and the
// fractional tree d + s(1 + 1/r) - 1 (eq. (7) less its trailing step), and the
// fractional tree also equal to the interpreted pseudocode — for many P, r, s.
// Every run is lock-step: cycles = steps (t + m) exactly.
TEST(SandersSibeyn, StepCountsOnTheCrossbarEqualTheFormulasAndThePseudocode) {
  struct Case {
    int p;
    std::string algorithm;
    int r, s;
  };
  std::vector<Case> cases;
  for (int p : {2, 3, 4, 5, 7, 12, 16, 21, 33, 64, 100})
    for (int s : {1, 2, 5, 12}) {
      cases.push_back({p, "chain", 0, s});
      cases.push_back({p, "binary", 1, s});
    }
  for (int p : {2, 3, 6, 9, 17, 30, 64, 77})
    for (int r : {2, 3, 4})
      for (int q : {1, 2, 4})
        if (r <= p) cases.push_back({p, "fractional", r, r * q});
  std::vector<std::vector<std::string>> runs;
  for (const auto& c : cases) {
    std::vector<std::string> more;
    if (c.algorithm == "fractional") more.push_back("traffic.group=" + std::to_string(c.r));
    runs.push_back(crossbar(c.p, c.algorithm, c.s, more));
  }
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const auto& res = results[i].results["result"];
    SCOPED_TRACE(c.algorithm + " P=" + std::to_string(c.p) + " r=" + std::to_string(c.r) + " s=" + std::to_string(c.s));
    ASSERT_EQ(results[i].problem, "");
    EXPECT_TRUE(res["lock_step"].get<bool>());
    EXPECT_EQ(results[i].results["congestion"]["processor_ports"]["wait_cycles"], 0);  // non-blocking: nothing waits
    const long steps = res["steps"].get<long>();
    EXPECT_EQ(res["cycles"].get<long>(), steps * (5 + 3));
    if (c.algorithm == "chain") {
      EXPECT_EQ(steps, c.p - 2 + c.s);
    }
    // With P = 2 the root's right-send pauses are no-ops (it has no right
    // successor), and it streams like a chain; the formulas count the pauses.
    const bool chain_like = c.algorithm != "chain" && c.p == 2;
    if (chain_like) {
      EXPECT_EQ(steps, c.p - 2 + c.s);
    } else if (c.algorithm == "binary") {
      EXPECT_EQ(steps, depth_of_binary(c.p) + 2 * c.s - 1);
    }
    if (c.algorithm == "binary") {
      EXPECT_EQ(steps, pseudocode_steps(c.p, 1, c.s));
    }
    if (c.algorithm == "fractional") {
      if (!chain_like) {
        EXPECT_EQ(steps, depth_of(c.r, c.p) + c.s + c.s / c.r - 1);
      }
      EXPECT_EQ(steps, pseudocode_steps(c.p, c.r, c.s));
    }
    // The s - 1 + log P bound.
    EXPECT_GE(steps, c.s - 1 + static_cast<long>(std::ceil(std::log2(c.p))));
  }
}

// A shorter last packet (traffic.last_packet=short): the last packet carries
// k - (s - 1) ceil(k/s) units, the others ceil(k/s). Its transfers take t +
// that many cycles, so the run ends earlier; when exactly is computed here,
// not by the model: the chain's last step alone is shorter ((P - 2 + s - 1)(t +
// m) + t + m_last: every earlier step also moves a full packet), and the trees'
// times come from the pseudocode interpreter with per-packet durations.
TEST(SandersSibeyn, AShortLastPacketShortensTheTailAsThePseudocodeTimes) {
  struct Case {
    int p;
    std::string algorithm;
    int r, s;
    long k;
  };
  std::vector<Case> cases;
  for (int p : {2, 5, 16, 33})
    for (int s : {3, 7}) {
      const long k = 11L * s - 4;  // ceil(k/s) = 11, the last packet 7 units
      cases.push_back({p, "chain", 0, s, k});
      cases.push_back({p, "binary", 1, s, k});
    }
  for (int p : {6, 17, 64})
    for (int r : {2, 3})
      for (int q : {1, 3}) cases.push_back({p, "fractional", r, r * q, 9L * r * q - 5});
  constexpr long t = 5;
  std::vector<std::vector<std::string>> runs;
  for (const auto& c : cases)
    for (const std::string last : {"padded", "short"}) {
      std::vector<std::string> o{"network.type=crossbar", "network.processors=" + std::to_string(c.p),
                                 "traffic.algorithm=" + c.algorithm, "traffic.packets=" + std::to_string(c.s),
                                 "traffic.message_units=" + std::to_string(c.k), "nic.startup=" + std::to_string(t),
                                 "traffic.last_packet=" + last};
      if (c.algorithm == "fractional") o.push_back("traffic.group=" + std::to_string(c.r));
      runs.push_back(o);
    }
  // The tuner's cost of a chain with a short last packet is exact: what it
  // predicts for its choice is what the crossbar takes.
  runs.push_back({"network.type=crossbar", "network.processors=40", "traffic.algorithm=chain", "traffic.packets=auto",
                  "traffic.message_units=1000", "nic.startup=" + std::to_string(t), "traffic.last_packet=short"});
  const auto results = run_scenarios(runs);
  const auto& tuned = results.back().results["result"];
  ASSERT_EQ(results.back().problem, "");
  EXPECT_LT(tuned["last_packet_units"].get<long>(), tuned["units_per_packet"].get<long>());
  EXPECT_EQ(tuned["cycles"].get<double>(), tuned["tuning"]["exhaustive"]["predicted_cycles"].get<double>());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    SCOPED_TRACE(c.algorithm + " P=" + std::to_string(c.p) + " s=" + std::to_string(c.s) + " k=" + std::to_string(c.k));
    const auto& padded = results[2 * i];
    const auto& shorter = results[2 * i + 1];
    ASSERT_EQ(padded.problem, "");
    ASSERT_EQ(shorter.problem, "");
    const long units = (c.k + c.s - 1) / c.s, last = c.k - (c.s - 1) * units;
    ASSERT_LT(last, units);  // the cases are chosen so that s does not divide k
    const auto& res = shorter.results["result"];
    EXPECT_EQ(res["units_per_packet"], units);
    EXPECT_EQ(res["last_packet_units"], last);
    EXPECT_EQ(padded.results["result"]["last_packet_units"], units);
    EXPECT_EQ(res["messages"]["delivered"], res["messages"]["injected"]);
    const long full_steps = padded.results["result"]["cycles"].get<long>() / (t + units);
    if (c.algorithm == "chain") {
      EXPECT_EQ(res["cycles"].get<long>(), (full_steps - 1) * (t + units) + t + last);
    } else {
      EXPECT_EQ(res["cycles"].get<long>(), pseudocode_cycles(c.p, std::max(c.r, 1), c.s, t, units, last));
    }
    EXPECT_LT(res["cycles"].get<long>(), padded.results["result"]["cycles"].get<long>());
  }
}

// Reductions with sum, max and the non-commutative 2x2 matrix product, every
// algorithm, odd roots, duplex and simplex: the root's result is checked by the
// model against the operator applied in rank order (result.verified), and the
// reduction, the broadcast's data paths reversed, takes as many steps.
TEST(SandersSibeyn, ReductionsAreCorrectForEveryOperator) {
  std::vector<std::vector<std::string>> runs;
  for (const std::string op : {"sum", "max", "matrix"})
    for (const std::string alg : {"chain", "binary", "fractional"})
      for (int p : {2, 6, 23}) {
        std::vector<std::string> more{"traffic.collective=reduction", "traffic.operator=" + op,
                                      "traffic.root=" + std::to_string(p / 2)};
        const std::string group = "traffic.group=" + std::to_string(std::min(3, p));
        if (alg == "fractional") more.push_back(group);
        runs.push_back(crossbar(p, alg, 6, more));
        runs.push_back(crossbar(p, alg, 6, {"traffic.root=" + std::to_string(p / 2)}));
        if (alg == "fractional") runs.back().push_back(group);
        if (p % 2 == 0 && p >= 4) {
          more.push_back("nic.model=simplex");
          runs.push_back(crossbar(p, alg, 6, more));
        }
      }
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    SCOPED_TRACE(nlohmann::json(runs[i]).dump());
    EXPECT_EQ(results[i].problem, "");
    EXPECT_TRUE(results[i].results["result"]["verified"].get<bool>());
  }
  // Reduction i and broadcast i + 1 are the same pattern.
  for (std::size_t i = 0; i + 1 < runs.size(); ++i) {
    if (std::find(runs[i].begin(), runs[i].end(), "nic.model=simplex") != runs[i].end()) continue;
    if (std::find(runs[i].begin(), runs[i].end(), "traffic.collective=reduction") == runs[i].end()) continue;
    EXPECT_EQ(results[i].results["result"]["steps"], results[i + 1].results["result"]["steps"]);
  }
}

// Simplex by couples: P simplex PUs need at most twice the steps of P/2 duplex
// PUs (the paper's bound; fewer where a couple's sub-step has nothing to do,
// e.g. a binary-tree node's send-only lines), and never fewer than the duplex P.
TEST(SandersSibeyn, SimplexCouplesTakeTwiceTheStepsOfHalfAsManyDuplexPus) {
  std::vector<std::vector<std::string>> runs;
  std::vector<int> ps{4, 6, 10, 16, 34, 64};
  for (int p : ps) {
    for (const std::string alg : {"chain", "binary", "fractional"}) {
      std::vector<std::string> g;
      if (alg == "fractional") g.push_back("traffic.group=2");
      auto simplex = g;
      simplex.push_back("nic.model=simplex");
      runs.push_back(crossbar(p, alg, 8, simplex));
      runs.push_back(crossbar(p / 2, alg, 8, g));
      runs.push_back(crossbar(p, alg, 8, g));
    }
  }
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < runs.size(); i += 3) {
    SCOPED_TRACE(nlohmann::json(runs[i]).dump());
    ASSERT_EQ(results[i].problem, "");
    const long simplex = results[i].results["result"]["steps"], half = results[i + 1].results["result"]["steps"],
               duplex = results[i + 2].results["result"]["steps"];
    EXPECT_LE(simplex, 2 * half);
    EXPECT_GE(simplex, duplex);
    EXPECT_LE(simplex, 2 * duplex);
  }
}

// Simplex, direct (every duplex line split into its two halves, in the order
// of the compiled lock-step timetable): deadlock-free for every algorithm, P
// (odd ones too), r, broadcast and reduction; the NIC confirms no port ever
// sent and received at once; never faster than duplex and at most twice as
// slow (the paper's bound for simplex).
TEST(SandersSibeyn, SimplexDirectScheduleCompletesWithoutDeadlock) {
  std::vector<std::vector<std::string>> runs;
  for (int p : {2, 3, 7, 16, 45})
    for (const std::string alg : {"chain", "binary", "fractional"})
      for (const std::string coll : {"broadcast", "reduction"}) {
        std::vector<std::string> more{"traffic.collective=" + coll};
        if (coll == "reduction") more.push_back("traffic.operator=matrix");
        if (alg == "fractional") more.push_back("traffic.group=" + std::to_string(std::min(p, 3)));
        runs.push_back(crossbar(p, alg, 12, more));
        more.push_back("nic.model=simplex");
        more.push_back("nic.simplex_schedule=direct");
        runs.push_back(crossbar(p, alg, 12, more));
      }
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < runs.size(); i += 2) {
    SCOPED_TRACE(nlohmann::json(runs[i + 1]).dump());
    ASSERT_EQ(results[i].problem, "");
    ASSERT_EQ(results[i + 1].problem, "");
    EXPECT_TRUE(results[i + 1].results["result"]["verified"].get<bool>());
    const long duplex = results[i].results["result"]["steps"], simplex = results[i + 1].results["result"]["steps"];
    EXPECT_GE(simplex, duplex);
    EXPECT_LE(simplex, 2 * duplex);
  }
}

// The paper's direct schedule: a run of r packets in 2r + 1 steps. Every PU of
// a group with a right successor has 2r + 1 communications per run (r
// receives, r sends down, one send right), so 2r + 1 is also the least a
// simplex port can do; the expected value is that count, not the model's.
// Measured as the difference between s and s + 30 r packets (30 more runs),
// which cancels the start-up and drain. Reductions (the time-reversed
// schedule) cost the same.
TEST(SandersSibeyn, SimplexDirectForwardsARunOfRPacketsIn2rPlus1Steps) {
  std::vector<std::vector<std::string>> runs;
  struct Case {
    int p, r;
    std::string coll;
  };
  std::vector<Case> cases;
  for (int p : {16, 45, 64})
    for (int r : {1, 2, 3, 4, 6}) cases.push_back({p, r, "broadcast"});
  cases.push_back({64, 3, "reduction"});
  cases.push_back({45, 4, "reduction"});
  for (const auto& c : cases)
    for (int runs_of_r : {10, 40}) {
      std::vector<std::string> more{"nic.model=simplex", "nic.simplex_schedule=direct", "traffic.collective=" + c.coll};
      if (c.coll == "reduction") more.push_back("traffic.operator=matrix");
      if (c.r > 1) more.push_back("traffic.group=" + std::to_string(c.r));  // r = 1: the binary tree
      runs.push_back(crossbar(c.p, c.r == 1 ? "binary" : "fractional", c.r * runs_of_r, more));
    }
  const auto results = run_scenarios(runs);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(nlohmann::json(runs[2 * i + 1]).dump());
    ASSERT_EQ(results[2 * i].problem, "");
    ASSERT_EQ(results[2 * i + 1].problem, "");
    const long a = results[2 * i].results["result"]["steps"], b = results[2 * i + 1].results["result"]["steps"];
    EXPECT_EQ(b - a, 30L * (2 * cases[i].r + 1)) << "P = " << cases[i].p << ", r = " << cases[i].r;
  }
}

// The hierarchical crossbar: a chain laid out over a modules crosses a - 1
// module boundaries; each crossing carries all s packets over one up and one
// down channel (edge congestion 1), and costs two more link cycles than a
// local transfer, so the run takes longer than on a full crossbar but at most
// (P - 2 + s)(t + m + 2). A fractional tree in rank order over 16 modules with
// 2 channels contends: heads wait for inter-module channels, measured.
TEST(SandersSibeyn, HierarchicalCrossbarCongestionIsMeasured) {
  const int a = 4, b = 8, s = 10, t = 5, m = 3;
  const auto runs = run_scenarios({{"network.type=hier_crossbar", "network.modules=4", "network.module_size=8",
                                    "network.inter_module_channels=2", "traffic.algorithm=chain", "traffic.packets=10",
                                    "traffic.message_units=30", "nic.startup=5"},
                                   {"network.type=hier_crossbar", "network.modules=16", "network.module_size=16",
                                    "network.inter_module_channels=2", "traffic.group=4", "traffic.packets=64",
                                    "traffic.message_units=640", "nic.startup=16"}});
  ASSERT_EQ(runs[0].problem, "");
  const auto& chain = runs[0].results;
  std::uint64_t up_packets = 0, down_packets = 0;
  for (const auto& l : chain["congestion"]["inter_module"]) {
    const std::string name = l["link"];
    (name.rfind("up", 0) == 0 ? up_packets : down_packets) += l["packets"].get<std::uint64_t>();
  }
  EXPECT_EQ(up_packets, static_cast<std::uint64_t>((a - 1) * s));
  EXPECT_EQ(down_packets, static_cast<std::uint64_t>((a - 1) * s));
  EXPECT_EQ(chain["congestion"]["edge_congestion"], 1);
  const long cycles = chain["result"]["cycles"];
  EXPECT_GT(cycles, static_cast<long>(a * b - 2 + s) * (t + m));
  EXPECT_LE(cycles, static_cast<long>(a * b - 2 + s) * (t + m + 2));
  ASSERT_EQ(runs[1].problem, "");
  EXPECT_GT(runs[1].results["congestion"]["inter_module_wait_cycles"].get<long>(), 0);
  EXPECT_GE(runs[1].results["congestion"]["edge_congestion"].get<long>(), 2);
  // Slower than the same fractional tree on a full crossbar, whose time the
  // test's own interpreter of figure 2 gives (steps x (t + m), as on the crossbar).
  const long free_run = pseudocode_steps(256, 4, 64) * (16 + 640 / 64);
  EXPECT_EQ(runs[1].results["result"]["expected"]["pseudocode_cycles"].get<long>(), free_run);
  EXPECT_GT(runs[1].results["result"]["cycles"].get<long>(), free_run);
}

// The section-4 embedding, checked on its own: every PU is in the tree once,
// every group lies inside one module, a group with successors has r members,
// and no module sends or receives more than two tree edges between modules
// (what "two incoming and outgoing channels" per module must carry). The
// inter-module edges are the a - 1 edges of the global binary tree plus one
// feed per module whose global group has two global children (counted here
// from the heap shape, independently of the code under test).
TEST(SandersSibeyn, ModuleEmbeddingNeedsTwoChannelsPerModule) {
  for (unsigned a : {1u, 2u, 3u, 5u, 16u, 37u})
    for (unsigned b : {4u, 7u, 16u})
      for (unsigned r : {1u, 2u, 4u}) {
        if (r > b) continue;
        SCOPED_TRACE("a = " + std::to_string(a) + ", b = " + std::to_string(b) + ", r = " + std::to_string(r));
        const frac::ModuleEmbedding e = frac::embed_in_modules(a, b, r);
        const frac::Layout& l = e.layout;
        ASSERT_EQ(l.processors(), a * b);
        std::vector<int> seen(a * b, 0);
        for (std::uint32_t x = 0; x < a * b; ++x) ++seen.at(e.pu_of_rank[x]);
        EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(a * b));
        std::vector<int> out(a, 0), in(a, 0);
        unsigned inter = 0;
        for (std::uint32_t gi = 0; gi < l.groups.size(); ++gi) {
          const frac::Group& g = l.groups[gi];
          const unsigned module = e.pu_of_rank[g.members.front()] / b;
          for (std::uint32_t x : g.members) EXPECT_EQ(e.pu_of_rank[x] / b, module);
          if (g.down != frac::kNone || g.right != frac::kNone) {
            EXPECT_EQ(g.members.size(), r);
          }
          for (std::uint32_t c : {g.down, g.right}) {
            if (c == frac::kNone) continue;
            const unsigned to = e.pu_of_rank[l.groups[c].members.front()] / b;
            if (to == module) continue;
            ++out[module];
            ++in[to];
            ++inter;
          }
        }
        EXPECT_LE(*std::max_element(out.begin(), out.end()), 2);
        EXPECT_LE(*std::max_element(in.begin(), in.end()), 2);
        unsigned two_child = 0;
        for (unsigned m = 0; 2 * m + 2 < a; ++m) ++two_child;
        EXPECT_EQ(inter, a - 1 + (b > r ? two_child : 0));
        EXPECT_EQ(e.inter_module_edges, inter);
      }
}

// In the simulated 16 x 16 hierarchical crossbar with two channels per module,
// the embedding carries at most two tree edges per module and direction, no
// head waits for an inter-module channel, and it beats rank order (which
// waits); broadcast and a non-commutative reduction from a root inside a
// module are verified.
TEST(SandersSibeyn, ModuleEmbeddingRemovesInterModuleContention) {
  auto hier = [](std::vector<std::string> more) {
    std::vector<std::string> o{"network.type=hier_crossbar", "network.modules=16", "network.module_size=16",
                               "network.inter_module_channels=2", "traffic.group=7", "traffic.packets=189",
                               "traffic.message_units=16384", "nic.startup=16"};
    o.insert(o.end(), more.begin(), more.end());
    return o;
  };
  const auto runs = run_scenarios({hier({"traffic.embedding=rank_order"}), hier({"traffic.embedding=modules"}),
                                   hier({"traffic.embedding=modules", "traffic.collective=reduction",
                                         "traffic.operator=matrix", "traffic.root=37"}),
                                   hier({"traffic.embedding=modules", "traffic.group=3", "traffic.packets=96",
                                         "nic.model=simplex", "nic.simplex_schedule=direct"})});
  for (const auto& run : runs) {
    ASSERT_EQ(run.problem, "");
    EXPECT_TRUE(run.results["result"]["verified"].get<bool>());
  }
  const auto& naive = runs[0].results["congestion"];
  EXPECT_GT(naive["max_tree_edges_per_module_direction"].get<long>(), 2);
  EXPECT_GT(naive["inter_module_wait_cycles"].get<long>(), 0);
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const auto& c = runs[i].results["congestion"];
    EXPECT_LE(c["max_tree_edges_per_module_direction"].get<long>(), 2);
    EXPECT_EQ(c["inter_module_wait_cycles"].get<long>(), 0) << i;
  }
  EXPECT_LT(runs[1].results["result"]["cycles"].get<long>(), runs[0].results["result"]["cycles"].get<long>());
}

// Every fractional scenario runs verified through the icnsim command, and a
// second run with the same seed writes the same results.
TEST(SandersSibeyn, ScenariosRunVerifiedAndDeterministically) {
  expect_scenarios_verified_and_deterministic(
      {"fractional_crossbar_broadcast", "fractional_crossbar_chain", "fractional_crossbar_binary_reduction",
       "fractional_simplex_couples", "fractional_hier_crossbar", "fractional_worked_example",
       "fractional_hier_crossbar_embedding", "fractional_simplex_direct"});
}

// The worked example, observed: P = 1024, k/t = 4096 with the paper's
// closed-form choice (r = 8, d = 57, s = 456) gives T ~ 1.389 k.
TEST(SandersSibeyn, WorkedExampleTakes1389ThousandthsOfK) {
  const auto run = run_scenario({"network.type=crossbar", "network.processors=1024", "traffic.group=auto",
                                 "traffic.packets=auto", "traffic.tuning=paper", "traffic.message_units=65536",
                                 "nic.startup=16"});
  ASSERT_EQ(run.problem, "");
  const auto& r = run.results["result"];
  EXPECT_EQ(r["r"], 8);
  EXPECT_EQ(r["s"], 456);
  EXPECT_EQ(r["expected"]["depth_d"], 57);
  EXPECT_NEAR(r["cycles"].get<double>() / 65536.0, 1.389, 0.0015);
  // The exhaustive search finds something at least as good in the model.
  EXPECT_LE(r["tuning"]["exhaustive"]["predicted_cycles"].get<double>(), r["tuning"]["paper"]["predicted_cycles"].get<double>());
  EXPECT_LE(r["tuning"]["exhaustive"]["predicted_cycles"].get<double>(), r["tuning"]["fast"]["predicted_cycles"].get<double>());
}

// Bad parameters: one line, exit code 2.
TEST(SandersSibeyn, BadParametersExitTwoWithOneLine) {
  const std::string run = "run /dev/null --set network.type=crossbar ";
  expect_rejected(run + "--set traffic.group=3 --set traffic.packets=8", "traffic.packets = 8: 8 is not a multiple of traffic.group r = 3");
  expect_rejected(run + "--set traffic.group=0", "traffic.group = 0: out of range");
  expect_rejected(run + "--set network.processors=1", "network.processors = 1: out of range (2..65536)");
  expect_rejected(run + "--set network.processors=100000", "network.processors = 100000: out of range");
  expect_rejected(run + "--set traffic.packets=100 --set traffic.group=2 --set traffic.message_units=50", "exceed the message's k = 50 units");
  expect_rejected(run + "--set nic.startup=1", "nic.startup = 1: out of range");
  expect_rejected(run + "--set traffic.message_units=1099511627776 --set traffic.packets=2 --set traffic.group=2",
                  "units per packet; at most 2^30");
  expect_rejected(run + "--set traffic.message_units=-5", "traffic.message_units = -5: out of range");
  expect_rejected(run + "--set traffic.root=16", "traffic.root = 16: out of range");
  // 4 packets of ceil(9/4) = 3 units carry all 9 before the last one.
  expect_rejected(run + "--set traffic.last_packet=short --set traffic.packets=4 --set traffic.group=2 --set traffic.message_units=9",
                  "traffic.last_packet = short: s = 4 packets of ceil(k/s) = 3 units carry all k = 9 units before the last");
  expect_rejected(run + "--set traffic.last_packet=tail", "traffic.last_packet = tail");
  expect_rejected(run + "--set traffic.algorithm=tree", "traffic.algorithm = tree");
  expect_rejected(run + "--set nic.simplex_schedule=direct", "applies only to nic.model=simplex");
  expect_rejected(run + "--set nic.model=simplex --set network.processors=7", "even number of processors");
  expect_rejected(run + "--set traffic.algorithm=chain --set traffic.group=2", "applies only to traffic.algorithm=fractional");
  expect_rejected(run + "--set traffic.operator=max", "applies only to traffic.collective=reduction");
  expect_rejected(run + "--set network.processors=65536 --set traffic.group=1 --set traffic.packets=65536 --set traffic.message_units=65536",
                  "at most 2^31 per run");
  expect_rejected("run /dev/null --set network.type=hier_crossbar --set network.inter_module_channels=1 --set traffic.group=2",
                  "needs at least 2 channels per module");
  expect_rejected("run /dev/null --set network.type=hier_crossbar --set network.modules=0", "network.modules = 0: out of range");
  expect_rejected("run /dev/null --set network.type=hier_crossbar --set traffic.embedding=modules --set traffic.group=16 "
                  "--set traffic.packets=16",
                  "modules needs r <= b");
  expect_rejected("run /dev/null --set network.type=hier_crossbar --set traffic.embedding=modules --set traffic.algorithm=chain",
                  "modules applies to binary and fractional trees");
  expect_rejected("run /dev/null --set network.type=hier_crossbar --set traffic.embedding=modules --set nic.model=simplex",
                  "modules does not take simplex couples");
  expect_rejected("run /dev/null --set network.type=hier_crossbar --set traffic.embedding=snake", "traffic.embedding = snake");
  expect_rejected(run + "--set traffic.embedding=modules", "applies only to network.type=hier_crossbar");
}

}  // namespace icn::test
