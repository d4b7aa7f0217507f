// The single-port NIC and the crossbar, driven through the NICs' TLM sockets:
// the t + m cost of a transfer, the rendezvous (no send before the receive is
// posted) and contention at a processor port, observed cycle by cycle.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "models/engine.hpp"
#include "routers/crossbar/crossbar.hpp"

namespace icn {

namespace {

struct XbarInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<XbarInitiator> socket;
  explicit XbarInitiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
};

struct XbarRecorder : DeliverySink, SendCompletion {
  std::vector<Delivery> got;
  std::vector<Cycle> completed;
  std::vector<std::thread::id> threads;  // of every call, in order
  void deliver(const Delivery& d) override {
    got.push_back(d);
    threads.push_back(std::this_thread::get_id());
  }
  void send_completed(Cycle now) override {
    completed.push_back(now);
    threads.push_back(std::this_thread::get_id());
  }
};

tlm::tlm_response_status transfer(XbarInitiator& i, tlm::tlm_command cmd, std::uint64_t address, std::uint32_t seq) {
  std::uint32_t data[4] = {seq, 2, 3, 4};
  tlm::tlm_generic_payload t;
  IcnExtension ext;
  prepare_message_write(t, ext, address, reinterpret_cast<unsigned char*>(data), sizeof data, seq);
  t.set_command(cmd);
  t.set_extension(&ext);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  i.socket->b_transport(t, delay);
  t.clear_extension(&ext);
  return t.get_response_status();
}

// A processor-phase block that runs fn(now) in the cycles it is woken for.
struct Script : Clocked {
  std::function<void(Cycle)> fn;
  explicit Script(std::function<void(Cycle)> f) : Clocked(Phase::kProcessor), fn(std::move(f)) {}
  Cycle tick(Cycle now) override {
    fn(now);
    return kNever;
  }
  std::string block_name() const override { return "script"; }
};

constexpr Cycle kStartup = 7;
constexpr std::uint32_t kUnits = 5;

CycleEngine::Options with_threads(unsigned threads) {
  CycleEngine::Options o;
  o.threads = threads;
  return o;
}

struct XbarBench {
  UnitPacketPool pool;
  TrafficLedger ledger;
  CycleEngine engine;
  xbar::CrossbarNetwork net;
  std::vector<SinglePortNic*> directory;
  std::vector<std::unique_ptr<SinglePortNic>> nics;
  std::vector<std::unique_ptr<XbarInitiator>> cpus;
  std::vector<XbarRecorder> rec;
  // `prefix` names the modules, so that two benches can share one kernel.
  explicit XbarBench(xbar::CrossbarNetwork::Shape shape = {1, 3, 0}, unsigned threads = 1,
                     const std::string& prefix = "")
      : engine((prefix + "engine").c_str(), with_threads(threads)), net(shape, pool, engine) {
    const NodeId P = shape.modules * shape.module_size;
    directory.resize(P);
    rec.resize(P);
    for (NodeId x = 0; x < P; ++x) {
      nics.push_back(std::make_unique<SinglePortNic>((prefix + "nic" + std::to_string(x)).c_str(),
                                                     SinglePortNic::Params{x, kStartup, kUnits, SinglePortNic::Model::kDuplex},
                                                     pool, ledger, engine, net, directory));
      directory[x] = nics.back().get();
      cpus.push_back(std::make_unique<XbarInitiator>((prefix + "cpu" + std::to_string(x)).c_str()));
      cpus.back()->socket.bind(nics.back()->socket);
      nics.back()->connect_processor(rec[x], rec[x]);
    }
    engine.set_in_flight_probe([this] { return pool.live(); });
  }
};

}  // namespace

// PUs 0 and 1 both send to PU 2, which posted both receives in cycle 1: both
// start-ups run at once, both heads reach the switch together, and the port of
// PU 2 carries one packet after the other: the second tail arrives m cycles
// after the first, and its head waited m cycles (measured on the port's link).
// A send to PU 0 whose receive is posted only in cycle 20 starts then.
TEST(Crossbar, TransfersCostTPlusMAndContendAtAPort) {
  XbarBench b;
  Script script([&](Cycle now) {
    if (now == 1) {
      EXPECT_EQ(transfer(*b.cpus[2], tlm::TLM_READ_COMMAND, 0, 0), tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(transfer(*b.cpus[2], tlm::TLM_READ_COMMAND, 1, 0), tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(transfer(*b.cpus[0], tlm::TLM_WRITE_COMMAND, 2, 0), tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(transfer(*b.cpus[1], tlm::TLM_WRITE_COMMAND, 2, 0), tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(transfer(*b.cpus[2], tlm::TLM_WRITE_COMMAND, 0, 7), tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(transfer(*b.cpus[2], tlm::TLM_WRITE_COMMAND, 0, 8), tlm::TLM_GENERIC_ERROR_RESPONSE);  // one at a time
      EXPECT_EQ(transfer(*b.cpus[2], tlm::TLM_WRITE_COMMAND, 2, 8), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // itself
    }
    if (now == 20) transfer(*b.cpus[0], tlm::TLM_READ_COMMAND, 2, 7);
  });
  b.engine.add(script);
  b.engine.wake(script, 1);
  b.engine.wake(script, 20);
  sc_core::sc_start();
  ASSERT_EQ(b.rec[2].got.size(), 2u);
  EXPECT_EQ(b.rec[2].got[0].arrived, 1 + kStartup + kUnits - 1);  // t + m cycles from cycle 1
  EXPECT_EQ(b.rec[2].got[1].arrived, 1 + kStartup + 2 * kUnits - 1);
  EXPECT_EQ(b.rec[2].got[0].src, 0u);  // input-port order breaks the tie
  ASSERT_EQ(b.rec[0].completed.size(), 1u);
  EXPECT_EQ(b.rec[0].completed[0], b.rec[2].got[0].arrived);  // sender and receiver finish together
  EXPECT_EQ(b.rec[1].completed[0], b.rec[2].got[1].arrived);
  ASSERT_EQ(b.rec[0].got.size(), 1u);
  EXPECT_EQ(b.rec[0].got[0].arrived, 20 + kStartup + kUnits - 1);  // started at the rendezvous
  EXPECT_EQ(b.rec[0].got[0].seq, 7u);
  const auto ports = b.net.ejection_links();
  EXPECT_EQ(ports[2]->wait_cycles, kUnits);
  EXPECT_EQ(ports[2]->busy_cycles, 2 * kUnits);
  EXPECT_EQ(ports[2]->max_queue, 1u);  // the second head waited alone
  EXPECT_EQ(b.ledger.check(b.pool.live()), "");
}

// A posted receive is one rendezvous: PU 2 posts one receive for PU 0's
// packet 0, and PU 0 sends packet 0 twice. The first send takes the receive;
// the second waits for the receive PU 2 posts again in cycle 60 and starts
// then (its start-up and units from cycle 60).
TEST(Crossbar, APostedReceiveServesOneSend) {
  XbarBench b;
  Script script([&](Cycle now) {
    if (now == 1) {
      EXPECT_EQ(transfer(*b.cpus[2], tlm::TLM_READ_COMMAND, 0, 0), tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(transfer(*b.cpus[0], tlm::TLM_WRITE_COMMAND, 2, 0), tlm::TLM_OK_RESPONSE);
    }
    if (now == 30) EXPECT_EQ(transfer(*b.cpus[0], tlm::TLM_WRITE_COMMAND, 2, 0), tlm::TLM_OK_RESPONSE);
    if (now == 60) EXPECT_EQ(transfer(*b.cpus[2], tlm::TLM_READ_COMMAND, 0, 0), tlm::TLM_OK_RESPONSE);
  });
  b.engine.add(script);
  for (Cycle c : {1, 30, 60}) b.engine.wake(script, c);
  sc_core::sc_start();
  ASSERT_EQ(b.rec[2].got.size(), 2u);
  EXPECT_EQ(b.rec[2].got[0].arrived, 1 + kStartup + kUnits - 1);
  EXPECT_EQ(b.rec[2].got[1].arrived, 60 + kStartup + kUnits - 1);  // not 30 + t + m - 1: no receive was left
  ASSERT_EQ(b.rec[0].completed.size(), 2u);
  EXPECT_EQ(b.rec[0].completed[1], b.rec[2].got[1].arrived);
  EXPECT_EQ(b.ledger.check(b.pool.live()), "");
}

// Two worker threads (run.threads) share a 2 x 4 hierarchical crossbar with
// one channel per module: its NICs and its three switches are dealt out
// between the workers, and heads cross from a module switch on one worker to
// the global switch on the other. Every effect on a processor (a delivery, a
// completed send) still reaches it on the simulation thread, after the
// network phase, and in the same cycle as on one thread. Two rounds: each PU
// sends to its neighbour (two packets cross modules), then to PU x + 5 (all
// eight cross, four per channel).
TEST(Crossbar, TwoThreadsReachTheProcessorsOnTheSimulationThreadInTheSameCycles) {
  XbarBench one({2, 4, 1}, 1, "one_"), two({2, 4, 1}, 2, "two_");
  constexpr NodeId P = 8;
  auto program = [](XbarBench& b) {
    return [&b](Cycle now) {
      const std::uint32_t round = now == 1 ? 0 : 1;
      const NodeId step = round == 0 ? 1 : 5;
      for (NodeId x = 0; x < P; ++x)
        EXPECT_EQ(transfer(*b.cpus[x], tlm::TLM_READ_COMMAND, (x + P - step) % P, round), tlm::TLM_OK_RESPONSE);
      for (NodeId x = 0; x < P; ++x)
        EXPECT_EQ(transfer(*b.cpus[x], tlm::TLM_WRITE_COMMAND, (x + step) % P, round), tlm::TLM_OK_RESPONSE)
            << "PU " << x << " round " << round;
    };
  };
  Script s1(program(one)), s2(program(two));
  one.engine.add(s1);
  two.engine.add(s2);
  for (Cycle c : {1, 80}) {
    one.engine.wake(s1, c);
    two.engine.wake(s2, c);
  }
  sc_core::sc_start();
  ASSERT_EQ(two.engine.threads(), 2u);
  bool second_worker = false;
  for (const auto& nic : two.nics) second_worker = second_worker || nic->owner() == 1;
  EXPECT_TRUE(second_worker) << "no NIC ran on the second worker";
  for (NodeId x = 0; x < P; ++x) {
    SCOPED_TRACE("PU " + std::to_string(x));
    ASSERT_EQ(one.rec[x].got.size(), 2u);
    ASSERT_EQ(two.rec[x].got.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(two.rec[x].got[i].src, (x + P - (i == 0 ? 1 : 5)) % P);
      EXPECT_EQ(two.rec[x].got[i].seq, i);
      EXPECT_EQ(two.rec[x].got[i].arrived, one.rec[x].got[i].arrived);
    }
    EXPECT_EQ(two.rec[x].completed, one.rec[x].completed);
    ASSERT_EQ(two.rec[x].threads.size(), 4u);
    for (const auto& id : two.rec[x].threads) EXPECT_EQ(id, std::this_thread::get_id());
  }
  EXPECT_EQ(two.ledger.check(two.pool.live()), "");
}

}  // namespace icn
