#include "testbench/ibt_broadcast.hpp"

#include <algorithm>
#include <stdexcept>

#include "models/packet.hpp"
#include "testbench/processing_element.hpp"

namespace icn {

const char* to_string(IbtCollective c) {
  switch (c) {
    case IbtCollective::kNone: return "none";
    case IbtCollective::kLine: return "line_broadcast";
    case IbtCollective::kRectangle: return "rect_broadcast";
    case IbtCollective::kGlobal: return "global_broadcast";
  }
  return "?";
}

std::vector<std::string> ibt_collective_names() {
  return {"line_broadcast", "rect_broadcast", "global_broadcast", "none"};
}

IbtCollective ibt_collective_from_name(const std::string& name) {
  for (IbtCollective c : {IbtCollective::kNone, IbtCollective::kLine, IbtCollective::kRectangle, IbtCollective::kGlobal})
    if (name == to_string(c)) return c;
  throw std::invalid_argument("unknown collective " + name);
}

unsigned colours_for(ibt::ColourScheme scheme, unsigned dims) {
  return scheme == ibt::ColourScheme::kDirectedTorus ? 2 * dims : dims;
}

std::vector<unsigned> even_split(unsigned k, unsigned colours) {
  std::vector<unsigned> split(colours, k / colours);
  for (unsigned c = 0; c < k % colours; ++c) ++split[c];
  return split;
}

std::vector<std::vector<unsigned>> splits_within(unsigned k, unsigned colours, unsigned tolerance, std::size_t limit) {
  std::vector<std::vector<unsigned>> out;
  std::vector<unsigned> part(colours, 0);
  // Parts lie in [lo, lo + tolerance] for some lo; enumerate compositions and keep those within tolerance.
  const unsigned hi = std::min(k, k / colours + tolerance);
  const unsigned lo = k / colours >= tolerance ? k / colours - tolerance : 0;
  // Branches that cannot end in a split within tolerance are cut (running
  // min/max, and whether the parts left can still sum to what is left), so
  // the work stays proportional to the splits found.
  auto rec = [&](auto&& self, unsigned c, unsigned left, unsigned mn, unsigned mx) -> void {
    if (out.size() > limit) return;
    if (c + 1 == colours) {
      if (left < lo || left > hi) return;
      part[c] = left;
      if (std::max(mx, left) - std::min(mn, left) <= tolerance) out.push_back(part);
      return;
    }
    const unsigned rest = colours - c - 1;
    for (unsigned v = lo; v <= hi && v <= left; ++v) {
      const unsigned nmn = std::min(mn, v), nmx = std::max(mx, v);
      if (nmx - nmn > tolerance) {
        if (v > nmn) break;  // larger v only widens the spread
        continue;
      }
      const unsigned floor = std::max(lo, nmx > tolerance ? nmx - tolerance : 0u);
      const unsigned ceil = std::min(hi, nmn + tolerance);
      const std::uint64_t remaining = left - v;
      if (remaining < static_cast<std::uint64_t>(rest) * floor) break;  // larger v leaves even less
      if (remaining > static_cast<std::uint64_t>(rest) * ceil) continue;
      part[c] = v;
      self(self, c + 1, left - v, nmn, nmx);
      if (out.size() > limit) return;
    }
  };
  rec(rec, 0, k, ~0u, 0u);
  return out;
}

std::uint32_t IbtBroadcastPlan::route(unsigned colour) const {
  ibt::BroadcastRoute r;
  r.scheme = scheme;
  r.dims_count = static_cast<unsigned>(dims.size());
  for (std::size_t q = 0; q < dims.size(); ++q) r.dims[q] = static_cast<std::uint8_t>(dims[q]);
  r.colour = colour;
  r.pattern = patterns.at(colour);
  return r.pack();
}

unsigned IbtBroadcastPlan::colour_of(unsigned p) const {
  unsigned start = 0;
  for (unsigned c = 0; c < split.size(); ++c) {
    if (p < start + split[c]) return c;
    start += split[c];
  }
  throw std::out_of_range("packet number beyond k");
}

std::vector<PlannedSend> IbtBroadcastPlan::sends() const {
  std::vector<PlannedSend> out;
  for (unsigned p = 0; p < packets; ++p) {
    PlannedSend s;
    s.step = 1;
    s.broadcast = true;
    s.seq = p;
    s.route = route(colour_of(p));
    out.push_back(s);
  }
  return out;
}

bool IbtBroadcastPlan::in_group(const IbtTopology& topo, NodeId x) const {
  for (unsigned i = 0; i < topo.d(); ++i) {
    if (topo.coord(x, i) == topo.coord(source, i)) continue;
    if (std::find(dims.begin(), dims.end(), i) == dims.end()) return false;
  }
  return true;
}

std::uint64_t IbtBroadcastPlan::group_size(const IbtTopology& topo) const {
  std::uint64_t size = 1;
  for (std::size_t q = 0; q < dims.size(); ++q) size *= topo.n();
  return size;
}

std::string IbtBroadcastPlan::colour_label(unsigned colour) const {
  ibt::BroadcastRoute r = ibt::BroadcastRoute::unpack(route(colour));
  static const char* names = "xyzw";
  std::string s;
  for (unsigned q = 0; q < r.dims_count; ++q) {
    s += names[r.colour_dim(q)];
    if (scheme == ibt::ColourScheme::kDirectedTorus) s += r.colour_sign(q) > 0 ? '+' : '-';
    if (q + 1 < r.dims_count) s += ' ';
  }
  return s;
}

GroupReceipts::GroupReceipts(const IbtTopology& topo, const IbtBroadcastPlan& plan, std::uint64_t content_key)
    : topo_(topo), plan_(plan), key_(content_key), words_((plan.packets + 63) / 64),
      seen_(static_cast<std::size_t>(topo.nodes()) * ((plan.packets + 63) / 64), 0) {
  expected_ = (plan.group_size(topo) - 1) * plan.packets;
  member_.resize(topo.nodes());
  for (NodeId x = 0; x < topo.nodes(); ++x) member_[x] = plan.in_group(topo, x);
  // What the source's processor writes into packet p (ProcessingElement):
  // worked out once per packet, not once per delivery (32 million of them
  // at a million nodes).
  content_.resize(plan.packets);
  for (unsigned p = 0; p < plan.packets; ++p) content_[p] = message_content(key_, plan.source, kBroadcastDestination, p);
}

// The problem reported is the earliest by (cycle, receiving node, packet,
// source), whatever order the routers delivered in (run.threads).
void GroupReceipts::note(const std::string& what, const Delivery& d) {
  ++wrong_;
  const auto key = std::make_tuple(d.arrived, d.dst, d.seq, d.src);
  if (!first_problem_.empty() && key >= first_key_) return;
  first_key_ = key;
  first_problem_ = "node " + topo_.coords_text(d.dst) + ": " + what + " packet " + std::to_string(d.seq) +
                   " from " + std::to_string(d.src) + " at cycle " + std::to_string(d.arrived);
  // d.dst is the node whose ejection port delivered it (the hardware's
  // answer); the plan says who the broadcast is for.
  if (what == "unexpected" && d.src == plan_.source && d.broadcast)
    first_problem_ += ": the broadcast is meant for the other nodes of its group, not for node " +
                      topo_.coords_text(d.dst);
}

void GroupReceipts::deliver(const Delivery& d) {
  last_arrival_ = std::max(last_arrival_, d.arrived);
  if (d.src != plan_.source || !d.broadcast || d.seq >= plan_.packets || d.dst == plan_.source || d.dst >= member_.size() ||
      !member_[d.dst]) {
    return note("unexpected", d);
  }
  std::uint64_t content = 0;
  for (std::size_t i = d.payload_len == 8 ? 8 : 0; i-- > 0;) content = (content << 8) | d.payload[i];  // little-endian
  if (d.payload_len != 8 || content != content_[d.seq])
    return note("corrupted", d);
  std::uint64_t& word = seen_[static_cast<std::size_t>(d.dst) * words_ + d.seq / 64];
  const std::uint64_t bit = std::uint64_t{1} << (d.seq % 64);
  if (word & bit) return note("duplicate", d);
  word |= bit;
  ++received_;
}

std::string GroupReceipts::problem() const {
  if (!first_problem_.empty()) return first_problem_;
  if (received_ == expected_) return "";
  // Name the first group node that misses a packet.
  for (NodeId x = 0; x < topo_.nodes(); ++x) {
    if (x == plan_.source || !plan_.in_group(topo_, x)) continue;
    for (unsigned p = 0; p < plan_.packets; ++p) {
      if (!(seen_[static_cast<std::size_t>(x) * words_ + p / 64] >> (p % 64) & 1u)) {
        return "node " + topo_.coords_text(x) + " never received packet " + std::to_string(p) + " (" +
               std::to_string(received_) + " of " + std::to_string(expected_) + " deliveries)";
      }
    }
  }
  return std::to_string(received_) + " of " + std::to_string(expected_) + " deliveries";
}

const std::vector<Table1Row>& zhang_deng_table1() {
  static const std::vector<Table1Row> rows{
      {{6}, 14, 8.0962, {23, 23}, {28, 28}},
      {{14}, 12, 7.4819, {24, 23}, {27, 27}},
      {{4, 16}, 10, 6.5679, {23, 32}, {27, 27}},
      {{8, 24}, 10, 6.6338, {22, 22}, {25, 26}},
  };
  return rows;
}

std::optional<PaperValue> paper_steps(const IbtTopology& topo, const IbtBroadcastPlan& plan) {
  const std::uint64_t n = topo.n(), k = plan.packets, d = topo.d();
  auto ceil_div = [](std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; };
  if (!topo.has_bypass()) {
    if (plan.collective == IbtCollective::kLine && n % 2 == 0)
      return PaperValue{n / 2 + ceil_div(k, 2) - 1, "eq. (4): n/2 + ceil(k/2) - 1"};
    if (plan.collective == IbtCollective::kRectangle)
      return PaperValue{2 * n + ceil_div(k, 4) - 3, "eq. (6): 2n + ceil(k/4) - 3"};
    if (plan.collective == IbtCollective::kGlobal)
      return PaperValue{d * (n - 1) + ceil_div(k, 2 * d) - 1, "eq. (5): d(n-1) + ceil(k/2d) - 1"};
    return std::nullopt;
  }
  // Table 1: iBT(64^2; b), k = 32, source node 0 = (0,0) or 1 = (1,0), lines along x, rectangles in x-y.
  if (n != 64 || d != 2 || k != 32 || plan.source > 1) return std::nullopt;
  for (const Table1Row& row : zhang_deng_table1()) {
    if (row.bypass != topo.bypass()) continue;
    if (plan.collective == IbtCollective::kLine && plan.dims == std::vector<unsigned>{0})
      return PaperValue{row.tx[plan.source], "Table 1, T_x(s = " + std::to_string(plan.source) + ")"};
    if (plan.collective == IbtCollective::kRectangle && plan.dims.size() == 2)
      return PaperValue{row.txy[plan.source], "Table 1, T_xy(s = " + std::to_string(plan.source) + ")"};
  }
  return std::nullopt;
}

}  // namespace icn
