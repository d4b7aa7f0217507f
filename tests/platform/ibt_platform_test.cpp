// The VC family's iBT (network.topology=ibt) through the platform network's
// ports, pair by pair: every ordered pair of distinct nodes of iBT(8^2; <2>)
// and iBT(12^2; <4,8>) sends one message, alone in the network (loosely
// timed, written at the edge before its cycle). Each must arrive at its
// destination's port, from its source, having crossed the routers of the
// route worked out from coordinates (tests/support/ibt_vc_route.hpp), in the
// zero-load formula's cycles over them (docs/vc_router.md; preset=booksim's
// pipeline: 1 + L + R (rd + va + sa + st + L) + P - 1 = 5 R + P + 1).
// Exit 0 and "ibt_platform_test: ok", or 1 and the first failures.
#include <systemc>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "nics/icn_extension.hpp"
#include "testbench/vc_platform.hpp"
#include "tests/support/ibt_vc_route.hpp"

namespace {

int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok && ++failures <= 10) std::printf("ibt_platform_test: FAILED: %s\n", what.c_str());
}

struct Pair {
  unsigned src, dst, flits;
};

SC_MODULE(Driver) {
  tlm_utils::multi_passthrough_initiator_socket<Driver> out{"out"};
  tlm_utils::multi_passthrough_target_socket<Driver> in{"in"};
  icn::test::Shape shape;
  std::vector<Pair> pairs;
  sc_core::sc_time period;
  unsigned spacing = 0, arrived = 0;
  icn::VcPlatformNetwork* net = nullptr;

  SC_CTOR(Driver) {
    in.register_b_transport(this, &Driver::receive);
    SC_THREAD(run);
  }
  void run() {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      wait(period * (static_cast<double>(i * spacing + 1)) - sc_core::sc_time_stamp());  // created in i*spacing + 2
      unsigned char data[4] = {static_cast<unsigned char>(i), static_cast<unsigned char>(i >> 8),
                               static_cast<unsigned char>(i >> 16), 0};
      tlm::tlm_generic_payload t;
      icn::IcnExtension ext;
      icn::prepare_message_write(t, ext, pairs[i].dst, data, sizeof data, static_cast<std::uint32_t>(i), false,
                                 pairs[i].flits);
      t.set_extension(&ext);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      out[pairs[i].src]->b_transport(t, delay);
      t.clear_extension(&ext);
      expect(t.is_response_ok(), "message " + std::to_string(i) + " refused");
    }
    net->end_of_traffic();
  }
  void receive(int node, tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    icn::DeliveryExtension* d = nullptr;
    t.get_extension(d);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    const unsigned char* b = t.get_data_ptr();
    const std::size_t i = b[0] | (b[1] << 8) | (b[2] << 16);
    if (d == nullptr || i >= pairs.size()) return expect(false, "a delivery without its extension or index");
    const Pair& p = pairs[i];
    const unsigned routers = icn::test::expected_routers(p.src, p.dst, shape);
    const std::string what = std::to_string(p.src) + " -> " + std::to_string(p.dst) + " (iBT " +
                             std::to_string(shape.k) + "^" + std::to_string(shape.n) + ")";
    expect(static_cast<unsigned>(node) == p.dst && d->dst == p.dst, what + ": arrived at node " + std::to_string(node));
    expect(d->src == p.src && t.get_address() == p.src && d->seq == i, what + ": wrong sender or sequence number");
    expect(d->created == i * spacing + 2, what + ": created in cycle " + std::to_string(d->created));
    expect(d->hops == routers, what + ": " + std::to_string(d->hops) + " routers, expected " + std::to_string(routers));
    expect(d->latency() == 5 * routers + p.flits + 1,
           what + ": latency " + std::to_string(d->latency()) + ", expected " + std::to_string(5 * routers + p.flits + 1));
    ++arrived;
  }
};

}  // namespace

int sc_main(int, char*[]) {
  const std::vector<icn::test::Shape> shapes{{8, 2, {2}, 2}, {12, 2, {4, 8}, 2}};
  std::vector<std::unique_ptr<icn::Config>> configs;
  std::vector<std::unique_ptr<icn::VcPlatformNetwork>> nets;
  std::vector<std::unique_ptr<Driver>> drivers;
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    const auto& shape = shapes[s];
    std::string bypass;
    for (unsigned b : shape.b) bypass += (bypass.empty() ? "" : ",") + std::to_string(b);
    configs.push_back(std::make_unique<icn::Config>(icn::Config::from_text(
        "seed: 1\npreset: booksim\nnetwork: {type: vc, topology: ibt, k: " + std::to_string(shape.k) +
            ", n: " + std::to_string(shape.n) + ", bypass: [" + bypass + "]}\n",
        "ibt" + std::to_string(s))));
    nets.push_back(std::make_unique<icn::VcPlatformNetwork>(("ibt" + std::to_string(s)).c_str(), *configs.back()));
    drivers.push_back(std::make_unique<Driver>(("driver" + std::to_string(s)).c_str()));
    Driver& d = *drivers.back();
    d.shape = shape, d.net = nets.back().get(), d.period = nets.back()->period(), d.spacing = 80;
    for (unsigned n = 0; n < nets.back()->nodes(); ++n) {
      d.out.bind(nets.back()->port(n).inject);
      nets.back()->port(n).deliver.bind(d.in);
      for (unsigned m = 0; m < nets.back()->nodes(); ++m)
        if (m != n) d.pairs.push_back({n, m, 1 + (n + m) % 4});
    }
  }
  sc_core::sc_start();
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    expect(drivers[s]->arrived == drivers[s]->pairs.size(), "network " + std::to_string(s) + ": " +
                                                              std::to_string(drivers[s]->arrived) + " of " +
                                                              std::to_string(drivers[s]->pairs.size()) + " arrived");
    expect(nets[s]->problem().empty(), "network " + std::to_string(s) + ": " + nets[s]->problem());
  }
  std::printf("ibt_platform_test: %s\n", failures == 0 ? "ok" : "FAILED");
  std::fflush(stdout);
  std::_Exit(failures == 0 ? 0 : 1);
}
