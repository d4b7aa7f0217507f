#include "testbench/fractional_tree.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

namespace icn::frac {

const char* to_string(Algorithm a) {
  switch (a) {
    case Algorithm::kChain: return "chain";
    case Algorithm::kBinary: return "binary";
    case Algorithm::kFractional: return "fractional";
  }
  return "?";
}

std::uint64_t reach(unsigned r, std::uint64_t i, std::uint64_t cap) {
  // Iterative table: P_0..P_i.
  std::vector<std::uint64_t> p(i + 1);
  for (std::uint64_t j = 0; j <= i; ++j) {
    if (j <= r) {
      p[j] = j + 1;
    } else {
      p[j] = std::min<std::uint64_t>(cap, r + p[j - r] + p[j - r - 1]);
    }
  }
  return std::min(p[i], cap);
}

std::uint64_t depth(unsigned r, std::uint64_t processors) {
  std::vector<std::uint64_t> p;
  for (std::uint64_t j = 0;; ++j) {
    p.push_back(j <= r ? j + 1 : std::min<std::uint64_t>(1ull << 62, r + p[j - r] + p[j - r - 1]));
    if (p[j] >= processors) return j == 0 ? 0 : j - 1;
  }
}

Layout Layout::chain(std::uint32_t processors) {
  Layout l;
  l.algorithm = Algorithm::kChain;
  l.r = processors;
  Group g;
  for (std::uint32_t x = 0; x < processors; ++x) g.members.push_back(x);
  l.groups.push_back(g);
  l.group_of.assign(processors, 0);
  for (std::uint32_t x = 0; x < processors; ++x) l.index_in_group.push_back(x);
  return l;
}

Layout Layout::fractional(std::uint32_t processors, unsigned r) {
  Layout l;
  l.algorithm = r == 1 ? Algorithm::kBinary : Algorithm::kFractional;
  l.r = r;
  l.group_of.assign(processors, kNone);
  l.index_in_group.assign(processors, 0);
  const std::uint64_t d = depth(r, processors);
  std::uint32_t next_rank = 0;
  // Places n ranks in a subtree whose top receives its first packet at relative
  // step 0 and whose every PU must have it by relative step `budget`:
  // members first, then the down subtree (as full as its budget allows), then
  // the right subtree — the preorder that keeps subtrees contiguous.
  std::function<std::uint32_t(std::uint64_t, std::uint64_t, std::uint32_t, bool)> build =
      [&](std::uint64_t n, std::uint64_t budget, std::uint32_t parent, bool is_right) -> std::uint32_t {
    const auto gi = static_cast<std::uint32_t>(l.groups.size());
    l.groups.push_back(Group{});
    l.groups[gi].parent = parent;
    l.groups[gi].is_right = is_right;
    const std::uint64_t g = std::min<std::uint64_t>(r, n);
    for (std::uint64_t m = 0; m < g; ++m) {
      l.group_of[next_rank] = gi;
      l.index_in_group[next_rank] = static_cast<std::uint32_t>(m);
      l.groups[gi].members.push_back(next_rank++);
    }
    std::uint64_t rest = n - g;
    if (rest == 0) return gi;
    const std::uint64_t down_cap = budget >= r ? reach(r, budget - r) : 0;
    const std::uint64_t down_n = std::min(rest, down_cap);
    const std::uint64_t right_n = rest - down_n;
    if (right_n > 0 && (budget < r + 1 || right_n > reach(r, budget - r - 1)))
      throw std::logic_error("fractional layout: the recurrence does not cover P");
    if (down_n > 0) {
      const std::uint32_t c = build(down_n, budget - r, gi, false);
      l.groups[gi].down = c;
    }
    if (right_n > 0) {
      const std::uint32_t c = build(right_n, budget - r - 1, gi, true);
      l.groups[gi].right = c;
    }
    return gi;
  };
  build(processors, d + 1, kNone, false);
  return l;
}

BroadcastProgram::BroadcastProgram(const Layout& layout, std::uint32_t rank, std::uint32_t packets)
    : layout_(layout), rank_(rank), s_(packets), r_(layout.r), root_(rank == 0) {
  const Group& g = layout.groups[layout.group_of[rank]];
  i_ = layout.index_in_group[rank];
  if (i_ + 1 < g.members.size()) down_ = g.members[i_ + 1];
  else if (g.down != kNone) down_ = layout.groups[g.down].members.front();
  if (g.right != kNone) right_ = layout.groups[g.right].members.front();
}

std::uint32_t BroadcastProgram::recv_source(std::uint32_t pkt) const {
  if (root_) return kNone;
  const Group& g = layout_.groups[layout_.group_of[rank_]];
  if (i_ > 0) return g.members[i_ - 1];
  const Group& parent = layout_.groups[g.parent];
  return g.is_right ? parent.members[pkt % r_] : parent.members.back();
}

std::uint64_t BroadcastProgram::lines() const {
  if (layout_.algorithm == Algorithm::kChain) return s_ + 1ull;
  return s_ + s_ / r_ + 1ull;
}

Line BroadcastProgram::pipe_down(std::uint64_t k, std::uint64_t j) const {
  Line l;
  l.send_to = down_;
  l.send_down = true;
  l.send_pkt = down_ == kNone ? kNone : static_cast<std::uint32_t>(k + j);
  if (j + 1 < r_) {
    l.recv_pkt = root_ ? kNone : static_cast<std::uint32_t>(k + j + 1);
    l.recv_from = recv_source(l.recv_pkt);
  }
  return l;
}

Line BroadcastProgram::line(std::uint64_t n) const {
  Line l;
  auto recv = [&](std::uint64_t pkt) {
    if (!root_) {
      l.recv_pkt = static_cast<std::uint32_t>(pkt);
      l.recv_from = recv_source(l.recv_pkt);
    }
  };
  auto send_right = [&](std::uint64_t pkt) {
    if (right_ != kNone) {
      l.send_to = right_;
      l.send_pkt = static_cast<std::uint32_t>(pkt);
    }
  };
  if (n == 0) {  // recv(D[0])
    recv(0);
    return l;
  }
  if (layout_.algorithm == Algorithm::kChain) {  // sendDown|recv ...; sendDown
    if (down_ != kNone) {
      l.send_to = down_;
      l.send_pkt = static_cast<std::uint32_t>(n - 1);
      l.send_down = true;
    }
    if (n < s_) recv(n);
    return l;
  }
  if (n == lines() - 1) {  // sendRight(D[s - r + i])
    send_right(s_ - r_ + i_);
    return l;
  }
  if (n <= r_) return pipe_down(0, n - 1);  // first phase
  const std::uint64_t m = n - 1 - r_;        // remaining phases: r + 1 lines each
  const std::uint64_t k = (m / (r_ + 1) + 1) * r_;
  const std::uint64_t j = m % (r_ + 1);
  if (j == 0) {  // sendRight|Recv(D[k - r + i], D[k])
    send_right(k - r_ + i_);
    recv(k);
    return l;
  }
  return pipe_down(k, j - 1);
}

Line ReversedProgram::line(std::uint64_t n) const {
  const Line b = base_->line(base_->lines() - 1 - n);
  Line l;
  l.send_to = b.recv_from;
  l.send_pkt = b.recv_pkt;
  l.recv_from = b.send_to;
  l.recv_pkt = b.send_pkt;
  return l;
}

DirectSimplexSchedule::DirectSimplexSchedule(const Layout& layout, std::uint32_t packets) {
  const std::uint32_t P = layout.processors();
  std::vector<BroadcastProgram> program;
  program.reserve(P);
  for (std::uint32_t x = 0; x < P; ++x) program.emplace_back(layout, x, packets);
  receive_first_.resize(P);
  for (std::uint32_t x = 0; x < P; ++x) receive_first_[x].assign(program[x].lines(), false);
  // Per PU: its current line, and which of its halves are done.
  constexpr std::uint8_t kSent = 1, kReceived = 2;
  std::vector<std::uint64_t> pos(P, 0);
  std::vector<Line> cur(P);
  std::vector<std::uint8_t> done(P, 0);
  std::vector<std::uint64_t> busy(P, 0);  // the step a PU last communicated in
  std::uint32_t finished = 0;
  auto settle = [&](std::uint32_t x) {  // skip lines (and empty lines) that are complete
    while (pos[x] < program[x].lines()) {
      cur[x] = program[x].line(pos[x]);
      const bool send_left = cur[x].send_to != kNone && !(done[x] & kSent);
      const bool recv_left = cur[x].recv_from != kNone && !(done[x] & kReceived);
      if (send_left || recv_left) return;
      ++pos[x];
      done[x] = 0;
    }
    ++finished;
  };
  for (std::uint32_t x = 0; x < P; ++x) settle(x);
  std::vector<std::uint32_t> moved;
  for (std::uint64_t step = 1; finished < P; ++step) {
    moved.clear();
    // Receivers in rank order: the upstream end of every pipeline first.
    for (std::uint32_t v = 0; v < P; ++v) {
      if (pos[v] >= program[v].lines() || busy[v] == step) continue;
      const Line& lv = cur[v];
      if (lv.recv_from == kNone || (done[v] & kReceived)) continue;
      const std::uint32_t u = lv.recv_from;
      if (busy[u] == step || pos[u] >= program[u].lines() || (done[u] & kSent)) continue;
      if (cur[u].send_to != v || cur[u].send_pkt != lv.recv_pkt) continue;
      busy[u] = busy[v] = step;
      if (lv.send_to != kNone && !(done[v] & kSent)) receive_first_[v][pos[v]] = true;
      done[v] |= kReceived;
      done[u] |= kSent;
      moved.push_back(u);
      moved.push_back(v);
    }
    // The pending transfer of the smallest duplex step always has both
    // partners at it, so a step without a transfer would be a program error.
    if (moved.empty()) throw std::logic_error("direct simplex schedule: no transfer is ready");
    for (std::uint32_t x : moved) settle(x);
    steps_ = step;
  }
}

std::uint32_t couple_sender(std::uint32_t v) { return v == 0 ? 0 : 2 * v + 1; }
std::uint32_t couple_receiver(std::uint32_t v) { return v == 0 ? 1 : 2 * v; }

CoupleProgram::CoupleProgram(const Layout& virtual_layout, std::uint32_t rank, std::uint32_t packets)
    : base_(virtual_layout, rank / 2, packets), v_(rank / 2), sender_(rank == couple_sender(rank / 2)) {}

Line CoupleProgram::line(std::uint64_t n) const {
  const Line b = base_.line(n / 2);
  const bool first = n % 2 == 0;
  Line l;
  if (sender_) {
    if (first) {
      if (b.send_to != kNone) {
        l.send_to = couple_receiver(b.send_to);
        l.send_pkt = b.send_pkt;
      }
    } else if (v_ == 0) {  // the root hands member 1 what it sent down
      if (b.send_to != kNone && b.send_down) {
        l.send_to = couple_receiver(0);
        l.send_pkt = b.send_pkt;
      }
    } else if (b.recv_from != kNone) {
      l.recv_from = couple_receiver(v_);
      l.recv_pkt = b.recv_pkt;
    }
  } else {
    if (v_ == 0) {
      if (!first && b.send_to != kNone && b.send_down) {
        l.recv_from = couple_sender(0);
        l.recv_pkt = b.send_pkt;
      }
    } else if (b.recv_from != kNone) {
      if (first) {
        l.recv_from = couple_sender(b.recv_from);
        l.recv_pkt = b.recv_pkt;
      } else {
        l.send_to = couple_sender(v_);
        l.send_pkt = b.recv_pkt;
      }
    }
  }
  return l;
}

std::uint64_t expected_steps(Algorithm a, std::uint32_t processors, unsigned r, std::uint32_t packets) {
  if (a == Algorithm::kChain) return processors - 2ull + packets;
  if (a == Algorithm::kBinary) r = 1;
  return depth(r, processors) + packets + packets / r - 1;
}

std::uint64_t last_packet_units(LastPacket last, std::uint32_t s, std::uint64_t k) {
  const std::uint64_t units = (k + s - 1) / s;
  if (last == LastPacket::kPadded) return units;
  const std::uint64_t before = (s - 1) * units;
  return before < k ? k - before : 0;
}

double model_cost(Algorithm a, std::uint32_t processors, unsigned r, std::uint32_t s, std::uint64_t k, std::uint64_t t,
                  LastPacket last) {
  const std::uint64_t units = (k + s - 1) / s;
  const std::uint64_t last_units = last_packet_units(last, s, k);
  if (last_units == 0) return std::numeric_limits<double>::infinity();
  return static_cast<double>(expected_steps(a, processors, r, s)) * static_cast<double>(t + units) -
         static_cast<double>(units - last_units);
}

Choice paper_choice(std::uint32_t processors, double k, double t, LastPacket last) {
  Choice c;
  const double d_prime = std::max(1.0, std::log2(static_cast<double>(processors)) - 1);
  c.r = static_cast<unsigned>(std::max(1.0, std::round(std::cbrt(k / (d_prime * t)))));
  const double d = static_cast<double>(depth(c.r, processors));
  const double s = std::sqrt(k * d * c.r / (t * (c.r + 1)));
  c.s = static_cast<std::uint32_t>(std::max(1.0, std::round(s / c.r))) * c.r;
  c.predicted = model_cost(Algorithm::kFractional, processors, c.r, c.s, static_cast<std::uint64_t>(k),
                           static_cast<std::uint64_t>(t), last);
  return c;
}

namespace {

Choice better(Choice a, Choice b) { return b.predicted < a.predicted ? b : a; }

}  // namespace

Choice tune_exhaustive(Algorithm a, std::uint32_t processors, std::uint64_t k, std::uint64_t t, unsigned r_max,
                       std::uint32_t s_max, LastPacket last) {
  Choice best;
  best.predicted = 1e300;
  const unsigned r_lo = a == Algorithm::kFractional ? 1 : 1, r_hi = a == Algorithm::kFractional ? r_max : 1;
  for (unsigned r = r_lo; r <= r_hi; ++r) {
    for (std::uint32_t s = r; s <= s_max; s += r) {
      best = better(best, Choice{r, s, model_cost(a, processors, r, s, k, t, last)});
    }
  }
  return best;
}

Choice tune_fast(Algorithm a, std::uint32_t processors, std::uint64_t k, std::uint64_t t, unsigned r_max,
                 std::uint32_t s_max, LastPacket last) {
  Choice best;
  best.predicted = 1e300;
  const unsigned r_hi = a == Algorithm::kFractional ? r_max : 1;
  for (unsigned r = 1; r <= r_hi; ++r) {
    // Golden-section search over the multiplier q (s = q r), then a small
    // neighbourhood (the cost is unimodal up to the rounding of k/s).
    std::int64_t lo = 1, hi = std::max<std::int64_t>(1, s_max / r);
    auto cost = [&](std::int64_t q) { return model_cost(a, processors, r, static_cast<std::uint32_t>(q * r), k, t, last); };
    while (hi - lo > 4) {
      const std::int64_t m1 = lo + (hi - lo) * 382 / 1000, m2 = lo + (hi - lo) * 618 / 1000;
      if (cost(m1) <= cost(m2)) hi = m2;
      else lo = m1;
    }
    for (std::int64_t q = std::max<std::int64_t>(1, lo - 2); q <= hi + 2 && q * r <= s_max; ++q)
      best = better(best, Choice{r, static_cast<std::uint32_t>(q * r), cost(q)});
  }
  return best;
}

}  // namespace icn::frac
