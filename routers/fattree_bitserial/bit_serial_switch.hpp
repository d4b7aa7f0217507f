// BitSerialSwitch: a three-port node of Ishii's bit-serial fat tree (1985,
// sections 2 and 4): trunk, branch 0 and branch 1, each a bundle of physical
// paths in both directions, plus one reverse (acknowledge) wire per path.
//
// Every input path runs a small state machine (InputPath):
//   idle       until a 1 arrives: the message bit M (a stream starts)
//   routing    the next bit is this switch's routing bit; it picks the exit port
//              (scheme 1) and is removed: in its clock the switch drives M on the
//              granted output path, so M stays at the head of the stream
//   held       a stream turning here (branch to branch) before the streams from
//              the trunk arrive: its bits are ignored - they are the buffering
//              bits - until the clock at which trunk streams present their
//              routing bits (mid-stream buffering, section 2.1.4); then it
//              competes for its output together with them
//   connected  a shift-register cell: each bit read goes out on the output
//              path in the same clock, seen downstream one clock later
//   lost       denied by a concentrator: its bits are ignored for the rest of
//              the delivery cycle
//
// One clock (tick):
//   1. reverse wires: an acknowledge bit arriving on an output path goes back
//      out on the reverse wire of the input path connected to it;
//   2. every data bit arriving on an input path advances that path's machine;
//      routing bits become requests to the ConcentratorSwitch of their output;
//   3. at the down-decision clock, held streams add their requests;
//   4. each ConcentratorSwitch with requests grants them onto free paths (M is
//      driven on each granted path) or denies them (lost, counted here).
// At the first clock of a delivery cycle every setting is cleared.
//
// The switch knows two clocks of its level, both fixed by the hardware's timing
// (one clock per link plus one per routing-bit removal, see BitSerialFatTree):
// when trunk streams present their routing bits (`down_decision`), and so how
// long turning streams are held.
//
// The synchronisation scheme (sync_scheme.hpp, Ishii 2.1) changes what happens
// to a turning stream:
//   midstream  held as above, its buffering bits ignored;
//   store      held, its bits stored in the TurnStore's shift register for its
//              path, then shifted out `store_depth` clocks late once granted;
//   prefix     not held: it asks for its output when its turning bit arrives;
//   flush      not held either; a stream from the trunk that finds its branch
//              output full flushes a turning stream from it (the
//              concentrator's flushable path): the turning stream is lost,
//              the trunk stream takes its path, and the switch raises the
//              path's flush wire, which makes every block downstream drop the
//              flushed stream and free what it held (2.1.1's condition: the
//              low-priority stream must not have set its paths for good).
#pragma once

#include <systemc>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "models/activity.hpp"
#include "models/engine.hpp"
#include "routers/fattree_bitserial/bit_channel.hpp"
#include "routers/fattree_bitserial/concentrator_switch.hpp"
#include "routers/fattree_bitserial/delivery_cycle.hpp"
#include "routers/fattree_bitserial/routing_bits.hpp"
#include "routers/fattree_bitserial/stream_follower.hpp"
#include "routers/fattree_bitserial/sync_scheme.hpp"
#include "routers/fattree_bitserial/turn_store.hpp"

namespace icn::bitserial {

// What one turning stream did at its turning switch (for tests and diagnostics).
struct TurnRecord {
  std::uint64_t delivery_cycle = 0;
  unsigned level = 0;
  unsigned index = 0;
  unsigned in_port = 0;
  unsigned in_path = 0;
  unsigned ignored = 0;        // bits ignored while held
  unsigned first_ignored = 0;  // position of the first, counted from M (0) as seen here
  bool granted = false;
};

struct SwitchStats {
  std::uint64_t requests_up = 0, requests_down = 0;
  std::uint64_t denials_up = 0, denials_down = 0;
  std::uint64_t ignored_bits = 0;  // buffering bits dropped by held streams
  std::uint64_t misrouted = 0;     // routing bit pointing at a port that does not exist
  std::uint64_t stray_acks = 0;    // acknowledge on an unconnected path
  std::uint64_t flushed = 0;       // turning streams flushed by a trunk stream (flush scheme)
  std::uint64_t flush_relayed = 0; // flushes passed on downstream (flush scheme)
  std::uint64_t flushed_lost = 0;  // flushes of a stream this switch had already denied

  SwitchStats& operator+=(const SwitchStats& x) {
    flushed += x.flushed;
    flush_relayed += x.flush_relayed;
    flushed_lost += x.flushed_lost;
    requests_up += x.requests_up;
    requests_down += x.requests_down;
    denials_up += x.denials_up;
    denials_down += x.denials_down;
    ignored_bits += x.ignored_bits;
    misrouted += x.misrouted;
    stray_acks += x.stray_acks;
    return *this;
  }
};

class BitSerialSwitch : public sc_core::sc_module, public Clocked {
 public:
  struct Params {
    unsigned level = 1;
    unsigned index = 0;
    Cycle down_decision = 0;  // delivery-cycle clock at which trunk streams show their routing bits
    Arbitration policy = Arbitration::kRandom;
    std::uint64_t seed = 1;
    std::string rng_name;  // stable component name for the arbiter's random stream
    SyncScheme scheme = SyncScheme::kMidstream;
    unsigned store_depth = 0;  // store: clocks a turning stream waits here (down decision - its turning bit)
  };

  BitSerialSwitch(sc_core::sc_module_name name, Params params, const DeliveryCycleClock& clock);

  // Wires a port: `in` carries streams toward this switch and `in_ack` is its
  // reverse wire (driven here); `out` carries streams away and `out_ack` is its
  // reverse wire (read here). The root has no trunk.
  void connect(unsigned port, BitChannel& in, BitChannel& in_ack, BitChannel& out, BitChannel& out_ack);
  // Flush scheme: the flush wires of a branch port's output paths (driven
  // here), and those of the trunk's input paths (read here).
  void connect_flush(unsigned branch, BitChannel& out_flush);
  void connect_trunk_flush(BitChannel& in_flush);

  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name(); }

  unsigned level() const { return params_.level; }
  unsigned index() const { return params_.index; }
  Cycle down_decision() const { return params_.down_decision; }
  bool has_port(unsigned port) const { return out_[port] != nullptr; }
  const BitChannel* input(unsigned port) const { return in_[port]; }
  const BitChannel* output(unsigned port) const { return out_[port]; }
  const ConcentratorSwitch& concentrator(unsigned port) const { return *concentrators_[port]; }
  const SwitchStats& stats() const { return stats_; }
  // What the hardware did (issue 23, docs/energy.md, "The bit-serial fat
  // tree"): bits latched by the input paths and shifted out through the
  // setting, acknowledge bits passed back, concentrator decisions, clocks.
  const RouterActivity& activity() const { return activity_; }
  std::uint64_t ack_bits_switched() const { return ack_bits_switched_; }
  // What the synchronisation scheme costs in this switch, counted from its
  // parts: memory elements (the TurnStore's cells), flush wires driven, and
  // the most bits one path's shift register held.
  std::uint64_t storage_bits() const { return store_ ? store_->storage_bits() : 0; }
  unsigned peak_stored_bits() const { return store_ ? store_->peak_bits() : 0; }
  unsigned flush_wires() const;
  // The synchronisation check over this switch's output ports (ConcentratorSwitch).
  std::uint64_t late_requests() const;
  std::uint64_t late_denials() const;
  // What this switch asked of `channel`, one it drives, while it was failed:
  // streams whose routing bit chose it (an output), or acknowledges to send
  // back on it (an input's reverse wire). 0 for a channel it does not drive.
  std::uint64_t failed_requests(const BitChannel& channel) const;

  // Setting of an output path after the last evaluated clock: 0 unconnected,
  // else 1 + the input port driving it. For waveforms.
  unsigned output_source_port(unsigned port, unsigned path, Cycle t) const;
  unsigned output_source_path(unsigned port, unsigned path, Cycle t) const;
  // State of an input path (InputPath::Kind) after clock t. For waveforms.
  unsigned input_state(unsigned port, unsigned path, Cycle t) const;

  // Records every turning stream into `log` (tests); nullptr stops recording.
  void record_turns(std::vector<TurnRecord>* log) { turn_log_ = log; }
  // outputs.trace_packet: report grants and denials of followed streams to it.
  void set_follower(StreamFollower* follower) { follower_ = follower; }

 private:
  struct InputPath {
    enum Kind : std::uint8_t { kIdle, kRouting, kRequesting, kHeld, kConnected, kLost };
    std::uint8_t kind = kIdle;
    std::uint8_t out_port = 0;
    std::uint16_t seen = 0;           // bits of the stream read here, M included
    std::uint16_t ignored = 0;
    std::uint16_t first_ignored = 0;
    std::uint32_t out_path = 0;
  };

  void start_delivery_cycle(std::uint64_t index);
  void on_bit(unsigned port, unsigned path, bool bit, Cycle now, Cycle phase);
  void grant(PathRef input, unsigned out_port, unsigned out_path, Cycle now);
  // A bit leaves through the switch's setting onto an output path.
  void drive_out(unsigned out_port, unsigned out_path, bool bit, Cycle now) {
    ++activity_.buffer_reads;
    ++activity_.crossbar;
    out_[out_port]->drive(now, out_path, bit);
  }
  void deny(PathRef input, unsigned out_port, Cycle now);
  void log_turn(PathRef input, bool granted);
  void arbitrate(unsigned port, Cycle now);
  void receive_port(unsigned port, Cycle now, Cycle phase);
  bool stored(unsigned port, const InputPath& p) const { return store_ && port != kTrunk && p.out_port != kTrunk; }
  void shift_out_stored(Cycle now);
  bool flush_for(PathRef input, unsigned port, Cycle now);
  void receive_flushes(Cycle now);
  bool current(Cycle t) const { return clock_.index(t) == delivery_cycle_; }

  Params params_;
  const DeliveryCycleClock& clock_;
  DeliveryCycleClock::Cursor cursor_;
  std::array<BitChannel*, kPorts> in_{};
  std::array<BitChannel*, kPorts> in_ack_{};
  std::array<BitChannel*, kPorts> out_{};
  std::array<BitChannel*, kPorts> out_ack_{};
  std::array<std::vector<InputPath>, kPorts> inputs_;
  std::array<std::unique_ptr<ConcentratorSwitch>, kPorts> concentrators_;
  std::vector<PathRef> touched_;  // input paths to clear at the next delivery cycle
  std::vector<PathRef> held_;
  std::vector<PathRef> turned_now_;
  std::uint64_t delivery_cycle_ = ~std::uint64_t{0};
  SwitchStats stats_;
  RouterActivity activity_;
  std::uint64_t ack_bits_switched_ = 0;
  std::array<std::uint64_t, kPorts> failed_streams_{};  // per output: streams routed to it while failed
  std::array<std::uint64_t, kPorts> failed_acks_{};     // per input: acknowledges for its failed reverse wire
  std::vector<TurnRecord>* turn_log_ = nullptr;
  StreamFollower* follower_ = nullptr;
  std::unique_ptr<TurnStore> store_;       // store scheme, below the root
  std::vector<PathRef> shifting_out_;      // store: connected paths whose register still holds bits
  std::array<BitChannel*, kPorts> out_flush_{};  // flush scheme: per branch output
  BitChannel* in_flush_ = nullptr;               // flush scheme: the trunk's input paths
};

}  // namespace icn::bitserial
