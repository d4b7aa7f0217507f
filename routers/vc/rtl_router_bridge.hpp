// RtlRouterBridge: an RTL router (a loaded module, routers/vc/rtl_router_module.hpp)
// in the VC network in place of a VcRouter, on the same four links per port.
//
// Each cycle it is evaluated (Phase::kNetwork, like VcRouter) it reads the
// credits and flits its links deliver in that cycle, drives them as the
// contract's inputs of the cycle, evaluates the model, sends the outputs of
// the cycle on its links (flits and credits sent in t, seen downstream in
// t + latency, exactly as VcRouter::tick sends), then gives the clock edge
// that ends the cycle (docs/rtl_router.md "Timing").
//
// Flit <-> contract fields: the packet handle goes in the payload's low 32
// bits, source and destination addresses are the packet's nodes as
// coordinates (CoordW bits each); the VC and head/tail as they are.
//
// The bridge clocks its router only in cycles in which something arrives or
// the router holds flits or owes credits (flits in != flits out or != credits
// out): a router whose state changes only with traffic (the twin) behaves as
// if clocked every cycle.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/activity.hpp"
#include "models/engine.hpp"
#include "models/link.hpp"
#include "models/packet.hpp"
#include "routers/vc/flit.hpp"
#include "routers/vc/rtl_router_module.hpp"
#include "routers/vc/stage_log.hpp"
#include "routers/vc/vc_topology.hpp"

namespace icn {
class WaveformTracer;
}

namespace icn::vc {

// The waveform of RTL router `router_name` beside the run's `waveform_file`:
// FILE.vcd (or .fst) -> FILE.<router_name>.rtl.vcd; a device stays as it is.
std::string rtl_router_waveform_file(const std::string& waveform_file, const std::string& router_name);

class RtlRouterBridge : public Clocked {
 public:
  // Router `id` of `topo`, seeded as VcRouter's Rng(seed, id).
  RtlRouterBridge(std::string name, unsigned id, const MeshTorusTopology& topo, std::uint64_t seed, PacketPool& pool,
                  std::shared_ptr<const RtlRouterModule> module);
  ~RtlRouterBridge() override;

  // As VcRouter::connect (the downstream depth is the module's Depth).
  void connect(unsigned port, Link<Flit>* in, Link<Flit>* out, Link<Credit>* credit_in, Link<Credit>* credit_out);

  Cycle tick(Cycle now) override;
  std::string block_name() const override { return name_; }
  void report_held(std::vector<HeldTraffic>& out) const override;

  unsigned id() const { return id_; }
  // Flits in the input buffers: arrived and not yet credited upstream (the
  // contract returns a credit as a flit leaves its input buffer), as
  // VcRouter::buffered() counts them.
  unsigned buffered() const { return static_cast<unsigned>(flits_in_ - credits_out_); }
  void set_stage_log(StageLog* log) { stages_ = log; }
  // What the energy model can see of an RTL router at its ports
  // (docs/energy.md): flits written into its input buffers (arrived), read
  // out of them (credited upstream) and through its crossbar (sent), and the
  // cycles it was clocked. Its allocators' decisions are inside the RTL and
  // stay zero: they are not priced.
  RouterActivity activity() const {
    RouterActivity a;
    a.clocked_cycles = clocked_;
    a.buffer_writes = flits_in_;
    a.buffer_reads = credits_out_;
    a.crossbar = flits_out_;
    return a;
  }
  // --vcd: the router's own signals into `path` (a module made with --trace;
  // false if it was not), one sample per evaluated cycle at cycle x
  // time_per_cycle in `timescale` units, the run's waveform's time base.
  // Only the cycles of the tracer's window (outputs.trace_window) are dumped.
  bool trace_to(const std::string& path, const WaveformTracer& tracer);
  // Closes that file and puts it in place: "" or one line.
  std::string finish_trace();
  // Address (coordinates, CoordW bits each) of node n.
  std::uint64_t address(NodeId n) const;

 private:
  struct PortLinks {
    Link<Flit>* in = nullptr;
    Link<Flit>* out = nullptr;
    Link<Credit>* credit_in = nullptr;
    Link<Credit>* credit_out = nullptr;
  };
  void read_inputs(Cycle now);
  void head_leaves(const Flit& f, Cycle now);
  // Ends the run with status "fault": the RTL router did what the contract
  // rules out (a flit or credit icnsim cannot take, a flit of no packet it
  // holds, a packet in circles). One line, naming the router and the cycle.
  [[noreturn]] void broke_contract(Cycle now, const std::string& what) const;

  std::string name_;
  unsigned id_;
  const MeshTorusTopology& topo_;
  PacketPool& pool_;
  std::shared_ptr<const RtlRouterModule> module_;
  icnsim_rtl_router* model_ = nullptr;
  unsigned ports_;
  unsigned coord_w_;
  std::vector<PortLinks> links_;
  icnsim_rtl_router_inputs in_{};
  icnsim_rtl_router_outputs out_{};
  std::uint64_t flits_in_ = 0, flits_out_ = 0, credits_out_ = 0;
  std::uint64_t clocked_ = 0;  // cycles the router was clocked
  StageLog* stages_ = nullptr;
  std::unordered_map<PacketId, Cycle> head_arrived_;
  std::unordered_map<PacketId, std::uint32_t> inside_;  // flits of each packet inside the router
  std::vector<std::uint32_t> buffered_;                  // per input port and VC: flits not yet credited
  bool tracing_ = false;
  const WaveformTracer* tracer_ = nullptr;  // its window
  std::uint64_t time_per_cycle_ = 1;  // heads inside, for the stage log
};

}  // namespace icn::vc
