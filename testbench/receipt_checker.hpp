// ReceiptChecker: what a processor does with every message it receives - is it
// in the plan, is it the first copy, are its payload bytes the keyed hash of
// (source, destination, sequence)? Shared by every processor model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/types.hpp"
#include "nics/icn_extension.hpp"
#include "testbench/traffic.hpp"

namespace icn {

struct ReceiptCheck {
  std::uint64_t expected = 0;
  std::uint64_t received = 0;     // distinct expected receipts seen
  std::uint64_t unexpected = 0;   // not in the plan
  std::uint64_t duplicates = 0;
  std::uint64_t corrupted = 0;    // payload bytes wrong
  Cycle last_arrival = 0;
  std::string first_problem;

  bool ok() const {
    return received == expected && unexpected == 0 && duplicates == 0 && corrupted == 0;
  }
  // "" when ok(); otherwise the first wrong delivery, or how many are missing.
  std::string problem(const std::string& owner) const {
    if (ok()) return "";
    if (!first_problem.empty()) return first_problem;
    return owner + " received " + std::to_string(received) + " of " + std::to_string(expected) +
           " expected messages";
  }
};

// The first problem among several processors' checks, or "".
template <class Processors>
std::string first_receipt_problem(const Processors& processors) {
  for (const auto& pe : processors) {
    const std::string why = pe->check().problem(pe->name());
    if (!why.empty()) return why;
  }
  return "";
}

class ReceiptChecker {
 public:
  // `owner` names the processor in problem reports.
  ReceiptChecker(std::string owner, NodeId node, std::uint64_t content_key, const ReceiptPlan& plan);

  void check(const Delivery& delivery);
  const ReceiptCheck& result() const { return check_; }

 private:
  std::string owner_;
  NodeId node_;
  std::uint64_t key_;
  const ReceiptPlan& plan_;
  std::vector<bool> seen_;
  ReceiptCheck check_;
};

// Little-endian 8-byte payload words (the content every processor sends).
void store_le64(unsigned char* out, std::uint64_t v);
std::uint64_t load_le64(const unsigned char* in);

}  // namespace icn
