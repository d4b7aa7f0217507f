// network.type=hpam: the verdict, the JSON sections, the paper's equations
// beside the observed times, and the summary table (hpam_experiment.hpp).
#include <algorithm>
#include <optional>
#include <string>

#include "testbench/experiment_base.hpp"
#include "testbench/hpam_analytic.hpp"
#include "testbench/hpam_experiment.hpp"

namespace icn {

using hpam::Collective;


HpamExpectation hpam_expectation(const HpamSetup& setup, std::pair<unsigned, unsigned> shape) {
  HpamExpectation x;
  hpam::PaperCosts k;
  k.c1_us = setup.send_us;
  k.copy1_us = setup.copy_us;
  k.lambda_us = setup.lambda_us;
  k.q = setup.q;
  const auto& top = setup.levels[0];
  const auto& low = setup.levels[1];
  const unsigned p2 = shape.first, q2 = shape.second;
  const bool bc = setup.spec.collective == Collective::kBroadcast;
  const bool multicast = setup.spec.algorithm == hpam::Algorithm::kMulticast;
  auto set = [&](const char* eq, double us) {
    x.equation = eq;
    x.us = us;
  };
  if (top.rows * top.cols == 1) {
    if (setup.spec.all_levels) {
      x.why_none = "the paper gives no equation for destinations in both levels with one level-1 processor";
      return x;
    }
    hpam::PaperCase c{low.rows, low.cols, p2, q2, static_cast<double>(setup.spec.piece_bytes)};
    if (multicast) set(bc ? "eq. (6)" : "eq. (11)", bc ? hpam::eq6_multicast_broadcast(k, c) : hpam::eq11_multicast_scatter(k, c));
    else set(bc ? "eq. (5)" : "eq. (10)", bc ? hpam::eq5_hybrid_broadcast(k, c) : hpam::eq10_hybrid_scatter(k, c));
    return x;
  }
  // Several level-1 processors: the relay programs of sections 3.2 and 4.2.
  if (setup.spec.algorithm == hpam::Algorithm::kBruteForce) {
    x.why_none = "the paper gives no equation for the brute force with several level-1 processors";
    return x;
  }
  hpam::RelayCase c;
  c.r1 = top.rows;
  c.c1 = top.cols;
  c.r2 = low.rows;
  c.c2 = low.cols;
  c.p2 = p2;
  c.q2 = q2;
  c.source_row = setup.spec.source.row;
  c.all_levels = setup.spec.all_levels;
  c.s = static_cast<double>(setup.spec.piece_bytes);
  if (bc && !multicast) {
    if (top.cols < 2 || low.cols < 2 || p2 != low.rows || q2 != low.cols / 2)
      x.why_none = "eq. (7) describes the two sub-meshes r2 x c2/2 fed by two level-1 processors of one row "
                   "(c1 >= 2); this shape or machine has no equation";
    else
      set("eq. (7)", hpam::eq7_relay_hybrid_broadcast(k, c));
  } else if (bc) {
    if (low.rows < 2 || p2 != low.rows / 2)
      x.why_none = "eq. (8) describes the sub-meshes r2/2 x 1; this shape has no equation";
    else
      set("eq. (8)", hpam::eq8_relay_multicast_broadcast(k, c));
  } else if (setup.spec.all_levels) {
    x.why_none = "the paper gives no equation for a scatter or gather to both levels";
  } else if (multicast) {
    set("eq. (14)", hpam::eq14_relay_multicast_scatter(k, c));
  } else {
    set(q2 <= low.cols / top.cols ? "eq. (12)" : "eq. (13)", hpam::eq12_13_relay_hybrid_scatter(k, c));
  }
  return x;
}

std::string HpamExperiment::problem() const {
  std::string why = CollectiveExperiment::problem();
  if (!why.empty() && !completed() && !setup_.failed_links.empty()) {
    const std::string where = network_.stuck_at_failed_link();
    if (!where.empty()) why += "; " + where;
  }
  return why;
}

std::string HpamExperiment::receipts_problem() const {
  for (std::size_t i = 0; i < trials_.size(); ++i) {
    const Trial& t = trials_[i];
    const std::string shape = shape_text(i);
    if (!t.problem.empty()) return "trial " + shape + ": " + t.problem;
    if (t.end == 0) return "trial " + shape + ": " + std::to_string(t.received) + " of " +
                           std::to_string(t.messages) + " messages received";
  }
  return "";
}

void HpamExperiment::write_result_fields(nlohmann::ordered_json& r) const {
  const std::size_t b = best();
  const Trial& t = trials_[b];
  r["cycles"] = t.cycles();
  r["time_us"] = t.cycles() * setup_.cycle_us();
  r["submesh"] = {setup_.shapes[b].first, setup_.shapes[b].second};
  r["messages"] = t.messages;
  r["bytes"] = t.bytes;
  energy_->write(r, trial_activity(), t.cycles());
}

HpamActivity HpamExperiment::trial_activity() const {
  const std::size_t b = best();
  if (b >= trial_start_activity_.size()) {  // never started: every counter zero
    HpamActivity none = energy_->read();
    none -= energy_->read();
    return none;
  }
  HpamActivity a = b + 1 < trial_start_activity_.size() ? trial_start_activity_[b + 1] : energy_->read();
  a -= trial_start_activity_[b];
  return a;
}

void HpamExperiment::write_expected(nlohmann::ordered_json& r) const {
  const std::size_t b = best();
  nlohmann::ordered_json e;
  const HpamExpectation x = hpam_expectation(setup_, setup_.shapes[b]);
  const auto a = x.us;
  e["equation"] = x.equation;
  e["analytic_us"] = a ? nlohmann::ordered_json(*a) : nlohmann::ordered_json(nullptr);
  e["observed_us"] = completed() ? nlohmann::ordered_json(trials_[b].cycles() * setup_.cycle_us())
                                 : nlohmann::ordered_json(nullptr);
  if (a && completed())
    e["difference_percent"] = 100.0 * (trials_[b].cycles() * setup_.cycle_us() - *a) / *a;
  else
    e["difference_percent"] = nullptr;
  if (!a) e["why_none"] = x.why_none;
  r["expected"] = e;
}

void HpamExperiment::write_sections(nlohmann::ordered_json& out) const {
  nlohmann::ordered_json h;
  h["machine"] = topo_.describe();
  h["collective"] = hpam::to_string(setup_.spec.collective);
  h["algorithm"] = hpam::to_string(setup_.spec.algorithm);
  h["cycle_us"] = setup_.cycle_us();
  h["best_of"] = setup_.best ? "every sub-mesh shape" : "the given sub-mesh";
  h["trials"] = trials_json();
  std::size_t max_send_wait = 0, max_recv_wait = 0;
  for (const auto& n : nics_) {
    max_send_wait = std::max(max_send_wait, n->max_send_wait());
    max_recv_wait = std::max(max_recv_wait, n->max_recv_wait());
  }
  h["max_messages_waiting_to_send"] = max_send_wait;
  h["max_messages_waiting_to_receive"] = max_recv_wait;
  if (setup_.synchronous) {
    std::uint64_t sent = 0, received = 0, awaited = 0;
    for (const auto& n : nics_) {
      sent += n->acks_sent();
      received += n->acks_received();
      awaited += n->acks_awaited();
    }
    h["acknowledgements"] = {{"sent", sent}, {"received", received}, {"still_awaited", awaited}};
  }
  if (setup_.replication) {
    h["replication"] = replication_json();
    h["combining"] = combining_json();
  }
  out["hpam"] = h;
  if (!setup_.failed_links.empty()) {
    std::vector<std::string> names;
    for (const auto& l : setup_.failed_links) names.push_back(l.name);
    out["faults"] = {{"failed_links", names}};
    out["failed_links"] = failed_links_json();
  }
}

// Each sub-mesh shape's trial: its time, null if it did not complete.
nlohmann::ordered_json HpamExperiment::trials_json() const {
  nlohmann::ordered_json trials = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < trials_.size(); ++i) {
    const Trial& t = trials_[i];
    const auto a = hpam_expectation(setup_, setup_.shapes[i]).us;
    trials.push_back({{"submesh", {setup_.shapes[i].first, setup_.shapes[i].second}},
                      {"cycles", t.end != 0 ? nlohmann::ordered_json(t.cycles()) : nlohmann::ordered_json(nullptr)},
                      {"time_us", t.end != 0 ? nlohmann::ordered_json(t.cycles() * setup_.cycle_us())
                                             : nlohmann::ordered_json(nullptr)},
                      {"analytic_us", a ? nlohmann::ordered_json(*a) : nlohmann::ordered_json(nullptr)}});
  }
  return trials;
}

// The inter-level replicators' flits, summed over every replicator.
nlohmann::ordered_json HpamExperiment::replication_json() const {
  std::uint64_t in = 0, out = 0, stalled = 0;
  unsigned occupancy = 0;
  for (const auto& r : replicators_) {
    in += r->flits_in();
    for (unsigned i = 0; i < r->branches(); ++i) out += r->flits_out(i);
    stalled += r->stalled_cycles();
    occupancy = std::max(occupancy, r->max_occupancy());
  }
  return {{"replicators", replicators_.size()},
          {"mode", setup_.replicator_mode == hpam::ReplicatorMode::kLockstep ? "lockstep" : "buffered"},
          {"model", setup_.replicator_impl == hpam::ReplicatorImpl::kRtl ? "rtl" : "behavioral"},
          {"flits_in", in},
          {"flits_out", out},
          {"stalled_cycles", stalled},
          {"max_branch_occupancy", occupancy}};
}

// The combiners' messages and flits in and out, summed over every combiner.
nlohmann::ordered_json HpamExperiment::combining_json() const {
  std::uint64_t cin = 0, cout = 0, stored = 0, fin = 0, fout = 0;
  for (const auto& c : combiners_) {
    cin += c->messages_in();
    cout += c->messages_out();
    fin += c->flits_in();
    fout += c->flits_out();
    stored = std::max(stored, c->max_stored_flits());
  }
  return {{"messages_in", cin}, {"messages_out", cout}, {"flits_in", fin}, {"flits_out", fout},
          {"max_stored_flits", stored}};
}

// Each failed link and the packets (messages, and acknowledgements of
// synchronous sends) the hardware asked of it. Every link that
// network.failed_links can name is a link of the shared VC network: an
// injection link (the VcNic counts the packets its processor handed over) or
// a router's output (the VcRouter counts the heads routed to it). The
// replication hardware's own links cannot be failed (HpamTopology::parse_link).
nlohmann::ordered_json HpamExperiment::failed_links_json() const {
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (const auto& l : setup_.failed_links) {
    const std::uint64_t requests =
        l.injection ? network_.failed_injection_requests(l.node) : network_.failed_output_requests(l.router, l.port);
    links.push_back(failed_link_json(l.name, requests, "packets"));
  }
  return links;
}

// The table reads the reported (best) trial from the results: cycles and time
// from `result`, the paper's time from `result.expected`.
std::vector<Column> HpamExperiment::columns() const {
  return {Column::text("machine", topo_.describe()),
          Column::text("collective", hpam::to_string(setup_.spec.collective)),
          Column::text("algorithm", hpam::to_string(setup_.spec.algorithm)),
          Column::text("S", std::to_string(setup_.spec.piece_bytes)),
          Column::text("Q", std::to_string(setup_.q)),
          {"submesh",
           [](const nlohmann::ordered_json& j) {
             const auto& s = j.at("result").at("submesh");
             return std::to_string(s.at(0).get<unsigned>()) + "x" + std::to_string(s.at(1).get<unsigned>());
           }},
          Column::integer("cycles", "/result/cycles"),
          Column::fixed("time us", "/result/time_us", 1),
          {"paper us",
           [](const nlohmann::ordered_json& j) {
             const auto& a = j.at("result").at("expected").at("analytic_us");
             return a.is_null() ? std::string("-") : Column::format_fixed(a.get<double>(), 1);
           }},
          Column::yes_no("verified", "/result/verified"),
          HpamEnergy::column()};
}

std::size_t HpamExperiment::best() const {
  std::size_t b = 0;
  for (std::size_t i = 1; i < trials_.size(); ++i) {
    const bool ok = trials_[i].end != 0 && trials_[i].problem.empty();
    const bool best_ok = trials_[b].end != 0 && trials_[b].problem.empty();
    if ((ok && !best_ok) || (ok == best_ok && trials_[i].cycles() < trials_[b].cycles())) b = i;
  }
  return b;
}

std::string HpamExperiment::shape_text(std::size_t i) const {
  return std::to_string(setup_.shapes[i].first) + "x" + std::to_string(setup_.shapes[i].second);
}

}  // namespace icn
