// The platform network's sockets (nics/platform_port.hpp, testbench/vc_platform.hpp)
// driven by test cores of this file, in one process (SystemC elaborates once):
// two 4x4 meshes built from the same keys carry the same schedule, one with
// loosely-timed cores (b_transport both ways), one with approximately-timed
// cores (the AT base protocol's four phases both ways, the delivering
// target answering a clock later through the backward path). Checked: every
// message arrives once, at its destination, with its bytes; both meshes give
// every message the same cycles; a core sees the latency the extension
// reports plus the one cycle between sending and its NIC's clock edge; bad
// writes are refused with the response status the port documents; a write
// whose annotated delay puts it exactly on a clock edge waits for the next;
// a mesh on two worker threads (run.threads=2) gives the cores the same.
// Exit 0 and "platform_test: ok", or 1 and what failed.
#include <systemc>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "models/config.hpp"
#include "nics/icn_extension.hpp"
#include "testbench/vc_platform.hpp"

namespace {

int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("platform_test: FAILED: %s\n", what.c_str());
    ++failures;
  }
}

struct Send {
  unsigned cycle, src, dst, flits, tag;
};
// (message id) -> (src, dst, tag, created, arrived), and what the core saw.
struct Log {
  std::map<std::uint32_t, std::tuple<unsigned, unsigned, unsigned, icn::Cycle, icn::Cycle>> got;
  unsigned wrong = 0, seen_mismatch = 0, completed = 0;
};

class Mm : public tlm::tlm_mm_interface {
 public:
  tlm::tlm_generic_payload* get() {
    auto* p = new tlm::tlm_generic_payload(this);
    p->acquire();
    return p;
  }
  void free(tlm::tlm_generic_payload* p) override { delete p; }
};

SC_MODULE(Core) {
  tlm_utils::simple_initiator_socket<Core> out{"out"};
  tlm_utils::simple_target_socket<Core> in{"in"};
  bool at = false;
  unsigned node = 0;
  sc_core::sc_time period;
  std::vector<Send> schedule;
  Log* log = nullptr;
  std::function<void()> done;
  Mm mm;
  sc_core::sc_event responded;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> later{"later"};

  SC_CTOR(Core) {
    in.register_b_transport(this, &Core::receive_lt);
    in.register_nb_transport_fw(this, &Core::receive_at);
    out.register_nb_transport_bw(this, &Core::response);
    SC_THREAD(run);
    SC_THREAD(respond);
  }
  void run() {
    for (const Send& s : schedule) {
      // Every other message is written a clock early with the clock as its
      // annotated delay: its time is then exactly the edge of cycle - 1, and
      // it must still be created in `cycle` (strictly after), whatever the
      // order of this thread and the engine at that edge.
      const bool annotated = s.tag % 2 == 1 && s.cycle >= 2;
      wait(period * (s.cycle - (annotated ? 2 : 1)) - sc_core::sc_time_stamp());
      unsigned char data[8] = {static_cast<unsigned char>(s.src), static_cast<unsigned char>(s.tag),
                               static_cast<unsigned char>(s.tag >> 8), 0xa5, 1, 2, 3, 4};
      tlm::tlm_generic_payload* t = mm.get();
      icn::IcnExtension ext;
      icn::prepare_message_write(*t, ext, s.dst, data, sizeof data, s.tag, false, s.flits);
      t->set_extension(&ext);
      sc_core::sc_time delay = annotated ? period : sc_core::SC_ZERO_TIME;
      if (!at) {
        out->b_transport(*t, delay);
      } else {
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        const tlm::tlm_sync_enum r = out->nb_transport_fw(*t, phase, delay);
        if (r != tlm::TLM_COMPLETED) wait(responded);  // BEGIN_RESP on the backward path
      }
      expect(t->is_response_ok(), "core " + std::to_string(node) + ": " + t->get_response_string());
      t->clear_extension(&ext);
      t->release();
    }
    done();
  }
  tlm::tlm_sync_enum response(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_core::sc_time&) {
    expect(phase == tlm::BEGIN_RESP || phase == tlm::END_REQ, "injection: unexpected backward phase");
    if (phase == tlm::BEGIN_RESP) {
      responded.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_COMPLETED;  // END_RESP implied
    }
    return tlm::TLM_ACCEPTED;
  }
  void record(tlm::tlm_generic_payload& t) {
    icn::DeliveryExtension* d = nullptr;
    t.get_extension(d);
    const unsigned char* b = t.get_data_ptr();
    const unsigned tag = b[1] | (b[2] << 8);
    if (d == nullptr || d->dst != node || t.get_address() != b[0] || t.get_data_length() != 8 || b[3] != 0xa5) {
      ++log->wrong;
      return;
    }
    expect(log->got.count(d->message) == 0, "message " + std::to_string(d->message) + " delivered twice");
    log->got[d->message] = {d->src, d->dst, tag, d->created, d->arrived};
    const icn::Cycle now = static_cast<icn::Cycle>(sc_core::sc_time_stamp() / period);
    if (now - (d->created - 1) != d->latency() + 1) ++log->seen_mismatch;
  }
  void receive_lt(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    record(t);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  tlm::tlm_sync_enum receive_at(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::BEGIN_REQ) {
      record(t);
      later.notify(t, period);  // BEGIN_RESP a clock later, on the backward path
      return tlm::TLM_ACCEPTED;
    }
    expect(phase == tlm::END_RESP, "delivery: unexpected forward phase");
    ++log->completed;
    return tlm::TLM_COMPLETED;
  }
  void respond() {
    for (;;) {
      wait(later.get_event());
      while (tlm::tlm_generic_payload* t = later.get_next_transaction()) {
        t->set_response_status(tlm::TLM_OK_RESPONSE);
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        if (in->nb_transport_bw(*t, phase, delay) == tlm::TLM_COMPLETED) ++log->completed;
      }
    }
  }
};

tlm::tlm_response_status write(icn::PlatformPort& port, tlm::tlm_command cmd, std::uint64_t dst, unsigned bytes,
                               unsigned flits) {
  std::vector<unsigned char> data(bytes, 0);
  tlm::tlm_generic_payload t;
  icn::IcnExtension ext;
  icn::prepare_message_write(t, ext, dst, data.data(), bytes, 0, false, flits);
  t.set_command(cmd);
  t.set_extension(&ext);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  port.inject.get_base_export()->b_transport(t, delay);  // as a bound initiator would
  t.clear_extension(&ext);
  return t.get_response_status();
}

}  // namespace

int sc_main(int, char*[]) {
  const char* keys = "seed: 3\nnetwork: {type: vc, topology: mesh, k: 4, n: 2}\npreset: booksim\n";
  icn::Config lt_cfg = icn::Config::from_text(keys, "lt"), at_cfg = icn::Config::from_text(keys, "at");
  icn::VcPlatformNetwork lt("lt", lt_cfg, icn::DeliveryProtocol::kLooselyTimed);
  icn::VcPlatformNetwork at("at", at_cfg, icn::DeliveryProtocol::kApproximatelyTimed);
  // A third mesh whose ejection links of nodes 5 and 6 are crossed (a wiring fault).
  icn::Config swapped_cfg = icn::Config::from_text(keys, "swapped");
  swapped_cfg.apply_override("network.swap_ejection=[5,6]");
  icn::VcPlatformNetwork swapped("swapped", swapped_cfg, icn::DeliveryProtocol::kLooselyTimed);
  // A fourth whose network phase runs on two worker threads (run.threads):
  // deliveries are committed on the simulation thread, so the cores must see
  // exactly what the one-thread mesh's cores see.
  icn::Config threaded_cfg = icn::Config::from_text(keys, "threaded");
  threaded_cfg.apply_override("run.threads=2");
  icn::VcPlatformNetwork threaded("threaded", threaded_cfg, icn::DeliveryProtocol::kLooselyTimed);
  const unsigned n = lt.nodes();

  // Bad writes, refused before anything is queued (the run must stay empty of them).
  expect(write(lt.port(0), tlm::TLM_WRITE_COMMAND, n, 8, 1) == tlm::TLM_ADDRESS_ERROR_RESPONSE, "address n accepted");
  expect(write(lt.port(0), tlm::TLM_READ_COMMAND, 1, 8, 1) == tlm::TLM_COMMAND_ERROR_RESPONSE, "a read accepted");
  expect(write(lt.port(0), tlm::TLM_WRITE_COMMAND, 1, 17, 1) == tlm::TLM_BURST_ERROR_RESPONSE, "17 bytes accepted");
  expect(write(lt.port(0), tlm::TLM_WRITE_COMMAND, 1, 8, 0) == tlm::TLM_GENERIC_ERROR_RESPONSE, "0 flits accepted");

  std::vector<Send> sends;
  std::uint32_t x = 12345;  // the test's own generator
  auto next = [&x] { return x = x * 1103515245u + 12345u, (x >> 16) & 0x7fff; };
  for (unsigned cycle = 1; cycle <= 400; ++cycle)
    for (unsigned s = 0; s < n; ++s)
      if (next() % 100 < 6) sends.push_back({cycle, s, (s + 1 + next() % (n - 1)) % n, next() % 2 ? 1u : 5u,
                                             static_cast<unsigned>(sends.size())});
  Log logs[4];
  std::vector<std::unique_ptr<Core>> cores;
  unsigned running[4] = {n, n, n, n};
  icn::VcPlatformNetwork* nets[4] = {&lt, &at, &swapped, &threaded};
  for (int k = 0; k < 4; ++k)
    for (unsigned c = 0; c < n; ++c) {
      cores.push_back(std::make_unique<Core>((std::string(nets[k]->name()) + "_core" + std::to_string(c)).c_str()));
      Core& core = *cores.back();
      core.at = k == 1;
      core.node = c;
      core.period = nets[k]->period();
      core.log = &logs[k];
      core.done = [&running, k, net = nets[k]] { if (--running[k] == 0) net->end_of_traffic(); };
      for (const Send& s : sends)
        if (s.src == c) core.schedule.push_back(s);
      core.out.bind(nets[k]->port(c).inject);
      nets[k]->port(c).deliver.bind(core.in);
    }
  sc_core::sc_start();

  for (int k = 0; k < 2; ++k) {  // the healthy meshes
    const std::string which = k ? "AT" : "LT";
    expect(nets[k]->problem().empty(), which + ": " + nets[k]->problem());
    expect(logs[k].wrong == 0, which + ": " + std::to_string(logs[k].wrong) + " messages arrived wrong");
    expect(logs[k].got.size() == sends.size(), which + ": " + std::to_string(logs[k].got.size()) + " of " +
                                                   std::to_string(sends.size()) + " messages arrived");
    expect(logs[k].seen_mismatch == 0, which + ": a core saw another latency than the extension's plus one");
    unsigned matched = 0;
    for (const auto& [id, got] : logs[k].got) {
      const auto& [src, dst, tag, created, arrived] = got;
      const Send& s = sends.at(tag);
      matched += src == s.src && dst == s.dst && created == s.cycle && arrived > created;
    }
    expect(matched == sends.size(), which + ": " + std::to_string(sends.size() - matched) + " messages not as sent");
  }
  expect(logs[0].got == logs[1].got, "LT and AT cores saw different cycles");
  // The crossed links: the run says where the first message went astray,
  // and the cores' own records show messages for 5 and 6 at the other one.
  const std::string astray = swapped.problem();
  expect(astray.find(" arrived at node ") != std::string::npos &&
             (astray.find("to node 5 arrived at node 6") != std::string::npos ||
              astray.find("to node 6 arrived at node 5") != std::string::npos),
         "swapped ejection: the problem should name the crossed nodes: '" + astray + "'");
  unsigned crossed = 0;
  for (const auto& [id, got] : logs[2].got) {
    const Send& s = sends.at(std::get<2>(got));
    crossed += (s.dst == 5 && std::get<1>(got) == 6) || (s.dst == 6 && std::get<1>(got) == 5);
  }
  unsigned meant = 0;
  for (const Send& s : sends) meant += s.dst == 5 || s.dst == 6;
  expect(meant > 0 && crossed == meant, "swapped ejection: " + std::to_string(crossed) + " of " +
                                            std::to_string(meant) + " messages for 5 and 6 arrived at the other");
  expect(logs[1].completed == sends.size(), "AT: " + std::to_string(logs[1].completed) + " deliveries completed");
  expect(lt.summary()["latency"] == at.summary()["latency"], "LT and AT summaries differ");
  expect(threaded.problem().empty(), "two threads: " + threaded.problem());
  expect(logs[3].got == logs[0].got && logs[3].wrong == 0, "two threads: the cores saw other messages or cycles");
  expect(lt.summary() == threaded.summary(), "one and two threads: summaries differ");
  if (failures == 0) std::printf("platform_test: ok, %zu messages on each mesh\n", sends.size());
  std::fflush(stdout);
  std::_Exit(failures == 0 ? 0 : 1);
}
