// Your own TLM-2.0 cores around icnsim's 8x8 virtual-channel mesh (docs/library.md).
//
//   cmake -S . -B build -DCMAKE_PREFIX_PATH=/where/icnsim/is/installed
//   cmake --build build && build/tlm_traffic_on_a_mesh [RATE] [CYCLES]
//
// Each core is this file's own module: an initiator socket that sends
// messages into its node's port (b_transport, loosely timed) and a target
// socket that receives what arrives. Each core sends a 1- or 4-flit message
// to a random other node with probability RATE per cycle (default 0.02) for
// CYCLES cycles (default 2000), then the cores say they are done and the
// network drains. The cores measure the latency they see; the network's
// own cycles come with each delivered message (icn::DeliveryExtension).
// The schedule is written as an icnsim trace, tlm_traffic.trace, so that
//   icnsim run tlm_traffic.yaml
// replays it on the same network, given as a scenario file:
// tests/install/install_test.sh checks that both report the same packet
// latencies.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include <icnsim/nics/icn_extension.hpp>
#include <icnsim/testbench/network_builder.hpp>
#include <icnsim/testbench/vc_platform.hpp>

struct Send {
  unsigned cycle, dst, flits;
};

struct Totals {
  unsigned long count = 0, sum = 0, min = ~0ul, max = 0, seen_sum = 0;
};

SC_MODULE(Core) {
  tlm_utils::simple_initiator_socket<Core> out{"out"};
  tlm_utils::simple_target_socket<Core> in{"in"};
  std::vector<Send> schedule;
  unsigned node = 0;
  sc_core::sc_time period;
  Totals* totals = nullptr;
  std::function<void()> done;

  SC_CTOR(Core) {
    in.register_b_transport(this, &Core::receive);
    SC_THREAD(run);
  }

  // A message registered in cycle c must reach the NIC before the clock edge
  // of cycle c: it is sent at the edge of cycle c - 1.
  void run() {
    for (const Send& s : schedule) {
      wait(period * (s.cycle - 1) - sc_core::sc_time_stamp());
      unsigned char data[4] = {static_cast<unsigned char>(node), 0, 0, 0};
      tlm::tlm_generic_payload t;
      icn::IcnExtension ext;
      icn::prepare_message_write(t, ext, s.dst, data, sizeof data, 0, false, s.flits);
      t.set_extension(&ext);
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      out->b_transport(t, delay);
      t.clear_extension(&ext);
      if (!t.is_response_ok()) std::cerr << "core " << node << ": " << t.get_response_string() << "\n";
    }
    done();
  }

  void receive(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    icn::DeliveryExtension* d = nullptr;
    t.get_extension(d);
    const unsigned long latency = d->latency();  // created -> tail, in cycles
    totals->count += 1;
    totals->sum += latency;
    totals->min = std::min(totals->min, latency);
    totals->max = std::max(totals->max, latency);
    // What the core itself saw: sent at the edge before `created`, received now.
    totals->seen_sum += static_cast<unsigned long>(sc_core::sc_time_stamp() / period) - (d->created - 1);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

int sc_main(int argc, char* argv[]) {
  const double rate = argc > 1 ? std::atof(argv[1]) : 0.02;
  const unsigned cycles = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 2000;
  // The network, built in code from the scenario keys (icnsim list).
  icn::VcPlatformNetwork mesh("mesh", icn::NetworkBuilder::vc_mesh(8, 2).set("seed", 1).preset("booksim"));
  // The same keys as a scenario file, for the replay below.
  const char* scenario = "seed: 1\nnetwork: {type: vc, topology: mesh, k: 8, n: 2}\npreset: booksim\n";
  const unsigned n = mesh.nodes();

  std::mt19937 rng(7);  // the cores' own traffic, not icnsim's
  std::ofstream trace("tlm_traffic.trace");
  std::vector<std::unique_ptr<Core>> cores;
  Totals totals;
  unsigned running = n;
  for (unsigned c = 0; c < n; ++c) {
    cores.push_back(std::make_unique<Core>(("core" + std::to_string(c)).c_str()));
    Core& core = *cores.back();
    core.node = c;
    core.period = mesh.period();
    core.totals = &totals;
    core.done = [&] { if (--running == 0) mesh.end_of_traffic(); };
    core.out.bind(mesh.port(c).inject);
    mesh.port(c).deliver.bind(core.in);
  }
  for (unsigned cycle = 1; cycle <= cycles; ++cycle)
    for (unsigned c = 0; c < n; ++c)
      if (std::uniform_real_distribution<>(0, 1)(rng) < rate) {
        const unsigned dst = (c + 1 + std::uniform_int_distribution<unsigned>(0, n - 2)(rng)) % n;
        const unsigned flits = rng() % 2 == 0 ? 1 : 4;
        cores[c]->schedule.push_back({cycle, dst, flits});
        trace << cycle << " " << c << " " << dst << " " << flits << "\n";
      }
  trace.close();
  std::ofstream("tlm_traffic.yaml") << scenario << "traffic: {pattern: trace, trace_file: tlm_traffic.trace}\n"
                                    << "measure: {cycles: " << cycles << "}\n";

  sc_core::sc_start();
  const auto summary = mesh.summary();
  std::cout << "8x8 mesh, " << totals.count << " messages: latency mean " << double(totals.sum) / totals.count
            << " min " << totals.min << " max " << totals.max << " cycles (seen by the cores: mean "
            << double(totals.seen_sum) / totals.count << ")\n";
  std::ofstream("tlm_traffic.json") << summary.dump(2) << "\n";
  std::cout.flush();
  const std::string problem = mesh.problem();
  if (!problem.empty()) std::cerr << "tlm_traffic_on_a_mesh: " << problem << "\n";
  std::_Exit(problem.empty() ? 0 : 1);
}
