// The Verilated RTL of the routing-bit stream generator (rtl/route_stream/)
// against the behavioural generator and against section 3.3 of the memo read
// literally, through the same load()/next_bit() protocol the NIC uses: one
// verilated model, configured per test by its height_i strap.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/rng.hpp"
#include "routers/fattree_bitserial/route_stream_generator.hpp"
#include "routers/fattree_bitserial/rtl_route_stream_generator.hpp"
#include "tests/rtl/route_stream_reference.hpp"

namespace icn::test {

namespace {

using bitserial::BehaviouralRouteStreamGenerator;
using bitserial::BufferFill;
using bitserial::RtlClock;
using bitserial::RtlRouteStreamGenerator;

struct StreamCase {
  unsigned height;
  NodeId src, dst;
  BufferFill fill;
};

std::string as_text(const std::vector<bool>& bits) {
  std::string s;
  for (bool b : bits) s += b ? '1' : '0';
  return s;
}

// Drives several RTL generators in parallel from the engine, exactly as the
// NIC does: load in one cycle, read one bit per cycle from the next, until
// valid drops; then the next case's load in that same cycle.
class StreamHarness : public Clocked {
 public:
  struct Lane {
    std::unique_ptr<RtlRouteStreamGenerator> rtl;
    std::vector<StreamCase> cases;
    std::size_t next = 0;
    bool streaming = false;
    std::vector<bool> bits;
    std::vector<std::string> got;  // one per case, in order
  };

  // With `strapped`, every lane keeps the height and fill it was constructed
  // with (the NIC's case): configure() is never called.
  StreamHarness(CycleEngine& engine, RtlClock& clock, const std::vector<StreamCase>& cases, unsigned lanes,
                unsigned max_height, BufferFill fill, bool strapped = false)
      : Clocked(Phase::kNetwork), strapped_(strapped) {
    for (unsigned i = 0; i < lanes; ++i) {
      lanes_.emplace_back();
      lanes_.back().rtl = std::make_unique<RtlRouteStreamGenerator>(
          ("lane" + std::to_string(i)).c_str(), max_height, fill, clock);
    }
    for (std::size_t c = 0; c < cases.size(); ++c) lanes_[c % lanes].cases.push_back(cases[c]);
    engine.add(*this);
    engine.wake(*this, 1);
  }

  Cycle tick(Cycle) override {
    bool busy = false;
    for (Lane& l : lanes_) {
      if (l.streaming) {
        const bitserial::StreamBit b = l.rtl->next_bit();
        if (b.valid) {
          l.bits.push_back(b.bit);
          if (l.bits.size() > 200) throw std::runtime_error("RTL stream never ends");
          busy = true;
          continue;
        }
        l.got.push_back(as_text(l.bits));
        l.streaming = false;
      }
      if (l.next < l.cases.size()) {
        const StreamCase& c = l.cases[l.next++];
        if (!strapped_) l.rtl->configure(c.height, c.fill);
        l.rtl->load(c.src, c.dst);
        l.bits.clear();
        l.streaming = true;
        busy = true;
      }
    }
    return busy ? engine()->now() + 1 : kNever;
  }
  std::string block_name() const override { return "harness"; }

  // Streams in the order of the cases given to the constructor.
  std::vector<std::string> streams(std::size_t cases) const {
    std::vector<std::string> out(cases);
    for (std::size_t c = 0; c < cases; ++c) out[c] = lanes_[c % lanes_.size()].got.at(c / lanes_.size());
    return out;
  }

 private:
  bool strapped_;
  std::vector<Lane> lanes_;
};

std::string behavioural(const StreamCase& c) {
  return as_text(BehaviouralRouteStreamGenerator::compose(c.height, c.src, c.dst, c.fill).bits);
}

std::vector<std::string> run_rtl(const std::vector<StreamCase>& cases, unsigned lanes) {
  CycleEngine engine("engine", {});
  RtlClock clock("rtl_clock", engine);
  StreamHarness harness(engine, clock, cases, lanes, RtlRouteStreamGenerator::max_height(), BufferFill::kZero);
  sc_core::sc_start();
  EXPECT_EQ(engine.outcome().status, RunOutcome::Status::kCompleted);
  return harness.streams(cases.size());
}

}  // namespace

// The NIC builds its generator with the tree's height and buffering-bit fill
// and never reconfigures it: the straps set at construction alone must give
// the behavioural stream. One fill per test: a SystemC process elaborates once.
void check_construction_straps(BufferFill fill) {
  const unsigned h = 4;
  std::vector<StreamCase> cases;
  for (NodeId s = 0; s < (NodeId{1} << h); ++s)
    for (NodeId d = 0; d < (NodeId{1} << h); ++d)
      if (s != d) cases.push_back({h, s, d, fill});
  CycleEngine engine("engine", {});
  RtlClock clock("rtl_clock", engine);
  StreamHarness harness(engine, clock, cases, 8, h, fill, /*strapped=*/true);
  sc_core::sc_start();
  ASSERT_EQ(engine.outcome().status, RunOutcome::Status::kCompleted);
  const auto got = harness.streams(cases.size());
  std::size_t other_fill_differs = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    ASSERT_EQ(got[i], behavioural(cases[i])) << cases[i].src << "->" << cases[i].dst;
    StreamCase other = cases[i];
    other.fill = fill == BufferFill::kTurnBit ? BufferFill::kZero : BufferFill::kTurnBit;
    if (behavioural(other) != got[i]) ++other_fill_differs;
  }
  EXPECT_GT(other_fill_differs, 0u) << "the two fills give the same streams: this test would see nothing";
}

TEST(RouteStreamRtl, ConstructionStrapsAloneSelectTheZeroFill) { check_construction_straps(BufferFill::kZero); }
TEST(RouteStreamRtl, ConstructionStrapsAloneSelectTheTurnBitFill) { check_construction_straps(BufferFill::kTurnBit); }

// Every (source, destination) pair for H = 1..8, both buffering-bit fills:
// bit for bit the behavioural stream, and the memo's section 3.3 construction.
TEST(RouteStreamRtl, ExhaustiveHeightsOneToEightMatchTheBehaviouralGenerator) {
  std::vector<StreamCase> cases;
  for (unsigned h = 1; h <= 8; ++h)
    for (BufferFill fill : {BufferFill::kZero, BufferFill::kTurnBit})
      for (NodeId s = 0; s < (NodeId{1} << h); ++s)
        for (NodeId d = 0; d < (NodeId{1} << h); ++d)
          if (s != d) cases.push_back({h, s, d, fill});
  const auto got = run_rtl(cases, 64);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const StreamCase& c = cases[i];
    const std::string want = behavioural(c);
    if (got[i] != want && ++mismatches <= 5) {
      ADD_FAILURE() << "H=" << c.height << " " << c.src << "->" << c.dst << " rtl " << got[i] << " behavioural " << want;
    }
    ASSERT_EQ(want, section33_stream(c.height, c.src, c.dst, c.fill == BufferFill::kTurnBit))
        << "the behavioural generator itself disagrees with section 3.3";
  }
  EXPECT_EQ(mismatches, 0u);
  // 2^H (2^H - 1) ordered pairs: 2 + 12 + 56 + 240 + 992 + 4032 + 16256 + 65280, for each fill.
  EXPECT_EQ(cases.size(), 2u * 86870u);
}

// Random pairs on the widest trees the verilated generator serves.
TEST(RouteStreamRtl, RandomPairsUpToTheVerilatedWidthMatch) {
  Rng rng(2026, "rtl.random_pairs");
  std::vector<StreamCase> cases;
  for (unsigned h = 9; h <= RtlRouteStreamGenerator::max_height(); ++h) {
    for (int i = 0; i < 400; ++i) {
      const NodeId n = NodeId{1} << h;
      const NodeId s = static_cast<NodeId>(rng.below(n));
      NodeId d = static_cast<NodeId>(rng.below(n - 1));
      if (d >= s) ++d;
      cases.push_back({h, s, d, i % 2 ? BufferFill::kTurnBit : BufferFill::kZero});
    }
  }
  const auto got = run_rtl(cases, 32);
  for (std::size_t i = 0; i < cases.size(); ++i)
    ASSERT_EQ(got[i], behavioural(cases[i])) << "H=" << cases[i].height << " " << cases[i].src << "->" << cases[i].dst;
}

// The stream's length tells the turning height: 4H - 2h bits with M (the
// RTL's valid signal must cover exactly that, no more).
TEST(RouteStreamRtl, ValidCoversExactlyTheStream) {
  std::vector<StreamCase> cases;
  const unsigned H = 6;
  for (NodeId d = 1; d < 64; ++d) cases.push_back({H, 0, d, BufferFill::kZero});
  const auto got = run_rtl(cases, 8);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    unsigned h = 0;
    for (NodeId x = cases[i].src ^ cases[i].dst; x != 0; x >>= 1) ++h;
    EXPECT_EQ(got[i].size(), 4 * H - 2 * h) << "0->" << cases[i].dst;
  }
}

}  // namespace icn::test
