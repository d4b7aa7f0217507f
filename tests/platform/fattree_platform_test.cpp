// FatTreePlatformNetwork (testbench/fattree_platform.hpp): the test's own
// cores send messages across Dimakopoulos & Dimopoulos's packet fat tree.
//
// Expected values from the tree's definition, not from the model: a packet
// between leaves a and b climbs to their lowest common ancestor, at level
// L = the bit length of a XOR b, and comes down again, crossing 2L links of
// one cycle each; alone in the tree it waits for nothing: its first transfer
// takes cycle `injected`, its last ends at the end of cycle injected + 2L - 1,
// the extension's `arrived` (the family's own results count the 2L cycles
// inclusively), and its hop count is 2L. A second tree runs its network phase
// on two worker threads (run.threads=2): its cores must get the same
// deliveries, on the simulation thread.
#include <gtest/gtest.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "nics/icn_extension.hpp"
#include "testbench/fattree_platform.hpp"
#include "testbench/network_builder.hpp"

namespace icn {
namespace {

unsigned lca_level(unsigned a, unsigned b) {
  unsigned level = 0;
  for (unsigned x = a ^ b; x != 0; x >>= 1) ++level;
  return level;
}

struct Send {
  unsigned cycle, dst, flits;
};

struct Received {
  DeliveryExtension ext;
  unsigned to;
  unsigned char first_byte;
  std::thread::id thread;  // that made the delivery call
};

// A core: sends its schedule (a message registered in cycle c is written at
// the edge of cycle c - 1) and records what arrives.
struct Core : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Core> out{"out"};
  tlm_utils::simple_target_socket<Core> in{"in"};
  unsigned node = 0;
  sc_core::sc_time period;
  std::vector<Send> schedule;
  std::vector<tlm::tlm_response_status> statuses;
  std::vector<Received>* received = nullptr;
  std::function<void()> done;
  SC_HAS_PROCESS(Core);
  explicit Core(sc_core::sc_module_name name) : sc_core::sc_module(name) {
    in.register_b_transport(this, &Core::deliver);
    SC_THREAD(send);
  }
  void send() {
    for (const Send& s : schedule) {
      wait(period * (s.cycle - 1) - sc_core::sc_time_stamp());
      unsigned char data[2] = {static_cast<unsigned char>(node), static_cast<unsigned char>(s.dst)};
      tlm::tlm_generic_payload t;
      IcnExtension ext;
      prepare_message_write(t, ext, s.dst, data, sizeof data, 0, false, s.flits);
      t.set_extension(&ext);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      out->b_transport(t, delay);
      t.clear_extension(&ext);
      statuses.push_back(t.get_response_status());
    }
    done();
  }
  void deliver(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    DeliveryExtension* e = nullptr;
    t.get_extension(e);
    received->push_back({*e, node, t.get_data_ptr()[0], std::this_thread::get_id()});
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// A tree of 16 leaves and its 16 cores with the schedule below.
struct CoresOnTree {
  std::unique_ptr<FatTreePlatformNetwork> tree;
  std::vector<std::unique_ptr<Core>> cores;
  std::vector<Received> received;
  unsigned running = 16;

  CoresOnTree(const std::string& name, unsigned threads) {
    tree = std::make_unique<FatTreePlatformNetwork>(
        name.c_str(), NetworkBuilder::fattree_packet(16).set("network.capacities", "ebft").set("run.threads",
                                                                                                  std::to_string(threads)));
    for (unsigned n = 0; n < 16; ++n) {
      cores.push_back(std::make_unique<Core>((name + "_core" + std::to_string(n)).c_str()));
      Core& c = *cores.back();
      c.node = n;
      c.period = tree->period();
      c.received = &received;
      c.done = [this] {
        if (--running == 0) tree->end_of_traffic();
      };
      c.out.bind(tree->port(n).inject);
      tree->port(n).deliver.bind(c.in);
    }
    // Alone in the tree, one at a time, 40 cycles apart: node 3 to every
    // other leaf. Then, from cycle 1000, every leaf to its mirror leaf
    // (n XOR 15, across the root) in the same cycle, four times.
    unsigned cycle = 10;
    for (unsigned d = 0; d < 16; ++d)
      if (d != 3) cores[3]->schedule.push_back({cycle += 40, d, 1});
    for (unsigned n = 0; n < 16; ++n)
      for (unsigned k = 0; k < 4; ++k) cores[n]->schedule.push_back({1000 + 2 * k, n ^ 15u, 1});
    // Refused: a message to itself, two flits, a leaf that does not exist.
    cores[5]->schedule.push_back({1100, 5, 1});
    cores[5]->schedule.push_back({1101, 6, 2});
    cores[5]->schedule.push_back({1102, 16, 1});
  }
};

auto key(const Received& r) {
  return std::make_tuple(r.to, r.ext.src, r.ext.seq, r.ext.created, r.ext.injected, r.ext.arrived, r.ext.hops,
                         r.first_byte);
}

TEST(FatTreePlatform, CoresMessagesCrossTwoLinksPerLevelAndBadWritesAreRefused) {
  CoresOnTree one("tree", 1), two("threaded", 2);
  ASSERT_EQ(one.tree->nodes(), 16u);
  sc_core::sc_start();

  EXPECT_EQ(one.tree->problem(), "");
  const std::vector<Received>& received = one.received;
  ASSERT_EQ(received.size(), 15u + 64u);
  unsigned alone = 0;
  for (const Received& r : received) {
    EXPECT_EQ(r.ext.dst, r.to);
    EXPECT_EQ(r.first_byte, r.ext.src) << "the bytes are the sender's";
    const unsigned links = 2 * lca_level(r.ext.src, r.to);
    EXPECT_EQ(r.ext.hops, links);
    EXPECT_GE(r.ext.arrived - r.ext.injected, links - 1);
    if (r.ext.src == 3 && r.ext.created < 1000) {
      ++alone;
      EXPECT_EQ(r.ext.arrived - r.ext.injected, links - 1) << "alone in the tree, to " << r.to;
      EXPECT_EQ(r.ext.injected, r.ext.created) << "nothing waits in the NIC";
    }
  }
  EXPECT_EQ(alone, 15u);
  const auto& s = one.cores[5]->statuses;
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s[4], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(s[5], tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(s[6], tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(one.tree->summary()["messages"]["delivered"], 79);

  // Two worker threads: the same deliveries, in the same order, each made on
  // the simulation thread (this one), after the network phase.
  EXPECT_EQ(two.tree->problem(), "");
  ASSERT_EQ(two.received.size(), received.size());
  for (std::size_t i = 0; i < received.size(); ++i) {
    EXPECT_EQ(key(two.received[i]), key(received[i])) << "delivery " << i;
    EXPECT_EQ(two.received[i].thread, std::this_thread::get_id()) << "delivery " << i << " to core " << two.received[i].to;
  }
  EXPECT_EQ(two.cores[5]->statuses, s);
  EXPECT_EQ(two.tree->summary(), one.tree->summary());
}

}  // namespace
}  // namespace icn
