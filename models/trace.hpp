// Waveform tracing (`--vcd FILE`): link activity and queue occupancy, one
// variable per probe, sampled once per cycle, readable by GTKWave. The file's
// extension picks the format: ".fst" writes GTKWave's compressed, indexed FST
// (for large runs: a fraction of the VCD's size, and GTKWave opens it without
// reading it all); anything else writes a VCD.
//
// The model's state lives in plain C++ objects (links are delay lines, not
// sc_signals), so a probe is a function that reads that state at the end of a
// cycle. Probes must be added before the first sample.
//
// A waveform is an output like the JSON: it is written to a temporary file
// beside the target and renamed into place by finish() only when every write
// and the close succeeded (and, for FST, the file reads back), so a full disk
// never leaves a file that looks complete. Devices and FIFOs (/dev/null,
// /dev/full) are written in place and their write errors reported the same way.
// The VCD is written here rather than by SystemC's tracer, whose writes are
// unchecked (and whose $date line made two identical runs differ).
#pragma once

#include <algorithm>
#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/types.hpp"

namespace icn {

// How GTKWave's save file shows one probe (WaveformTracer writes FILE.gtkw
// beside every VCD or FST: `gtkwave FILE.vcd FILE.gtkw` opens a labelled,
// grouped first screen with no hand work).
struct TraceRow {
  enum class Radix : std::uint8_t { kAuto, kDecimal, kHex, kBinary };  // auto: 1 bit binary, wider decimal
  // Rows of one group are shown together under a collapsible heading, groups
  // in the order their first probe was added; "" is the probe's scope (its
  // name without the last part).
  std::string group;
  // The row's name. GTKWave cuts a displayed name at its dots down to the
  // last part ("occupancy"), so the default is the probe's name with '/' for
  // '.' ("icnsim/r3_2/in_xm/vc1/occupancy").
  std::string label;
  Radix radix = Radix::kAuto;
  // A translate filter declared with add_filter(): values shown by name.
  std::string filter;
};

// What a family expects its waveform to hold, for the size estimate of
// outputs.max_trace_bytes: the cycles the run takes, the unit transfers over
// its traced links (flits, packets or stream bits, NIC links included), and
// the bytes of value changes each transfer writes to a VCD (calibrated per
// family against written files: docs/waveforms/README.md). 0: not known.
struct TraceEstimate {
  double cycles = 0;
  double transfers = 0;
  double bytes_per_transfer = 0;
  std::string why;  // how the transfers were counted
};

class WaveformTracer {
 public:
  // `path` is the file to write: FILE.fst, or a VCD (".vcd" is appended if missing).
  // Throws std::runtime_error if the working file cannot be created.
  WaveformTracer(const std::string& path, const sc_core::sc_time& period);
  // Without a successful finish(): the partial file is removed (never left in place).
  ~WaveformTracer();
  WaveformTracer(const WaveformTracer&) = delete;
  WaveformTracer& operator=(const WaveformTracer&) = delete;

  // The file written for `path`: FILE.vcd or FILE.fst as given, a device or
  // FIFO (/dev/null) as it is, anything else with ".vcd" appended.
  static std::string file_for(const std::string& path);

  // The file a Verilated block's own waveform is written to beside `file`
  // (the file this tracer writes): FILE.vcd or FILE.fst -> FILE.rtl.vcd; a
  // device or FIFO (/dev/null) is used as it is.
  static std::string rtl_file_for(const std::string& file);

  // A waveform written beside this one by another writer (a Verilated
  // block's FILE.rtl.vcd): `finish` completes it ("" or one line) when this
  // one finishes, and its failure fails the waveform outputs the same way.
  void add_companion(std::function<std::string()> finish) { companions_.push_back(std::move(finish)); }

  // `name` is hierarchical with '.' separators; GTKWave shows it as scopes.
  void add(const std::string& name, int bits, std::function<std::uint32_t(Cycle)> probe, TraceRow row = {});

  // outputs.trace_routers: only probes one of whose dotted name's parts is
  // one of these block names are added from now on (empty: every probe).
  void select_blocks(std::vector<std::string> names) {
    selected_ = std::move(names);
    matched_.assign(selected_.size(), false);
  }
  // Whether the block `name` is traced: every block unless
  // outputs.trace_routers named some (for writers beside this one, such as
  // an RTL router's own file).
  bool traces_block(const std::string& name) const {
    return selected_.empty() || std::find(selected_.begin(), selected_.end(), name) != selected_.end();
  }
  // outputs.trace_window [from, to], in cycles, for those writers too.
  void set_window(Cycle from, Cycle to) {
    window_from_ = from;
    window_to_ = to;
  }
  bool in_window(Cycle c) const { return c >= window_from_ && c <= window_to_; }
  // The selected names no probe has matched (after elaboration: a name the
  // network does not have, which would leave an empty waveform).
  std::vector<std::string> unmatched_blocks() const {
    std::vector<std::string> out;
    for (std::size_t b = 0; b < selected_.size(); ++b)
      if (!matched_[b]) out.push_back(selected_[b]);
    return out;
  }

  // A translate filter: the names GTKWave shows for a probe's values (an
  // enum's states). Written as FILE.<name>.filter beside the save file.
  void add_filter(const std::string& name, std::vector<std::pair<std::uint32_t, std::string>> values);

  // A family that lays out its own save file (the bit-serial tree, in route
  // order) hands its text here; otherwise the rows of add() are written.
  void set_save_file(std::string text) { own_save_file_ = std::move(text); }

  // The save file finish() writes beside the waveform (FILE.gtkw), "" for a
  // device or FIFO, and its text.
  static std::string save_file_for(const std::string& file);
  std::string save_file_text() const;

  // Another save file, FILE.packet<ID>.gtkw for outputs.trace_packet ("" for
  // a device), whose text is made when the run has ended (finish()).
  static std::string packet_save_file_for(const std::string& file, std::uint32_t id);
  void add_save_file(std::string path, std::function<std::string()> text) {
    if (!path.empty()) extra_save_files_.emplace_back(std::move(path), std::move(text));
  }
  // Pieces of a save file: one group of the named probes' rows (as the main
  // save file shows them), and the time window [first, last] in cycles with
  // markers A, B, ... at the given cycles (kNever: unset).
  std::string rows_text(const std::string& title, const std::vector<std::string>& names) const;
  std::string window_lines(Cycle first, Cycle last, const std::vector<Cycle>& markers) const;

  // Evaluates every probe for the cycle that just ended.
  void sample(Cycle t);

  // The size of the VCD this run will write (after elaboration, before the
  // first sample): the declarations exactly, plus the expected value
  // changes, scaled to outputs.trace_window [from, to] and to the probes
  // outputs.trace_routers kept. An FST is typically several times smaller:
  // the VCD's size bounds it. `why` says what was counted.
  double estimate_bytes(const TraceEstimate& e, Cycle from, Cycle to, std::string& why) const;
  // outputs.max_trace_bytes while the run goes on: past `bytes`, the
  // waveform fails (finish() says so) and `on_limit` is called once (to stop the run).
  void set_byte_limit(double bytes, std::function<void()> on_limit) {
    limit_ = bytes;
    on_limit_ = std::move(on_limit);
  }
  // "" unless the waveform reached that limit; then the line saying so.
  const std::string& limit_reached() const { return limit_reached_; }

  // Completes the file: flushes and closes it, checks it, and puts it in
  // place. Returns "" on success, else one line saying what went wrong.
  std::string finish();

  // The dump's time base: `timescale()` units ("1 ns" or "1 ps") and
  // time_per_cycle() of them per clock period. A Verilated block's own file
  // (FILE.rtl.vcd) uses the same, one sample per cycle, so that a cycle has
  // the same time in both files.
  const std::string& timescale() const { return timescale_; }
  std::uint64_t time_per_cycle() const { return time_per_cycle_; }

  // Writes the save file of a finished Verilated waveform `rtl_file`
  // (FILE.rtl.vcd -> FILE.rtl.gtkw; nothing for a device): one group per
  // Verilated instance, under the name of the block that hosts it, holding
  // its top module's ports and _q registers, with the window of the main
  // save file. "" or one line.
  std::string write_rtl_save_file(const std::string& rtl_file) const;

  std::size_t probes() const { return probes_.size(); }
  const std::string& path() const { return path_; }
  bool fst() const { return fst_format_; }
  // Written to a device or FIFO (/dev/null), not a file: it takes no disk.
  bool to_device() const { return in_place_; }

 private:
  struct Var {
    std::string name;
    int bits;
    TraceRow row;
  };
  struct Filter {
    std::string name;
    std::vector<std::pair<std::uint32_t, std::string>> values;
  };
  std::string write_save_files();  // FILE.gtkw and its filters; "" or one line
  void declare();  // the header (VCD) or hierarchy (FST) and the values at time 0, once
  void vcd_write(const std::string& text);
  std::string vcd_header() const;
  mutable std::string header_;  // the VCD header, built by estimate_bytes() and reused by declare()
  void check_limit(Cycle t);
  void vcd_flush();
  void fail(const std::string& why);
  void discard();
  void abandon_fst();

  std::string path_;         // the file the user asked for
  std::string work_;         // the file written during the run
  bool in_place_ = false;    // work_ == path_ (a device or FIFO)
  bool copy_to_target_ = false;  // FST to a device: written to a temporary file, then copied
  bool finished_ = false;
  std::string error_;        // the first write error
  int fd_ = -1;              // VCD
  std::string buffer_;       // VCD text not yet written
  void* fst_ = nullptr;      // FST writer context (fstapi); null once closed or abandoned
  bool fst_format_ = false;
  std::uint64_t time_per_cycle_ = 1;  // time units per clock period
  std::string timescale_;
  std::uint64_t last_time_ = 0;
  bool declared_ = false;
  std::vector<Var> vars_;
  std::vector<std::string> vcd_ids_;
  std::vector<std::uint32_t> fst_handles_;
  std::vector<std::uint32_t> last_;
  std::vector<std::uint32_t> values_;
  std::vector<std::function<std::uint32_t(Cycle)>> probes_;
  std::vector<std::function<std::string()>> companions_;
  std::vector<Filter> filters_;
  std::vector<std::string> selected_;
  Cycle window_from_ = 0, window_to_ = kNever;
  std::vector<bool> matched_;
  std::size_t offered_ = 0;      // probes offered by the network, kept or not (outputs.trace_routers)
  std::uint64_t written_ = 0;    // VCD bytes written so far
  double limit_ = 0;             // outputs.max_trace_bytes; 0: none
  std::string limit_reached_;
  std::function<void()> on_limit_;
  std::uint64_t fst_samples_ = 0;
  std::string own_save_file_;
  std::vector<std::pair<std::string, std::function<std::string()>>> extra_save_files_;
  // What every row of a save file shares: the scope shown names leave out
  // and the filter files' paths (computed once per save file, not per row).
  struct RowContext {
    std::string top;
    std::vector<std::string> filter_paths;
  };
  RowContext row_context() const;
  std::string row_text(std::size_t var, const RowContext& context) const;
  mutable std::unordered_map<std::string, std::size_t> index_;  // probe name -> its row, for rows_text
};

// Bits needed to hold values 0..max.
int bits_for(std::uint64_t max);

}  // namespace icn
