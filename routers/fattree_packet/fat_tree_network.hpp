// FatTreeNetwork: a packet-switched binary fat tree, elaborated as SystemC
// modules: one FatTreeRouter per routing node, one PacketNic per leaf, and two
// Channels (one per direction) per branch, each as wide as the branch capacity.
#pragma once

#include <systemc>

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/channel.hpp"
#include "models/engine.hpp"
#include "models/fat_tree.hpp"
#include "models/ledger.hpp"
#include "models/link_address.hpp"
#include "models/packet.hpp"
#include "models/trace.hpp"
#include "models/wiring_fault.hpp"
#include "routers/fattree_packet/fat_tree_router.hpp"
#include "routers/fattree_packet/packet_follower.hpp"
#include "routers/fattree_packet/packet_nic.hpp"

namespace icn::fattree {

// Statistics of one level l (1..h): the branch between levels l-1 and l, and the
// output queues of the level-l routing nodes.
struct LevelStats {
  unsigned level = 0;
  unsigned capacity = 0;            // c_l
  std::uint64_t links = 0;          // physical links per direction in the branch level
  std::uint64_t transfers_up = 0;   // packets that crossed toward the root
  std::uint64_t transfers_down = 0;
  double utilisation_up = 0;        // transfers / (links * cycles)
  double utilisation_down = 0;
  std::size_t max_queue_up = 0;     // largest up-port FIFO of a level-l node (0 at the root)
  std::size_t max_queue_down = 0;   // largest down-port FIFO of a level-l node
};

// What the hardware of one level l (1..h) did: its routers' activity counters
// and the flits the branch below them (between levels l-1 and l) carried; at
// level 1 the flits up are the NICs' injections, the flits down their ejections.
struct LevelActivity {
  unsigned level = 0;
  std::uint64_t routers = 0;
  unsigned ports = 0;          // physical links of one router: 2 c_l + c_(l+1) (the root: 2 c_h)
  RouterActivity activity;     // summed over the level's routers
  std::uint64_t links = 0;     // physical links of branch level l, both directions
  std::uint64_t flits_up = 0;  // toward the root
  std::uint64_t flits_down = 0;
};

class FatTreeNetwork : public sc_core::sc_module {
 public:
  FatTreeNetwork(sc_core::sc_module_name name, const FatTreeShape& shape, unsigned link_latency,
                 CycleEngine& engine, PacketPool& pool, TrafficLedger& ledger, const EjectionSwap& swap = {});

  const FatTreeShape& shape() const { return shape_; }
  PacketNic& nic(NodeId leaf) { return *nics_[leaf]; }
  FatTreeRouter& router(unsigned level, unsigned index);

  // The channel named like "r2_1.up", "r1_0.down1" or "nic3.up" (the direction
  // leaving that block), or nullptr.
  Channel* channel(const std::string& name);
  std::vector<std::string> channel_names() const;
  // What a failed channel would have carried, counted by the block that
  // drives it: packets a router routed to that output, or packets a
  // processor handed its NIC for the link up.
  std::uint64_t failed_link_requests(const FatTreeLinkAddress& link) const;

  // Per-level statistics over a run of `cycles` steps.
  std::vector<LevelStats> level_stats(Cycle cycles) const;
  std::size_t max_nic_queue() const;
  // Per level, read once when the results are written (fat_tree_activity.cpp).
  std::vector<LevelActivity> activity() const;

  // outputs.trace_packet: follows these messages channel by channel (before trace()).
  void follow(const std::vector<std::uint32_t>& messages);

  // Adds per channel its packet bus (per physical link: valid, message id,
  // source, destination) and the queue that drives it, labelled and grouped
  // for the save file; and a save file per followed packet
  // (fat_tree_trace.cpp).
  using sc_core::sc_object::trace;  // sc_object's trace(sc_trace_file*) stays visible beside ours
  void trace(WaveformTracer& tracer, const std::string& prefix);

 private:
  // What trace() added for one channel, for the per-packet save files.
  struct TracedChannel {
    std::string scope;        // <prefix>.level<l>.<channel>
    std::string label;        // its rows' label path: level2/r2_0/up, nic3/inject, nic5/eject
    std::string title;        // its save-file group
    std::string queue;        // the row of the queue that drives it
    std::string queue_label;
    unsigned width = 1;       // physical links
    unsigned links = 1;       // ... of which traced one by one
  };
  Channel& make_channel(const std::string& name, unsigned width, unsigned latency);
  void trace_channel(WaveformTracer& tracer, const Channel* c, TracedChannel t, const PacketQueue* q);
  std::string bus_scope(const TracedChannel& t, unsigned link) const;
  std::string packet_save_file(const WaveformTracer& tracer, std::uint32_t id) const;

  FatTreeShape shape_;
  PacketPool& pool_;
  std::vector<std::unique_ptr<PacketNic>> nics_;
  std::vector<std::vector<std::unique_ptr<FatTreeRouter>>> routers_;  // [level][index], level >= 1
  std::deque<Channel> channels_;
  // up_[l][j]: channel leaving node (l, j) toward its parent (l = 0: leaves).
  std::vector<std::vector<Channel*>> up_;
  // down_[l][k]: channel from level-l node k/2 down to child k (l >= 1).
  std::vector<std::vector<Channel*>> down_;
  std::vector<NodeId> ejects_to_;  // ejects_to_[k]: the NIC down_[1][k] feeds (network.swap_ejection)
  std::unique_ptr<PacketFollower> follower_;  // null unless packets are followed
  std::unordered_map<const Channel*, TracedChannel> traced_;
};

}  // namespace icn::fattree
