// StreamFollower: follows the messages a run names (outputs.trace_packet)
// through the bit-serial tree as the hardware moves them, for the per-message
// save files (FILE.packet<ID>.gtkw).
//
// Nothing on the wires names a message: a stream is a run of bits on one
// physical path. So the follower tags paths. When a NIC drives the M bit of a
// followed message, the path it drives is tagged with the message for that
// delivery cycle; when a switch grants a tagged input path onto an output
// path, the hop is recorded and the output path tagged in turn; a denial (or a
// flush) records where the stream was lost; the destination NIC reading the
// last message bit on a tagged path records the ejection, and the source
// NIC's delivery report closes the attempt. A lost message is sent again in a
// later delivery cycle: each try is one Attempt.
//
// The NICs and switches report to it only when one is set (one null check
// per stream start, grant, denial, reception and report otherwise).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "models/types.hpp"
#include "routers/fattree_bitserial/bit_channel.hpp"
#include "routers/fattree_bitserial/delivery_cycle.hpp"

namespace icn::bitserial {

class StreamFollower {
 public:
  // A followed message id and, if the run's message set has it, the message.
  struct Message {
    std::uint32_t id = 0;
    bool in_set = false;
    NodeId src = kNoNode, dst = kNoNode;
    std::uint32_t seq = 0;
  };
  // One switch that connected the stream: it read it on input path
  // (in_port, in_path) and drove its M on output path (out_port, out_path) in `cycle`.
  struct Hop {
    unsigned level = 0, index = 0;
    unsigned in_port = 0, in_path = 0, out_port = 0, out_path = 0;
    const BitChannel* out = nullptr;
    Cycle cycle = 0;
  };
  // Where a switch denied (or flushed) it.
  struct Loss {
    unsigned level = 0, index = 0;
    unsigned in_port = 0, in_path = 0, out_port = 0;
    bool flushed = false;
    Cycle cycle = kNever;  // kNever: not lost at a switch
  };
  struct Attempt {
    std::uint64_t delivery_cycle = 0;
    const BitChannel* up = nullptr;  // the source NIC's up channel and the path it drove
    unsigned up_path = 0;
    Cycle started = 0;               // the clock the NIC drove M
    std::vector<Hop> hops;           // in route order
    Loss lost;
    NodeId received_by = kNoNode;    // the NIC that read its last message bit
    Cycle arrived = kNever;          // the clock that last bit was on the link into it
    Cycle reported = kNever;         // the source NIC's delivery report: acknowledged, or lost
    bool acknowledged = false;
  };
  struct Followed {
    Message message;
    std::vector<Attempt> attempts;
    // The attempt the save file shows: the first one received, else the last; null if none.
    const Attempt* shown() const {
      for (const Attempt& a : attempts)
        if (a.arrived != kNever) return &a;
      return attempts.empty() ? nullptr : &attempts.back();
    }
  };

  StreamFollower(const DeliveryCycleClock& clock, const std::vector<Message>& messages) : clock_(clock) {
    for (const Message& m : messages) {
      followed_.push_back(Followed{m, {}});
      if (m.in_set) by_message_.emplace(std::make_tuple(m.src, m.dst, m.seq), followed_.size() - 1);
    }
  }

  // NIC `src` drove the M bit of its message (dst, seq) on `up` path `path` in clock `now`.
  void started(NodeId src, NodeId dst, std::uint32_t seq, const BitChannel* up, unsigned path, Cycle now) {
    const auto it = by_message_.find(std::make_tuple(src, dst, seq));
    if (it == by_message_.end()) return;
    Attempt a;
    a.delivery_cycle = clock_.index(now);
    a.up = up;
    a.up_path = path;
    a.started = now;
    followed_[it->second].attempts.push_back(a);
    tag(up, path, it->second, now);
  }
  // A switch connected input path `in_path` of `in` (its port in_port) to
  // output path `out_path` of `out` (port out_port) and drove M there in `now`.
  void granted(unsigned level, unsigned index, const BitChannel* in, unsigned in_port, unsigned in_path,
               const BitChannel* out, unsigned out_port, unsigned out_path, Cycle now) {
    Attempt* a = tagged(in, in_path, now);
    if (a == nullptr) return;
    a->hops.push_back(Hop{level, index, in_port, in_path, out_port, out_path, out, now});
    tag(out, out_path, tags_[{in, in_path}].followed, now);
  }
  // A switch denied the stream on input path `in_path` of `in` the output port
  // `out_port` (flushed: a trunk stream took its path): it is lost.
  void denied(unsigned level, unsigned index, const BitChannel* in, unsigned in_port, unsigned in_path,
              unsigned out_port, bool flushed, Cycle now) {
    if (Attempt* a = tagged(in, in_path, now)) a->lost = Loss{level, index, in_port, in_path, out_port, flushed, now};
  }
  // NIC `at` read the last message bit of the stream on `down` path `path`;
  // the bit was on the link in clock `arrived`.
  void received(NodeId at, const BitChannel* down, unsigned path, Cycle arrived, Cycle now) {
    if (Attempt* a = tagged(down, path, now)) {
      a->received_by = at;
      a->arrived = arrived;
    }
  }
  // The source NIC's delivery report for its message (dst, seq).
  void reported(NodeId src, NodeId dst, std::uint32_t seq, bool acknowledged, Cycle now) {
    const auto it = by_message_.find(std::make_tuple(src, dst, seq));
    if (it == by_message_.end() || followed_[it->second].attempts.empty()) return;
    Attempt& a = followed_[it->second].attempts.back();
    a.reported = now;
    a.acknowledged = acknowledged;
  }

  const std::vector<Followed>& followed() const { return followed_; }
  const Followed* find(std::uint32_t id) const {
    for (const Followed& f : followed_)
      if (f.message.id == id) return &f;
    return nullptr;
  }

 private:
  struct Tag {
    std::size_t followed = 0;
    std::uint64_t delivery_cycle = 0;  // a tag holds for one delivery cycle: the paths are cleared at the next
  };
  void tag(const BitChannel* c, unsigned path, std::size_t followed, Cycle now) {
    tags_[{c, path}] = Tag{followed, clock_.index(now)};
  }
  // The attempt whose stream is on (c, path) in this delivery cycle, or null.
  Attempt* tagged(const BitChannel* c, unsigned path, Cycle now) {
    const auto it = tags_.find({c, path});
    if (it == tags_.end() || it->second.delivery_cycle != clock_.index(now)) return nullptr;
    auto& attempts = followed_[it->second.followed].attempts;
    return attempts.empty() ? nullptr : &attempts.back();
  }

  const DeliveryCycleClock& clock_;
  std::vector<Followed> followed_;
  std::map<std::tuple<NodeId, NodeId, std::uint32_t>, std::size_t> by_message_;
  std::map<std::pair<const BitChannel*, unsigned>, Tag> tags_;
};

}  // namespace icn::bitserial
