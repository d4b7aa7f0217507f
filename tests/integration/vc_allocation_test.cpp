// The VC router's allocators observed on the links, with expected values
// worked out here from the definitions:
// - the VC allocator never grants a VC outside the routing function's mask:
//   on a dateline ring every flit's VC is in the class the dateline rule
//   gives (computed here from the packet's source and the link it is on);
// - the NIC's injection VC and the switch allocator's VC choice within an
//   input rotate round-robin: several VCs always ready share the grants
//   within one of each other, counted per VC.
#include <gtest/gtest.h>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <map>
#include <memory>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "nics/icn_extension.hpp"
#include "routers/vc/switch_allocator.hpp"
#include "routers/vc/vc_network.hpp"
#include "routers/vc/vc_topology.hpp"

namespace icn::vc {
namespace {

// A ring or line of VC routers with one TLM initiator per node that writes
// planned packets at planned cycles, and a probe that reads every router
// output link every cycle.
class Ring : public sc_core::sc_module, public Clocked, public ArrivalSink {
 public:
  // How the initiator hands the write over: b_transport, nb_transport_fw
  // at BEGIN_REQ, or nb_transport_fw in a phase a write cannot start with.
  enum class Call { kBlocking, kNonBlocking, kWrongPhase };
  struct Send {
    NodeId src, dst;
    unsigned flits;
    Call call = Call::kBlocking;
  };
  // Called for every flit on router r's output port p in cycle `now`.
  using Watch = std::function<void(unsigned r, unsigned p, const Flit& f, const Packet& packet)>;

  Ring(sc_core::sc_module_name name, TopologyKind kind, unsigned k, unsigned vcs, unsigned depth, bool dateline)
      : sc_module(name),
        Clocked(Phase::kProcessor),
        engine_("engine", CycleEngine::Options{}),
        topo_(kind, k, 1, vcs, dateline),
        net_("net", topo_, params(vcs, depth), engine_, pool_, ledger_) {
    engine_.set_in_flight_probe([this] { return pool_.live(); });
    engine_.add(*this);
    for (NodeId n = 0; n < topo_.nodes(); ++n) {
      cpu_.push_back(std::make_unique<tlm_utils::simple_initiator_socket<Ring>>(("cpu" + std::to_string(n)).c_str()));
      cpu_.back()->bind(net_.nic(n).socket());
      net_.nic(n).set_sink(*this);
    }
  }

  void plan(Cycle at, const Send& s) {
    sends_.insert({at, s});
    engine_.wake(*this, at);
  }
  void watch(Watch w) { watch_ = std::move(w); }

  Cycle tick(Cycle now) override {
    auto [lo, hi] = sends_.equal_range(now);
    for (auto it = lo; it != hi; ++it) {
      const Send& s = it->second;
      unsigned char byte = 0;
      tlm::tlm_generic_payload trans;
      IcnExtension ext;
      trans.set_extension(&ext);
      prepare_message_write(trans, ext, s.dst, &byte, 1, 0, false, s.flits);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      if (s.call == Call::kBlocking) {
        (*cpu_[s.src])->b_transport(trans, delay);
      } else {
        tlm::tlm_phase phase = s.call == Call::kNonBlocking ? tlm::BEGIN_REQ : tlm::END_REQ;
        EXPECT_EQ((*cpu_[s.src])->nb_transport_fw(trans, phase, delay), tlm::TLM_COMPLETED);
        if (s.call == Call::kNonBlocking) EXPECT_EQ(phase, tlm::END_RESP);
      }
      trans.clear_extension(&ext);
      if (s.call == Call::kWrongPhase) {
        EXPECT_EQ(trans.get_response_status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
        ++refused;
      } else {
        EXPECT_EQ(trans.get_response_status(), tlm::TLM_OK_RESPONSE);
      }
    }
    // The rows of cycle `now` were written in earlier cycles: read them all.
    for (unsigned r = 0; r < topo_.routers(); ++r)
      for (unsigned p = 0; p < topo_.ports(r); ++p)
        net_.flit_link(r, p).peek(now, [&](const Flit& f) {
          if (watch_) watch_(r, p, f, pool_[f.packet]);
        });
    injected_flits_per_vc_.resize(topo_.nodes());
    for (NodeId n = 0; n < topo_.nodes(); ++n) {
      injected_flits_per_vc_[n].resize(topo_.vcs());
      net_.nic(n).inject_link()->peek(now, [&](const Flit& f) { ++injected_flits_per_vc_[n][f.vc]; });
    }
    const bool more = pool_.live() != 0 || sends_.upper_bound(now) != sends_.end();
    return more ? now + 1 : kNever;
  }
  std::string block_name() const override { return name(); }

  void arrived(const Packet&, unsigned flits, Cycle, NodeId) override { arrived_flits += flits; }

  void run() {
    sc_core::sc_start();
    ASSERT_EQ(engine_.outcome().status, RunOutcome::Status::kCompleted) << engine_.outcome().diagnostic;
    EXPECT_EQ(pool_.live(), 0u);
    EXPECT_EQ(ledger_.delivered, ledger_.injected);
  }

  const MeshTorusTopology& topology() const { return topo_; }
  VcNetwork& network() { return net_; }
  std::uint64_t arrived_flits = 0;
  std::uint64_t refused = 0;  // writes the NIC answered with an error
  std::vector<std::vector<std::uint64_t>> injected_flits_per_vc_;

 private:
  static NetworkParams params(unsigned vcs, unsigned depth) {
    NetworkParams p;
    p.router.vcs = vcs;
    p.router.buffer_depth = depth;
    return p;
  }
  PacketPool pool_;
  TrafficLedger ledger_;
  CycleEngine engine_;
  MeshTorusTopology topo_;
  VcNetwork net_;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<Ring>>> cpu_;
  std::multimap<Cycle, Send> sends_;
  Watch watch_;
};

}  // namespace

TEST(VcAllocation, EveryFlitOnADatelineRingTravelsInItsDatelineClass) {
  // 8 routers, 4 VCs: VCs 0-1 before the wrap link, 2-3 on and after it (the
  // dateline rule of docs/vc_router.md). Every node sends a 4-flit packet to
  // every other node, all at once, through 1-flit buffers: VCs are scarce, so
  // an allocator that took any free VC would put packets in the wrong class.
  const unsigned k = 8;
  Ring ring("ring", TopologyKind::kTorus, k, 4, 1, true);
  for (NodeId s = 0; s < k; ++s)
    for (NodeId d = 0; d < k; ++d)
      if (s != d) ring.plan(1 + (s + d) % 3, {s, d, 4});
  std::uint64_t checked = 0, upper = 0;
  ring.watch([&](unsigned r, unsigned p, const Flit& f, const Packet& packet) {
    const std::string dir = ring.topology().port_name(r, p);
    if (dir != "x+" && dir != "x-") return;  // ejection: any VC
    // Routers visited so far s, s+-1, ..., r, then the link to r+-1: has the
    // path taken (or is this) the wrap link between k-1 and 0?
    const unsigned s = packet.src;
    const bool crossed = dir == "x+" ? (r < s || r == k - 1) : (r > s || r == 0);
    ++checked;
    if (crossed) ++upper;
    EXPECT_EQ(f.vc >= 2, crossed) << "flit of packet " << s << " -> " << packet.dst << " on r" << r << " " << dir
                                  << " on VC " << int(f.vc);
  });
  ring.run();
  EXPECT_EQ(ring.arrived_flits, k * (k - 1) * 4u);
  EXPECT_GT(upper, 0u);  // both classes were exercised
  EXPECT_GT(checked - upper, 0u);
}

TEST(VcAllocation, TheNicRotatesItsInjectionVcRoundRobin) {
  // Node 0 of a 2-router line queues 40 one-flit packets for node 1 in one
  // cycle; with 4 VCs and buffers deep enough that no VC runs out of credits,
  // each new packet takes the next VC: 10 packets on each.
  Ring line("line", TopologyKind::kMesh, 2, 4, 64, false);
  for (int i = 0; i < 40; ++i) line.plan(1, {0, 1, 1});
  line.run();
  ASSERT_EQ(line.injected_flits_per_vc_[0].size(), 4u);
  for (unsigned v = 0; v < 4; ++v) EXPECT_EQ(line.injected_flits_per_vc_[0][v], 10u) << "VC " << v;
}

TEST(VcAllocation, TheNicTakesANonBlockingWriteAtBeginReqAndRefusesOtherPhases) {
  // The NIC's socket completes a write in nb_transport_fw (TLM_COMPLETED,
  // END_RESP): the packet travels like a b_transport one. A write that does
  // not start at BEGIN_REQ is refused and injects nothing.
  Ring line("line", TopologyKind::kMesh, 3, 2, 4, false);
  line.plan(1, {0, 2, 3, Ring::Call::kNonBlocking});
  line.plan(2, {2, 0, 2, Ring::Call::kBlocking});
  line.plan(3, {1, 0, 5, Ring::Call::kWrongPhase});
  line.run();
  EXPECT_EQ(line.arrived_flits, 5u);
  EXPECT_EQ(line.refused, 1u);
}

TEST(VcAllocation, TheNicMakesOneSocketAChildOfTheModuleThatAskedForIt) {
  // A NIC is not a module: an initiator that binds with a socket asks for
  // one while its module is being built (the Ring did, for every node), and
  // every later call returns that socket, bound to the NIC's forward interface.
  Ring line("line", TopologyKind::kMesh, 2, 2, 4, false);
  VcNic& nic = line.network().nic(1);
  tlm::tlm_target_socket<>& socket = nic.socket();
  EXPECT_EQ(&nic.socket(), &socket);
  EXPECT_EQ(socket.get_parent_object(), &line);
  EXPECT_EQ(&socket.get_base_interface(), &nic.target());
  EXPECT_NE(&line.network().nic(0).socket(), &socket);
  EXPECT_EQ(nic.name(), "line.net.nic1");
}

TEST(VcAllocation, TheSwitchAllocatorSharesAnInputAmongItsReadyVcsRoundRobin) {
  // One input port whose 4 VCs are always ready for the same output, and two
  // inputs that always want one output: over 400 cycles each VC of the input
  // wins 100 times, each input 200 (within one: the bound of round-robin).
  SwitchAllocator sa;
  sa.resize(3, 4);
  std::array<std::uint64_t, 4> per_vc{};
  std::array<std::uint64_t, 3> per_port{};
  int grant[3];
  for (int cycle = 0; cycle < 400; ++cycle) {
    const std::uint64_t ready[3] = {0b1111, 0, 0b0001};
    sa.run(ready, [](unsigned p, int) { return p == 0 ? 1u : 2u; }, grant);
    ASSERT_GE(grant[0], 0);
    ++per_vc[static_cast<unsigned>(grant[0])];
  }
  for (unsigned v = 0; v < 4; ++v) EXPECT_NEAR(double(per_vc[v]), 100.0, 1.0) << "VC " << v;
  for (int cycle = 0; cycle < 400; ++cycle) {
    const std::uint64_t ready[3] = {0b0001, 0, 0b0001};
    sa.run(ready, [](unsigned, int) { return 1u; }, grant);
    for (unsigned p = 0; p < 3; ++p)
      if (grant[p] >= 0) ++per_port[p];
  }
  EXPECT_NEAR(double(per_port[0]), 200.0, 1.0);
  EXPECT_NEAR(double(per_port[2]), 200.0, 1.0);
  EXPECT_EQ(per_port[1], 0u);
}

}  // namespace icn::vc
