// The stream generators of the synchronisation schemes other than mid-stream
// buffering (sync_scheme.hpp). Both start from the section 3.3 stream
// (BehaviouralRouteStreamGenerator::compose) and move or drop its 4(H-h)
// buffering bits; the routing bits themselves are the same.
#pragma once

#include <memory>

#include "routers/fattree_bitserial/route_stream_generator.hpp"

namespace icn::bitserial {

// A generator that shifts out a precomputed stream, one bit per clock.
class ShiftOutGenerator : public RouteStreamGenerator {
 public:
  StreamBit next_bit() override {
    if (position_ >= bits_.size()) return StreamBit{false, false};
    return StreamBit{true, bits_[position_++]};
  }

 protected:
  // The section 3.3 stream from src to dst without its buffering bits, or
  // with them moved in front of M as 0s (`buffering_in_front`).
  void load_recomposed(unsigned height, NodeId src, NodeId dst, bool buffering_in_front) {
    const RouteStream s = BehaviouralRouteStreamGenerator::compose(height, src, dst, BufferFill::kZero);
    bits_.clear();
    position_ = 0;
    if (buffering_in_front)
      for (const StreamBitKind k : s.kinds)
        if (k == StreamBitKind::kBuffer) bits_.push_back(false);
    for (std::size_t i = 0; i < s.bits.size(); ++i)
      if (s.kinds[i] != StreamBitKind::kBuffer) bits_.push_back(s.bits[i]);
  }

  std::vector<bool> bits_;
  std::size_t position_ = 0;
};

// Prefix buffering (2.1.3): the buffering bits go in front of M, as 0s, so a
// stream turning at height h starts 4(H-h) clocks late and reaches its turning
// switch exactly when the streams from the trunk do. A switch sees the 0s as
// an idle wire.
class PrefixRouteStreamGenerator : public ShiftOutGenerator {
 public:
  explicit PrefixRouteStreamGenerator(unsigned height) : height_(height) {}
  void load(NodeId src, NodeId dst) override { load_recomposed(height_, src, dst, true); }

 private:
  unsigned height_;
};

// Flushing (2.1.1) and storing routing bits in the nodes (2.1.2): the stream
// has no buffering bits at all, M, the up bits, the turning bit and the down
// bits (the stream of the memo's figures 3-5).
class UnbufferedRouteStreamGenerator : public ShiftOutGenerator {
 public:
  explicit UnbufferedRouteStreamGenerator(unsigned height) : height_(height) {}
  void load(NodeId src, NodeId dst) override { load_recomposed(height_, src, dst, false); }

 private:
  unsigned height_;
};

}  // namespace icn::bitserial
