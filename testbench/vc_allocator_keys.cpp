// router.vc_allocator, router.alloc_iterations, router.vc_arbiter and
// router.sw_arbiter: the VC router's allocators and their arbiters, named by
// the factories in routers/common (a new allocator or arbiter is a row there,
// and becomes an allowed value here).
#include <algorithm>
#include <string>
#include <vector>

#include "models/params.hpp"
#include "routers/common/allocator_factory.hpp"
#include "routers/common/arbiter_factory.hpp"
#include "testbench/vc_setup.hpp"

namespace icn {

namespace {

std::string allocator_help() {
  std::string h = "VC allocator:";
  for (const AllocatorKind& k : allocator_kinds()) h += std::string(" ") + k.name + ": " + k.description + ";";
  h.back() = '.';
  return h;
}

std::string arbiter_help(const std::string& of) {
  std::string h = "the arbiters of the " + of + ":";
  for (const ArbiterKind& k : arbiter_kinds()) h += std::string(" ") + k.name + ": " + k.description + ";";
  h += " matrix for at most " + std::to_string(kMaxMatrixRequesters) + " requesters per arbiter";
  return h;
}

const ChoiceParam kVcAllocator{"router.vc_allocator", "islip", allocator_names(), allocator_help()};
const IntParam kAllocIterations{"router.alloc_iterations", 1, 1, 8, "iSLIP iterations of the VC allocator"};
const ChoiceParam kVcArbiter{"router.vc_arbiter", "round_robin", arbiter_names(),
                             arbiter_help("VC allocator (its input and output stages)")};
const ChoiceParam kSwArbiter{
    "router.sw_arbiter", "round_robin", arbiter_names(),
    arbiter_help("switch allocator (each input port's over its VCs, each output port's over the input ports)")};

}  // namespace

std::vector<ParamSpec> vc_allocator_params() {
  return {kVcAllocator.spec(), kAllocIterations.spec(), kVcArbiter.spec(), kSwArbiter.spec()};
}

void read_vc_allocators(Config& cfg, vc::RouterParams& r, unsigned max_ports) {
  r.vc_allocator = kVcAllocator.read(cfg);
  r.alloc_iterations = static_cast<unsigned>(kAllocIterations.read(cfg));
  // A matrix arbiter keeps a bit per pair of its requesters and decides in
  // O(n^2) steps: for routers whose arbiters see one word of requesters.
  r.vc_arbiter = kVcArbiter.read(cfg);
  if (r.vc_arbiter == "matrix" && max_ports * r.vcs > kMaxMatrixRequesters)
    cfg.fail(kVcArbiter.key, "matrix arbitrates among at most " + std::to_string(kMaxMatrixRequesters) +
                                 " requesters; the VC allocator of the largest router here has " +
                                 std::to_string(max_ports * r.vcs) + " (ports x vcs); allowed here: round_robin");
  r.sw_arbiter = kSwArbiter.read(cfg);
  if (r.sw_arbiter == "matrix" && std::max(max_ports, r.vcs) > kMaxMatrixRequesters)
    cfg.fail(kSwArbiter.key, "matrix arbitrates among at most " + std::to_string(kMaxMatrixRequesters) +
                                 " requesters; the switch allocator of the largest router here has " +
                                 std::to_string(max_ports) + " ports and " + std::to_string(r.vcs) +
                                 " VCs; allowed here: round_robin");
}

}  // namespace icn
