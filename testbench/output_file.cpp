#include "testbench/output_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "models/config.hpp"
#include "models/file_io.hpp"
#include "models/trace.hpp"

namespace icn {

namespace {

void write_all(int fd, const std::string& text, const std::string& path) {
  if (!file_io::write_all(fd, text.data(), text.size()))
    throw OutputError("cannot write '" + shown(path) + "': " + std::strerror(errno));
}

}  // namespace

std::string vcd_file_for(const std::string& path) {
  return WaveformTracer::file_for(path);
}

namespace {

// The absolute path a name resolves to, with its folder's links resolved.
std::string resolved_path(const std::string& path) {
  char buffer[PATH_MAX];
  if (::realpath(path.c_str(), buffer) != nullptr) return buffer;
  if (::realpath(file_io::folder_of(path).c_str(), buffer) != nullptr)
    return std::string(buffer) + "/" + file_io::base_of(path);
  return path;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  const bool a_exists = ::stat(a.c_str(), &sa) == 0, b_exists = ::stat(b.c_str(), &sb) == 0;
  if ((a_exists && !S_ISREG(sa.st_mode)) || (b_exists && !S_ISREG(sb.st_mode))) return false;
  if (a_exists && b_exists) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (a_exists != b_exists) return false;
  return resolved_path(a) == resolved_path(b);
}

void check_distinct_files(const std::vector<std::pair<std::string, std::string>>& outputs,
                          const std::vector<std::pair<std::string, std::string>>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (const auto& [key, path] : inputs)
      if (same_file(outputs[i].second, path))
        throw ConfigError(outputs[i].first + " = '" + shown(outputs[i].second, 400) + "' is the " + key +
                          ": it would be overwritten (name a different file)");
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (same_file(outputs[i].second, outputs[j].second))
        throw ConfigError(outputs[i].first + " and " + outputs[j].first + " name the same file '" +
                          shown(outputs[i].second, 400) + "' (each output needs its own file)");
  }
}

void check_output_path(const std::string& key, const std::string& path) {
  const std::string head = key + " = '" + shown(path) + "': ";
  const std::string allowed = " (a file path in an existing, writable folder)";
  if (path.size() > PATH_MAX - 64) throw ConfigError(head + "path longer than " + std::to_string(PATH_MAX - 64) + " bytes" + allowed);
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    // Room for the temporary file's prefix and suffix.
    if (end - start > NAME_MAX - 32)
      throw ConfigError(head + "a name in the path is longer than " + std::to_string(NAME_MAX - 32) + " bytes" + allowed);
    start = end + 1;
  }
  if (path.back() == '/') throw ConfigError(head + "names a folder, not a file" + allowed);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw ConfigError(head + "is a directory" + allowed);
    if (!S_ISREG(st.st_mode)) return;  // a device or FIFO: written in place
  } else if (errno != ENOENT) {
    throw ConfigError(head + std::strerror(errno) + allowed);
  }
  const std::string folder = file_io::folder_of(path);
  if (::stat(folder.c_str(), &st) != 0) {
    if (errno == ENOENT) throw ConfigError(head + "folder '" + shown(folder) + "' does not exist" + allowed);
    throw ConfigError(head + "folder '" + shown(folder) + "': " + std::strerror(errno) + allowed);
  }
  if (!S_ISDIR(st.st_mode)) throw ConfigError(head + "'" + shown(folder) + "' is not a folder" + allowed);
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw ConfigError(head + "folder '" + shown(folder) + "' is not writable: " + std::strerror(errno) + allowed);
  // Permissions do not tell everything (root, /proc, read-only mounts): create
  // the file once, then remove it unless it was there before.
  const bool existed = ::access(path.c_str(), F_OK) == 0;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) throw ConfigError(head + "cannot be created: " + std::strerror(errno) + allowed);
  ::close(fd);
  if (!existed) ::unlink(path.c_str());
}

void write_file_atomically(const std::string& path, const std::string& text) {
  if (!file_io::is_regular_or_missing(path)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) throw OutputError("cannot open '" + shown(path) + "': " + std::strerror(errno));
    try {
      write_all(fd, text, path);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) throw OutputError("cannot write '" + shown(path) + "': " + std::strerror(errno));
    return;
  }
  const std::string temp = file_io::temporary_beside(path);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw OutputError("cannot create '" + shown(temp) + "': " + std::strerror(errno));
  try {
    write_all(fd, text, path);
    if (::fsync(fd) != 0) throw OutputError("cannot write '" + shown(path) + "': " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(temp.c_str());
    throw OutputError("cannot write '" + shown(path) + "': " + std::strerror(e));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(temp.c_str());
    throw OutputError("cannot replace '" + shown(path) + "': " + std::strerror(e));
  }
}

}  // namespace icn
