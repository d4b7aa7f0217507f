// Result files: every output path is checked before the model is elaborated,
// so a bad path costs nothing; results are written atomically (a temporary
// file in the same folder, then rename), with every write and the close
// checked, so a reader never sees a partial or stale file.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

// Whether two paths name the same file: the same inode when both exist, else
// the same absolute path once the folders are resolved (symbolic links, ./,
// ../). Device files like /dev/null are never "the same" as anything, so that
// several outputs may be discarded at once.
bool same_file(const std::string& a, const std::string& b);

// Throws ConfigError when two of the outputs (key, path), or an output and an
// input file, name the same file: one would overwrite the other.
void check_distinct_files(const std::vector<std::pair<std::string, std::string>>& outputs,
                          const std::vector<std::pair<std::string, std::string>>& inputs);

// The file the waveform tracer writes for `path` (see WaveformTracer::file_for).
std::string vcd_file_for(const std::string& path);

}  // namespace icn
