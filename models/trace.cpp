#include "models/trace.hpp"

#include <fstapi.h>

#include <map>
#include <stdexcept>

#include "models/config.hpp"

namespace icn {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

WaveformTracer::WaveformTracer(const std::string& path, const sc_core::sc_time& period) {
  // Whole-nanosecond clocks get a nanosecond timescale, finer ones picoseconds.
  const bool ns = period >= sc_core::sc_time(1, sc_core::SC_NS);
  if (ends_with(path, ".fst")) {
    path_ = path;
    fst_ = fstWriterCreate(path_.c_str(), 1);
    if (fst_ == nullptr) throw ConfigError("cannot write waveforms to '" + path_ + "'");
    fstWriterSetTimescale(fst_, ns ? -9 : -12);
    fstWriterSetVersion(fst_, "icnsim");
    time_per_cycle_ = static_cast<std::uint64_t>(period.to_seconds() / (ns ? 1e-9 : 1e-12) + 0.5);
    fst_vars_.emplace_back("cycle", 32);
  } else {
    std::string base = path;
    if (ends_with(base, ".vcd")) base.resize(base.size() - 4);
    path_ = base + ".vcd";
    file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
    // Co-simulated RTL clocks tick at half periods. Our probes change only at
    // whole cycles, so time steps between cycles carry nothing to record.
    sc_core::sc_report_handler::set_actions("current kernel time is not representable in VCD time units",
                                            sc_core::SC_DO_NOTHING);  // SystemC message W713
    file_->set_time_unit(1, ns ? sc_core::SC_NS : sc_core::SC_PS);
  }
  values_.push_back(0);
  if (file_ != nullptr) sc_core::sc_trace(file_, values_.back(), "cycle", 32);
  probes_.emplace_back([](Cycle t) { return static_cast<std::uint32_t>(t); });
}

WaveformTracer::~WaveformTracer() {
  if (file_ != nullptr) sc_core::sc_close_vcd_trace_file(file_);
  if (fst_ != nullptr) {
    declare_fst();
    fstWriterClose(fst_);
  }
}

void WaveformTracer::add(const std::string& name, int bits,
                         std::function<std::uint32_t(Cycle)> probe) {
  values_.push_back(0);
  if (file_ != nullptr) sc_core::sc_trace(file_, values_.back(), name, bits);
  if (fst_ != nullptr) fst_vars_.emplace_back(name, bits);
  probes_.push_back(std::move(probe));
}

// The names are hierarchical ("icnsim.level1.nic0.up.p0.valid"); FST declares
// scopes as a tree, so group the variables by scope, keeping first-seen order.
// The top scope is "SystemC", as in SystemC's VCD, so save files fit both.
void WaveformTracer::declare_fst() {
  if (fst_declared_) return;
  fst_declared_ = true;
  struct Scope {
    std::vector<std::size_t> vars;
    std::vector<std::string> order;
    std::map<std::string, Scope> children;
  };
  Scope top;
  for (std::size_t i = 0; i < fst_vars_.size(); ++i) {
    const std::string& name = fst_vars_[i].first;
    Scope* s = &top;
    std::size_t start = 0;
    for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', start)) {
      const std::string part = name.substr(start, dot - start);
      if (s->children.count(part) == 0) s->order.push_back(part);
      s = &s->children[part];
      start = dot + 1;
    }
    s->vars.push_back(i);
  }
  fst_handles_.assign(fst_vars_.size(), 0);
  auto emit = [&](auto&& self, const Scope& s) -> void {
    for (std::size_t i : s.vars) {
      const auto& [name, bits] = fst_vars_[i];
      const std::string leaf = name.substr(name.find_last_of('.') + 1);
      fst_handles_[i] = fstWriterCreateVar(fst_, FST_VT_VCD_WIRE, FST_VD_IMPLICIT,
                                           static_cast<std::uint32_t>(bits), leaf.c_str(), 0);
    }
    for (const std::string& child : s.order) {
      fstWriterSetScope(fst_, FST_ST_VCD_MODULE, child.c_str(), nullptr);
      self(self, s.children.at(child));
      fstWriterSetUpscope(fst_);
    }
  };
  fstWriterSetScope(fst_, FST_ST_VCD_MODULE, "SystemC", nullptr);
  emit(emit, top);
  fstWriterSetUpscope(fst_);
  // Every value starts at 0 at time 0, as in the VCD.
  fstWriterEmitTimeChange(fst_, 0);
  for (std::size_t i = 0; i < fst_handles_.size(); ++i)
    fstWriterEmitValueChange32(fst_, fst_handles_[i], static_cast<std::uint32_t>(fst_vars_[i].second), 0);
  fst_last_.assign(fst_handles_.size(), 0);
}

void WaveformTracer::sample(Cycle t) {
  auto value = values_.begin();
  for (auto& probe : probes_) *value++ = probe(t);
  if (fst_ == nullptr) return;
  declare_fst();
  bool time_written = false;
  for (std::size_t i = 0; i < fst_handles_.size(); ++i) {
    const std::uint32_t v = values_[i];
    if (v == fst_last_[i]) continue;
    if (!time_written) fstWriterEmitTimeChange(fst_, static_cast<std::uint64_t>(t) * time_per_cycle_);
    time_written = true;
    fstWriterEmitValueChange32(fst_, fst_handles_[i], static_cast<std::uint32_t>(fst_vars_[i].second), v);
    fst_last_[i] = v;
  }
}

int bits_for(std::uint64_t max) {
  int bits = 1;
  while (bits < 64 && (max >> bits) != 0) ++bits;
  return bits;
}

}  // namespace icn
