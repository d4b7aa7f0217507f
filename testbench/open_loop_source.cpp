#include "testbench/open_loop_source.hpp"

#include <cmath>
#include <stdexcept>

namespace icn {

OpenLoopSource::OpenLoopSource(const char* owner, NodeId node, const DestinationPattern& pattern,
                               const PacketSizes& sizes, InjectionProcess process, std::uint64_t seed,
                               std::vector<TraceEntry> trace, const std::function<void(const IntendedPacket&)>& created,
                               SourceWrite& write)
    : Clocked(Phase::kProcessor), owner_(owner), node_(node), pattern_(pattern), sizes_(sizes), process_(process),
      rng_(seed, 0x5eed0000ull + node), trace_(std::move(trace)), created_(created), write_(write) {
  if (process_.kind == InjectionProcess::Kind::kOnOff)
    on_rate_ = process_.packet_rate * (process_.alpha + process_.beta) / process_.alpha;
}

std::string OpenLoopSource::name() const { return std::string(owner_) + ".pe" + std::to_string(node_); }

void OpenLoopSource::start() {
  if (!trace_.empty()) {
    next_ = trace_.front().cycle;
  } else if (pattern_.kind != PatternKind::kTrace && process_.packet_rate > 0) {
    next_ = process_.kind == InjectionProcess::Kind::kBernoulli ? next_bernoulli(0) : 1;
  }
  if (next_ != kNever) engine()->wake(*this, next_);
}

// A Bernoulli process with probability p per cycle, drawn as geometric gaps
// (the same process, without evaluating the cycles in which nothing happens).
Cycle OpenLoopSource::next_bernoulli(Cycle after) {
  const double p = process_.packet_rate;
  if (p >= 1.0) return after + 1;
  const double u = 1.0 - rng_.uniform();  // (0, 1]
  const double gap = std::floor(std::log(u) / std::log1p(-p));
  return gap > 1e15 ? kNever : after + 1 + static_cast<Cycle>(gap);
}

void OpenLoopSource::send(NodeId dst, unsigned flits, Cycle now) {
  const std::uint32_t seq = seq_++;
  tlm::tlm_generic_payload& trans = write_.trans;
  prepare_message_write(trans, write_.ext, dst, &write_.byte, 1, seq, false, flits);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if (nic_ == nullptr) throw std::logic_error(name() + ": not connected to a NIC");
  nic_->b_transport(trans, delay);
  if (trans.is_response_error())
    throw std::logic_error(name() + ": NIC refused a packet: " + trans.get_response_string());
  created_(IntendedPacket{node_, dst, seq, flits, now});
}

Cycle OpenLoopSource::tick(Cycle now) {
  if (!injecting_ || next_ == kNever) return kNever;
  if (now < next_) return next_;  // the per-block scheduler calls every cycle
  next_ = advance(now);
  return next_;
}

Cycle OpenLoopSource::advance(Cycle now) {
  if (!trace_.empty()) {
    while (trace_next_ < trace_.size() && trace_[trace_next_].cycle <= now) {
      send(trace_[trace_next_].dst, trace_[trace_next_].size, now);
      ++trace_next_;
    }
    return trace_next_ < trace_.size() ? trace_[trace_next_].cycle : kNever;
  }
  if (process_.kind == InjectionProcess::Kind::kBernoulli) {
    send(pattern_.pick(node_, rng_), sizes_.pick(rng_), now);
    return next_bernoulli(now);
  }
  // On/off (bursty): a two-state Markov chain stepped every cycle.
  on_ = on_ ? rng_.uniform() >= process_.beta : rng_.uniform() < process_.alpha;
  if (on_ && rng_.uniform() < on_rate_) send(pattern_.pick(node_, rng_), sizes_.pick(rng_), now);
  return now + 1;
}

}  // namespace icn
