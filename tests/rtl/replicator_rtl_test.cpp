// Co-simulation of the inter-level replicator: the Verilated RTL
// (rtl/replicator/) and the behavioural model (BehavioralReplicator), driven by
// the same random stimulus, give identical ReplicatorOutputs and occupancies
// in every cycle, for both modes and many branch counts, depths and seeds.
//
// The stimulus is deliberately not always well-formed traffic: masks change in
// the middle of packets, carry bits above the strapped branch count, are zero
// with in_valid set, and readiness is random per branch. Whatever the inputs,
// the two implementations must agree.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "routers/hpam/behavioral_replicator.hpp"
#include "routers/hpam/rtl_replicator.hpp"

namespace icn::hpam {
namespace {

std::string describe(const ReplicatorOutputs& o, unsigned branches) {
  std::ostringstream s;
  s << "in_ready=" << o.in_ready << " out_valid=0x" << std::hex << o.out_valid;
  for (unsigned i = 0; i < branches; ++i)
    if (o.out_valid.test(i)) s << " [" << std::dec << i << "]=" << std::hex << o.out[i].data << "/" << o.out[i].last;
  return s.str();
}

// Drives both models for `cycles` cycles; returns the flits delivered (on the
// behavioural side) so a caller can check the stimulus did move traffic.
std::uint64_t co_simulate(unsigned branches, ReplicatorMode mode, unsigned depth, std::uint32_t seed, unsigned cycles,
                          double ready_p, double wild_p) {
  BehavioralReplicator ref(branches, mode, depth);
  RtlReplicator rtl(branches, mode, depth);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const unsigned rtl_branches = rtl_replicator_branches();
  // Each of the first n branches with probability 1/2.
  auto random_mask = [&](unsigned n) {
    BranchMask m;
    for (unsigned i = 0; i < n; ++i)
      if (gen() & 1u) m.set(i);
    return m;
  };
  BranchMask mask = 1;
  std::uint64_t delivered = 0;
  for (unsigned t = 0; t < cycles; ++t) {
    ReplicatorInputs in;
    in.in_valid = u(gen) < 0.8;
    if (u(gen) < 0.2) {
      mask = random_mask(branches);
      if (!mask.any()) mask.set(static_cast<unsigned>(gen() % branches));
    }
    in.in_mask = mask;
    if (u(gen) < wild_p) in.in_mask = random_mask(rtl_branches);  // any bits of the RTL's, even none
    in.in = {gen(), u(gen) < 0.3};
    for (unsigned i = 0; i < rtl_branches; ++i)
      if (u(gen) < ready_p) in.out_ready.set(i);
    const ReplicatorOutputs a = ref.cycle(in);
    const ReplicatorOutputs b = rtl.cycle(in);
    if (!(a == b)) {
      ADD_FAILURE() << "branches " << branches << " depth " << depth << " seed " << seed << " cycle " << t
                    << "\n  behavioural " << describe(a, branches) << "\n  rtl         " << describe(b, rtl_branches);
      return delivered;
    }
    for (unsigned i = 0; i < branches; ++i) {
      if (ref.occupancy(i) != rtl.occupancy(i)) {
        ADD_FAILURE() << "occupancy of branch " << i << " after cycle " << t << ": behavioural " << ref.occupancy(i)
                      << ", rtl " << rtl.occupancy(i) << " (branches " << branches << " depth " << depth << " seed "
                      << seed << ")";
        return delivered;
      }
      if (a.out_valid.test(i) && in.out_ready.test(i)) ++delivered;
    }
  }
  return delivered;
}

TEST(ReplicatorRtl, LockstepMatchesTheBehaviouralModelEveryCycle) {
  for (unsigned branches : {1u, 2u, 3u, 4u, 7u, 8u, 16u})
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
      const double ready_p = 0.5 + 0.08 * seed;
      const std::uint64_t moved = co_simulate(branches, ReplicatorMode::kLockstep, 0, seed * 101 + branches, 3000,
                                              ready_p, 0.05);
      if (HasFailure()) return;
      EXPECT_GT(moved, 100u) << "the stimulus moved too little traffic to compare";
    }
}

TEST(ReplicatorRtl, BufferedMatchesTheBehaviouralModelEveryCycle) {
  for (unsigned branches : {1u, 2u, 3u, 5u, 8u, 16u})
    for (unsigned depth : {1u, 2u, 3u, 4u, 7u, RtlReplicator::max_depth()})
      for (std::uint32_t seed = 1; seed <= 4; ++seed) {
        const std::uint64_t moved = co_simulate(branches, ReplicatorMode::kBuffered, depth,
                                                seed * 7919 + depth * 31 + branches, 3000, 0.3 + 0.15 * seed, 0.05);
        if (HasFailure()) return;
        EXPECT_GT(moved, 100u);
      }
}

TEST(ReplicatorRtl, BufferedFifosFillAndStayEqualUnderHeavyBackPressure) {
  // Readiness 0.1: every FIFO runs full most of the time, wrap-around at
  // every depth is exercised many times over.
  for (unsigned depth : {1u, 3u, 8u, RtlReplicator::max_depth()})
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      co_simulate(4, ReplicatorMode::kBuffered, depth, seed, 4000, 0.1, 0.0);
      if (HasFailure()) return;
    }
}

TEST(ReplicatorRtl, RefusesADepthBeyondTheVerilatedOne) {
  EXPECT_THROW(RtlReplicator(2, ReplicatorMode::kBuffered, RtlReplicator::max_depth() + 1), std::invalid_argument);
  EXPECT_NO_THROW(RtlReplicator(2, ReplicatorMode::kBuffered, RtlReplicator::max_depth()));
  EXPECT_NO_THROW(RtlReplicator(rtl_replicator_branches(), ReplicatorMode::kLockstep, 0));
}

TEST(ReplicatorRtl, RefusesMoreBranchesThanVerilated) {
  EXPECT_THROW(RtlReplicator(rtl_replicator_branches() + 1, ReplicatorMode::kLockstep, 0), std::invalid_argument);
  EXPECT_EQ(rtl_replicator_branches(), static_cast<unsigned>(ICNSIM_RTL_REPLICATOR_BRANCHES));
}

TEST(ReplicatorRtl, WritesAVcdOfItsPortsAndRegistersOnTheCallersClock) {
  const std::string path = testing::TempDir() + "replicator_rtl_test.vcd";
  std::uint64_t now = 5;  // the caller's cycle
  {
    RtlReplicator rtl(2, ReplicatorMode::kBuffered, 2, "icnsim.repl_test.rtl");
    rtl.trace(path, [&] { return now; }, 1000, "1 ps");  // a 1 ns clock on a picosecond time base
    ReplicatorInputs in;
    in.in_valid = true;
    in.in_mask = 3;
    in.in = {0xabcdef, true};
    in.out_ready = 1;
    for (int t = 0; t < 4; ++t, ++now) rtl.cycle(in);
  }
  std::ifstream f(path);
  ASSERT_TRUE(f) << path;
  std::stringstream s;
  s << f.rdbuf();
  const std::string vcd = s.str();
  for (const char* name : {"in_ready_o", "out_valid_o", "out_data_o", "count_q", "rd_ptr_q", "mem_q"})
    EXPECT_NE(vcd.find(name), std::string::npos) << name;
  EXPECT_NE(vcd.find("$timescale 1ps $end"), std::string::npos);
  EXPECT_NE(vcd.find("$scope module icnsim.repl_test.rtl $end"), std::string::npos);  // under its host's name
  // One time point per cycle, at cycle x 1000 ps: none between cycles.
  std::vector<std::string> stamps;
  for (std::size_t at = vcd.find("\n#"); at != std::string::npos; at = vcd.find("\n#", at + 1))
    stamps.push_back(vcd.substr(at + 1, vcd.find('\n', at + 1) - at - 1));
  EXPECT_EQ(stamps, (std::vector<std::string>{"#5000", "#6000", "#7000", "#8000"}));
}

}  // namespace
}  // namespace icn::hpam
