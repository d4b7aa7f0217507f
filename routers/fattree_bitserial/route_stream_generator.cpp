#include "routers/fattree_bitserial/route_stream_generator.hpp"

#include <stdexcept>
#include <string>

namespace icn::bitserial {

const char* to_string(StreamBitKind kind) {
  switch (kind) {
    case StreamBitKind::kMessage: return "message";
    case StreamBitKind::kUp: return "up";
    case StreamBitKind::kTurn: return "turn";
    case StreamBitKind::kBuffer: return "buffer";
    case StreamBitKind::kDown: return "down";
  }
  return "?";
}

std::string RouteStream::text() const {
  std::string s;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (kinds[i] == StreamBitKind::kMessage) s += 'M';
    else if (kinds[i] == StreamBitKind::kBuffer) s += 'B';
    else s += bits[i] ? '1' : '0';
  }
  return s;
}

namespace {

// Emits the stream bit by bit, as the circuit's registers shift it out.
template <class Sink>
void emit_stream(unsigned height, NodeId src, NodeId dst, BufferFill fill, Sink&& sink) {
  if (height < 1 || height > BehaviouralRouteStreamGenerator::kMaxHeight)
    throw std::invalid_argument("route stream: height must be 1.." +
                                std::to_string(BehaviouralRouteStreamGenerator::kMaxHeight));
  const NodeId n = NodeId{1} << height;
  if (src >= n || dst >= n || src == dst)
    throw std::invalid_argument("route stream: need two different addresses below 2^height");

  // Comparator bank, most significant cell first: a cell's carry-out is high
  // once a pair of bits differed at or above it. Cells with a low carry-out lie
  // above the pivot (buffering); the pivot cell has carry-in low, carry-out high.
  enum Role : std::uint8_t { kAbove, kPivot, kBelow };
  Role role[32];
  bool carry = false;
  for (unsigned k = height; k-- > 0;) {
    const bool differ = ((src >> k) & 1u) != ((dst >> k) & 1u);
    role[k] = carry ? kBelow : (differ ? kPivot : kAbove);
    carry = carry || differ;
  }

  sink(true, StreamBitKind::kMessage);
  // Source register, least significant cell first (step 5, "reverse").
  bool turn_bit = false;
  unsigned buffers_left = 0;
  for (unsigned k = 0; k < height; ++k) buffers_left += role[k] == kAbove ? 4 : 0;  // 2 source + 2 destination
  auto buffer = [&] {
    --buffers_left;
    const bool value = fill == BufferFill::kTurnBit && buffers_left == 0 ? turn_bit : false;
    sink(value, StreamBitKind::kBuffer);
  };
  for (unsigned k = 0; k < height; ++k) {
    const bool s = ((src >> k) & 1u) != 0;
    switch (role[k]) {
      case kBelow: sink(!s, StreamBitKind::kUp); break;  // step 4: inverted
      case kPivot:
        turn_bit = s;  // not inverted: turns down at the pivot switch
        sink(s, StreamBitKind::kTurn);
        break;
      case kAbove: buffer(); buffer(); break;  // step 2: two buffering bits
    }
  }
  // Destination register, most significant cell first.
  for (unsigned k = height; k-- > 0;) {
    switch (role[k]) {
      case kAbove: buffer(); buffer(); break;
      case kPivot: break;  // step 3: dropped
      case kBelow: sink(((dst >> k) & 1u) != 0, StreamBitKind::kDown); break;
    }
  }
}

}  // namespace

BehaviouralRouteStreamGenerator::BehaviouralRouteStreamGenerator(unsigned height, BufferFill fill)
    : height_(height), fill_(fill) {
  if (height < 1 || height > kMaxHeight) throw std::invalid_argument("route stream generator: bad height");
}

void BehaviouralRouteStreamGenerator::load(NodeId src, NodeId dst) {
  register_ = {};
  length_ = 0;
  position_ = 0;
  emit_stream(height_, src, dst, fill_, [this](bool bit, StreamBitKind) {
    if (bit) register_[length_ / 64] |= std::uint64_t{1} << (length_ % 64);
    ++length_;
  });
}

StreamBit BehaviouralRouteStreamGenerator::next_bit() {
  if (position_ >= length_) return StreamBit{false, false};
  const bool bit = ((register_[position_ / 64] >> (position_ % 64)) & 1u) != 0;
  ++position_;
  return StreamBit{true, bit};
}

RouteStream BehaviouralRouteStreamGenerator::compose(unsigned height, NodeId src, NodeId dst, BufferFill fill) {
  RouteStream stream;
  emit_stream(height, src, dst, fill, [&](bool bit, StreamBitKind kind) {
    stream.bits.push_back(bit);
    stream.kinds.push_back(kind);
  });
  return stream;
}

}  // namespace icn::bitserial
