// BitSerialFatTree: Ishii's bit-serial binary fat tree elaborated as SystemC
// modules: one BitSerialSwitch per internal node, one BitSerialNic per
// processor, and per branch four BitChannels as wide as its capacity: the paths
// up and their reverse (acknowledge) wires, the paths down and theirs.
//
// Timing, fixed by the hardware (one clock per link, one clock per switch for
// removing a routing bit), measured in clocks from the start of a delivery
// cycle, when the NICs drive M:
//   an up-going stream shows M at a level-l switch at clock 2l - 1 and its
//   routing bit at 2l (the NIC's link, then two clocks per switch);
//   streams turning at the root decide there at clock 2H, and a descending
//   stream decides at each level two clocks after the level above it did.
// Each switch is given the clock at which its trunk streams decide
// (down_decision); it holds turning streams until then. The delivery cycle ends
// once the last acknowledge can be home: see delivery_cycle_length().
#pragma once

#include <systemc>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/fat_tree.hpp"
#include "models/ledger.hpp"
#include "models/trace.hpp"
#include "models/wiring_fault.hpp"
#include "routers/fattree_bitserial/bit_channel.hpp"
#include "routers/fattree_bitserial/bit_serial_nic.hpp"
#include "routers/fattree_bitserial/bit_serial_switch.hpp"
#include "routers/fattree_bitserial/delivery_cycle.hpp"
#include "routers/fattree_bitserial/route_stream_generator.hpp"
#include "routers/fattree_bitserial/stream_follower.hpp"

namespace icn::bitserial {

struct BitSerialOptions {
  Arbitration arbitration = Arbitration::kRandom;
  BufferFill buffer_fill = BufferFill::kZero;
  std::uint64_t seed = 1;
  // Makes each NIC's stream generators; default: the behavioural generator.
  std::function<std::unique_ptr<RouteStreamGenerator>(NodeId node)> make_generator;
  EjectionSwap swap;  // a wiring fault: two leaves' down paths crossed (network.swap_ejection)
  // Ishii 2.1's answer to synchronisation (network.sync_scheme): picks the
  // default generator, the switches' turning behaviour, and for flushing adds
  // a flush wire beside every down path.
  SyncScheme scheme = SyncScheme::kMidstream;
};

// Statistics of level l (1..H): the branch between levels l-1 and l and the level-l switches.
struct BitSerialLevelStats {
  unsigned level = 0;
  unsigned capacity = 0;
  std::uint64_t bits_up = 0, bits_down = 0;  // stream bits driven on the branch's paths
  std::uint64_t requests_up = 0, requests_down = 0;  // at the level-l switches' outputs
  std::uint64_t denials_up = 0, denials_down = 0;
  std::uint64_t ignored_bits = 0;  // buffering bits dropped by streams held at level-l switches
  // What synchronisation costs at this level (sync_scheme.hpp), from the parts:
  std::uint64_t storage_bits = 0;        // memory elements per level-l switch (TurnStore cells)
  unsigned peak_stored_bits = 0;         // the most bits one path's register held
  unsigned flush_wires = 0;              // flush wires driven per level-l switch
  unsigned stream_buffering_bits = 0;    // the most buffering bits a stream turning here carried
  std::uint64_t flushed = 0;             // turning streams flushed at level-l switches
  std::uint64_t flushed_lost = 0;        // flushes reaching a level-l switch that had denied the stream
  std::uint64_t late_requests = 0, late_denials = 0;  // the synchronisation check (ConcentratorSwitch)
};

// What the level-l switches and the branch below them did (issue 23,
// docs/energy.md, "The bit-serial fat tree"): the switches' counters summed,
// and the wires of the branch (both directions) with the bits they carried.
struct BitSerialLevelActivity {
  unsigned level = 0;
  unsigned capacity = 0;
  std::uint64_t switches = 0;
  unsigned paths = 0;  // input (= output) paths of one switch: 2 c_l + c_(l+1), the root 2 c_H
  RouterActivity activity;
  std::uint64_t ack_bits_switched = 0;  // acknowledge bits the switches passed back (in activity.crossbar)
  std::uint64_t data_wires = 0, ack_wires = 0, flush_wires = 0;
  std::uint64_t bits_up = 0, bits_down = 0, ack_bits = 0, flush_bits = 0;
};

class BitSerialFatTree : public sc_core::sc_module {
 public:
  BitSerialFatTree(sc_core::sc_module_name name, const FatTreeShape& shape, BitSerialOptions options,
                   CycleEngine& engine, TrafficLedger& ledger);

  const FatTreeShape& shape() const { return shape_; }
  const DeliveryCycleClock& clock() const { return clock_; }
  BitSerialNic& nic(NodeId node) { return *nics_[node]; }
  const BitSerialNic& nic(NodeId node) const { return *nics_[node]; }
  BitSerialSwitch& node(unsigned level, unsigned index) { return *switches_.at(level).at(index); }
  unsigned switches() const { return shape_.leaves() - 1; }

  // Clock of a delivery cycle at which the level-l switches see the routing
  // bits of streams coming down their trunk (and release held streams).
  Cycle down_decision(unsigned level) const { return down_decision_[level]; }
  // Clock at which the level-l switches see the routing bits of up-going
  // streams (a turning stream's turning bit, for every scheme but prefix).
  static Cycle up_decision(unsigned height, unsigned level);
  // Clocks per delivery cycle (see the .cpp for how it is sized).
  static Cycle delivery_cycle_length(unsigned height);

  std::vector<BitSerialLevelStats> level_stats() const;
  const std::vector<DeliveryCycleCounts>& delivery_cycle_counts() const { return counts_; }
  // Totals over all switches and NICs.
  SwitchStats switch_totals() const;
  // Activity per level, read when the results are written (bit_serial_activity.cpp).
  std::vector<BitSerialLevelActivity> activity() const;
  // Streams the NICs started (retries included) and messages they received.
  std::uint64_t streams_started() const;
  std::uint64_t messages_received() const;

  // Waveforms: per path valid+bit and acknowledge, per switch output path its
  // setting, grouped by level: <prefix>.level<l>.<block>.<port>.p<k>.{valid,bit,ack,...}
  using sc_core::sc_object::trace;  // sc_object's trace(sc_trace_file*) stays visible beside ours
  void trace(WaveformTracer& tracer, const std::string& prefix) const;
  // A GTKWave save file for the signals trace() adds, grouped by level.
  std::string gtkwave_save_file(const std::string& prefix, const std::string& vcd_path) const;

  // outputs.trace_packet: follow these messages (ids of the run's message
  // set) stream by stream; call before trace(), which then adds a save file
  // FILE.packet<ID>.gtkw per message (stream_trace.cpp).
  void follow(const std::vector<StreamFollower::Message>& messages);
  const StreamFollower* follower() const { return follower_.get(); }

  // Every branch as (level, child name, up channel, up ack, down channel, down ack).
  struct Branch {
    unsigned level;
    std::string child;   // "nic3" or "s1_2"
    std::string parent;  // "s2_1"
    unsigned side;       // the parent's branch port: 0 or 1
    BitChannel* up;
    BitChannel* up_ack;
    BitChannel* down;
    BitChannel* down_ack;
    BitChannel* down_flush;  // flush scheme only, else nullptr
  };
  const std::vector<Branch>& branches() const { return branches_; }
  // The channel (or acknowledge wire) with this name, e.g. "s2_1.down0.ack"; nullptr if none.
  BitChannel* channel(const std::string& name);
  // Where injected faults made streams or acknowledges vanish, e.g.
  // "nic3.up.p0 (stuck at 0): 12 stream(s)", "s1_1.up.ack (cut): 3
  // acknowledge(s)"; "" if nothing vanished.
  std::string where_streams_vanish() const;
  // What the failed channel (or acknowledge wire) `name` was asked to carry,
  // counted by the one block that drives it: streams a switch routed to it or
  // a NIC started on it, or acknowledges a block had to send back on it.
  std::uint64_t failed_link_requests(const std::string& name) const;

 private:
  BitChannel& make_channel(const std::string& name, unsigned width);
  // The rows of a save-file group titled `title`: the traced signals named
  // (in that order), labelled as the tree's own save file labels them.
  std::string save_rows(const std::string& prefix, const std::string& title, const std::vector<std::string>& names) const;
  std::string packet_save_file(const WaveformTracer& tracer, const std::string& prefix, std::uint32_t id) const;
  // The traced name of path `path` of channel `c` (prefix.level<l>.<block>.<port>.p<k>).
  std::string path_scope(const std::string& prefix, const BitChannel* c, unsigned path) const;

  FatTreeShape shape_;
  DeliveryCycleClock clock_;
  std::vector<Cycle> down_decision_;
  std::vector<DeliveryCycleCounts> counts_;
  std::vector<std::unique_ptr<BitSerialNic>> nics_;
  std::vector<std::vector<std::unique_ptr<BitSerialSwitch>>> switches_;  // [level][index], level >= 1
  std::deque<BitChannel> channels_;
  std::vector<Branch> branches_;
  std::unique_ptr<StreamFollower> follower_;
};

}  // namespace icn::bitserial
