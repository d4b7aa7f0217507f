// Section 3.3 of Ishii's memo, applied literally, as an independent reference
// for the RTL: written from the memo's six steps, not from the behavioural
// generator's code.
#pragma once

#include <string>

namespace icn::test {

// The stream for src -> dst on a tree of height H as '0'/'1' characters, M first.
// Buffering bits are 0 except, with turn_fill, the last one, which repeats the
// turning bit (the memo's Figures 6-8).
inline std::string section33_stream(unsigned height, unsigned src, unsigned dst, bool turn_fill) {
  int pivot = -1;  // step 1: most significant differing bit
  for (int k = static_cast<int>(height) - 1; k >= 0 && pivot < 0; --k)
    if (((src >> k) & 1u) != ((dst >> k) & 1u)) pivot = k;
  std::string s, d;  // most significant first; 'B' marks a buffering bit
  for (int k = static_cast<int>(height) - 1; k >= 0; --k) {
    const char sb = static_cast<char>('0' + ((src >> k) & 1u));
    const char db = static_cast<char>('0' + ((dst >> k) & 1u));
    if (k > pivot) {  // step 2: two buffering bits, in both addresses
      s += "BB";
      d += "BB";
    } else if (k == pivot) {
      s += sb;  // step 4: the pivot is not inverted; step 3: dropped from dst
    } else {
      s += sb == '0' ? '1' : '0';  // step 4: invert
      d += db;
    }
  }
  std::string stream = "1" + std::string(s.rbegin(), s.rend()) + d;  // steps 5 and 6
  const auto last = stream.rfind('B');
  for (char& c : stream)
    if (c == 'B') c = '0';
  if (turn_fill && last != std::string::npos) stream[last] = static_cast<char>('0' + ((src >> pivot) & 1u));
  return stream;
}

}  // namespace icn::test
