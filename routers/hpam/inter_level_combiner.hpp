// InterLevelCombiner: the combining variant of the inter-level multicast
// hardware (Ben Miled et al., section 5): messages arriving from the f links
// below an inter-level router are merged into one message sent on.
//
// It sits behind the router's `combine` port and takes whole packets (store
// and forward: the paper's "hardware logic and buffer space"; the storage
// used is reported). Packets of one gather step come from the same row of the
// f columns below; once one has arrived from each, their contents (tags XORed,
// bytes and flits added) leave as one packet from this router's node to the
// destination, into the input side of the router's `replicate` port, one flit
// a cycle on VC 0 as credits allow. The ledger then expects one delivery
// instead of f.
//
// The merged message names its group: its source is (row, c f)_{l+1}, the
// senders' row in the first column below (the address a multicast to the
// same f processors is written to), and its destination keeps the combine
// bit. A synchronous receiver (HpamNic) therefore acknowledges it with one
// replicated acknowledgement to that address: the replicator below fans it
// out, one to each sender, each sender's send ends with it.
#pragma once

#include <systemc>

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "routers/hpam/hpam_geometry.hpp"
#include "routers/vc/vc_router.hpp"

namespace icn::hpam {

class InterLevelCombiner : public sc_core::sc_module, public Clocked {
 public:
  InterLevelCombiner(sc_core::sc_module_name name, const HpamGeometry& geo, Position at, unsigned branches,
                     unsigned vcs, PacketPool& pool, TrafficLedger& ledger);

  // From the router's combine port: flits in, credits back.
  void connect_input(vc::FlitLink* in, vc::CreditLink* credit_out);
  // Into the router's replicate port (input side): flits out, credits in.
  void connect_output(vc::FlitLink* out, vc::CreditLink* credit_in, unsigned downstream_depth);

  Cycle tick(Cycle now) override;
  // Takes the deliveries its merges saved off the ledger (after the network
  // phase: the ledger is shared by blocks on every worker, run.threads).
  void commit(Cycle now) override;
  std::string block_name() const override { return name(); }
  void report_held(std::vector<HeldTraffic>& out) const override;

  std::uint64_t messages_in() const { return messages_in_; }
  std::uint64_t messages_out() const { return messages_out_; }
  // Flits its input and output links carried (the links' own counters): a
  // combined message is as long as the sum of its parts, so they are equal
  // once the run is over.
  std::uint64_t flits_in() const { return in_ != nullptr ? in_->transfers() : 0; }
  std::uint64_t flits_out() const { return out_ != nullptr ? out_->transfers() : 0; }
  std::uint64_t max_stored_flits() const { return max_stored_; }
  // outputs.trace_packet: a followed message's copy ends here (the combined
  // message it joins is a packet of its own); null: none.
  void set_follower(vc::PacketFollower* follower) { follower_ = follower; }

 private:
  struct Group {
    unsigned arrived = 0;
    std::uint64_t tag = 0, bytes = 0, flits = 0;
    NodeId dst = kNoNode;
  };
  const HpamGeometry& geo_;
  Position at_;
  unsigned branches_;
  PacketPool& pool_;
  TrafficLedger& ledger_;
  std::uint64_t expected_saved_ = 0;  // deliveries this cycle's merges saved, for commit()
  vc::FlitLink* in_ = nullptr;
  vc::CreditLink* credit_out_ = nullptr;
  vc::FlitLink* out_ = nullptr;
  vc::CreditLink* credit_in_ = nullptr;
  unsigned credits_ = 0;
  std::vector<std::uint64_t> flits_on_vc_;  // flits of the packet arriving on each VC
  std::map<unsigned, Group> groups_;        // by the senders' row
  struct Outgoing {
    PacketId packet;
    std::uint64_t flits, sent;
  };
  std::deque<Outgoing> outq_;
  std::uint64_t stored_ = 0, max_stored_ = 0;
  std::uint64_t messages_in_ = 0, messages_out_ = 0;
  vc::PacketFollower* follower_ = nullptr;
};

}  // namespace icn::hpam
