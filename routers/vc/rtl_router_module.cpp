#include "routers/vc/rtl_router_module.hpp"

#include <dlfcn.h>

namespace icn::vc {

std::shared_ptr<RtlRouterModule> RtlRouterModule::load(const std::string& path, std::string& error) {
  const std::string not_module = "not an icnsim RTL router module (scripts/rtl_router_module makes one): ";
  // RTLD_LOCAL: the module's symbols (its Verilator runtime) stay its own.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    error = not_module + (why ? why : "dlopen failed");
    return nullptr;
  }
  std::shared_ptr<RtlRouterModule> m(new RtlRouterModule);
  m->path_ = path;
  m->handle_ = handle;
  auto find = [&](const char* name) -> void* {
    void* sym = dlsym(handle, name);
    if (sym == nullptr && error.empty()) error = not_module + "no symbol " + name;
    return sym;
  };
  error.clear();
  auto query = reinterpret_cast<decltype(&icnsim_rtl_router_query)>(find("icnsim_rtl_router_query"));
  m->create_ = reinterpret_cast<decltype(m->create_)>(find("icnsim_rtl_router_create"));
  m->version_ = reinterpret_cast<decltype(m->version_)>(find("icnsim_rtl_router_contract_version"));
  m->evaluate_ = reinterpret_cast<decltype(m->evaluate_)>(find("icnsim_rtl_router_evaluate"));
  m->clock_ = reinterpret_cast<decltype(m->clock_)>(find("icnsim_rtl_router_clock"));
  m->destroy_ = reinterpret_cast<decltype(m->destroy_)>(find("icnsim_rtl_router_destroy"));
  if (!error.empty()) return nullptr;
  m->trace_open_ = reinterpret_cast<decltype(m->trace_open_)>(dlsym(handle, "icnsim_rtl_router_trace_open"));
  m->trace_dump_ = reinterpret_cast<decltype(m->trace_dump_)>(dlsym(handle, "icnsim_rtl_router_trace_dump"));
  m->trace_close_ = reinterpret_cast<decltype(m->trace_close_)>(dlsym(handle, "icnsim_rtl_router_trace_close"));
  m->info_ = query();
  if (m->info_ == nullptr) {
    error = not_module + "icnsim_rtl_router_query returned nothing";
    return nullptr;
  }
  return m;
}

RtlRouterModule::~RtlRouterModule() {
  if (handle_ != nullptr) dlclose(handle_);
}

std::string RtlRouterModule::mismatch(const Expected& want) const {
  const icnsim_rtl_router_info& i = *info_;
  const std::string top = std::string("module ") + (i.top != nullptr ? i.top : "?");
  auto differ = [&](const char* what, unsigned has, unsigned needs, const char* key) {
    return top + " has " + what + " " + std::to_string(has) + ", the network needs " +
           std::to_string(needs) + " (" + key + ")";
  };
  if (i.abi != ICNSIM_RTL_ROUTER_ABI)
    return top + " has entry point version (ABI) " + std::to_string(i.abi) + ", icnsim needs " +
           std::to_string(ICNSIM_RTL_ROUTER_ABI) + ": rebuild it with this icnsim's scripts/rtl_router_module";
  if (i.dims != want.dims) return differ("Dims", i.dims, want.dims, "network.n");
  if (i.ports != want.ports) return differ("Ports", i.ports, want.ports, "2 network.n + 1");
  if (i.vcs != want.vcs) return differ("Vcs", i.vcs, want.vcs, "router.vcs");
  if (i.depth != want.depth) return differ("Depth", i.depth, want.depth, "router.buffer_depth");
  if (i.payload_w < 32)
    return top + " has PayloadW " + std::to_string(i.payload_w) +
           ", icnsim needs at least 32 (the packet handle)";
  if (i.coord_w < want.coord_bits || i.coord_w > 21)
    return top + " has CoordW " + std::to_string(i.coord_w) + ", the network's coordinates need " +
           std::to_string(want.coord_bits) + " bits (network.k)";
  icnsim_rtl_router_straps straps{};
  icnsim_rtl_router* r = create_(&straps);
  if (r == nullptr) return top + " could not create a router";
  const unsigned version = version_(r);
  destroy_(r);
  if (version != kContractVersion)
    return top + " drives contract_version_o = " + std::to_string(version) + ", icnsim implements " +
           "contract version " + std::to_string(kContractVersion);
  return "";
}

}  // namespace icn::vc
