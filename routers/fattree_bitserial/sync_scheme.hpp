// SyncScheme: the four answers of Ishii 1985, section 2.1, to the
// synchronisation problem of the bit-serial fat tree - a stream that turns low
// in the tree reaches its turning switch long before the streams that come
// down the trunk to the same outputs, so the switch cannot give them priority
// or even know they exist when it must decide.
//
//   midstream  (2.1.4) buffering bits in the middle of the stream; the turning
//              switch holds the stream and ignores them until the trunk
//              streams arrive (the scheme the memo recommends; the default)
//   prefix     (2.1.3) the same buffering bits at the front of the stream (the
//              NIC starts it later); switches decide as streams arrive. Modelled
//              without flushing, the memo's "not even a valid solution": a
//              switch commits an output before every stream for it has arrived
//   flush      (2.1.1) streams carry no buffering bits, switches decide as
//              streams arrive, and a stream coming down the trunk flushes a
//              turning (low-priority) stream from a branch output it finds full
//   store      (2.1.2) streams carry no buffering bits; the turning switch
//              stores the bits arriving on a branch until the trunk streams
//              arrive (a delay line per branch input path)
#pragma once

#include <cstdint>

namespace icn::bitserial {

enum class SyncScheme : std::uint8_t { kMidstream, kPrefix, kFlush, kStore };

inline const char* to_string(SyncScheme s) {
  switch (s) {
    case SyncScheme::kMidstream: return "midstream";
    case SyncScheme::kPrefix: return "prefix";
    case SyncScheme::kFlush: return "flush";
    case SyncScheme::kStore: return "store";
  }
  return "?";
}

// Switches that hold a turning stream until the trunk streams' decision clock.
inline bool holds_turning_streams(SyncScheme s) { return s == SyncScheme::kMidstream || s == SyncScheme::kStore; }

}  // namespace icn::bitserial
