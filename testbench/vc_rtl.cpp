// router.model, router.rtl, router.rtl_routers: RTL routers in the VC network
// (docs/rtl_router.md). The module is loaded and checked here, while the
// scenario is read, so that a module that does not fit is refused with one
// line (exit 2) before anything is elaborated.
#include <unistd.h>

#include <climits>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "models/params.hpp"
#include "routers/vc/rtl_router_bridge.hpp"
#include "routers/vc/rtl_router_module.hpp"
#include "testbench/vc_setup.hpp"

namespace icn {

namespace {

const ChoiceParam kModel{"router.model", "cpp", {"cpp", "rtl"},
                         "cpp: icnsim's C++ router; rtl: a Verilated SystemVerilog router loaded from router.rtl "
                         "(mesh/torus; docs/rtl_router.md)"};
const RawParam kRtl{"router.rtl", "\"\"",
                    "a file: a module made by scripts/rtl_router_module (\"\": the VC router twin built with icnsim)",
                    "the RTL router module (a shared object; loading it runs its code)", "router.model=rtl"};
const RawParam kRtlRouters{"router.rtl_routers", "all", "all | [router, ...] names (r1_2) or numbers",
                           "which routers are RTL; the others are C++", "router.model=rtl"};

// The twin module built with icnsim: beside the binary's build tree
// (testbench/icnsim -> rtl/...), installed (bin/icnsim -> lib/icnsim/...),
// else where CMake built it.
std::string default_module() {
  const char* name = "icnsim_vc_router_twin.so";
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    std::string dir(exe, static_cast<std::size_t>(n));
    dir = dir.substr(0, dir.find_last_of('/'));
    for (const char* rel : {"/../rtl/", "/../lib/icnsim/"}) {
      const std::string beside = dir + rel + name;
      if (std::ifstream(beside).good()) return beside;
    }
  }
#ifdef ICNSIM_RTL_TWIN_MODULE
  if (std::ifstream(ICNSIM_RTL_TWIN_MODULE).good()) return ICNSIM_RTL_TWIN_MODULE;
#endif
  return "";
}

// The C++ router's own keys: an RTL router has its own pipeline and
// allocators, so only the values the twin mirrors (preset=booksim's) are taken.
void check_cpp_only_keys(Config& cfg, const VcNetworkSpec& s) {
  const auto& r = s.net.router;
  auto refuse = [&](const char* key, const char* value) {
    cfg.fail(key, std::string("with router.model=rtl the RTL router decides this; leave it at ") + value);
  };
  if (s.adaptive) refuse("router.routing", "dor");
  if (r.routing_delay != 1) refuse("router.routing_delay", "1");
  if (r.vc_alloc_delay != 1) refuse("router.vc_alloc_delay", "1");
  if (r.sw_alloc_delay != 1) refuse("router.sw_alloc_delay", "1");
  if (r.st_delay != 1) refuse("router.st_delay", "1");
  if (r.vc_allocator != "islip") refuse("router.vc_allocator", "islip");
  if (r.alloc_iterations != 1) refuse("router.alloc_iterations", "1");
  if (r.vc_arbiter != "round_robin") refuse("router.vc_arbiter", "round_robin");
  if (r.sw_arbiter != "round_robin") refuse("router.sw_arbiter", "round_robin");
  if (!s.failed_links.empty()) cfg.fail("network.failed_links", "not with router.model=rtl (the C++ router's faults)");
}

// router.rtl_routers: all, or a list of names and numbers.
std::vector<bool> read_which(Config& cfg, const VcNetworkSpec& s) {
  const YAML::Node node = kRtlRouters.read(cfg);
  auto topo = s.make_topology();
  const unsigned R = topo->routers();
  if (node.IsScalar() && node.as<std::string>() == "all") return std::vector<bool>(R, true);
  if (!node.IsSequence() || node.size() == 0)
    cfg.fail(kRtlRouters.key, "expected all or a list of router names (r1_2) or numbers 0.." + std::to_string(R - 1));
  std::map<std::string, unsigned> names;
  for (unsigned r = 0; r < R; ++r) names[topo->router_name(r)] = r, names[std::to_string(r)] = r;
  std::vector<bool> which(R, false);
  for (const auto& item : node) {
    const std::string name = item.IsScalar() ? item.as<std::string>() : "?";
    auto it = names.find(name);
    if (it == names.end())
      cfg.fail(kRtlRouters.key, "no router " + name + " (names r0_0 .. " + topo->router_name(R - 1) + ", numbers 0.." +
                                    std::to_string(R - 1) + ")");
    which[it->second] = true;
  }
  return which;
}

}  // namespace

std::vector<std::string> VcNetworkSpec::rtl_waveform_files(const std::string& waveform_file) const {
  std::vector<std::string> files;
  if (!net.rtl_module || !net.rtl_module->traceable()) return files;
  auto topo = make_topology();
  for (unsigned r = 0; r < topo->routers(); ++r)
    if (net.is_rtl(r)) files.push_back(vc::rtl_router_waveform_file(waveform_file, topo->router_name(r)));
  return files;
}

std::vector<ParamSpec> vc_rtl_params() { return {kModel.spec(), kRtl.spec(), kRtlRouters.spec()}; }

void read_vc_rtl(Config& cfg, VcNetworkSpec& s) {
  if (kModel.read(cfg) == "cpp") {
    cfg.declare_unused(kRtl.key, "applies only with router.model=rtl");
    cfg.declare_unused(kRtlRouters.key, "applies only with router.model=rtl");
    return;
  }
  if (s.fattree || s.ibt)
    cfg.fail(kModel.key, "rtl needs network.topology=mesh or torus (contract version 1)");
  check_cpp_only_keys(cfg, s);
  kRtl.read(cfg);
  std::string path = cfg.text(kRtl.key);
  // Refusals name router.rtl when it is given, else router.model and the twin's path.
  std::string key = kRtl.key, what;
  if (path.empty()) {
    path = default_module();
    if (path.empty())
      cfg.fail(kRtl.key, "no default module: this icnsim was built without the twin (ICNSIM_RTL=OFF); give router.rtl=FILE");
    key = kModel.key;
    what = "the default module " + path + ": ";
  } else if (!std::ifstream(path).good()) {
    cfg.fail(kRtl.key, "cannot read " + path);
  }
  cfg.resolve(kRtl.key, path);  // the JSON names the module that ran
  std::string error;
  auto module = vc::RtlRouterModule::load(path, error);
  if (!module) cfg.fail(key, what + error);
  vc::RtlRouterModule::Expected want;
  want.dims = s.n;
  want.ports = 2 * s.n + 1;
  want.vcs = s.net.router.vcs;
  want.depth = s.net.router.buffer_depth;
  unsigned largest = 1;
  for (unsigned side : s.sides) largest = std::max(largest, side - 1);
  want.coord_bits = 0;
  while ((1u << want.coord_bits) <= largest) ++want.coord_bits;
  const std::string why = module->mismatch(want);
  if (!why.empty()) cfg.fail(key, what + why);
  s.net.rtl_routers = read_which(cfg, s);
  s.net.rtl_module = std::move(module);
}

}  // namespace icn
