// network.type=hpam: what a run will cost, estimated from its configuration
// for the resource guard (run.max_memory, run.max_work; testbench/experiment.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "testbench/hpam_setup.hpp"

namespace icn {

namespace {

// Links from a to b on the extended X-Y routes of a two-level machine
// (HpamGeometry::route, without walking them): within a level X then Y;
// down, X to the column above b's, Y to the bottom row, the link down, Y to
// b's row; up, X into the columns below b's, Y to the top row, the link up,
// Y to b's row. (Equal to HpamGeometry::hops for every pair of processors of
// [[1,1],[4,4]], [[4,4],[16,16]], [[2,2],[4,8]], [[2,4],[8,16]], [[1,1],[8,2]]
// and [[4,2],[4,8]], checked when it was written.)
std::uint64_t route_links(const hpam::HpamGeometry& geo, NodeId a, NodeId b) {
  const hpam::Position p = geo.position(a), q = geo.position(b);
  auto gap = [](unsigned x, unsigned y) { return x > y ? x - y : y - x; };
  if (p.level == q.level) return gap(p.row, q.row) + gap(p.col, q.col);
  const unsigned f = geo.fanout(1), top_rows = geo.level(0).rows;
  if (p.level < q.level) return gap(p.col, q.col / f) + (top_rows - 1 - p.row) + 1 + q.row;
  const unsigned first = q.col * f, last = first + f - 1;
  const unsigned x = p.col < first ? first - p.col : p.col > last ? p.col - last : 0;
  return x + p.row + 1 + (top_rows - 1 - q.row);
}

// What HpamSetup::estimate_work counts, per trial.
namespace work {

struct Arrival {
  NodeId src, dst;
  double flits, links;  // links: routers on the route
};

// Every message as it arrives, a replicated one at the same row of the f
// columns from its destination's on.
std::vector<Arrival> arrivals(const hpam::HpamGeometry& geo, const hpam::CollectivePlan& plan,
                              const std::vector<unsigned>& flit_bytes) {
  const unsigned f = geo.fanout(1);
  std::vector<Arrival> out;
  for (const auto& sends : plan.sends) {
    for (const hpam::PlannedMessage& m : sends) {
      const unsigned w = flit_bytes[geo.position(m.src).level];
      const double flits = static_cast<double>(std::max<std::uint64_t>(1, (m.bytes + w - 1) / w));
      const hpam::Position to = geo.position(m.dst);
      for (unsigned b = 0; b < (m.replicate ? f : 1); ++b) {
        const NodeId dst = geo.node({to.level, to.row, to.col + b});
        out.push_back({m.src, dst, flits, static_cast<double>(route_links(geo, m.src, dst)) + 1});
      }
    }
  }
  return out;
}

// Each processor's round in the program: 0 if it receives nothing, else
// one more than the latest round of the processors it receives from.
std::vector<unsigned> rounds(NodeId nodes, const std::vector<Arrival>& arrivals) {
  std::vector<unsigned> pending(nodes, 0), first(nodes + 1, 0), round(nodes, 0);
  for (const Arrival& a : arrivals) ++pending[a.dst], ++first[a.src + 1];
  for (NodeId n = 0; n < nodes; ++n) first[n + 1] += first[n];
  std::vector<std::size_t> by_src(arrivals.size());  // arrivals grouped by sender
  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < arrivals.size(); ++i) by_src[next[arrivals[i].src]++] = i;
  std::vector<NodeId> ready;
  for (NodeId n = 0; n < nodes; ++n)
    if (pending[n] == 0) ready.push_back(n);
  while (!ready.empty()) {
    const NodeId n = ready.back();
    ready.pop_back();
    for (std::size_t k = first[n]; k < first[n + 1]; ++k) {
      const NodeId d = arrivals[by_src[k]].dst;
      round[d] = std::max(round[d], round[n] + 1);
      if (--pending[d] == 0) ready.push_back(d);
    }
  }
  return round;
}

// The trial's length in cycles, by list scheduling the plan as the NICs run
// it: a processor's software sends its messages one after the other (each
// C_send + copy), a message reaches its destination after a cycle per link
// and flit, and the destination's software takes them in arrival order
// (each C_recv + copy); a processor sends once it has received what its
// program waits for. Network contention and acknowledgements are not
// counted (the waveform estimate needs the cycles only roughly).
double trial_cycles(const HpamSetup& setup, const hpam::HpamGeometry& geo, const hpam::CollectivePlan& plan) {
  const NodeId nodes = geo.nodes();
  const double cycle = setup.cycle_us();
  auto fixed = [&](NodeId n) { return setup.send_us * std::pow(static_cast<double>(setup.q), geo.position(n).level) / cycle; };
  auto copy = [&](NodeId n, std::uint64_t bytes) {
    return std::ceil(setup.copy_us * std::pow(static_cast<double>(setup.q), geo.position(n).level) / cycle *
                     static_cast<double>(bytes));
  };
  std::vector<std::vector<std::pair<double, std::uint64_t>>> arriving(nodes);  // (cycle, bytes)
  std::vector<unsigned> waits(plan.waits.begin(), plan.waits.end());
  waits.resize(nodes, 0);
  std::vector<unsigned> pending(nodes, 0);
  for (const auto& sends : plan.sends)
    for (const hpam::PlannedMessage& m : sends) pending[m.dst] += m.replicate ? geo.fanout(1) : 1;
  std::vector<NodeId> ready;
  for (NodeId n = 0; n < nodes; ++n)
    if (pending[n] == 0) ready.push_back(n);
  double last = 0;
  const unsigned f = geo.fanout(1);
  while (!ready.empty()) {
    const NodeId n = ready.back();
    ready.pop_back();
    // Its receptions in arrival order, then its sends.
    auto& in = arriving[n];
    std::sort(in.begin(), in.end());
    double t = 0, go = 0;
    unsigned taken = 0;
    for (const auto& [when, bytes] : in) {
      t = std::max(t, when) + fixed(n) + copy(n, bytes);
      if (++taken == waits[n]) go = t;
    }
    last = std::max(last, t);
    t = waits[n] == 0 ? 0 : go;
    const unsigned w = setup.flit_bytes[geo.position(n).level];
    if (n >= plan.sends.size()) continue;
    for (const hpam::PlannedMessage& m : plan.sends[n]) {
      t += fixed(n) + copy(n, m.bytes);
      const double flits = static_cast<double>(std::max<std::uint64_t>(1, (m.bytes + w - 1) / w));
      const hpam::Position to = geo.position(m.dst);
      for (unsigned b = 0; b < (m.replicate ? f : 1); ++b) {
        const NodeId dst = m.replicate ? geo.node({to.level, to.row, to.col + b}) : m.dst;
        arriving[dst].push_back({t + static_cast<double>(route_links(geo, n, dst)) + 1 + flits, m.bytes});
        if (--pending[dst] == 0) ready.push_back(dst);
      }
    }
    last = std::max(last, t);
  }
  return last;
}

}  // namespace work

}  // namespace

ResourceEstimate HpamSetup::estimate() const {
  ResourceEstimate e;
  std::uint64_t nodes = 0;
  for (const auto& l : levels) nodes += std::uint64_t{l.rows} * l.cols;
  // VcRouter (5-7 ports, VC buffers), VcNic and HpamNic with their TLM
  // sockets, links: about 21 KB per node measured (4112 nodes: 88 MB).
  e.memory_bytes = static_cast<double>(nodes) * (20000.0 + 64.0 * net.router.vcs * net.router.buffer_depth);
  e.what = std::to_string(nodes) + " routers and NICs";
  estimate_work(e);
  return e;
}

double HpamSetup::trial_work(const hpam::HpamGeometry& geo, const hpam::CollectivePlan& plan) const {
  std::vector<work::Arrival> arrivals = work::arrivals(geo, plan, flit_bytes);
  const std::vector<unsigned> round = work::rounds(geo.nodes(), arrivals);
  std::sort(arrivals.begin(), arrivals.end(), [&](const work::Arrival& a, const work::Arrival& b) {
    return a.dst != b.dst ? a.dst < b.dst : round[a.src] < round[b.src];
  });
  double total = 0;
  const double ack = synchronous ? 2 + 7 : 0;  // a one-flit acknowledgement back
  for (std::size_t i = 0; i < arrivals.size();) {
    // The arrivals at one processor from one round.
    double links = 0, flits = 0, longest = 0;
    std::size_t j = i;
    for (; j < arrivals.size() && arrivals[j].dst == arrivals[i].dst && round[arrivals[j].src] == round[arrivals[i].src];
         ++j) {
      total += arrivals[j].links * (2 * arrivals[j].flits + 7 + ack);
      links += arrivals[j].links;
      flits += arrivals[j].flits;
      longest = std::max(longest, arrivals[j].flits);
    }
    total += std::min(links, static_cast<double>(geo.nodes())) * (flits - longest);  // waiting for the ejection port
    i = j;
  }
  return total;
}

// Work: a message of F flits keeps each router on its route, and the NICs
// at its ends, busy for about 2 F + 7 evaluations (a flit, then its credit,
// and the router's pipeline; 1x1 over 4x4, S = 8, 64, 1024 bytes: 8, 26, 241
// per router and message). Messages that reach one processor in the same
// round of the program (sent by processors equally far from its start, as a
// gather's leaves or sub-mesh roots) wait for its ejection port one after
// the other, and while they wait every router holding their flits
// evaluates each cycle: the routers on all their routes (at most every
// router) are busy while the others' flits go in. A replicated message counts
// once per branch below the replicator, an acknowledgement as one flit. The
// processors' software costs pass without evaluations (a NIC sleeps until
// its software is done). Every trial is planned, as the run will plan it
// (about 35 ms for 65537 processors). Estimate / measured block evaluations
// over the shipped scenarios: 1.0 to 1.5; over 32 more (brute force, hybrid
// and multicast broadcast, scatter and gather on 1x1 over 8x8 to 32x32,
// 8x8 over 32x32, S = 8 to 8192 bytes, eager and synchronous): 0.84 to 2.9.
void HpamSetup::estimate_work(ResourceEstimate& e) const {
  const hpam::HpamGeometry geo(levels);
  for (const auto& [p2, q2] : shapes) {
    hpam::CollectiveSpec trial = spec;
    trial.p2 = p2;
    trial.q2 = q2;
    const hpam::CollectivePlan plan = hpam::plan_collective(geo, trial);
    e.work += trial_work(geo, plan);
    e.trace.cycles += work::trial_cycles(*this, geo, plan) + 2;
  }
  // The waveform (outputs.max_trace_bytes): every cycle of every trial is
  // written, and a router or NIC evaluation changes a few of its rows (a
  // flit bus, credits, occupancy, a VC's state): 2.0 to 13.7 bytes per
  // estimated evaluation over the shipped scenarios (the most where
  // messages wait, in gathers), 6 counted.
  e.trace.transfers = e.work;
  e.trace.bytes_per_transfer = 6;
  e.trace.why = "about " + std::to_string(static_cast<std::uint64_t>(e.work)) + " router and NIC evaluations";
  e.work_why = std::to_string(shapes.size()) + " trial(s) on " + std::to_string(geo.nodes()) +
               " processors, counted as the routers on the planned messages' routes, each busy while their flits "
               "pass or wait";
}

}  // namespace icn
