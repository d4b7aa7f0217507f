// A Verilog block of your own in front of icnsim's NICs (docs/library.md):
// per node of an 8x8 VC mesh one traffic_lfsr (traffic_lfsr.sv, verilated
// by this example's CMake as a SystemC module) on the network's clock, and a
// small SystemC adapter that writes what it offers into the node's port.
//
//   cmake -S . -B build -DCMAKE_PREFIX_PATH=/where/icnsim/is/installed
//   cmake --build build && build/verilog_traffic_source [CYCLES]
//
// The adapter samples the block's outputs at the falling edge (the rising
// edge has updated them), so a message offered after rising edge c - 1 is
// written at time (c - 0.5) x period and created in cycle c. It prints what
// was sent and delivered and writes the schedule as an icnsim trace
// (verilog_traffic.trace, replayed by `icnsim run verilog_traffic.yaml`).
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include <icnsim/nics/icn_extension.hpp>
#include <icnsim/testbench/vc_platform.hpp>

#include "Vtraffic_lfsr.h"

SC_MODULE(Adapter) {
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_signal<bool> send{"send"}, is_long{"is_long"};
  sc_core::sc_signal<std::uint32_t> dst{"dst"};  // Verilator gives ports up to 32 bits as uint32_t
  tlm_utils::simple_initiator_socket<Adapter> out{"out"};
  tlm_utils::simple_target_socket<Adapter> in{"in"};
  unsigned node = 0, sent = 0, received = 0, cycles = 0;
  sc_core::sc_time period;
  std::ofstream* trace = nullptr;
  unsigned long* latency_sum = nullptr;

  SC_CTOR(Adapter) {
    in.register_b_transport(this, &Adapter::receive);
    SC_METHOD(sample);
    sensitive << clk.neg();
    dont_initialize();
  }
  void sample() {
    const unsigned cycle = static_cast<unsigned>(sc_core::sc_time_stamp() / period) + 1;  // created in
    if (cycle > cycles || !send.read() || dst.read() == node) return;
    unsigned char data[2] = {static_cast<unsigned char>(node), static_cast<unsigned char>(sent)};
    tlm::tlm_generic_payload t;
    icn::IcnExtension ext;
    const unsigned flits = is_long.read() ? 4 : 1;
    icn::prepare_message_write(t, ext, dst.read(), data, sizeof data, sent, false, flits);
    t.set_extension(&ext);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    out->b_transport(t, delay);  // never waits: fine from a method
    t.clear_extension(&ext);
    if (!t.is_response_ok()) std::cerr << "node " << node << ": " << t.get_response_string() << "\n";
    *trace << cycle << " " << node << " " << dst.read() << " " << flits << "\n";
    ++sent;
  }
  void receive(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    icn::DeliveryExtension* d = nullptr;
    t.get_extension(d);
    ++received;
    *latency_sum += d->latency();
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

int sc_main(int argc, char* argv[]) {
  const unsigned cycles = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 2000;
  const char* scenario = "seed: 1\nnetwork: {type: vc, topology: mesh, k: 8, n: 2}\npreset: booksim\n";
  icn::Config cfg = icn::Config::from_text(scenario, "verilog_traffic_source");
  icn::VcPlatformNetwork mesh("mesh", cfg);
  sc_core::sc_clock clk("clk", mesh.period());  // rising edges at 0, 1, 2 ... periods
  sc_core::sc_signal<bool> rst_n{"rst_n"};
  std::ofstream trace("verilog_traffic.trace");
  unsigned long latency_sum = 0;
  std::vector<std::unique_ptr<Vtraffic_lfsr>> blocks;
  std::vector<std::unique_ptr<sc_core::sc_signal<std::uint32_t>>> seeds;
  std::vector<std::unique_ptr<Adapter>> adapters;
  for (unsigned n = 0; n < mesh.nodes(); ++n) {
    blocks.push_back(std::make_unique<Vtraffic_lfsr>(("lfsr" + std::to_string(n)).c_str()));
    adapters.push_back(std::make_unique<Adapter>(("adapter" + std::to_string(n)).c_str()));
    seeds.push_back(std::make_unique<sc_core::sc_signal<std::uint32_t>>(("seed" + std::to_string(n)).c_str()));
    seeds.back()->write((0xACE1u + 977u * n) & 0xffffu);  // non-zero for every node
    Vtraffic_lfsr& b = *blocks.back();
    Adapter& a = *adapters.back();
    b.clk_i(clk);
    b.rst_ni(rst_n);
    b.seed_i(*seeds.back());
    b.send_o(a.send);
    b.dst_o(a.dst);
    b.long_o(a.is_long);
    a.clk(clk);
    a.node = n;
    a.cycles = cycles;
    a.period = mesh.period();
    a.trace = &trace;
    a.latency_sum = &latency_sum;
    a.out.bind(mesh.port(n).inject);
    mesh.port(n).deliver.bind(a.in);
  }
  sc_core::sc_start(mesh.period() / 4);  // in reset: every LFSR holds its seed
  rst_n.write(true);
  sc_core::sc_start(mesh.period() * (cycles + 1) - sc_core::sc_time_stamp());
  mesh.end_of_traffic();
  sc_core::sc_start(mesh.period() * 100000);  // the network drains, the clock runs on
  trace.close();
  std::ofstream("verilog_traffic.yaml") << scenario << "traffic: {pattern: trace, trace_file: verilog_traffic.trace}\n"
                                        << "measure: {cycles: " << cycles << "}\n";
  unsigned sent = 0, received = 0;
  for (const auto& a : adapters) sent += a->sent, received += a->received;
  std::cout << "8x8 mesh, Verilog sources: " << sent << " sent, " << received << " delivered, mean latency "
            << double(latency_sum) / received << " cycles\n";
  std::ofstream("verilog_traffic.json") << mesh.summary().dump(2) << "\n";
  std::cout.flush();
  const std::string problem = mesh.problem();
  if (!problem.empty()) std::cerr << "verilog_traffic_source: " << problem << "\n";
  std::_Exit(problem.empty() && sent == received ? 0 : 1);
}
