// network.topology=ibt of the VC family: the interlaced bypass torus
// iBT(k^n; b) with unicast routing (routers/vc/ibt_vc_topology.hpp).
//
// One vocabulary with network.type=ibt: the bypass lengths are its key,
// network.bypass, with its syntax and IbtTopology::check's rules. The side
// and the dimensions are this family's network.k and network.n (the ibt
// family calls them network.n and network.d): every other VC key (patterns,
// failed link names, the estimate) reads them, so a refusal that
// IbtTopology::check makes about its n or d names network.k or network.n.
#include <set>

#include "models/params.hpp"
#include "routers/ibt/ibt_topology.hpp"
#include "testbench/vc_setup.hpp"

namespace icn {

namespace {

const RawParam kVcBypass{"network.bypass", "[2]",
                       "[b_1,...,b_k]: each 1..k-1 (k = network.k), a multiple of n*(list length), 2*b_j != 0 mod k",
                       "ibt: bypass lengths b = <b_1..b_k> (the key of network.type=ibt; its side and dimensions are "
                       "network.k and network.n here)",
                       "network.topology=ibt"};

}  // namespace

ParamSpec vc_bypass_param() { return kVcBypass.spec(); }

void read_vc_ibt(Config& cfg, VcNetworkSpec& s, bool collective) {
  if (collective)
    cfg.fail("traffic.collective", "the collectives run on network.topology=mesh, torus or fattree, not on ibt");
  kVcBypass.read(cfg);
  const auto bypass = cfg.integer_list(kVcBypass.key, -(1ll << 40), 1ll << 40);  // check() names the rule broken
  if (bypass.empty()) cfg.fail(kVcBypass.key, "an iBT needs at least one bypass length (a torus is network.topology=torus)");
  std::set<std::int64_t> lengths;
  for (auto b : bypass)
    if (!lengths.insert(b).second)
      cfg.fail(kVcBypass.key, "length " + std::to_string(b) + " is listed twice; give each bypass length once");
  // IbtTopology's n is the side (network.k here), its d the dimensions (network.n).
  const IbtTopology::Problem p = IbtTopology::check(s.k, s.n, bypass);
  if (!p.why.empty()) {
    const std::string key = p.key == "network.n" ? "network.k" : p.key == "network.d" ? "network.n" : p.key;
    cfg.fail(key, "iBT(n^d; b) with n = network.k = " + std::to_string(s.k) + ", d = network.n = " +
                      std::to_string(s.n) + ", k = " + std::to_string(bypass.size()) + " lengths: " + p.why);
  }
  for (auto b : bypass) s.bypass.push_back(static_cast<unsigned>(b));
}

}  // namespace icn
