// The inter-level replicator as the network uses it (InterLevelReplicator
// around the replicator core): a 12-flit packet enters; every branch receives
// every flit, in order, as a copy addressed to its own column; when one
// branch stops returning credits, lockstep stops every branch at once, while
// buffered lets the others run on until that branch's FIFO is full.
#include <gtest/gtest.h>

#include <systemc>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "routers/hpam/hpam_topology.hpp"
#include "routers/hpam/inter_level_replicator.hpp"

namespace icn::hpam {
namespace {

constexpr unsigned kFlits = 12, kDepth = 2, kFifo = 3;

// Drives the replicator's input like a router output port (credits, one flit
// a cycle) and plays the routers below: each branch returns a credit the
// cycle after a flit arrives, except the blocked branch during [block_from, block_to).
class Bench : public sc_core::sc_module, public Clocked {
 public:
  Bench(sc_core::sc_module_name name, ReplicatorMode mode)
      : sc_module(name), Clocked(Phase::kNetwork), engine_("engine", CycleEngine::Options{}),
        geo_({{1, 1}, {2, 4}}), in_(1, 1), in_credit_(1, 1) {
    engine_.set_in_flight_probe([this] { return pool_.live(); });
    rep_ = std::make_unique<InterLevelReplicator>("rep", make_replicator(ReplicatorImpl::kBehavioral, 4, mode, kFifo),
                                                  geo_, Position{0, 0, 0}, 2, kDepth, pool_, ledger_);
    rep_->connect_input(&in_, &in_credit_);
    in_credit_.connect_receiver(*this);
    for (unsigned i = 0; i < 4; ++i) {
      out_.push_back(std::make_unique<vc::FlitLink>(1, 1));
      credit_.push_back(std::make_unique<vc::CreditLink>(1, 1));
      out_.back()->connect_receiver(*this);
      rep_->connect_branch(i, out_.back().get(), credit_.back().get(), kDepth);
    }
    received.resize(4);
    engine_.add(*this);
    engine_.add(*rep_);
    packet_ = pool_.allocate();
    pool_[packet_].src = 0;
    pool_[packet_].dst = geo_.node({1, 1, 0}) | HpamTopology::kReplicateBit;
    ++ledger_.injected;
    ++ledger_.deliveries_expected;
    engine_.wake(*this, 1);
  }

  Cycle tick(Cycle now) override {
    in_credit_.receive(now, [&](const vc::Credit&) { ++credits_; });
    for (unsigned i = 0; i < 4; ++i) {
      out_[i]->receive(now, [&](const vc::Flit& f) {
        received[i].push_back(now);
        EXPECT_EQ(pool_[f.packet].dst, geo_.node({1, 1, i}));  // the same row of branch i's column
        if (f.tail()) {
          ++ledger_.delivered;
          pool_.release(f.packet);
        }
        owed_[i].push_back(now + 1);
      });
      // Return credits, one a cycle (withheld on the blocked branch while it is blocked).
      if (!owed_[i].empty() && owed_[i].front() <= now && !(i == blocked && now >= block_from && now < block_to)) {
        credit_[i]->send(now, vc::Credit{0});
        owed_[i].erase(owed_[i].begin());
      }
    }
    if (sent_ < kFlits && credits_ > 0) {
      vc::Flit f;
      f.packet = packet_;
      f.vc = 1;
      f.bits = static_cast<std::uint8_t>((sent_ == 0 ? vc::Flit::kHead : 0) | (sent_ + 1 == kFlits ? vc::Flit::kTail : 0));
      in_.send(now, f);
      --credits_;
      ++sent_;
      engine()->note_progress();
    }
    bool owed = false;
    for (const auto& o : owed_) owed = owed || !o.empty();
    return (sent_ < kFlits || owed) ? now + 1 : kNever;
  }
  std::string block_name() const override { return name(); }

  void run() {
    sc_core::sc_start();
    ASSERT_EQ(engine_.outcome().status, RunOutcome::Status::kCompleted) << engine_.outcome().diagnostic;
    EXPECT_EQ(pool_.live(), 0u);
    EXPECT_EQ(ledger_.deliveries_expected, 4u);
    EXPECT_EQ(ledger_.delivered, 4u);
  }
  // Flits branch i had received by the end of cycle t.
  unsigned by(unsigned i, Cycle t) const {
    unsigned n = 0;
    for (Cycle c : received[i]) n += c <= t;
    return n;
  }

  unsigned blocked = 1;
  Cycle block_from = 8, block_to = 40;
  std::vector<std::vector<Cycle>> received;

 private:
  PacketPool pool_;
  TrafficLedger ledger_;
  CycleEngine engine_;
  HpamGeometry geo_;
  vc::FlitLink in_;
  vc::CreditLink in_credit_;
  std::unique_ptr<InterLevelReplicator> rep_;
  std::vector<std::unique_ptr<vc::FlitLink>> out_;
  std::vector<std::unique_ptr<vc::CreditLink>> credit_;
  std::vector<std::vector<Cycle>> owed_ = std::vector<std::vector<Cycle>>(4);
  unsigned credits_ = kDepth;
  unsigned sent_ = 0;
  PacketId packet_ = kNoPacket;
};

TEST(HpamReplicator, LockstepStopsEveryBranchWhenOneHasNoCredit) {
  Bench b("b", ReplicatorMode::kLockstep);
  b.run();
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(b.received[i].size(), kFlits) << i;
  // Lockstep: every flit leaves on all branches in the same cycle.
  for (unsigned k = 0; k < kFlits; ++k)
    for (unsigned i = 1; i < 4; ++i) EXPECT_EQ(b.received[i][k], b.received[0][k]);
  // While branch 1 withholds its credits, nobody gets more than branch 1 has.
  const unsigned stuck = b.by(1, 39);
  EXPECT_LT(stuck, kFlits);
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(b.by(i, 39), stuck) << i;
}

TEST(HpamReplicator, BufferedLetsTheOtherBranchesRunUntilTheFifoIsFull) {
  Bench b("b", ReplicatorMode::kBuffered);
  b.run();
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(b.received[i].size(), kFlits) << i;
  const unsigned stuck = b.by(1, 39);
  EXPECT_LT(stuck, kFlits);
  // The others run ahead by exactly what branch 1's FIFO holds (then the input stops).
  for (unsigned i : {0u, 2u, 3u}) EXPECT_EQ(b.by(i, 39), std::min(kFlits, stuck + kFifo)) << i;
}

}  // namespace
}  // namespace icn::hpam
