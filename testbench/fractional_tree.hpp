// Pipelined broadcast and reduction on single-port processors (Sanders &
// Sibeyn): the tree layouts, the program every PU runs (the paper's Fig. 2) and
// the paper's closed forms, used only to tune r and s and as expected values in
// reports and tests — never to compute a result.
//
// A layout places P PUs, by rank (0 = the root), into groups: a group is a
// chain of up to r PUs fed at its top; its last member feeds the top of the
// "down" successor group and all members together feed the top of the "right"
// successor group. Ranks are in the order group members, down subtree, right
// subtree, so every subtree of every packet's tree is a contiguous rank range
// (what lets a reduction with a non-commutative operator combine in rank order).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/types.hpp"

namespace icn::frac {

inline constexpr std::uint32_t kNone = 0xffffffffu;

enum class Algorithm : std::uint8_t { kChain, kBinary, kFractional };
const char* to_string(Algorithm a);

// P_i of the fractional tree of group size r: PUs holding the first packet
// after step i (P_i = i + 1 for i <= r, else r + P_{i-r} + P_{i-r-1}); r = 1 is
// the binary tree's P_i = 1 + P_{i-1} + P_{i-2}. Saturates at `cap`.
std::uint64_t reach(unsigned r, std::uint64_t i, std::uint64_t cap = 1ull << 62);
// d = min{i : P_i >= P} - 1: the step before the last PU receives its first packet.
std::uint64_t depth(unsigned r, std::uint64_t processors);

struct Group {
  std::vector<std::uint32_t> members;  // ranks, top first
  std::uint32_t down = kNone;          // successor groups (indices), or kNone
  std::uint32_t right = kNone;
  std::uint32_t parent = kNone;
  bool is_right = false;               // this group is its parent's right successor
};

// A tree of P ranks. Chain: one group of all P ranks.
struct Layout {
  Algorithm algorithm = Algorithm::kChain;
  unsigned r = 1;                   // group size (P for the chain)
  std::vector<Group> groups;
  std::vector<std::uint32_t> group_of;  // rank -> group
  std::vector<std::uint32_t> index_in_group;

  static Layout chain(std::uint32_t processors);
  static Layout fractional(std::uint32_t processors, unsigned r);  // r = 1: binary tree
  std::uint32_t processors() const { return static_cast<std::uint32_t>(group_of.size()); }
};

// One line of a PU's program: send packet send_pkt to send_to | receive packet
// recv_pkt from recv_from (ranks; kNone = no-op).
struct Line {
  std::uint32_t send_to = kNone, send_pkt = kNone;
  std::uint32_t recv_from = kNone, recv_pkt = kNone;
  bool send_down = false;  // the send goes down (chain successor), not right
};

// The program of one PU, generated line by line (a PU's program can be
// millions of lines at P = 16384; nothing is stored).
class Program {
 public:
  virtual ~Program() = default;
  virtual std::uint64_t lines() const = 0;
  virtual Line line(std::uint64_t n) const = 0;
};

// The Fig. 2 broadcast code of rank `rank` (chain: recv D[0]; sendDown|recv; sendDown).
class BroadcastProgram : public Program {
 public:
  BroadcastProgram(const Layout& layout, std::uint32_t rank, std::uint32_t packets);
  std::uint64_t lines() const override;
  Line line(std::uint64_t n) const override;

 private:
  Line pipe_down(std::uint64_t k, std::uint64_t j) const;  // j-th line of pipeDown(r, k)
  std::uint32_t recv_source(std::uint32_t pkt) const;
  const Layout& layout_;
  std::uint32_t rank_, s_, r_, i_;
  std::uint32_t down_ = kNone, right_ = kNone;
  bool root_;
};

// The same communication with the data paths reversed: line n is line L-1-n of
// `base` with send and receive swapped (a reduction towards rank 0).
class ReversedProgram : public Program {
 public:
  explicit ReversedProgram(std::unique_ptr<Program> base) : base_(std::move(base)) {}
  std::uint64_t lines() const override { return base_->lines(); }
  Line line(std::uint64_t n) const override;

 private:
  std::unique_ptr<Program> base_;
};

// Simplex by couples: a couple of PUs (2v, 2v+1 in simplex ranks) emulates the
// duplex rank v in two sub-steps. Sub-step 1: the sender member sends to the
// receiver member of the partner couple, the receiver member receives from the
// partner couple's sender member; sub-step 2: the receiver member forwards
// what it received to the sender member. In the root couple (0 sender, 1
// receiver) the root instead passes what it sent down to member 1.
// Ranks: root couple sender 0, receiver 1; other couples receiver 2v, sender 2v+1
// (so every subtree stays a contiguous rank range, see the header comment).
std::uint32_t couple_sender(std::uint32_t v);
std::uint32_t couple_receiver(std::uint32_t v);
class CoupleProgram : public Program {
 public:
  CoupleProgram(const Layout& virtual_layout, std::uint32_t rank, std::uint32_t packets);
  std::uint64_t lines() const override { return 2 * base_.lines(); }
  Line line(std::uint64_t n) const override;

 private:
  BroadcastProgram base_;
  std::uint32_t v_;
  bool sender_;
};

// Simplex, direct: every PU runs its duplex program with each line split into
// its two halves, in an order chosen per PU and per line so that a run of r
// packets costs 2r + 1 steps (the paper's direct schedule, which it only
// sketches). The order comes from a lock-step timetable compiled once before
// the run (DirectSimplexSchedule): in every step, take a maximal set of ready
// transfers, each PU in at most one, preferring receivers of lower rank (the
// upstream end of every pipeline first). A line's halves then run in the order
// the timetable gave them. The hardware is not told the timetable, only the
// order: every time reported is still observed. Deadlock freedom and the
// 2r + 1: docs/fractional_tree.md, "Simplex".
class DirectSimplexSchedule {
 public:
  DirectSimplexSchedule(const Layout& layout, std::uint32_t packets);
  // Bit n: line n of `rank`'s broadcast program receives before it sends.
  const std::vector<bool>& receive_first(std::uint32_t rank) const { return receive_first_[rank]; }
  // Steps of the compiled timetable (a planning figure, never a result).
  std::uint64_t timetable_steps() const { return steps_; }

 private:
  std::vector<std::vector<bool>> receive_first_;
  std::uint64_t steps_ = 0;
};

class OrderedSplitProgram : public Program {
 public:
  // `receive_first` must outlive the program (the schedule owns it).
  OrderedSplitProgram(std::unique_ptr<Program> base, const std::vector<bool>& receive_first)
      : base_(std::move(base)), receive_first_(receive_first) {}
  std::uint64_t lines() const override { return 2 * base_->lines(); }
  Line line(std::uint64_t n) const override {
    Line b = base_->line(n / 2);
    const bool receive_half = (n % 2 == 0) == static_cast<bool>(receive_first_[n / 2]);
    if (receive_half) {
      b.send_to = b.send_pkt = kNone;
      b.send_down = false;
    } else {
      b.recv_from = b.recv_pkt = kNone;
    }
    return b;
  }

 private:
  std::unique_ptr<Program> base_;
  const std::vector<bool>& receive_first_;
};

// Paper's closed forms (expected values, reports, tuning).
struct Closed {
  static double chain_time(double p, double s, double k, double t) { return (p - 2 + s) * (t + k / s); }
  // Eq. (7): T_r^s = (d + s(1 + 1/r))(t + k/s); r = 1: the binary tree's (d + 2s)(t + k/s).
  static double tree_time(double d, double r, double s, double k, double t) { return (d + s * (1 + 1 / r)) * (t + k / s); }
};
// Steps the executed pseudocode needs for the last packet to arrive (READING-NOTES:
// eq. (7) counts one trailing step too many): chain P - 2 + s, trees d + s(1 + 1/r) - 1.
std::uint64_t expected_steps(Algorithm a, std::uint32_t processors, unsigned r, std::uint32_t packets);

// How a message of k units is cut into s packets: every packet ceil(k/s)
// units (padded: the last is filled up), or the last one only what is left,
// k - (s - 1) ceil(k/s) units (short; s must leave it at least one unit).
enum class LastPacket : std::uint8_t { kPadded, kShort };
// The paper's closed-form choice: r ~ (k/(d' t))^{1/3} with d' = log P - 1,
// s = sqrt(k d r / (t (r + 1))) rounded to a multiple of r.
struct Choice {
  unsigned r = 1;
  std::uint32_t s = 1;
  double predicted = 0;  // (steps)(t + ceil(k/s)): the cost model with whole units
};
Choice paper_choice(std::uint32_t processors, double k, double t, LastPacket last = LastPacket::kPadded);
// Units of the last packet, 0 if s packets of ceil(k/s) units leave none for it.
std::uint64_t last_packet_units(LastPacket last, std::uint32_t s, std::uint64_t k);
// Cost of (r, s) in the model the simulated crossbar implements: steps x (t +
// ceil(k/s)). With a short last packet, the final step carries only the last
// packet, ceil(k/s) - last units less (exact for the chain; for the trees an
// estimate: another branch may still be busy with a full packet). Infinite if
// s leaves no units for a short last packet.
double model_cost(Algorithm a, std::uint32_t processors, unsigned r, std::uint32_t s, std::uint64_t k, std::uint64_t t,
                  LastPacket last = LastPacket::kPadded);
// Exhaustive search over r in 1..r_max, s multiples of r up to s_max.
Choice tune_exhaustive(Algorithm a, std::uint32_t processors, std::uint64_t k, std::uint64_t t, unsigned r_max,
                       std::uint32_t s_max, LastPacket last = LastPacket::kPadded);
// Fast search: for each r, golden-section over s (multiples of r); r over 1..r_max.
Choice tune_fast(Algorithm a, std::uint32_t processors, std::uint64_t k, std::uint64_t t, unsigned r_max,
                 std::uint32_t s_max, LastPacket last = LastPacket::kPadded);

}  // namespace icn::frac
