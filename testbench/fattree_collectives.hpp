// The five collectives of Dimakopoulos & Dimopoulos on a binary fat tree,
// written as what each processing element sends and when (its program) and
// what it must receive. The completion time is not computed here: it is
// observed when the programs run through the modelled routers. The paper's
// closed forms appear only as `paper` values to report beside the measurement.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/fat_tree.hpp"
#include "testbench/traffic.hpp"

namespace icn::fattree {

enum class Collective { kBroadcast, kScatter, kGather, kMultinodeBroadcast, kTotalExchange };
const std::vector<std::string>& collective_names();
Collective collective_from_name(const std::string& name);
const char* to_string(Collective c);

// Total-exchange schedules (section 5). kCbft: in each period one node per side
// sends all its messages one by one; kEbft: in step l every node k sends to
// k ^ 2^(h-1) ^ l; kGeneral: rounds of the XOR pattern, each split into groups of
// C senders spread evenly over the subtree, where C is the largest power of two
// the branches below the phase's level can carry without contention.
enum class ExchangeSchedule { kCbft, kEbft, kGeneral };
const char* to_string(ExchangeSchedule s);

struct CollectiveOptions {
  Collective collective = Collective::kBroadcast;
  NodeId root = 0;
  bool pipelined = true;
  ExchangeSchedule schedule = ExchangeSchedule::kGeneral;
  unsigned pipeline_gap = 3;  // steps from a phase's last dispatch to the next phase's first
};

// One total-exchange phase as the schedule lays it out.
struct ExchangePhase {
  unsigned level = 0;         // h_i: the level whose branches the phase crosses
  std::uint64_t half = 0;     // 2^(h_i - 1) leaves on each side
  std::uint64_t rate = 0;     // messages per step per side the schedule dispatches
  std::uint64_t dispatch_steps = 0;
  Cycle start = 0;            // first dispatch step
};

struct CollectivePlan {
  std::function<std::unique_ptr<SendProgram>(NodeId)> program;
  std::shared_ptr<ReceiptPlan> receipts;
  std::optional<std::uint64_t> paper;  // the paper's value for this case, if it states one
  std::string paper_source;
  std::uint64_t lower_bound = 0;
  std::string lower_bound_source;
  std::vector<ExchangePhase> phases;   // total exchange only
};

CollectivePlan plan_collective(const FatTreeShape& shape, const CollectiveOptions& options);

// Largest power of two C such that every branch below level h can carry C
// simultaneous phase-h messages spread evenly (C <= c_{m+1} 2^(h-1-m), m < h).
std::uint64_t contention_free_rate(const FatTreeShape& shape, unsigned level);

// The paper's formulas, for reporting and for tests' expected values.
std::uint64_t paper_total_exchange(const FatTreeShape& shape, bool pipelined);  // eq. (1) / (2)
std::uint64_t paper_scatter(NodeId n);  // max_i (n - 2^(i-1) + 2i - 1), Theorem 1

}  // namespace icn::fattree
