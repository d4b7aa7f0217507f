// Two SystemC cores of your own exchanging messages over icnsim's interlaced
// bypass torus iBT(8^2; <2>), approximately timed both ways (docs/library.md).
//
//   cmake -S . -B build -DCMAKE_PREFIX_PATH=/where/icnsim/is/installed
//   cmake --build build && build/two_cores_over_ibt [ROUNDS]
//
// Ping-pong: the ping core (node 0) sends a request to the pong core (node 27,
// (3,3)), which answers at once; the next request leaves when the response is
// in. Both send with the AT base protocol (BEGIN_REQ, BEGIN_RESP back,
// END_RESP; payloads from their own memory manager), receive on an AT target
// and check each message against its DeliveryExtension. The messages are
// written as a trace that `icnsim run two_cores.yaml` replays (install test).
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <systemc>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tuple>
#include <vector>

#include <icnsim/nics/icn_extension.hpp>
#include <icnsim/testbench/vc_platform.hpp>

struct Pool : tlm::tlm_mm_interface {  // the cores' memory manager
  std::vector<tlm::tlm_generic_payload*> free_list;
  tlm::tlm_generic_payload* get() {
    tlm::tlm_generic_payload* p = free_list.empty() ? new tlm::tlm_generic_payload(this) : free_list.back();
    if (!free_list.empty()) free_list.pop_back();
    p->acquire();
    return p;
  }
  void free(tlm::tlm_generic_payload* p) override { p->reset(); free_list.push_back(p); }
};

SC_MODULE(Core) {
  tlm_utils::simple_initiator_socket<Core> out{"out"};
  tlm_utils::simple_target_socket<Core> in{"in"};
  unsigned node = 0, peer = 0, rounds = 0;
  bool ping = false;
  sc_core::sc_time period;
  std::ofstream* trace = nullptr;
  std::function<void()> done;
  Pool pool;
  sc_core::sc_event got_message, got_response;
  unsigned received = 0;  // messages so far
  icn::DeliveryExtension last;  // the last message received, as the network delivered it
  unsigned long sent_cycle = 0;  // the cycle this core's last message was created in
  Core* other = nullptr;         // the peer core (to check what it sent)
  unsigned long round_trips = 0;  // ping: their sum

  SC_CTOR(Core) {
    out.register_nb_transport_bw(this, &Core::backward);
    in.register_nb_transport_fw(this, &Core::forward);
    SC_THREAD(run);
  }
  unsigned long now() const { return static_cast<unsigned long>(sc_core::sc_time_stamp() / period); }

  // AT on the inject side: BEGIN_REQ, wait for BEGIN_RESP, then END_RESP.
  void send(unsigned round, unsigned flits) {
    tlm::tlm_generic_payload* t = pool.get();
    unsigned char data[4] = {static_cast<unsigned char>(node), static_cast<unsigned char>(round), 0, 0};
    icn::IcnExtension ext;
    icn::prepare_message_write(*t, ext, peer, data, sizeof data, round, false, flits);
    t->set_extension(&ext);
    sent_cycle = now() + 1;  // the NIC registers it at the next clock edge
    *trace << sent_cycle << ' ' << node << ' ' << peer << ' ' << flits << '\n';
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (out->nb_transport_fw(*t, phase, delay) != tlm::TLM_COMPLETED) {
      wait(got_response);  // BEGIN_RESP on the backward path
      phase = tlm::END_RESP;
      delay = sc_core::SC_ZERO_TIME;
      out->nb_transport_fw(*t, phase, delay);
    }
    if (!t->is_response_ok()) fail(std::string("refused: ") + t->get_response_string());
    t->clear_extension(&ext);
    t->release();
  }
  tlm::tlm_sync_enum backward(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::BEGIN_RESP) got_response.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_ACCEPTED;
  }
  // AT on the receive side: take the message at BEGIN_REQ, answer BEGIN_RESP.
  tlm::tlm_sync_enum forward(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
    icn::DeliveryExtension* d = nullptr;
    t.get_extension(d);
    const unsigned char* b = t.get_data_ptr();
    if (d == nullptr || d->src != peer || d->dst != node || t.get_address() != peer || b[0] != peer ||
        b[1] != static_cast<unsigned char>(received) || d->seq != received || d->arrived != now() ||
        d->created != other->sent_cycle || d->flits != (ping ? 4u : 1 + received % 4))
      fail("message " + std::to_string(received) + " is not what " + std::to_string(peer) + " sent");
    last = *d;
    ++received;
    got_message.notify(sc_core::SC_ZERO_TIME);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    phase = tlm::BEGIN_RESP;
    return tlm::TLM_UPDATED;
  }
  void fail(const std::string& why) { std::cerr << "core " << node << ": " << why << "\n", std::_Exit(1); }
  void run() {
    for (unsigned r = 0; r < rounds; ++r) {
      if (ping) {
        const unsigned long start = now();
        send(r, 1 + r % 4);
        while (received <= r) wait(got_message);
        std::cout << "round " << r << ": " << node << " -> " << peer << " " << other->last.latency()
                  << " cycles over " << other->last.hops << " routers, " << peer << " -> " << node << " "
                  << last.latency() << " cycles over " << last.hops << " routers, round trip " << now() - start
                  << " cycles\n";
        round_trips += now() - start;
      } else {
        while (received <= r) wait(got_message);
        send(r, 4);
      }
    }
    done();
  }
};

SC_MODULE(Nobody) {  // the other 62 nodes' sockets: they send nothing, nothing may arrive there
  tlm_utils::multi_passthrough_initiator_socket<Nobody> out{"out"};
  tlm_utils::multi_passthrough_target_socket<Nobody> in{"in"};
  SC_CTOR(Nobody) { in.register_nb_transport_fw(this, &Nobody::forward); }
  tlm::tlm_sync_enum forward(int, tlm::tlm_generic_payload& t, tlm::tlm_phase&, sc_core::sc_time&) {
    std::cerr << "a message arrived at a node without a core (from " << t.get_address() << ")\n";
    std::_Exit(1);
  }
};

int sc_main(int argc, char* argv[]) {
  const unsigned rounds = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 20;
  const char* scenario = "seed: 1\nnetwork: {type: vc, topology: ibt, k: 8, n: 2, bypass: [2]}\npreset: booksim\n";
  icn::Config cfg = icn::Config::from_text(scenario, "two_cores_over_ibt");
  icn::VcPlatformNetwork ibt("ibt", cfg, icn::DeliveryProtocol::kApproximatelyTimed);
  std::ofstream trace("two_cores.trace");
  Core a("ping"), b("pong");
  Nobody nobody("nobody");
  for (unsigned n = 0; n < ibt.nodes(); ++n)
    if (n != 0 && n != 27) nobody.out.bind(ibt.port(n).inject), ibt.port(n).deliver.bind(nobody.in);
  unsigned running = 2;
  for (auto [core, other, node, peer] : {std::tuple{&a, &b, 0u, 27u}, std::tuple{&b, &a, 27u, 0u}}) {
    core->node = node, core->peer = peer, core->other = other, core->ping = core == &a;
    core->rounds = rounds, core->period = ibt.period(), core->trace = &trace;
    core->done = [&] { if (--running == 0) ibt.end_of_traffic(); };
    core->out.bind(ibt.port(node).inject);
    ibt.port(node).deliver.bind(core->in);
  }
  sc_core::sc_start();
  trace.close();
  std::ofstream("two_cores.yaml") << scenario << "traffic: {pattern: trace, trace_file: two_cores.trace}\n"
                                 << "measure: {cycles: " << b.sent_cycle /* the last message */ << "}\n";
  std::ofstream("two_cores.json") << ibt.summary().dump(2) << "\n";
  std::cout << "iBT(8^2; <2>), " << a.received + b.received << " messages: round trip mean "
            << double(a.round_trips) / rounds << " cycles\n";
  std::cout.flush();  // std::_Exit below does not flush
  const std::string problem = ibt.problem();
  if (!problem.empty()) std::cerr << "two_cores_over_ibt: " << problem << "\n";
  std::_Exit(problem.empty() && a.received == rounds && b.received == rounds ? 0 : 1);
}
