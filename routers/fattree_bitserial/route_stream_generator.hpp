// RouteStreamGenerator: the NIC block that turns a (source, destination) pair
// into Ishii's routing-bit stream (1985, sections 3.3 and 3.4), one bit per
// clock.
//
// The stream, first bit first:
//   M                      the message bit, 1: marks a valid stream
//   h routing bits         up to the turning switch at height h = pivot index + 1:
//                          the source address bits below the pivot, inverted,
//                          least significant first, then the pivot bit itself
//   4(H-h) buffering bits  every source and destination address bit above the
//                          pivot becomes two buffering bits (READING-NOTES), so
//                          the turning switch ignores them while streams that go
//                          through the root come down to it
//   h-1 routing bits       down to the destination: the destination address bits
//                          below the pivot, most significant first
// The NIC appends the message bits after the generator's last bit.
//
// This is the interface an RTL generator (issue 4, the section 3.4 circuit,
// Verilated) plugs into. Its contract is that of a clocked block with a load
// port and (valid, bit) outputs:
//   load(src, dst)  a parallel load of both address registers at one clock edge;
//   next_bit()      returns the outputs of the current cycle (valid, bit), then
//                   advances one clock. The first next_bit() after load() is M;
//                   valid stays 1 for exactly the stream's length, then 0 until
//                   the next load.
// The switches ignore buffering bits, so their values are the generator's
// choice (BufferFill); every other bit must be exactly as above.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn::bitserial {

struct StreamBit {
  bool valid = false;
  bool bit = false;
};

enum class BufferFill : std::uint8_t {
  kZero,     // every buffering bit 0 (the paper's "undefined")
  kTurnBit,  // 0, except the last one, which repeats the turning bit (figures 6-8)
};

enum class StreamBitKind : std::uint8_t { kMessage, kUp, kTurn, kBuffer, kDown };
const char* to_string(StreamBitKind kind);

class RouteStreamGenerator {
 public:
  virtual ~RouteStreamGenerator() = default;
  virtual void load(NodeId src, NodeId dst) = 0;
  virtual StreamBit next_bit() = 0;
};

// A whole stream with what every bit is (tests, docs, waveform legends).
struct RouteStream {
  std::vector<bool> bits;
  std::vector<StreamBitKind> kinds;
  // "M01010", "M10BBBB0": B for a buffering bit whatever its value.
  std::string text() const;
};

// The behavioural generator: the section 3.3 construction as the section 3.4
// circuit performs it (a comparator carry chain from the most significant bit
// marks the pivot; source cells shift out least significant first, inverting
// all but the pivot; destination cells shift out most significant first,
// dropping the pivot; cells above the pivot act as two buffering cells).
class BehaviouralRouteStreamGenerator : public RouteStreamGenerator {
 public:
  static constexpr unsigned kMaxHeight = 31;  // 4H - 2 bits fit the 128-bit register

  BehaviouralRouteStreamGenerator(unsigned height, BufferFill fill);

  void load(NodeId src, NodeId dst) override;
  StreamBit next_bit() override;

  // The stream for (src, dst), bit by bit with kinds. src != dst, both < 2^height.
  static RouteStream compose(unsigned height, NodeId src, NodeId dst, BufferFill fill);

  // The longest stream a tree of this height needs: M plus 4H - 3 (a sibling pair).
  static unsigned max_length(unsigned height) { return 4 * height - 2; }

 private:
  unsigned height_;
  BufferFill fill_;
  std::array<std::uint64_t, 2> register_{};  // bit i of the stream at position i
  unsigned length_ = 0;
  unsigned position_ = 0;
};

}  // namespace icn::bitserial
