// ExperimentBase: what every family's experiment shares, collective and
// open-loop alike.
//
// It owns the network's cycle engine and statistics registry and writes every
// part of the results that is not the family's own:
//   - the verdict chain, first failure named: a message delivered to the wrong
//     node (it explains the stall that usually follows), the run's outcome
//     (stalled, cut off, interrupted), the books (every injected message
//     delivered or still held), the hardware's own protocol, and what the
//     traffic received against its plan;
//   - the `result` block: status, the family's fields, verified, conservation,
//     its expected values, problem, held traffic, then the family's tail;
//   - `stats` from the registry;
//   - the summary table, from columns the family declares once (header and
//     how the cell is read from the results), so a row cannot disagree with
//     its header or with the JSON it is read from.
// A layer for a kind of traffic (collective_experiment.hpp,
// open_loop_experiment.hpp) derives from it; a family derives from a layer and
// supplies its network, its traffic and its own JSON sections.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "models/engine.hpp"
#include "models/stats.hpp"
#include "testbench/experiment.hpp"

namespace icn {

// One column of a family's summary table: its header and its cell, read from
// the results JSON that write_results() produced (or, for what the JSON does
// not hold, such as the network's description, from the family's setup).
struct Column {
  using Json = nlohmann::ordered_json;
  std::string header;
  std::function<std::string(const Json& results)> cell;

  // The value at a JSON pointer ("/result/cycles"), printed as it is.
  static Column integer(std::string header, std::string pointer) {
    return {std::move(header), [p = Json::json_pointer(pointer)](const Json& j) {
              return std::to_string(j.at(p).get<std::uint64_t>());
            }};
  }
  // A real at a JSON pointer with `digits` after the point.
  static Column fixed(std::string header, std::string pointer, int digits) {
    return {std::move(header), [p = Json::json_pointer(pointer), digits](const Json& j) {
              return format_fixed(j.at(p).get<double>(), digits);
            }};
  }
  // A boolean at a JSON pointer as "yes" or "NO" (a failure stands out).
  static Column yes_no(std::string header, std::string pointer) {
    return {std::move(header), [p = Json::json_pointer(pointer)](const Json& j) {
              return j.at(p).get<bool>() ? std::string("yes") : std::string("NO");
            }};
  }
  // A text known before the run (the network, the pattern).
  static Column text(std::string header, std::string value) {
    return {std::move(header), [value = std::move(value)](const Json&) { return value; }};
  }

  static std::string format_fixed(double x, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << x;
    return s.str();
  }
};

// One entry of a run's `failed_links` section: a link cut by
// network.failed_links and what the hardware asked of it, in the family's
// unit (packets whose route chose it, messages, streams): "unused" when
// nothing did, so a verified run with a failed link says whether the fault
// was ever put to the test. Traffic held behind the first blocked packet
// never asks, so in a blocked run `requests` is a lower bound.
inline nlohmann::ordered_json failed_link_json(const std::string& link, std::uint64_t requests,
                                               const std::string& unit) {
  return {{"link", link},
          {"requests", requests},
          {"unit", unit},
          {"status", requests == 0 ? "unused" : "needed"}};
}

class ExperimentBase : public Experiment {
 public:
  CycleEngine& engine() override { return engine_; }

  // "" if the run completed, every message went where it was meant, the books
  // balance, the hardware kept its protocol and the traffic received exactly
  // its plan; otherwise the first failure, in that order.
  std::string problem() const override {
    const std::string wrong = misdelivery_problem();
    if (!wrong.empty()) return wrong;
    if (engine_.outcome().status != RunOutcome::Status::kCompleted) return outcome_problem();
    const std::string books = conservation_problem();
    if (!books.empty()) return books;
    const std::string protocol = protocol_problem();
    if (!protocol.empty()) return protocol;
    return receipts_problem();
  }

  void write_results(nlohmann::ordered_json& out) const override {
    write_sections_before(out);
    nlohmann::ordered_json r;
    r["status"] = to_string(engine_.outcome().status);
    write_result_fields(r);
    r["verified"] = verified();
    if (!r.contains("conservation")) {
      const std::string books = conservation_problem();
      const std::string protocol = protocol_problem();
      r["conservation"] = books.empty() && protocol.empty() ? "ok" : (books.empty() ? protocol : books);
    }
    write_expected(r);
    const std::string why = problem();
    if (!why.empty()) r["problem"] = why;
    if (!engine_.outcome().held.empty()) r["held"] = held_json(engine_.outcome());
    write_result_tail(r);
    out["result"] = r;
    write_sections(out);
    const nlohmann::ordered_json registered = stats_.to_json();
    if (!registered.empty()) out["stats"] = registered;
  }

  std::vector<std::string> table_header() const override {
    std::vector<std::string> h;
    for (const Column& c : columns()) h.push_back(c.header);
    return h;
  }
  std::vector<std::string> table_row() const override {
    nlohmann::ordered_json j;
    write_results(j);
    std::vector<std::string> row;
    for (const Column& c : columns()) row.push_back(c.cell(j));
    return row;
  }

 protected:
  ExperimentBase(sc_core::sc_module_name name, const CycleEngine::Options& options)
      : Experiment(name), engine_("engine", options) {}

  // The run ended because the traffic completed (not stalled, not cut off).
  bool completed() const { return engine_.outcome().status == RunOutcome::Status::kCompleted; }
  // A completed run with no problem: a protocol fault (a misrouted stream, a
  // stray acknowledge) is never "verified".
  virtual bool verified() const { return completed() && problem().empty(); }

  // A paper's value beside the observed one: null when the paper gives none or
  // the run did not complete (an incomplete run agrees with nothing).
  std::optional<bool> matches(std::optional<std::uint64_t> paper, std::uint64_t observed) const {
    if (!paper || !completed()) return std::nullopt;
    return *paper == observed;
  }
  static nlohmann::ordered_json json_or_null(const std::optional<bool>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  }

  // --- the verdict chain, supplied by the layer and the family ---
  // A message received by another node than its source meant.
  virtual std::string misdelivery_problem() const { return ""; }
  // Why the run did not complete (the engine's diagnostic; a family may add
  // where its hardware waits).
  virtual std::string outcome_problem() const { return engine_.outcome().diagnostic; }
  // "" when the books balance (every injected message delivered or held).
  virtual std::string conservation_problem() const = 0;
  // Faults a correct network never commits (bit-serial protocol checks, a
  // failed link that blocked traffic, ...).
  virtual std::string protocol_problem() const { return ""; }
  // "" if the traffic received exactly what it should.
  virtual std::string receipts_problem() const = 0;

  // --- the results ---
  // The family's fields of the `result` block, written after `status`.
  virtual void write_result_fields(nlohmann::ordered_json& r) const = 0;
  // Its `expected` block (paper values, bounds), written after `conservation`.
  virtual void write_expected(nlohmann::ordered_json& r) const {}
  // Fields written last in `result` (the latency statistics).
  virtual void write_result_tail(nlohmann::ordered_json& r) const {}
  // Its own JSON sections, before and after `result`.
  virtual void write_sections_before(nlohmann::ordered_json& out) const {}
  virtual void write_sections(nlohmann::ordered_json& out) const {}
  // The summary table's columns (empty: a family that writes its own rows).
  virtual std::vector<Column> columns() const { return {}; }

  CycleEngine engine_;
  StatRegistry stats_;
};

}  // namespace icn
