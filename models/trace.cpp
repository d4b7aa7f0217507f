#include "models/trace.hpp"

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstapi.h>

#include "models/file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>

namespace icn {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// VCD identifiers: short strings of the printable characters '!'..'~'.
std::string vcd_id(std::size_t i) {
  std::string id;
  do {
    id += static_cast<char>('!' + i % 94);
    i /= 94;
  } while (i > 0);
  return id;
}

std::string binary(std::uint32_t v) {
  if (v == 0) return "0";
  std::string s;
  for (; v != 0; v >>= 1) s.insert(s.begin(), static_cast<char>('0' + (v & 1u)));
  return s;
}

// Scopes as a tree, variables grouped by scope in first-seen order. The top
// scope is "SystemC", as SystemC's tracer named it, so save files fit both formats.
struct Scope {
  std::vector<std::size_t> vars;
  std::vector<std::string> order;
  std::map<std::string, Scope> children;
};

template <class Var>
Scope scope_tree(const std::vector<Var>& vars) {
  Scope top;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    const std::string& name = vars[i].name;
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
  return top;
}

std::string leaf_of(const std::string& name) { return name.substr(name.find_last_of('.') + 1); }

// fstapi maps its working files into memory; when the disk fills (or a file
// size limit is hit) touching such a page raises SIGBUS instead of returning
// an error. Calls into fstapi run under a jump point: SIGBUS there abandons
// the writer and becomes a write error, never a crash.
sigjmp_buf* fst_jump = nullptr;

void on_sigbus(int sig) {
  if (fst_jump != nullptr) siglongjmp(*fst_jump, 1);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// The handler is installed while an FST writer exists (SA_NODEFER: after a
// jump SIGBUS is not left blocked).
struct sigaction previous_sigbus {};

void install_sigbus_handler() {
  struct sigaction action {};
  action.sa_handler = on_sigbus;
  action.sa_flags = SA_NODEFER;
  ::sigaction(SIGBUS, &action, &previous_sigbus);
}

void restore_sigbus_handler() { ::sigaction(SIGBUS, &previous_sigbus, nullptr); }

template <class Fn>
bool fst_guarded(Fn&& fn) {
  sigjmp_buf jump;
  bool ok = true;
  fst_jump = &jump;
  if (sigsetjmp(jump, 0) == 0) fn();
  else ok = false;
  fst_jump = nullptr;
  return ok;
}

}  // namespace

WaveformTracer::WaveformTracer(const std::string& path, const sc_core::sc_time& period) {
  // Whole-nanosecond clocks get a nanosecond timescale, finer ones picoseconds.
  const bool ns = period >= sc_core::sc_time(1, sc_core::SC_NS);
  time_per_cycle_ = static_cast<std::uint64_t>(period.to_seconds() / (ns ? 1e-9 : 1e-12) + 0.5);
  timescale_ = ns ? "1 ns" : "1 ps";
  const bool fst = ends_with(path, ".fst");
  path_ = file_for(path);
  in_place_ = !file_io::is_regular_or_missing(path_);
  if (!in_place_) {
    work_ = file_io::temporary_beside(path_);
  } else if (fst) {
    // fstapi seeks in its file: a device gets a copy of a finished temporary file.
    const char* tmp = std::getenv("TMPDIR");
    work_ = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/icnsim-waveform-" + std::to_string(::getpid()) + ".fst";
    copy_to_target_ = true;
  } else {
    work_ = path_;
  }
  fst_format_ = fst;
  if (fst) {
    install_sigbus_handler();
    fst_ = fstWriterCreate(work_.c_str(), 1);
    if (fst_ == nullptr) {
      restore_sigbus_handler();
      throw std::runtime_error("cannot write waveforms to '" + work_ + "': " + std::strerror(errno));
    }
    fstWriterSetTimescale(fst_, ns ? -9 : -12);
    fstWriterSetVersion(fst_, "icnsim");
    fstWriterSetDate(fst_, "(no date: identical runs give identical files)");  // not the wall clock's
  } else {
    fd_ = in_place_ ? ::open(work_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC)
                    : ::open(work_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) throw std::runtime_error("cannot write waveforms to '" + work_ + "': " + std::strerror(errno));
  }
  vars_.push_back({"cycle", 32, TraceRow{}});
  probes_.emplace_back([](Cycle t) { return static_cast<std::uint32_t>(t); });
}

std::string WaveformTracer::file_for(const std::string& path) {
  if (ends_with(path, ".vcd") || ends_with(path, ".fst") || !file_io::is_regular_or_missing(path)) return path;
  return path + ".vcd";
}

WaveformTracer::~WaveformTracer() {
  if (!finished_) discard();
}

void WaveformTracer::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (fst_ != nullptr) {
    fst_guarded([&] { fstWriterClose(fst_); });
    restore_sigbus_handler();
  }
  fst_ = nullptr;
  if (!in_place_ || copy_to_target_) ::unlink(work_.c_str());
  if (!work_.empty() && ::access((work_ + ".hier").c_str(), F_OK) == 0) ::unlink((work_ + ".hier").c_str());
}

void WaveformTracer::add(const std::string& name, int bits, std::function<std::uint32_t(Cycle)> probe, TraceRow row) {
  if (declared_) throw std::logic_error("waveform probe '" + name + "' added after the first sample");
  ++offered_;
  header_.clear();  // a header built for the estimate no longer holds every row
  if (!selected_.empty()) {
    bool kept = false;
    for (std::size_t start = 0; !kept && start <= name.size();) {
      const std::size_t dot = std::min(name.find('.', start), name.size());
      const std::string part = name.substr(start, dot - start);
      for (std::size_t b = 0; b < selected_.size(); ++b)
        if (part == selected_[b]) {
          kept = true;
          matched_[b] = true;
        }
      start = dot + 1;
    }
    if (!kept) return;
  }
  vars_.push_back({name, bits, std::move(row)});
  probes_.push_back(std::move(probe));
}

void WaveformTracer::add_filter(const std::string& name, std::vector<std::pair<std::uint32_t, std::string>> values) {
  for (const Filter& f : filters_)
    if (f.name == name) return;  // declared once, however many blocks use it
  filters_.push_back({name, std::move(values)});
}

std::string WaveformTracer::save_file_for(const std::string& file) {
  if (!ends_with(file, ".vcd") && !ends_with(file, ".fst")) return "";  // a device or FIFO
  return file.substr(0, file.size() - 4) + ".gtkw";
}

namespace {

std::string filter_file_for(const std::string& save_file, const std::string& filter) {
  return save_file.substr(0, save_file.size() - 5) + "." + filter + ".filter";
}

// GTKWave's trace flags (analyzer.h): right-justified names, and the radix.
const char* row_flags(const TraceRow& row, int bits, bool filtered) {
  using R = TraceRow::Radix;
  const R radix = row.radix != R::kAuto ? row.radix : bits == 1 ? R::kBinary : R::kDecimal;
  if (filtered) return "@2024";  // translated by a filter file, from decimal values
  return radix == R::kBinary ? "@28" : radix == R::kHex ? "@22" : "@24";
}

std::string scope_of(const std::string& name) {
  const std::size_t dot = name.find_last_of('.');
  return dot == std::string::npos ? "" : name.substr(0, dot);
}

std::string slashed(std::string name) {
  for (char& c : name)
    if (c == '.') c = '/';
  return name;
}

// GTKWave opens a translate filter file relative to its own working folder,
// not the save file's: the save file names it by its absolute path.
std::string absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char* cwd = ::getcwd(nullptr, 0);
  const std::string here = cwd != nullptr ? cwd : ".";
  std::free(cwd);
  return here + "/" + path;
}

bool write_text_file(const std::string& path, const std::string& text) {
  const std::string temp = file_io::temporary_beside(path);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  const bool ok = file_io::write_all(fd, text.data(), text.size());
  if (::close(fd) != 0 || !ok || ::rename(temp.c_str(), path.c_str()) != 0) {
    ::unlink(temp.c_str());
    return false;
  }
  return true;
}

}  // namespace

namespace {

// The scope every probe but the cycle counter shares (the run's top block,
// "icnsim."), which shown names leave out; "" if there is none.
template <class Var>
std::string common_top(const std::vector<Var>& vars) {
  std::string top;
  for (std::size_t i = 1; i < vars.size(); ++i) {
    const std::string first = vars[i].name.substr(0, vars[i].name.find('.') + 1);
    if (i == 1) top = first;
    else if (first != top) return "";
  }
  return top;
}

std::string shown_name(const std::string& name, const std::string& top) {
  return slashed(!top.empty() && name.compare(0, top.size(), top) == 0 ? name.substr(top.size()) : name);
}

}  // namespace

WaveformTracer::RowContext WaveformTracer::row_context() const {
  RowContext c;
  c.top = common_top(vars_);
  const std::string save = save_file_for(path_);
  for (const Filter& f : filters_) c.filter_paths.push_back(absolute(filter_file_for(save, f.name)));
  return c;
}

std::string WaveformTracer::row_text(std::size_t i, const RowContext& c) const {
  const Var& v = vars_[i];
  std::size_t filter = 0;  // filters by number, in declaration order
  for (std::size_t f = 0; f < filters_.size(); ++f)
    if (filters_[f].name == v.row.filter) filter = f + 1;
  std::string g;
  if (filter != 0) g += "^" + std::to_string(filter) + " " + c.filter_paths[filter - 1] + "\n";
  g += std::string(row_flags(v.row, v.bits, filter != 0)) + "\n";
  g += "+{" + (v.row.label.empty() ? shown_name(v.name, c.top) : v.row.label) + "} SystemC." + v.name;
  if (v.bits > 1) g += "[" + std::to_string(v.bits - 1) + ":0]";
  return g + "\n";
}

std::string WaveformTracer::rows_text(const std::string& title, const std::vector<std::string>& names) const {
  if (index_.empty())  // once, after the last probe (save files are made when the run has ended)
    for (std::size_t i = 0; i < vars_.size(); ++i) index_.emplace(vars_[i].name, i);
  const RowContext c = row_context();
  std::string g = "@800200\n-" + title + "\n";
  for (const std::string& name : names)
    if (const auto it = index_.find(name); it != index_.end()) g += row_text(it->second, c);
  return g + "@1000200\n-" + title + "\n";
}

std::string WaveformTracer::window_lines(Cycle first, Cycle last, const std::vector<Cycle>& markers) const {
  // GTKWave's view line: "*<zoom> <marker> <named markers A..Z>", times in
  // the dump's units. GTKWave 3.3 draws 2^(zoom + 7.64) pixels per unit
  // (measured on its screenshots: 200 at zoom 0, its closest), so this zoom
  // makes the window's cycles fill about 700 pixels (the wave pane of a 1400-pixel window).
  const double span = static_cast<double>((last > first ? last - first : 1) * time_per_cycle_);
  const double zoom = std::min(0.0, std::log2(700.0 / span) - 7.64);
  std::string g = "[timestart] " + std::to_string(first * time_per_cycle_) + "\n";
  char head[64];
  std::snprintf(head, sizeof head, "*%.6f %lld", zoom,
                markers.empty() || markers[0] == kNever ? -1LL : static_cast<long long>(markers[0] * time_per_cycle_));
  g += head;
  for (std::size_t m = 0; m < 26; ++m)
    g += " " + (m < markers.size() && markers[m] != kNever ? std::to_string(markers[m] * time_per_cycle_) : std::string("-1"));
  return g + "\n";
}

std::string WaveformTracer::packet_save_file_for(const std::string& file, std::uint32_t id) {
  const std::string save = save_file_for(file);
  return save.empty() ? "" : save.substr(0, save.size() - 5) + ".packet" + std::to_string(id) + ".gtkw";
}

std::string WaveformTracer::save_file_text() const {
  if (!own_save_file_.empty()) return own_save_file_;
  const std::string save = save_file_for(path_);
  const std::string dump = file_io::base_of(path_);
  std::string g = "[*] GTKWave save file written by icnsim with " + dump + "\n" +
                  "[*] Open with: gtkwave " + dump + " " + file_io::base_of(save) + "\n" +
                  "[*] One group per block and port; counts in decimal, states by name (the .filter files).\n" +
                  "[dumpfile] \"" + dump + "\"\n[size] 1400 900\n";
  // The first screen shows the run (its first 5000 cycles), not GTKWave's default few.
  const Cycle last = time_per_cycle_ == 0 ? 0 : last_time_ / time_per_cycle_ + 1;
  g += window_lines(0, std::min<Cycle>(last, 5000), {});
  const RowContext c = row_context();
  auto shown = [&](const std::string& name) { return shown_name(name, c.top); };
  // Groups in the order of their first row.
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::size_t>> rows;
  for (std::size_t i = 0; i < vars_.size(); ++i) {
    const std::string group = vars_[i].row.group.empty() ? scope_of(vars_[i].name) : vars_[i].row.group;
    if (rows.count(group) == 0) groups.push_back(group);
    rows[group].push_back(i);
  }
  for (const std::string& group : groups) {
    if (!group.empty()) g += "@800200\n-" + shown(group) + "\n";
    for (std::size_t i : rows[group]) g += row_text(i, c);
    if (!group.empty()) g += "@1000200\n-" + shown(group) + "\n";
  }
  return g;
}

std::string WaveformTracer::write_save_files() {
  const std::string save = save_file_for(path_);
  if (save.empty()) return "";
  for (const Filter& f : filters_) {
    std::string text = "# icnsim: the names of " + f.name + "'s values (a GTKWave translate filter file)\n";
    for (const auto& [value, name] : f.values) text += std::to_string(value) + " " + name + "\n";
    if (!write_text_file(filter_file_for(save, f.name), text))
      return "cannot write '" + filter_file_for(save, f.name) + "': " + std::strerror(errno);
  }
  if (!write_text_file(save, save_file_text())) return "cannot write '" + save + "': " + std::strerror(errno);
  for (const auto& [path, text] : extra_save_files_)
    if (!write_text_file(path, text())) return "cannot write '" + path + "': " + std::strerror(errno);
  return "";
}

namespace {

// The variables of a Verilated VCD's header, by scope path (Verilator names
// an instance by its host's dotted SystemC name: one scope whose name has dots).
struct RtlVar {
  std::vector<std::string> scopes;
  std::string name;  // with its range: "data_o [31:0]" is shown as "data_o[31:0]"
};

bool read_rtl_header(const std::string& file, std::vector<RtlVar>& vars) {
  std::FILE* f = std::fopen(file.c_str(), "r");
  if (f == nullptr) return false;
  std::vector<std::string> scopes;
  char word[4096];
  // Tokens separated by blanks, up to $enddefinitions.
  auto next = [&](std::string& w) {
    if (std::fscanf(f, "%4095s", word) != 1) return false;
    w = word;
    return true;
  };
  std::string w;
  while (next(w) && w != "$enddefinitions") {
    if (w == "$scope") {
      std::string kind, name;
      if (!next(kind) || !next(name)) break;
      scopes.push_back(name);
    } else if (w == "$upscope") {
      if (!scopes.empty()) scopes.pop_back();
    } else if (w == "$var") {
      std::string kind, size, id, name, range;
      if (!next(kind) || !next(size) || !next(id) || !next(name) || !next(range)) break;
      if (range != "$end") name += range;
      vars.push_back({scopes, name});
    }
  }
  std::fclose(f);
  return true;
}

// Where a top module's signal goes in its group: inputs, outputs, then _q
// registers (lowRISC names); -1 for the rest, and for clk_i, which one
// sample per cycle shows flat.
int row_rank(const std::string& name) {
  const std::string base = name.substr(0, name.find('['));
  if (base == "clk_i") return -1;
  return ends_with(base, "_i") ? 0 : ends_with(base, "_o") ? 1 : ends_with(base, "_q") ? 2 : -1;
}

}  // namespace

std::string WaveformTracer::write_rtl_save_file(const std::string& rtl_file) const {
  const std::string save = save_file_for(rtl_file);
  if (save.empty()) return "";
  std::vector<RtlVar> vars;
  if (!read_rtl_header(rtl_file, vars)) return "cannot read '" + rtl_file + "' back: " + std::strerror(errno);
  const std::string dump = file_io::base_of(rtl_file);
  std::string g = "[*] GTKWave save file written by icnsim with " + dump + "\n" +
                  "[*] Open with: gtkwave " + dump + " " + file_io::base_of(save) + "\n" +
                  "[*] One group per Verilated block, named by the block that hosts it: its top module's ports and\n"
                  "[*] _q registers (the file holds every signal). One sample per cycle, before the cycle's clock\n"
                  "[*] edge, at the same times as " + file_io::base_of(path_) + " (clk_i, flat at one sample a cycle, is left out).\n" +
                  "[dumpfile] \"" + dump + "\"\n[size] 1400 900\n";
  const Cycle last = time_per_cycle_ == 0 ? 0 : last_time_ / time_per_cycle_ + 1;
  g += window_lines(0, std::min<Cycle>(last, 5000), {});
  // The top module of each instance: the instance's scope, then one module scope.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const RtlVar*>> rows;
  for (const RtlVar& v : vars)
    if (v.scopes.size() == 2 && row_rank(v.name) >= 0) {
      if (rows.find(v.scopes[0]) == rows.end()) order.push_back(v.scopes[0]);
      rows[v.scopes[0]].push_back(&v);
    }
  for (auto& [instance, list] : rows)
    std::stable_sort(list.begin(), list.end(),
                     [](const RtlVar* a, const RtlVar* b) { return row_rank(a->name) < row_rank(b->name); });
  for (const std::string& instance : order) {
    // "icnsim.net.nic0_route_stream_generator_0.rtl" -> "net/nic0_route_stream_generator_0/rtl".
    const std::string shown = slashed(instance.compare(0, 7, "icnsim.") == 0 ? instance.substr(7) : instance);
    g += "@800200\n-" + shown + "\n";
    for (const RtlVar* v : rows[instance]) {
      const bool wide = v->name.find('[') != std::string::npos;
      g += std::string(wide ? "@24" : "@28") + "\n+{" + shown + "/" + v->name.substr(0, v->name.find('[')) + "} " +
           v->scopes[0] + "." + v->scopes[1] + "." + v->name + "\n";
    }
    g += "@1000200\n-" + shown + "\n";
  }
  if (!write_text_file(save, g)) return "cannot write '" + save + "': " + std::strerror(errno);
  return "";
}

void WaveformTracer::fail(const std::string& why) {
  if (error_.empty()) error_ = why;
}

void WaveformTracer::vcd_write(const std::string& text) {
  written_ += text.size();
  buffer_ += text;
  if (buffer_.size() >= (1u << 16)) vcd_flush();
}

void WaveformTracer::vcd_flush() {
  if (!error_.empty() || buffer_.empty()) {
    buffer_.clear();
    return;
  }
  if (!file_io::write_all(fd_, buffer_.data(), buffer_.size()))
    fail("cannot write waveforms to '" + path_ + "': " + std::strerror(errno));
  buffer_.clear();
}

void WaveformTracer::declare() {
  if (declared_) return;
  declared_ = true;
  values_.assign(probes_.size(), 0);
  last_.assign(probes_.size(), 0);
  const Scope top = scope_tree(vars_);
  if (fst_format_) {
    std::string().swap(header_);  // the estimate's VCD header: not written here
    if (fst_ == nullptr) return;
    fst_handles_.assign(vars_.size(), 0);
    auto emit = [&](auto&& self, const Scope& s) -> void {
      for (std::size_t i : s.vars)
        fst_handles_[i] = fstWriterCreateVar(fst_, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, static_cast<std::uint32_t>(vars_[i].bits),
                                             leaf_of(vars_[i].name).c_str(), 0);
      for (const std::string& child : s.order) {
        fstWriterSetScope(fst_, FST_ST_VCD_MODULE, child.c_str(), nullptr);
        self(self, s.children.at(child));
        fstWriterSetUpscope(fst_);
      }
    };
    const bool ok = fst_guarded([&] {
      fstWriterSetScope(fst_, FST_ST_VCD_MODULE, "SystemC", nullptr);
      emit(emit, top);
      fstWriterSetUpscope(fst_);
      // Every value starts at 0 at time 0.
      fstWriterEmitTimeChange(fst_, 0);
      for (std::size_t i = 0; i < fst_handles_.size(); ++i)
        fstWriterEmitValueChange32(fst_, fst_handles_[i], static_cast<std::uint32_t>(vars_[i].bits), 0);
    });
    if (!ok) abandon_fst();
    return;
  }
  vcd_ids_.resize(vars_.size());
  for (std::size_t i = 0; i < vars_.size(); ++i) vcd_ids_[i] = vcd_id(i);
  // The header the size estimate built, if it did (a million rows' header is
  // tens of MB: built once).
  vcd_write(header_.empty() ? vcd_header() : header_);
  std::string().swap(header_);
}

std::string WaveformTracer::vcd_header() const {
  const Scope top = scope_tree(vars_);
  std::string h = "$version icnsim $end\n$timescale " + timescale_ + " $end\n";
  auto emit = [&](auto&& self, const Scope& s, int depth) -> void {
    const std::string indent(static_cast<std::size_t>(depth), ' ');
    for (std::size_t i : s.vars) {
      h += indent + "$var wire " + std::to_string(vars_[i].bits) + " " + vcd_id(i) + " " + leaf_of(vars_[i].name);
      if (vars_[i].bits > 1) h += " [" + std::to_string(vars_[i].bits - 1) + ":0]";
      h += " $end\n";
    }
    for (const std::string& child : s.order) {
      h += indent + "$scope module " + child + " $end\n";
      self(self, s.children.at(child), depth + 1);
      h += indent + "$upscope $end\n";
    }
  };
  h += "$scope module SystemC $end\n";
  emit(emit, top, 1);
  h += "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n";
  for (std::size_t i = 0; i < vars_.size(); ++i) h += (vars_[i].bits == 1 ? "0" : "b0 ") + vcd_id(i) + "\n";
  h += "$end\n";
  return h;
}

double WaveformTracer::estimate_bytes(const TraceEstimate& e, Cycle from, Cycle to, std::string& why) const {
  if (header_.empty()) header_ = vcd_header();  // written by declare() as it is
  const double header = static_cast<double>(header_.size());
  const double cycles = e.cycles > 0 ? e.cycles : 0;
  // The window's share of the run (outputs.trace_window), and the probes'
  // share of all the network offered (outputs.trace_routers).
  double window = 1;
  if (cycles > 0) {
    const double last = std::min(cycles, to == kNever ? cycles : static_cast<double>(to) + 1);
    window = std::max(0.0, last - std::min(static_cast<double>(from), last)) / cycles;
  }
  const double kept = offered_ == 0 ? 1 : static_cast<double>(vars_.size() - 1) / static_cast<double>(offered_);  // but the cycle counter
  // Every sampled cycle writes its time and the cycle counter: "#<time>\n"
  // and "b<binary cycle> <id>\n".
  const double per_cycle =
      6 + std::log2(std::max(2.0, cycles)) + std::log10(std::max(10.0, cycles * static_cast<double>(time_per_cycle_)));
  const double body = cycles * window * per_cycle + e.transfers * e.bytes_per_transfer * window * kept;
  char text[200];
  if (cycles > 0)
    std::snprintf(text, sizeof text, "%.0f probes (%.2g bytes of declarations) over %.0f cycles",
                  static_cast<double>(vars_.size()), header, cycles * window);
  else  // the family does not estimate its traffic: the limit is also checked as the file grows
    std::snprintf(text, sizeof text, "%.0f probes, %.2g bytes of declarations; the traffic is not estimated for this family",
                  static_cast<double>(vars_.size()), header);
  why = text;
  if (!e.why.empty()) why += ", " + e.why;
  return header + body;
}

void WaveformTracer::sample(Cycle t) {
  declare();
  for (std::size_t i = 0; i < probes_.size(); ++i) values_[i] = probes_[i](t);
  if (!error_.empty()) return;  // the file is lost already; finish() reports why
  const std::uint64_t time = static_cast<std::uint64_t>(t) * time_per_cycle_;
  last_time_ = time;
  if (fst_format_) {
    const bool ok = fst_guarded([&] {
      bool time_written = false;
      for (std::size_t i = 0; i < values_.size(); ++i) {
        const std::uint32_t v = values_[i];
        if (v == last_[i]) continue;
        last_[i] = v;
        if (!time_written) fstWriterEmitTimeChange(fst_, time);
        time_written = true;
        fstWriterEmitValueChange32(fst_, fst_handles_[i], static_cast<std::uint32_t>(vars_[i].bits), v);
      }
    });
    if (!ok) abandon_fst();
    check_limit(t);
    return;
  }
  std::string text;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    const std::uint32_t v = values_[i];
    if (v == last_[i]) continue;
    last_[i] = v;
    if (text.empty()) text += "#" + std::to_string(time) + "\n";
    text += vars_[i].bits == 1 ? std::string(v ? "1" : "0") + vcd_ids_[i] : "b" + binary(v) + " " + vcd_ids_[i];
    text += '\n';
  }
  if (!text.empty()) vcd_write(text);
  check_limit(t);
}

// outputs.max_trace_bytes during the run: the estimate can be wrong, the
// disk must not fill. The FST's size is read from its file now and then.
void WaveformTracer::check_limit(Cycle t) {
  if (limit_ <= 0 || !error_.empty()) return;
  double bytes = static_cast<double>(written_);
  if (fst_format_) {
    if ((++fst_samples_ & 1023u) != 0) return;
    struct stat st {};
    bytes = ::stat(work_.c_str(), &st) == 0 ? static_cast<double>(st.st_size) : 0;
  }
  if (bytes <= limit_) return;
  char text[160];
  std::snprintf(text, sizeof text, "the waveform reached outputs.max_trace_bytes = %.0f bytes at cycle %llu", limit_,
                static_cast<unsigned long long>(t));
  limit_reached_ = std::string(text) +
                   "; narrow it with outputs.trace_window or outputs.trace_routers, or raise outputs.max_trace_bytes";
  fail(limit_reached_);
  if (on_limit_) on_limit_();
}

// After a SIGBUS inside fstapi its state cannot be trusted: the writer is
// dropped (not closed) and the run carries on without a waveform.
void WaveformTracer::abandon_fst() {
  fail("cannot write waveforms to '" + path_ + "': the file system refused the FST writer's data (disk full?)");
  fst_ = nullptr;
  restore_sigbus_handler();
}

std::string WaveformTracer::finish() {
  if (finished_) return error_;
  declare();
  if (fst_ != nullptr || fst_format_) {
    if (fst_ != nullptr && fstWriterGetFseekFailed(fst_)) fail("cannot write waveforms to '" + path_ + "': seek failed");
    if (fst_ != nullptr && !fst_guarded([&] { fstWriterClose(fst_); })) {
      fail("cannot write waveforms to '" + path_ + "': the file system refused the FST writer's data (disk full?)");
    }
    if (fst_ != nullptr) restore_sigbus_handler();
    fst_ = nullptr;
    // fstapi does not report write errors: the file must read back whole.
    if (error_.empty()) {
      void* r = fstReaderOpen(work_.c_str());
      const bool whole = r != nullptr && fstReaderGetVarCount(r) == vars_.size() && fstReaderGetEndTime(r) == last_time_;
      if (r != nullptr) fstReaderClose(r);
      if (!whole) fail("cannot write waveforms to '" + path_ + "': the FST file did not read back whole (disk full?)");
    }
    if (error_.empty() && copy_to_target_) {
      const int in = ::open(work_.c_str(), O_RDONLY | O_CLOEXEC);
      const int out = in < 0 ? -1 : ::open(path_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
      if (in < 0 || out < 0) fail("cannot write waveforms to '" + path_ + "': " + std::strerror(errno));
      char buf[1 << 16];
      for (ssize_t n; error_.empty() && (n = ::read(in, buf, sizeof buf)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 || !file_io::write_all(out, buf, static_cast<std::size_t>(n)))
          fail("cannot write waveforms to '" + path_ + "': " + std::strerror(errno));
      }
      if (out >= 0 && ::close(out) != 0) fail("cannot write waveforms to '" + path_ + "': " + std::strerror(errno));
      if (in >= 0) ::close(in);
    }
  } else {
    // One more time step closes the last cycle, so its values span a period.
    vcd_write("#" + std::to_string(last_time_ + time_per_cycle_) + "\n");
    vcd_flush();
    if (error_.empty() && !in_place_ && ::fsync(fd_) != 0)
      fail("cannot write waveforms to '" + path_ + "': " + std::strerror(errno));
    if (::close(fd_) != 0) fail("cannot write waveforms to '" + path_ + "': " + std::strerror(errno));
    fd_ = -1;
  }
  if (error_.empty() && !in_place_ && ::rename(work_.c_str(), path_.c_str()) != 0)
    fail("cannot replace '" + path_ + "': " + std::strerror(errno));
  if (error_.empty()) fail(write_save_files());
  if (!error_.empty() || copy_to_target_) discard();
  for (const auto& companion : companions_) {  // each completes (or removes) its file, whatever ours did
    const std::string why = companion();
    if (error_.empty() && !why.empty()) error_ = why;
  }
  finished_ = true;
  return error_;
}

std::string WaveformTracer::rtl_file_for(const std::string& file) {
  const std::string ext = file.size() > 4 ? file.substr(file.size() - 4) : "";
  if (ext != ".vcd" && ext != ".fst") return file;  // a device or FIFO
  return file.substr(0, file.size() - 4) + ".rtl.vcd";
}

int bits_for(std::uint64_t max) {
  int bits = 1;
  while (bits < 64 && (max >> bits) != 0) ++bits;
  return bits;
}

}  // namespace icn
