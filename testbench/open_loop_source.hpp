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

// The write a source hands its NIC. One serves every source of an
// experiment: sources run one after another on the simulation thread (the
// engine's processor phase) and each write completes in b_transport.
struct SourceWrite {
  SourceWrite() { trans.set_extension(&ext); }
  ~SourceWrite() { trans.clear_extension(&ext); }  // ext is ours, not the payload's
  SourceWrite(const SourceWrite&) = delete;
  SourceWrite& operator=(const SourceWrite&) = delete;
  tlm::tlm_generic_payload trans;
  IcnExtension ext;
  unsigned char byte = 0;
};

// Not an sc_module and without a socket of its own: one per node, and a
// 128x128 mesh spent about 900 bytes a node on a module, an initiator socket
// and their registry entries (docs/performance.md). It hands each packet to
// its NIC with a TLM-2.0 write to the NIC's forward interface (connect()):
// the NIC's side, the part that models hardware, is the same as for any
// initiator.
class OpenLoopSource : public Clocked {
 public:
  // `owner` names the experiment that owns the source; `created` is told of
  // every packet made; `write` carries it to the NIC (all three outlive it).
  OpenLoopSource(const char* owner, NodeId node, const DestinationPattern& pattern, const PacketSizes& sizes,
                 InjectionProcess process, std::uint64_t seed, std::vector<TraceEntry> trace,
                 const std::function<void(const IntendedPacket&)>& created, SourceWrite& write);

  // Writes go to `nic` (they complete in b_transport: no backward path).
  void connect(tlm::tlm_fw_transport_if<>& nic) { nic_ = &nic; }
  void start();
  void stop_injecting() { injecting_ = false; }
  Cycle tick(Cycle now) override;
  // "<experiment>.pe<node>", made when a diagnostic asks.
  std::string name() const;
  std::string block_name() const override { return name(); }

 private:
  void send(NodeId dst, unsigned flits, Cycle now);
  Cycle next_bernoulli(Cycle after);
  Cycle advance(Cycle now);  // makes this cycle's packets; returns the next cycle with work

  const char* owner_;
  NodeId node_;
  tlm::tlm_fw_transport_if<>* nic_ = nullptr;
  const DestinationPattern& pattern_;
  const PacketSizes& sizes_;
  InjectionProcess process_;
  Rng rng_;
  std::vector<TraceEntry> trace_;
  std::size_t trace_next_ = 0;
  const std::function<void(const IntendedPacket&)>& created_;
  bool injecting_ = true;
  Cycle next_ = kNever;
  bool on_ = false;
  double on_rate_ = 0;
  std::uint32_t seq_ = 0;
  SourceWrite& write_;
};

}  // namespace icn
