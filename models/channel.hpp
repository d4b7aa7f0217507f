// A channel: one direction of a fat-tree branch, i.e. `width` parallel physical
// links with the same latency (a branch of capacity c is c full-duplex physical
// links, so two Channels of width c). It is the shared Link (models/link.hpp)
// carrying packet handles, with a name for diagnostics and fault injection.
// A packet link is strict: a row the receiver never read would lose packets.
#pragma once

#include <string>

#include "models/link.hpp"

namespace icn {

class Channel : public Link<PacketId> {
 public:
  Channel(std::string name, unsigned width, unsigned latency)
      : Link<PacketId>(width, latency), name_(std::move(name)) {
    set_strict(true);
  }

  const std::string& name() const { return name_; }

  // Physical links still free for a transfer started in cycle t.
  unsigned free_links(Cycle t) const { return free(t); }

 private:
  std::string name_;
};

}  // namespace icn
