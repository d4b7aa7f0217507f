// Measurements of the host running the simulation (reported under `sim`, never
// part of the simulated results).
#pragma once

#include <chrono>
#include <cstdio>
#include <cstring>

namespace icn {

// Peak resident set size of this process in MiB (VmHWM), or -1 if unknown.
inline double peak_rss_mb() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  double kb = -1;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, "VmHWM:", 6) == 0) {
      kb = std::strtod(line + 6, nullptr);
      break;
    }
  }
  std::fclose(f);
  return kb < 0 ? -1 : kb / 1024.0;
}

class WallClock {
 public:
  WallClock() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace icn
