#include "testbench/fattree_collectives.hpp"

#include <algorithm>
#include <stdexcept>

namespace icn::fattree {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Scatter order: furthest first, ties by leaf index (the paper's discipline).
std::vector<NodeId> furthest_first(NodeId n, NodeId root) {
  std::vector<NodeId> order;
  for (NodeId d = 0; d < n; ++d)
    if (d != root) order.push_back(d);
  std::stable_sort(order.begin(), order.end(), [root](NodeId a, NodeId b) {
    return FatTreeShape::lca_level(a, root) > FatTreeShape::lca_level(b, root);
  });
  return order;
}

// Phase programs of total exchange, generated lazily (n^2 messages in all).
class ExchangeProgram : public SendProgram {
 public:
  ExchangeProgram(NodeId node, std::shared_ptr<const std::vector<ExchangePhase>> phases,
                  ExchangeSchedule schedule)
      : node_(node), phases_(std::move(phases)), schedule_(schedule) {}

  std::optional<PlannedSend> next() override {
    while (phase_ < phases_->size()) {
      const ExchangePhase& ph = (*phases_)[phase_];
      if (l_ < ph.half) {
        const std::uint64_t l = l_++;
        const std::uint64_t offset = node_ & (ph.half - 1);  // position within its half
        std::uint64_t step_in_phase = 0;
        NodeId dst = 0;
        const NodeId other_half = node_ ^ static_cast<NodeId>(ph.half);
        switch (schedule_) {
          case ExchangeSchedule::kCbft:
            // Period `offset`: send to the l-th node of the other half.
            step_in_phase = offset * ph.half + l;
            dst = (other_half & ~static_cast<NodeId>(ph.half - 1)) | static_cast<NodeId>(l);
            break;
          case ExchangeSchedule::kEbft:
            step_in_phase = l;
            dst = other_half ^ static_cast<NodeId>(l);
            break;
          case ExchangeSchedule::kGeneral: {
            const std::uint64_t groups = ph.half / ph.rate;
            step_in_phase = l * groups + offset % groups;
            dst = other_half ^ static_cast<NodeId>(l);
            break;
          }
        }
        PlannedSend s;
        s.step = ph.start + step_in_phase;
        s.dst = dst;
        return s;
      }
      ++phase_;
      l_ = 0;
    }
    return std::nullopt;
  }

 private:
  NodeId node_;
  std::shared_ptr<const std::vector<ExchangePhase>> phases_;
  ExchangeSchedule schedule_;
  std::size_t phase_ = 0;
  std::uint64_t l_ = 0;
};

}  // namespace

const std::vector<std::string>& collective_names() {
  static const std::vector<std::string> names{"broadcast", "scatter", "gather",
                                              "multinode_broadcast", "total_exchange"};
  return names;
}

Collective collective_from_name(const std::string& name) {
  const auto& names = collective_names();
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw std::invalid_argument("unknown collective " + name);
  return static_cast<Collective>(it - names.begin());
}

const char* to_string(Collective c) { return collective_names()[static_cast<int>(c)].c_str(); }

const char* to_string(ExchangeSchedule s) {
  switch (s) {
    case ExchangeSchedule::kCbft: return "cbft";
    case ExchangeSchedule::kEbft: return "ebft";
    case ExchangeSchedule::kGeneral: return "general";
  }
  return "?";
}

std::uint64_t contention_free_rate(const FatTreeShape& shape, unsigned level) {
  std::uint64_t limit = shape.capacity(level);  // m = h-1: the branch into level h
  for (unsigned m = 0; m + 1 < level; ++m) {
    // A level-m subtree holds 2^m of the 2^(h-1) senders of a side; an even
    // spread of C senders puts C / 2^(h-1-m) of them behind its branch c_{m+1}.
    limit = std::min<std::uint64_t>(limit, std::uint64_t{shape.capacity(m + 1)} << (level - 1 - m));
  }
  std::uint64_t rate = 1;
  while (rate * 2 <= limit) rate *= 2;
  return std::min<std::uint64_t>(rate, std::uint64_t{1} << (level - 1));
}

std::uint64_t paper_total_exchange(const FatTreeShape& shape, bool pipelined) {
  const std::uint64_t h = shape.height();
  std::uint64_t sum = 0;
  for (unsigned i = 1; i <= h; ++i) sum += ceil_div(std::uint64_t{1} << (2 * (i - 1)), shape.capacity(i));
  return pipelined ? sum + 2 * h - 1 : sum + h * h;
}

std::uint64_t paper_scatter(NodeId n) {
  std::uint64_t best = 0;
  unsigned log_n = 0;
  while ((NodeId{1} << log_n) < n) ++log_n;
  for (unsigned i = 1; i <= log_n; ++i) best = std::max<std::uint64_t>(best, n - (1u << (i - 1)) + 2 * i - 1);
  return best;
}

namespace {

using Kind = SimpleReceiptPlan::Kind;

// Table 1 lower bounds assume one link per leaf (c_1 = 1): then n-1 messages
// cross it one per step and the first four steps carry at most two (n >= 4;
// with n = 2 one message crosses two links). With c_1 > 1 links only the
// plain counting bound and the diameter remain.
struct SinglePortBound {
  std::uint64_t steps;
  std::string source;
};
SinglePortBound single_port_bound(const FatTreeShape& shape) {
  const NodeId n = shape.leaves();
  const unsigned c1 = shape.capacity(1);
  if (c1 > 1) return {std::max<std::uint64_t>(2 * shape.height(), 1 + ceil_div(n - 1, c1)),
                      "n-1 messages over c_1 links, and the diameter"};
  return {n >= 4 ? n + 1 : 2, "Table 1"};
}

void plan_broadcast(CollectivePlan& plan, const FatTreeShape& shape, NodeId root) {
  const NodeId n = shape.leaves();
  const unsigned h = shape.height();
  plan.program = [root](NodeId pe) {
    std::vector<PlannedSend> sends;
    if (pe == root) sends.push_back(PlannedSend{1, kNoNode, true, 0, 0});
    return std::make_unique<ListProgram>(std::move(sends));
  };
  plan.receipts = std::make_shared<SimpleReceiptPlan>(Kind::kFromOne, n, root, true);
  plan.paper = 2 * h;
  plan.paper_source = "section 2.1: diameter 2 log n";
  plan.lower_bound = 2 * h;
  plan.lower_bound_source = "Table 1";
}

void plan_scatter(CollectivePlan& plan, const FatTreeShape& shape, NodeId root) {
  const NodeId n = shape.leaves();
  const SinglePortBound bound = single_port_bound(shape);
  const auto order = std::make_shared<std::vector<NodeId>>(furthest_first(n, root));
  plan.program = [root, order](NodeId pe) {
    std::vector<PlannedSend> sends;
    if (pe == root) {
      Cycle step = 1;
      for (NodeId d : *order) sends.push_back(PlannedSend{step++, d, false, 0, 0});
    }
    return std::make_unique<ListProgram>(std::move(sends));
  };
  plan.receipts = std::make_shared<SimpleReceiptPlan>(Kind::kFromOne, n, root, false);
  plan.paper = paper_scatter(n);
  plan.paper_source = "Theorem 1: max_i (n - 2^(i-1) + 2i - 1)";
  plan.lower_bound = bound.steps;
  plan.lower_bound_source = bound.source;
}

void plan_gather(CollectivePlan& plan, const FatTreeShape& shape, NodeId root) {
  const NodeId n = shape.leaves();
  const SinglePortBound bound = single_port_bound(shape);
  // The scatter schedule reversed in time: a leaf whose scatter message was
  // dispatched at s and arrived at a sends at T + 1 - a and its message
  // arrives at T + 1 - s. Links are full duplex, so the reversed schedule
  // meets no contention either.
  const auto order = furthest_first(n, root);
  auto send_step = std::make_shared<std::vector<Cycle>>(n, 0);
  Cycle last = 0;
  std::vector<Cycle> arrival(n, 0);
  for (std::size_t i = 0; i < order.size(); ++i) {
    arrival[order[i]] = (i + 1) + FatTreeShape::hops(order[i], root) - 1;
    last = std::max(last, arrival[order[i]]);
  }
  for (NodeId d : order) (*send_step)[d] = last + 1 - arrival[d];
  plan.program = [root, send_step](NodeId pe) {
    std::vector<PlannedSend> sends;
    if (pe != root) sends.push_back(PlannedSend{(*send_step)[pe], root, false, 0, 0});
    return std::make_unique<ListProgram>(std::move(sends));
  };
  plan.receipts = std::make_shared<SimpleReceiptPlan>(Kind::kAllToOne, n, root, false);
  plan.paper = paper_scatter(n);
  plan.paper_source = "section 3: gather = scatter with data paths reversed";
  plan.lower_bound = bound.steps;
  plan.lower_bound_source = bound.source;
}

void plan_multinode_broadcast(CollectivePlan& plan, const FatTreeShape& shape) {
  const NodeId n = shape.leaves();
  const unsigned c1 = shape.capacity(1);
  const SinglePortBound bound = single_port_bound(shape);
  plan.program = [](NodeId) {
    return std::make_unique<ListProgram>(std::vector<PlannedSend>{PlannedSend{1, kNoNode, true, 0, 0}});
  };
  plan.receipts = std::make_shared<SimpleReceiptPlan>(Kind::kFromAll, n, 0, true);
  // Theorem 2 holds for any tree with one link per leaf: n + 1 is then also
  // the lower bound. Wider leaf links let flooding finish sooner.
  if (c1 == 1) {
    plan.paper = n >= 4 ? n + 1 : 2;
    plan.paper_source = n >= 4 ? "Theorem 2: n + 1" : "n = 2: 2 (READING-NOTES)";
  } else {
    plan.paper_source = "Theorem 2 assumes one link per leaf (c_1 = 1)";
  }
  plan.lower_bound = bound.steps;
  plan.lower_bound_source = bound.source;
}

void plan_total_exchange(CollectivePlan& plan, const FatTreeShape& shape, const CollectiveOptions& o) {
  const NodeId n = shape.leaves();
  const unsigned h = shape.height();
  const unsigned c1 = shape.capacity(1);
  const SinglePortBound single_port = single_port_bound(shape);
  auto phases = std::make_shared<std::vector<ExchangePhase>>();
  Cycle start = 1;
  for (unsigned level = h; level >= 1; --level) {
    ExchangePhase ph;
    ph.level = level;
    ph.half = std::uint64_t{1} << (level - 1);
    switch (o.schedule) {
      case ExchangeSchedule::kCbft: ph.rate = 1; break;
      case ExchangeSchedule::kEbft: ph.rate = ph.half; break;
      case ExchangeSchedule::kGeneral: ph.rate = contention_free_rate(shape, level); break;
    }
    ph.dispatch_steps = ph.half * ph.half / ph.rate;
    ph.start = start;
    phases->push_back(ph);
    const Cycle last_dispatch = start + ph.dispatch_steps - 1;
    // Unpipelined: the next phase starts after this one's last message
    // arrives (2h hops). Pipelined: `pipeline_gap` steps after its last dispatch.
    start = o.pipelined ? last_dispatch + o.pipeline_gap : last_dispatch + 2 * level;
  }
  plan.phases = *phases;
  const ExchangeSchedule schedule = o.schedule;
  plan.program = [phases, schedule](NodeId pe) {
    return std::make_unique<ExchangeProgram>(pe, phases, schedule);
  };
  plan.receipts = std::make_shared<SimpleReceiptPlan>(Kind::kFromAll, n, 0, false);
  plan.paper = paper_total_exchange(shape, o.pipelined);
  plan.paper_source = o.pipelined ? "eq. (2)" : "eq. (1)";
  std::uint64_t bound = std::max<std::uint64_t>(
      single_port.steps, ceil_div(std::uint64_t{n} * n, 4ull * shape.capacity(h)));
  plan.lower_bound_source = c1 == 1 ? "Table 1" : "Table 1 (root branch) and " + single_port.source;
  if (shape.capacities() == capacity_preset("ebft", h) && h >= 2) {
    unsigned loglog = 0;
    while ((1u << loglog) < h) ++loglog;
    if ((1u << loglog) == h) {  // Lemma 3 needs log log n integral
      const std::uint64_t lemma3 = n + 2 * h - 2 * loglog - 2;
      if (lemma3 > bound) {
        bound = lemma3;
        plan.lower_bound_source = "Lemma 3";
      }
    }
  }
  plan.lower_bound = bound;
}

}  // namespace

CollectivePlan plan_collective(const FatTreeShape& shape, const CollectiveOptions& o) {
  CollectivePlan plan;
  switch (o.collective) {
    case Collective::kBroadcast: plan_broadcast(plan, shape, o.root); break;
    case Collective::kScatter: plan_scatter(plan, shape, o.root); break;
    case Collective::kGather: plan_gather(plan, shape, o.root); break;
    case Collective::kMultinodeBroadcast: plan_multinode_broadcast(plan, shape); break;
    case Collective::kTotalExchange: plan_total_exchange(plan, shape, o); break;
  }
  return plan;
}

}  // namespace icn::fattree
