// Crossbar networks for single-port processors (network.type=crossbar|hier_crossbar).
//
// A packet of m units travels as one handle: its head crosses a link in one
// cycle and the link (and every output it is granted) then stays busy for m
// cycles while the units stream behind it (virtual cut-through at packet
// granularity: a head that finds its output busy waits in the switch, whose
// buffer holds the whole packet). The tail arrives m - 1 cycles after the head.
//
//   CrossbarSwitch     one non-blocking crossbar: any input to any free output;
//                      outputs are grouped (a group is a set of equivalent links,
//                      e.g. a module's inter-module channels) and each group
//                      grants its waiting heads first come first served.
//   CrossbarNetwork    a x b hierarchical crossbar: a module crossbars of b
//                      processors, each with c channels up to and down from a
//                      global crossbar that connects the modules; a = 1 is the
//                      full P-port crossbar (no global switch).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/activity.hpp"
#include "models/engine.hpp"
#include "models/link.hpp"
#include "nics/single_port_nic.hpp"

namespace icn::xbar {

// What one output link saw (per-link congestion, measured).
struct LinkStats {
  std::string name;
  std::uint64_t packets = 0;
  std::uint64_t busy_cycles = 0;   // cycles a unit crossed the link
  std::uint64_t wait_cycles = 0;   // cycles heads waited for this link's group
  std::uint32_t max_queue = 0;     // heads waiting for the group at once
  std::set<std::uint64_t> flows;   // distinct (src, dst) pairs (edge congestion), inter-module links only
  bool track_flows = false;
};

// A link of a crossbar network, parsed once from its fault-injection name
// (network.failed_links): pe<x>.in (processor x to its switch), pe<x>.out
// (switch to processor x), and on a hierarchical crossbar up<m>.<j> and
// down<m>.<j> (module m's j-th channel to and from the global crossbar).
struct CrossbarLinkAddress {
  enum class Kind : std::uint8_t { kInjection, kEjection, kUp, kDown };
  Kind kind = Kind::kInjection;
  std::uint64_t index = 0;    // processor x, or module m
  std::uint64_t channel = 0;  // j for up/down
  std::string name() const;
};

class CrossbarSwitch : public Clocked {
 public:
  struct Output {
    Link<PacketId>* link = nullptr;        // the wire to a NIC (a next switch owns its input wire)
    CrossbarSwitch* next = nullptr;        // the next switch, if it is one
    unsigned next_port = 0;
    Cycle busy_until = 0;                  // last cycle a unit of the current packet crosses
    bool failed = false;                   // a cut link (fault injection): never granted
    LinkStats stats;
  };

  CrossbarSwitch(std::string name, unsigned inputs, UnitPacketPool& pool, CycleEngine& engine);

  unsigned add_group();
  void add_output(unsigned group, Link<PacketId>* link, CrossbarSwitch* next, unsigned next_port, std::string name,
                  bool track_flows);
  void set_route(std::function<unsigned(NodeId dst)> route) { route_ = std::move(route); }

  // The upstream block sends a head on input `port` in cycle `now` (seen here
  // in now + 1): a switch in the network phase, on its worker thread
  // (`worker`, Clocked::owner()), or a NIC's commit, on the simulation thread
  // (worker 0: no worker runs then).
  void send_in(unsigned port, Cycle now, PacketId id, unsigned worker);

  // Fault injection: a failed output is never granted (its group's other
  // links carry the traffic, if it has any); a head sent on a failed input
  // never arrives and stays, reported held, at the cut wire.
  void fail_output(unsigned group, unsigned index) { outputs_.at(group).at(index).failed = true; }
  void fail_input(unsigned port) { failed_inputs_.at(port) = true; }
  // What a failed link was asked to carry: heads sent on a failed input;
  // for an output, the packets routed to its group (any of whose links could
  // have carried them).
  std::uint64_t failed_input_requests(unsigned port) const { return cut_.at(port).size(); }
  std::uint64_t group_requests(unsigned group) const { return group_packets_.at(group); }
  // The name of the link into input `port` (for diagnostics).
  void name_input(unsigned port, std::string name) { input_names_.at(port) = std::move(name); }

  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name_; }
  void report_held(std::vector<HeldTraffic>& out) const override;

  const std::vector<std::vector<Output>>& groups() const { return outputs_; }
  unsigned inputs() const { return static_cast<unsigned>(inputs_.size()); }
  unsigned outputs() const;

  // What the switch's hardware did (docs/energy.md, "The crossbars"): each
  // unit is written into its input port's buffer as it arrives, read out and
  // carried across the crossbar as it leaves; each head granted an output is
  // one decision of that output's arbiter over the heads waiting for its
  // group; the clock runs in every cycle a unit crosses.
  const RouterActivity& activity() const { return activity_; }
  // What came in on input `port`'s wire: packets (heads) and units.
  std::uint64_t input_packets(unsigned port) const { return input_wires_.at(port).packets; }
  std::uint64_t input_units(unsigned port) const { return input_wires_.at(port).units; }

 private:
  struct Waiting {
    PacketId id;
    Cycle since;
  };
  void serve(unsigned group, Cycle now);

  std::string name_;
  UnitPacketPool& pool_;
  std::vector<Link<PacketId>> inputs_;
  // Input ports with a head, by cycle parity, one list per sending worker
  // thread (run.threads): two upstream switches may send at once.
  std::vector<std::vector<std::uint32_t>> arrivals_[2];
  std::vector<std::uint32_t> arrived_;  // this cycle's, merged in port order
  std::vector<std::vector<Output>> outputs_;
  std::vector<std::deque<Waiting>> queues_;
  std::set<unsigned> waiting_groups_;
  std::function<unsigned(NodeId)> route_;
  std::vector<bool> failed_inputs_;
  std::vector<std::string> input_names_;
  std::vector<std::deque<Waiting>> cut_;  // per input: heads lost on a failed input wire
  std::vector<std::uint64_t> group_packets_;  // per output group: packets routed to it
  struct WireCount {
    std::uint64_t packets = 0, units = 0;
  };
  std::vector<WireCount> input_wires_;  // per input: what its wire carried
  RouterActivity activity_;
  Cycle clock_counted_until_ = 0;  // clocked_cycles covers every busy cycle before this one
};

class CrossbarNetwork : public SinglePortFabric {
 public:
  struct Shape {
    unsigned modules = 1;      // a (1: a full crossbar)
    unsigned module_size = 2;  // b
    unsigned channels = 0;     // c inter-module channels per module (each direction)
  };
  CrossbarNetwork(const Shape& shape, UnitPacketPool& pool, CycleEngine& engine);

  // Connects processor x's port: its NIC injects with inject(); the network
  // delivers on the NIC's ejection link.
  void attach(NodeId x, SinglePortNic& nic) override;
  // From the NIC's commit (SinglePortFabric::inject).
  void inject(NodeId x, Cycle now, PacketId id) override;
  unsigned pipeline_cycles() const override { return kLocalPathLinks; }

  NodeId processors() const { return shape_.modules * shape_.module_size; }
  const Shape& shape() const { return shape_; }
  unsigned switches() const { return static_cast<unsigned>(switches_.size()); }
  // The address of a link by its name, if a network of this shape has it.
  static std::optional<CrossbarLinkAddress> parse_link(const std::string& name, const Shape& shape);
  // Cuts the link (before the run).
  void fail(const CrossbarLinkAddress& link);
  // What a failed link was asked to carry (CrossbarSwitch::group_requests).
  std::uint64_t failed_link_requests(const CrossbarLinkAddress& link) const;

  // Links between modules (up and down channels), with what they carried.
  std::vector<const LinkStats*> inter_module_links() const;
  // Processor ports (switch -> NIC links).
  std::vector<const LinkStats*> ejection_links() const;
  // The switches: the modules (or the one crossbar), then the global crossbar.
  const CrossbarSwitch& switch_at(unsigned i) const { return *switches_.at(i); }
  // Cycles of the path without waiting: links crossed x 1.
  static constexpr unsigned kLocalPathLinks = 2;

 private:
  Shape shape_;
  std::vector<std::unique_ptr<CrossbarSwitch>> switches_;  // modules, then the global switch (each owns its input wires)
};

}  // namespace icn::xbar
