// Result files: every output path is checked before the model is elaborated,
// so a bad path costs nothing; results are written atomically (a temporary
// file in the same folder, then rename), with every write and the close
// checked, so a reader never sees a partial or stale file.
#pragma once

#include <stdexcept>
#include <string>

namespace icn {

// A result file could not be written (disk full, I/O error): one line.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws ConfigError naming `key` when `path` cannot be a file we create:
// a directory, a missing folder, an unwritable folder, an over-long name.
// Existing non-regular files (e.g. /dev/null) are accepted and written in place.
void check_output_path(const std::string& key, const std::string& path);

// Writes `text` to `path` atomically (in place for non-regular files);
// throws OutputError with the reason.
void write_file_atomically(const std::string& path, const std::string& text);

// The file the waveform tracer writes for `path` (see WaveformTracer::file_for).
std::string vcd_file_for(const std::string& path);

}  // namespace icn
