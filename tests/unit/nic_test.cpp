// The NIC's processor side is a TLM-2.0 target socket; these tests drive it
// through a real initiator socket and check responses and deliveries.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include <cstring>

#include "models/channel.hpp"
#include "models/engine.hpp"
#include "routers/fattree_packet/packet_nic.hpp"

namespace icn {

namespace {

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
};

struct Sink : DeliverySink {
  std::vector<Delivery> got;
  std::vector<std::vector<std::uint8_t>> bytes;
  void deliver(const Delivery& d) override {
    got.push_back(d);
    bytes.emplace_back(d.payload, d.payload + d.payload_len);
  }
};

// Two NICs joined back to back by a pair of channels, driven from cycle 1.
// `links` is the capacity of each direction (a leaf branch of capacity c_1).
struct Bench {
  PacketPool pool;
  TrafficLedger ledger;
  CycleEngine engine{"engine", {}};
  Channel ab, ba;
  PacketNic a{"a", {0, 2, 1}, pool, ledger};
  PacketNic b{"b", {1, 2, 1}, pool, ledger};
  Initiator ia{"ia"}, ib{"ib"};
  Sink sink_b;
  explicit Bench(unsigned links = 1) : ab("ab", links, 1), ba("ba", links, 1) {
    a.attach(ab, ba);
    b.attach(ba, ab);
    b.set_sink(sink_b);
    ia.socket.bind(a.socket);
    ib.socket.bind(b.socket);
    engine.add(a);
    engine.add(b);
    engine.set_in_flight_probe([this] { return pool.live(); });
  }
};

// A processor-phase block that performs `fn` in cycle 1.
struct Once : Clocked {
  std::function<void()> fn;
  explicit Once(std::function<void()> f) : Clocked(Phase::kProcessor), fn(std::move(f)) {}
  Cycle tick(Cycle) override {
    fn();
    return kNever;
  }
  std::string block_name() const override { return "once"; }
};

tlm::tlm_response_status write(Initiator& i, std::uint64_t address, const std::uint8_t* data, unsigned len,
                               IcnExtension* ext = nullptr, tlm::tlm_command cmd = tlm::TLM_WRITE_COMMAND) {
  tlm::tlm_generic_payload t;
  t.set_command(cmd);
  t.set_address(address);
  t.set_data_ptr(const_cast<std::uint8_t*>(data));
  t.set_data_length(len);
  t.set_streaming_width(len);
  if (ext != nullptr) t.set_extension(ext);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  i.socket->b_transport(t, delay);
  if (ext != nullptr) t.clear_extension(ext);
  return t.get_response_status();
}

}  // namespace

TEST(PacketNic, DeliversPayloadSequenceAndTiming) {
  Bench bench;
  const std::uint8_t data[5] = {1, 2, 3, 4, 5};
  tlm::tlm_response_status status{};
  Once once([&] {
    IcnExtension ext;
    ext.seq = 9;
    status = write(bench.ia, 1, data, 5, &ext);
  });
  bench.engine.add(once);
  bench.engine.wake(once, 1);
  sc_core::sc_start();
  EXPECT_EQ(status, tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(bench.sink_b.got.size(), 1u);
  const Delivery& d = bench.sink_b.got[0];
  EXPECT_EQ(d.src, 0u);
  EXPECT_EQ(d.dst, 1u);
  EXPECT_EQ(d.seq, 9u);
  EXPECT_EQ(d.injected, 1u);
  EXPECT_EQ(d.arrived, 1u);  // one link, sent in cycle 1, arrives at the end of cycle 1
  EXPECT_EQ(bench.sink_b.bytes[0], (std::vector<std::uint8_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(bench.ledger.check(bench.pool.live()), "");
}

TEST(PacketNic, QueuesWhenTheLinkIsBusy) {
  Bench bench;
  const std::uint8_t data[1] = {0};
  Once once([&] {
    for (int i = 0; i < 3; ++i) write(bench.ia, 1, data, 1);
  });
  bench.engine.add(once);
  bench.engine.wake(once, 1);
  sc_core::sc_start();
  ASSERT_EQ(bench.sink_b.got.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(bench.sink_b.got[i].arrived, static_cast<Cycle>(1 + i));
  EXPECT_EQ(bench.a.injection_queue().max_occupancy(), 2u);
}

// On a branch of capacity 3 the NIC starts up to three transfers a cycle:
// seven packets queued in cycle 1 leave as 3 + 3 + 1.
TEST(PacketNic, StartsOneTransferPerFreeLinkEachCycle) {
  Bench bench(3);
  const std::uint8_t data[1] = {0};
  Once once([&] {
    for (int i = 0; i < 7; ++i) write(bench.ia, 1, data, 1);
  });
  bench.engine.add(once);
  bench.engine.wake(once, 1);
  sc_core::sc_start();
  ASSERT_EQ(bench.sink_b.got.size(), 7u);
  const Cycle want[7] = {1, 1, 1, 2, 2, 2, 3};
  for (int i = 0; i < 7; ++i) EXPECT_EQ(bench.sink_b.got[i].arrived, want[i]) << "packet " << i;
  EXPECT_EQ(bench.ab.transfers(), 7u);
}

TEST(PacketNic, RejectsBadTransactionsWithTlmErrors) {
  Bench bench;
  const std::uint8_t big[kMaxPayloadBytes + 1] = {};
  std::vector<tlm::tlm_response_status> got;
  Once once([&] {
    got.push_back(write(bench.ia, 7, big, 1));                          // no such node
    got.push_back(write(bench.ia, 0, big, 1));                          // itself
    got.push_back(write(bench.ia, 1, big, kMaxPayloadBytes + 1));       // too long
    got.push_back(write(bench.ia, 1, big, 1, nullptr, tlm::TLM_READ_COMMAND));
  });
  bench.engine.add(once);
  bench.engine.wake(once, 1);
  sc_core::sc_start();
  EXPECT_EQ(got, (std::vector<tlm::tlm_response_status>{
                     tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                     tlm::TLM_BURST_ERROR_RESPONSE, tlm::TLM_COMMAND_ERROR_RESPONSE}));
  EXPECT_EQ(bench.ledger.injected, 0u);
  EXPECT_TRUE(bench.sink_b.got.empty());
}

}  // namespace icn
