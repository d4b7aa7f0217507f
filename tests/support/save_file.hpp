// A GTKWave save file as icnsim writes it, read back for tests: its groups
// (the title after each group opening), its rows ("+{label} signal[msb:0]":
// the label and the signal without its range) and markers A and B (the view
// line "*<zoom> <marker> <A> <B> ...").
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace icn::test {

struct SaveFileRow {
  std::string label, signal;
};

struct SaveFile {
  std::vector<std::string> groups;
  std::vector<SaveFileRow> rows;
  long long marker_a = -2, marker_b = -2;  // -1: unset; -2: no view line
};

// One row line, "+{label} signal[..]".
inline SaveFileRow save_file_row(const std::string& line) {
  const std::size_t close = line.find("} ");
  const std::string signal = line.substr(close + 2);
  return {line.substr(2, close - 2), signal.substr(0, signal.find('['))};
}

inline SaveFile parse_save_file(const std::string& text) {
  SaveFile f;
  std::istringstream in(text);
  bool title_next = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("@800200", 0) == 0) {
      f.groups.emplace_back();
      title_next = true;
      continue;
    }
    if (title_next && line.rfind("-", 0) == 0) f.groups.back() = line.substr(1);
    title_next = false;
    if (line.rfind("*", 0) == 0) {
      std::istringstream view(line);
      std::string zoom;
      long long primary = 0;
      view >> zoom >> primary >> f.marker_a >> f.marker_b;
    }
    if (line.rfind("+{", 0) == 0) f.rows.push_back(save_file_row(line));
  }
  return f;
}

}  // namespace icn::test
