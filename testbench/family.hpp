// A network family registers itself in its own experiment file, in one line:
//
//   const RegisterFamily kIbtRegistered{30, {torus_kind, ibt_kind}, ibt_demo};
//
// with its rank, its network kinds (the `network.type`s it runs, in the order
// `icnsim list` shows them) and its demo rows for the default table (`icnsim`
// with no arguments), or no demo. Families appear in `icnsim list` and in the
// default table in the order of their ranks, never in the order the linker or
// static initialisation happens to visit their files; two families with one
// rank, or two kinds with one type, are a programming error that every run
// reports (families() throws).
//
// The registrations are static objects of the icnsim_testbench library, which
// its consumers link whole (testbench/CMakeLists.txt), so that a family's file
// is linked in although nothing else refers to it.
#pragma once

#include <string>
#include <vector>

#include "testbench/experiment.hpp"

namespace icn {

// One row of the default table: a run on the built-in defaults with these
// `--set` overrides (the table prints each row's command line).
struct DemoCase {
  std::string name;  // the experiment's module name: no dots
  std::vector<std::string> overrides;
};

// A family's section of the default table.
struct DemoRows {
  std::string title;     // the hardware and its paper
  std::string scenario;  // the shipped scenario of this family, to start from
  std::vector<DemoCase> cases;
  std::string paper;  // what the paper says, for the rows above
};

struct Family {
  int rank = 0;
  std::vector<NetworkKind (*)()> kinds;
  DemoRows (*demo)() = nullptr;  // nullptr: no section in the default table
};

class RegisterFamily {
 public:
  RegisterFamily(int rank, std::vector<NetworkKind (*)()> kinds, DemoRows (*demo)() = nullptr);
};

// Every registered family, by rank.
const std::vector<Family>& families();

}  // namespace icn
