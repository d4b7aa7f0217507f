// The HPAM network run cycle by cycle: HpamTopology on the shared VcRouter,
// VcNic and VcNetwork. Every pair of small machines exchanges a message at
// once (all pairs in one run: contention included) and every message arrives
// after as many routers as the paper's path has (tests/hpam/paper_path.hpp);
// the uni-port NIC makes a second message wait, on the send and receive side;
// with synchronous sends, until the receiver's acknowledgement is back.
#include <gtest/gtest.h>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <map>
#include <memory>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "nics/icn_extension.hpp"
#include "routers/hpam/hpam_nic.hpp"
#include "routers/hpam/hpam_topology.hpp"
#include "routers/vc/vc_network.hpp"
#include "tests/hpam/paper_path.hpp"

namespace icn::hpam {
namespace {

// A machine with one TLM initiator per node, writing planned messages at
// planned cycles, and recording every arrival.
class Harness : public sc_core::sc_module, public Clocked, public vc::ArrivalSink, public DeliverySink {
 public:
  struct Send {
    Cycle at;
    NodeId src, dst;
    unsigned flits;      // raw network (with_nics = false)
    std::uint64_t bytes; // through the HPAM NIC
  };
  struct Arrival {
    NodeId src, dst;
    unsigned flits;
    unsigned routers;
    Cycle injected, arrived;
    std::uint64_t tag;
  };

  Harness(sc_core::sc_module_name name, std::vector<LevelShape> levels, bool with_nics, NicCosts costs = {})
      : sc_module(name),
        Clocked(Phase::kProcessor),
        engine_("engine", CycleEngine::Options{}),
        geo_(std::move(levels)),
        topo_(geo_, 2),
        net_("net", topo_, vc::NetworkParams{}, engine_, pool_, ledger_) {
    engine_.set_in_flight_probe([this] { return pool_.live(); });
    engine_.add(*this);
    for (NodeId n = 0; n < geo_.nodes(); ++n) {
      cpu_.push_back(std::make_unique<tlm_utils::simple_initiator_socket<Harness>>(("cpu" + std::to_string(n)).c_str()));
      if (with_nics) {
        nics_.push_back(std::make_unique<HpamNic>(("pnic" + std::to_string(n)).c_str(), n, costs, net_.nic(n)));
        nics_.back()->set_sink(*this);
        engine_.add(*nics_.back());
        cpu_.back()->bind(nics_.back()->socket);
      } else {
        net_.nic(n).set_sink(*this);
        cpu_.back()->bind(net_.nic(n).socket());
      }
    }
  }

  // Synchronous sends on every NIC (unicast only here: one receiver each).
  void synchronous() {
    for (auto& n : nics_) n->set_synchronous([](NodeId) { return 1u; });
  }
  const HpamNic& nic(NodeId n) const { return *nics_[n]; }
  const TrafficLedger& ledger() const { return ledger_; }

  void plan(const Send& s) {
    sends_.insert({s.at, s});
    engine_.wake(*this, s.at);
  }

  Cycle tick(Cycle now) override {
    auto [lo, hi] = sends_.equal_range(now);
    for (auto it = lo; it != hi; ++it) {
      const Send& s = it->second;
      unsigned char data[16];
      MessageWord{0x1000u + s.src * 1000u + s.dst, s.bytes}.store(data);
      tlm::tlm_generic_payload trans;
      IcnExtension ext;
      trans.set_extension(&ext);
      prepare_message_write(trans, ext, s.dst, data, 16, 0, false, s.flits);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      (*cpu_[s.src])->b_transport(trans, delay);
      trans.clear_extension(&ext);
      EXPECT_EQ(trans.get_response_status(), tlm::TLM_OK_RESPONSE);
    }
    return kNever;
  }
  std::string block_name() const override { return name(); }

  // The receiving NIC's node, not the packet's own dst field: a route that
  // ejects at the wrong node must show up here.
  void arrived(const Packet& p, unsigned flits, Cycle tail, NodeId at) override {
    arrivals.push_back({p.src, at, flits, p.hops, p.injected, tail, MessageWord::load(p.payload.data()).tag});
  }
  void deliver(const Delivery& d) override {
    arrivals.push_back({d.src, d.dst, 0, d.hops, d.injected, engine_.now(), MessageWord::load(d.payload).tag});
  }

  void run() {
    sc_core::sc_start();
    ASSERT_EQ(engine_.outcome().status, RunOutcome::Status::kCompleted) << engine_.outcome().diagnostic;
    EXPECT_EQ(pool_.live(), 0u);
    EXPECT_EQ(ledger_.delivered, ledger_.injected);
  }

  const HpamGeometry& geo() const { return geo_; }
  std::vector<Arrival> arrivals;

 private:
  PacketPool pool_;
  TrafficLedger ledger_;
  CycleEngine engine_;
  HpamGeometry geo_;
  HpamTopology topo_;
  vc::VcNetwork net_;
  std::vector<std::unique_ptr<HpamNic>> nics_;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<Harness>>> cpu_;
  std::multimap<Cycle, Send> sends_;
};

void every_pair(std::vector<LevelShape> levels) {
  Harness h("h", levels, false);
  const test::PaperMachine paper{levels};
  const NodeId n = h.geo().nodes();
  std::map<std::pair<NodeId, NodeId>, unsigned> want;  // routers on the paper's path
  for (NodeId s = 0; s < n; ++s)
    for (NodeId d = 0; d < n; ++d) {
      if (s == d) continue;
      const unsigned flits = 1 + (s + d) % 4;
      h.plan({1 + (s * 7 + d) % 5, s, d, flits, 0});
      want[{s, d}] = static_cast<unsigned>(paper.walk(h.geo().position(s), h.geo().position(d)).size());
    }
  h.run();
  ASSERT_EQ(h.arrivals.size(), want.size());
  for (const auto& a : h.arrivals) {
    EXPECT_EQ(a.routers, want.at({a.src, a.dst})) << a.src << " -> " << a.dst;
    EXPECT_EQ(a.flits, 1 + (a.src + a.dst) % 4);
    EXPECT_EQ(a.tag, 0x1000u + a.src * 1000u + a.dst);  // the payload travelled with the packet
    want.erase({a.src, a.dst});
  }
  EXPECT_TRUE(want.empty());
}

TEST(HpamNetwork, EveryPairArrivesAlongThePapersPath2x2Over4x8) { every_pair({{2, 2}, {4, 8}}); }
TEST(HpamNetwork, EveryPairArrivesAlongThePapersPathThreeLevels) { every_pair({{1, 1}, {2, 2}, {2, 8}}); }
TEST(HpamNetwork, EveryPairArrivesAlongThePapersPath1x2Over2x4) { every_pair({{1, 2}, {2, 4}}); }

TEST(HpamNetwork, ZeroLoadLatencyIsThePipelineTimesRoutersPlusTheBody) {
  // One packet from the level-1 processor to (3,3)_2 of a 4x4: the paper's path
  // is (0,0)_1 -> (0,3)_2 (eq. 1, f = 4) and three hops south: 5 routers; per
  // router the VC pipeline's 4 stages and a link (docs/vc_router.md), after
  // the injection link, plus the body.
  Harness h("h", {{1, 1}, {4, 4}}, false);
  const NodeId dst = h.geo().node({1, 3, 3});
  h.plan({3, 0, dst, 6, 0});
  h.run();
  ASSERT_EQ(h.arrivals.size(), 1u);
  EXPECT_EQ(h.arrivals[0].routers, 5u);
  EXPECT_EQ(h.arrivals[0].arrived - h.arrivals[0].injected, 1u + 5 * 5 + 6 - 1);
}

NicCosts costs(Cycle fixed) {
  NicCosts c;
  c.send_fixed = c.recv_fixed = fixed;
  c.copy_per_byte = 0.5;
  c.flit_bytes = 8;
  return c;
}

TEST(HpamNic, ASecondMessageWaitsUntilTheFirstHasLeft) {
  // Two 80-byte (10-flit) messages written in the same cycle by one processor:
  // send software 20 + 0.5 x 80 = 60 cycles each. The second's head may leave
  // only after the first's tail has left and its own software has run.
  Harness h("h", {{1, 1}, {2, 2}}, true, costs(20));
  h.plan({1, 0, 1, 0, 80});
  h.plan({1, 0, 4, 0, 80});
  h.run();
  ASSERT_EQ(h.arrivals.size(), 2u);
  const auto& first = h.arrivals[0].dst == 1 ? h.arrivals[0] : h.arrivals[1];
  const auto& second = h.arrivals[0].dst == 1 ? h.arrivals[1] : h.arrivals[0];
  // First: software in cycles 1..60, handed to the VcNic in 61, head out in 62.
  EXPECT_EQ(first.injected, 62u);
  // Its tail leaves at 62 + 9 at the earliest (later if the router's input
  // buffer runs out of credits); the send side sees it the cycle after, runs
  // the second's software for 60 cycles and hands it over; the head leaves
  // the cycle after that. The tail left before it arrived.
  EXPECT_GE(second.injected, first.injected + 9 + 1 + 60 + 1);
  EXPECT_LE(second.injected, first.arrived + 1 + 60 + 1);
}

TEST(HpamNic, ASecondArrivalWaitsForTheReceiveSoftware) {
  // Two processors send one 8-byte message each to (0,0)_2 in the same cycle:
  // the receiving processor handles one at a time, 20 + 4 cycles each.
  Harness h("h", {{1, 1}, {2, 2}}, true, costs(20));
  const NodeId dst = h.geo().node({1, 0, 0});
  h.plan({1, h.geo().node({1, 0, 1}), dst, 0, 8});
  h.plan({1, h.geo().node({1, 1, 0}), dst, 0, 8});
  h.run();
  ASSERT_EQ(h.arrivals.size(), 2u);
  const Cycle a = std::min(h.arrivals[0].arrived, h.arrivals[1].arrived);
  const Cycle b = std::max(h.arrivals[0].arrived, h.arrivals[1].arrived);
  EXPECT_GE(b - a, 24u);  // delivered to the processor one receive-software time apart
}

// Routers on the paper's path from a to b (tests/hpam/paper_path.hpp).
unsigned paper_routers(const std::vector<LevelShape>& levels, const Position& a, const Position& b) {
  return static_cast<unsigned>(test::PaperMachine{levels}.walk(a, b).size());
}

// The zero-load time from a packet's head leaving its NIC to its tail
// arriving: the injection link, 4 pipeline stages and a link per router
// (docs/vc_router.md), then the body (the same sum as the zero-load test above).
Cycle zero_load(unsigned routers, unsigned flits) { return 1 + 5 * routers + flits - 1; }

TEST(HpamNic, SynchronousSendsWaitForTheReceiversAcknowledgement) {
  // As in ASecondMessageWaitsUntilTheFirstHasLeft, two 80-byte messages
  // written in cycle 1, now with the rendezvous protocol: the second one's
  // software may start only once the acknowledgement of the first (one flit,
  // sent by the receiving NIC when its receive software ends) is back.
  const std::vector<LevelShape> levels{{1, 1}, {2, 2}};
  Harness h("h", levels, true, costs(20));
  h.synchronous();
  const Position src{0, 0, 0}, a{1, 0, 0}, b{1, 1, 1};
  h.plan({1, h.geo().node(src), h.geo().node(a), 0, 80});
  h.plan({1, h.geo().node(src), h.geo().node(b), 0, 80});
  h.run();
  ASSERT_EQ(h.arrivals.size(), 2u);  // the acknowledgements never reach the processors
  const auto& first = h.arrivals[0].dst == h.geo().node(a) ? h.arrivals[0] : h.arrivals[1];
  const auto& second = h.arrivals[0].dst == h.geo().node(a) ? h.arrivals[1] : h.arrivals[0];
  const Cycle software = 20 + 40;  // C + 0.5 x 80, on both sides
  // First: software in cycles 1..60, handed over in 61, head out in 62.
  const Cycle head1 = 1 + software + 1;
  EXPECT_EQ(first.injected, head1);
  const Cycle tail1 = head1 + zero_load(paper_routers(levels, src, a), 10);
  // The receiver's software runs after the tail is in; it delivers and
  // acknowledges at its end; the acknowledgement's head leaves the cycle after.
  const Cycle delivered1 = tail1 + software;
  EXPECT_EQ(first.arrived, delivered1);
  const Cycle ack_in = delivered1 + 1 + zero_load(paper_routers(levels, a, src), 1);
  // The send side sees the acknowledgement the cycle after, runs the second
  // message's software and hands it over; its head leaves the cycle after.
  EXPECT_EQ(second.injected, ack_in + 1 + software + 1);
  // Two messages and two acknowledgements, all through the network.
  EXPECT_EQ(h.ledger().injected, 4u);
  EXPECT_EQ(h.nic(h.geo().node(a)).acks_sent() + h.nic(h.geo().node(b)).acks_sent(), 2u);
  EXPECT_EQ(h.nic(h.geo().node(src)).acks_awaited(), 0u);
}

TEST(HpamNic, EagerSendsDoNotWaitForTheReceiver) {
  // The same two messages without the protocol: the second leaves long before
  // the first's receive software has even finished, and no acknowledgement.
  const std::vector<LevelShape> levels{{1, 1}, {2, 2}};
  Harness h("h", levels, true, costs(20));
  const Position src{0, 0, 0}, a{1, 0, 0}, b{1, 1, 1};
  h.plan({1, h.geo().node(src), h.geo().node(a), 0, 80});
  h.plan({1, h.geo().node(src), h.geo().node(b), 0, 80});
  h.run();
  ASSERT_EQ(h.arrivals.size(), 2u);
  const auto& first = h.arrivals[0].dst == h.geo().node(a) ? h.arrivals[0] : h.arrivals[1];
  const auto& second = h.arrivals[0].dst == h.geo().node(a) ? h.arrivals[1] : h.arrivals[0];
  EXPECT_LT(second.injected, first.arrived);
  EXPECT_EQ(h.ledger().injected, 2u);
}

TEST(HpamNic, MessagesOffTheFlitGridTakeTheRoundedUpFlitCount) {
  // 1, 7, 9 and 100 bytes in 8-byte flits are 1, 1, 2 and 13 flits (the last
  // flit partly filled): a NIC that truncated would send 0, 0, 1 and 12. Each
  // message crosses an idle machine alone (sent 1000 cycles apart) with no
  // NIC software, so from its head leaving to its tail arriving it takes the
  // injection link, 5 cycles per router (4 pipeline stages and a link, the
  // last the ejection link) and one cycle per body flit, as in
  // ZeroLoadLatencyIsThePipelineTimesRoutersPlusTheBody above.
  NicCosts none;
  none.flit_bytes = 8;
  Harness h("h", {{1, 1}, {2, 2}}, true, none);
  const std::vector<std::uint64_t> sizes{1, 7, 9, 100};
  for (std::size_t i = 0; i < sizes.size(); ++i) h.plan({1 + 1000 * i, 1, 4, 0, sizes[i]});
  h.run();
  ASSERT_EQ(h.arrivals.size(), sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const auto& a = h.arrivals[i];
    const std::uint64_t flits = (sizes[i] + 7) / 8;
    EXPECT_EQ(a.tag, 0x1000u + 1 * 1000u + 4);
    EXPECT_GE(a.routers, 2u);
    EXPECT_EQ(a.arrived - a.injected, 1u + 5 * a.routers + flits - 1) << sizes[i] << " bytes";
  }
}

}  // namespace
}  // namespace icn::hpam
