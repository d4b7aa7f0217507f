// What network.type=fattree_bitserial configures and its experiment
// elaborates, shared by the family's files: fattree_bitserial_config.cpp (the
// keys, their reading and the resource estimate) and
// fattree_bitserial_experiment.cpp (the experiment, the network kind and its
// registration).
#pragma once

#include <iomanip>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "models/trace.hpp"
#include "models/types.hpp"
#include "models/wiring_fault.hpp"
#include "routers/fattree_bitserial/concentrator_switch.hpp"
#include "routers/fattree_bitserial/load_factor.hpp"
#include "routers/fattree_bitserial/route_stream_generator.hpp"
#include "routers/fattree_bitserial/sync_scheme.hpp"
#include "testbench/experiment.hpp"
#include "testbench/fattree_bitserial_energy.hpp"

namespace icn {

struct BitSerialSetup : ExperimentSetup {
  unsigned height = 0;
  std::vector<unsigned> capacities;
  std::string capacity_label;
  bitserial::Arbitration arbitration = bitserial::Arbitration::kRandom;
  bitserial::BufferFill fill = bitserial::BufferFill::kZero;
  bitserial::SyncScheme scheme = bitserial::SyncScheme::kMidstream;
  bool rtl_generator = false;
  std::string pattern;
  std::string traffic_label;
  double load_factor_target = 0;
  NodeId root = 0;
  std::vector<SourceDestination> pairs;
  std::vector<std::string> failed_links;  // canonical channel names
  struct StuckBit {
    std::string channel;  // canonical channel name
    unsigned path;
    bool value;
  };
  std::vector<StuckBit> stuck_bits;
  EjectionSwap swap;
  BitSerialPower power;  // power.*: the energy and area model (testbench/fattree_bitserial_energy.hpp)

  std::unique_ptr<Experiment> elaborate(const std::string& name, const RunContext& ctx) override;
  ResourceEstimate estimate() const override;
  double delivery_cycles_estimate(std::string& why) const;
  // Given delivery_cycles_estimate() and its reason (computed once).
  void estimate_work(ResourceEstimate& e, double messages, double delivery_cycles, const std::string& why) const;
  void estimate_trace(ResourceEstimate& e, double messages, double delivery_cycles) const;
  bool follows_packets() const override { return true; }  // outputs.trace_packet: message ids of the set
  // Its NICs keep what they change outside themselves for their commit
  // (docs/fattree_bitserial.md, "Worker threads"); a Verilated route-stream
  // generator is not thread-safe.
  std::string single_thread_reason() const override {
    return rtl_generator ? "nic.generator=rtl (Verilated route-stream generators) runs on one thread" : "";
  }
  std::vector<std::string> waveform_side_files(const std::string& waveform_file) const override {
    if (!rtl_generator) return {};
    return {WaveformTracer::rtl_file_for(waveform_file)};
  }
};

// The family's keys (`icnsim list`), and their reading into a setup.
std::vector<ParamGroup> bitserial_params();
std::unique_ptr<ExperimentSetup> configure_bitserial(Config& cfg);

// A real as the family prints it (a load factor): 6 significant digits.
inline std::string format_number(double x) {
  std::ostringstream s;
  s << std::setprecision(6) << x;
  return s.str();
}

}  // namespace icn
