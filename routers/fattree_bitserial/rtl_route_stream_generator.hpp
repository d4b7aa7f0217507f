// RtlRouteStreamGenerator: the Verilated RTL of the routing-bit stream
// generator (rtl/route_stream/, Ishii 1985 section 3.4) behind the same
// RouteStreamGenerator interface as the behavioural model, so a BitSerialNic
// can use either (`nic.generator=behavioral|rtl`).
//
// The Verilated block is a SystemC module bound by sc_signals, as in
// Verilator's make_tracing_sc example. Its clock is an RtlClock whose rising
// edges fall half a period after each engine cycle: the NIC writes the load
// inputs during cycle t, the edge at t + 1/2 captures them, and in cycle t + 1
// the NIC reads M — the same one-clock load latency the NIC gives the
// behavioural generator (BitSerialNic::kFirstDrivePhase).
#pragma once

#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "routers/fattree_bitserial/route_stream_generator.hpp"

class Vroute_stream_generator;
class VerilatedVcdC;

namespace icn::bitserial {

// Clock and reset of the co-simulated RTL: reset low until the first edge,
// rising edges at (t + 1/2) periods for cycles t >= 1, and none once the
// network's engine has finished (so the kernel can stop).
class RtlClock : public sc_core::sc_module {
 public:
  RtlClock(sc_core::sc_module_name name, const CycleEngine& engine);
  // For benches that build the RTL before their engine: follow() it before
  // simulation starts.
  explicit RtlClock(sc_core::sc_module_name name);
  void follow(const CycleEngine& engine) { engine_ = &engine; }

  sc_core::sc_signal<bool> clk;
  sc_core::sc_signal<bool> rst_n;

 private:
  void toggle();
  const CycleEngine* engine_ = nullptr;
  enum class Stage { kReset, kReleased, kRunning } stage_ = Stage::kReset;
};

class RtlRouteStreamGenerator : public sc_core::sc_module, public RouteStreamGenerator {
 public:
  // The address width the RTL was verilated with (the tallest tree it serves).
  static unsigned max_height();

  RtlRouteStreamGenerator(sc_core::sc_module_name name, unsigned height, BufferFill fill, RtlClock& clock);
  ~RtlRouteStreamGenerator() override;

  // Re-straps height and fill for the next load (one generator can serve trees
  // of any height up to max_height()).
  void configure(unsigned height, BufferFill fill);

  void load(NodeId src, NodeId dst) override;
  StreamBit next_bit() override;

  // Adds this generator's signals to an RTL waveform (before it is opened).
  void trace(VerilatedVcdC& file, int levels);

 private:
  sc_core::sc_signal<bool> load_;
  sc_core::sc_signal<std::uint32_t> height_;
  sc_core::sc_signal<bool> turn_fill_;
  sc_core::sc_signal<std::uint32_t> src_;
  sc_core::sc_signal<std::uint32_t> dst_;
  sc_core::sc_signal<bool> valid_;
  sc_core::sc_signal<bool> bit_;
  std::unique_ptr<Vroute_stream_generator> dut_;
};

// The waveform of every RTL generator of a run, written by Verilator beside
// the SystemC VCD. It opens when simulation starts (Verilator's SystemC tracing
// needs an elaborated model) and is dumped once per cycle on the main
// waveform's time base (`unit`, `steps_per_cycle` units a cycle); its file is checked
// like every output (models/verilated_vcd_file.hpp): written beside the target,
// put in place by finish() only if every write succeeded, and a failed write
// is a one-line error, never Verilator's abort.
class RtlWaveform : public sc_core::sc_module {
 public:
  RtlWaveform(sc_core::sc_module_name name, std::string path, const sc_core::sc_time& period, std::string unit,
              std::uint64_t steps_per_cycle);
  ~RtlWaveform() override;
  void add(RtlRouteStreamGenerator& generator) { generators_.push_back(&generator); }
  // Closes the file and puts it in place: "" on success, else one line.
  std::string finish();
  const std::string& path() const { return path_; }

  class TraceFile;  // the SystemC trace file that dumps the Verilated signals

 private:
  void start_of_simulation() override;
  std::string path_;
  sc_core::sc_time period_;
  std::string unit_;
  std::uint64_t steps_per_cycle_;
  std::vector<RtlRouteStreamGenerator*> generators_;
  std::unique_ptr<TraceFile> file_;
  std::string problem_;
};

}  // namespace icn::bitserial
