// CheckedVcdFile: the file behind a Verilator VCD (the RTL waveforms,
// FILE.rtl.vcd), written like every other output of a run (models/trace.hpp,
// models/file_io.hpp): to a temporary file beside the target, renamed into
// place by finish() only when every write and the close succeeded; a device
// (/dev/null, /dev/full) is written in place.
//
// Verilator's own file aborts the process when a write fails (its buffer
// flush calls VL_FATAL: a full disk killed the run with SIGABRT). This one
// never reports a failure to Verilator: it records the first error, drops
// later data, and finish() says what went wrong in one line.
//
// Header-only: only the Verilated blocks' code includes it (it needs
// Verilator's headers).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <verilated_vcd_c.h>

#include "models/file_io.hpp"

namespace icn {

// Puts a Verilated waveform on a time base given as WaveformTracer::timescale()
// ("1 ns", "1 ps"): both its unit and its resolution, so that dump(t) writes
// time t in those units. Verilator reads the unit without the blank ("1ns").
inline void set_time_base(VerilatedVcdC& vcd, std::string unit) {
  unit.erase(std::remove(unit.begin(), unit.end(), ' '), unit.end());
  vcd.set_time_unit(unit);
  vcd.set_time_resolution(unit);
}

class CheckedVcdFile : public VerilatedVcdFile {
 public:
  CheckedVcdFile() = default;
  ~CheckedVcdFile() override {
    if (fd_ >= 0) ::close(fd_);
    if (!finished_ && !in_place_ && !work_.empty()) ::unlink(work_.c_str());  // never a partial file in place
  }
  CheckedVcdFile(const CheckedVcdFile&) = delete;
  CheckedVcdFile& operator=(const CheckedVcdFile&) = delete;

  bool open(const std::string& name) override {
    target_ = name;
    in_place_ = !file_io::is_regular_or_missing(name);
    work_ = in_place_ ? name : file_io::temporary_beside(name);
    fd_ = ::open(work_.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      note("cannot create " + work_ + ": " + std::strerror(errno));
      work_.clear();
      return false;
    }
    return true;
  }

  ssize_t write(const char* bufp, ssize_t len) override {
    if (fd_ >= 0 && error_.empty() && !file_io::write_all(fd_, bufp, static_cast<std::size_t>(len)))
      note(std::string("write failed: ") + std::strerror(errno));
    return len;  // never a failure Verilator would answer with VL_FATAL
  }

  void close() override {
    if (fd_ < 0) return;
    if (::close(fd_) != 0) note(std::string("close failed: ") + std::strerror(errno));
    fd_ = -1;
  }

  // After the trace was closed: puts the file in place. "" on success, else one line.
  std::string finish() {
    if (finished_) return error_;
    finished_ = true;
    close();
    if (error_.empty() && !in_place_ && !work_.empty() && std::rename(work_.c_str(), target_.c_str()) != 0)
      note("cannot rename the finished file into place: " + std::string(std::strerror(errno)));
    if (!error_.empty() && !in_place_ && !work_.empty()) ::unlink(work_.c_str());
    return error_.empty() ? "" : target_ + ": " + error_;
  }
  const std::string& error() const { return error_; }

 private:
  void note(const std::string& why) {
    if (error_.empty()) error_ = why;
  }

  std::string target_, work_;
  bool in_place_ = false;
  bool finished_ = false;
  int fd_ = -1;
  std::string error_;
};

}  // namespace icn
