// Small POSIX file helpers shared by every output writer (JSON, VCD, FST, save
// files): where a path's folder is, whether a path may be replaced by rename,
// the temporary name a file is written under before the rename, and a write
// that retries until every byte is out.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <string>

namespace icn::file_io {

inline std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

inline std::string base_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A regular file or nothing yet: written beside and renamed into place.
// Anything else (a device, a FIFO) is written in place.
inline bool is_regular_or_missing(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode);
}

// The hidden temporary file beside `path` that becomes `path` when complete.
inline std::string temporary_beside(const std::string& path) {
  return folder_of(path) + "/." + base_of(path) + ".tmp" + std::to_string(::getpid());
}

// Writes all of `n` bytes; false (errno set, EIO for a zero-length write) on failure.
inline bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

}  // namespace icn::file_io
