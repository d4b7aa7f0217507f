// OpenLoopSource: the processing element of an open-loop experiment. It
// creates packets by a Bernoulli or on/off process (or replays a trace) and
// hands each to its NIC with a TLM-2.0 write; it never waits for the network.
#pragma once

#include <systemc>
#include <tlm>

#include <functional>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/rng.hpp"
#include "nics/icn_extension.hpp"
#include "testbench/synthetic_traffic.hpp"

namespace icn {

struct InjectionProcess {
  enum class Kind { kBernoulli, kOnOff };
  Kind kind = Kind::kBernoulli;
  double packet_rate = 0;  // packets per cycle (average)
  double alpha = 0, beta = 0;  // on/off: P(off -> on), P(on -> off) per cycle
};

// What a source meant to send, told to the testbench when the packet is made
// and kept there, apart from the packet in flight: the verdict compares the
// node that received a packet with this record, not with the packet's own
// destination field, which the network may have carried wrongly.
struct IntendedPacket {
  NodeId src = 0;
  NodeId dst = 0;
  std::uint32_t seq = 0;  // the source's own count of packets made
  unsigned flits = 0;
  Cycle created = 0;
};

// A plain initiator socket bound to the source itself (the NIC never calls
// back): one per node, so it stays small.
class OpenLoopSource : public sc_core::sc_module, public Clocked, public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_initiator_socket<> socket;

  // `created` is told of every packet made.
  OpenLoopSource(sc_core::sc_module_name name, NodeId node, const DestinationPattern& pattern,
                 const PacketSizes& sizes, InjectionProcess process, std::uint64_t seed,
                 std::vector<TraceEntry> trace, std::function<void(const IntendedPacket&)> created);

  ~OpenLoopSource() override { trans_.clear_extension(&ext_); }  // ext_ is ours, not the payload's

  void start();
  void stop_injecting() { injecting_ = false; }
  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name(); }

 private:
  // tlm_bw_transport_if: writes complete in b_transport, so nothing comes back.
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
    return tlm::TLM_COMPLETED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  void send(NodeId dst, unsigned flits, Cycle now);
  Cycle next_bernoulli(Cycle after);
  Cycle advance(Cycle now);  // makes this cycle's packets; returns the next cycle with work

  NodeId node_;
  const DestinationPattern& pattern_;
  const PacketSizes& sizes_;
  InjectionProcess process_;
  Rng rng_;
  std::vector<TraceEntry> trace_;
  std::size_t trace_next_ = 0;
  std::function<void(const IntendedPacket&)> created_;
  bool injecting_ = true;
  Cycle next_ = kNever;
  bool on_ = false;
  double on_rate_ = 0;
  std::uint32_t seq_ = 0;
  tlm::tlm_generic_payload trans_;
  IcnExtension ext_;
  unsigned char byte_ = 0;
};

}  // namespace icn
