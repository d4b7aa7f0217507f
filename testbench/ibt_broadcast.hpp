// Pipelined k-packet broadcasts on a torus or iBT (Zhang & Deng): what the
// source's processor sends (k packets, each with its colour and the colour's
// packet-sending pattern in the route word), which nodes form the broadcast
// group, and the check that every node of the group received all k packets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nics/icn_extension.hpp"
#include "routers/ibt/broadcast_route.hpp"
#include "routers/ibt/ibt_topology.hpp"
#include "testbench/traffic.hpp"

namespace icn {

enum class IbtCollective { kNone, kLine, kRectangle, kGlobal };
const char* to_string(IbtCollective c);
std::vector<std::string> ibt_collective_names();
IbtCollective ibt_collective_from_name(const std::string& name);

struct IbtBroadcastPlan {
  IbtCollective collective = IbtCollective::kLine;
  NodeId source = 0;
  unsigned packets = 0;                 // k
  ibt::ColourScheme scheme = ibt::ColourScheme::kDimensionOrdered;
  std::vector<unsigned> dims;           // the dimension list, 0-based
  std::vector<unsigned> patterns;       // per colour, rRLl
  std::vector<unsigned> split;          // packets per colour; sums to k

  unsigned colours() const { return static_cast<unsigned>(split.size()); }
  // The route word of colour c.
  std::uint32_t route(unsigned colour) const;
  // Colour of packet number p (colours take consecutive packet numbers).
  unsigned colour_of(unsigned p) const;
  // The source processor's program: all k packets in step 1.
  std::vector<PlannedSend> sends() const;
  // Whether node x is in the broadcast group.
  bool in_group(const IbtTopology& topo, NodeId x) const;
  std::uint64_t group_size(const IbtTopology& topo) const;
  // "x+ y- ..." description of a colour, for reports.
  std::string colour_label(unsigned colour) const;
};

// Colours a collective uses: m (dimension-ordered) or 2m (directed torus).
unsigned colours_for(ibt::ColourScheme scheme, unsigned dims);

// k split over c colours as evenly as possible, the first k mod c colours one more.
std::vector<unsigned> even_split(unsigned k, unsigned colours);
// Every split of k over c colours whose largest and smallest parts differ by at most `tolerance`.
// Stops after `limit` + 1 splits (a caller that allows at most `limit` then
// knows there are too many without enumerating them all).
std::vector<std::vector<unsigned>> splits_within(unsigned k, unsigned colours, unsigned tolerance,
                                                 std::size_t limit = static_cast<std::size_t>(-1));

// Checks the deliveries of one broadcast: every group node but the source must
// receive packets 0..k-1 from the source exactly once with intact payloads,
// and nodes outside the group nothing.
class GroupReceipts : public DeliverySink {
 public:
  GroupReceipts(const IbtTopology& topo, const IbtBroadcastPlan& plan, std::uint64_t content_key);

  void deliver(const Delivery& d) override;

  std::uint64_t expected() const { return expected_; }
  std::uint64_t received() const { return received_; }
  Cycle last_arrival() const { return last_arrival_; }
  // "" when every expected packet arrived once, intact, and nothing else did.
  std::string problem() const;

 private:
  void note(const std::string& what, const Delivery& d);

  const IbtTopology& topo_;
  const IbtBroadcastPlan& plan_;
  std::uint64_t key_;
  unsigned words_;
  std::vector<bool> member_;         // per node: in the group
  std::vector<std::uint64_t> content_;  // per packet: its payload as the source wrote it
  std::vector<std::uint64_t> seen_;  // per node, k bits
  std::uint64_t expected_ = 0;
  std::uint64_t received_ = 0;
  std::uint64_t wrong_ = 0;
  Cycle last_arrival_ = 0;
  std::string first_problem_;
  std::tuple<Cycle, NodeId, std::uint32_t, NodeId> first_key_{};
};

// The paper's step count for a configuration it gives one for, with its source.
struct PaperValue {
  std::uint64_t steps = 0;
  std::string source;
};
std::optional<PaperValue> paper_steps(const IbtTopology& topo, const IbtBroadcastPlan& plan);

// Table 1 of the paper (iBT(64^2), k = 32): lambda, mu, T_x and T_xy for s = 0, 1.
struct Table1Row {
  std::vector<unsigned> bypass;
  unsigned diameter;
  double average_distance;  // as READING-NOTES gives it (4 decimals)
  unsigned tx[2];
  unsigned txy[2];
};
const std::vector<Table1Row>& zhang_deng_table1();

}  // namespace icn
