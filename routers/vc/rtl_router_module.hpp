// RtlRouterModule: a loadable RTL router module (rtl/bridge/icnsim_rtl_router.h),
// opened with dlopen, its entry points looked up, its parameters checked
// against the network's before elaboration (docs/rtl_router.md).
//
// Loading a module runs its code (its static constructors, then whatever the
// entry points do): icnsim loads only the file router.rtl names.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rtl/bridge/icnsim_rtl_router.h"

namespace icn::vc {

class RtlRouterModule {
 public:
  // What the network needs of a module.
  struct Expected {
    unsigned dims = 2, ports = 5, vcs = 2, depth = 4;
    unsigned coord_bits = 1;  // bits of the largest coordinate (k - 1)
  };
  // The contract version icnsim implements.
  static constexpr unsigned kContractVersion = 1;

  // Opens `path`; on failure returns null and sets `error` to one line
  // ("... is not an icnsim RTL router module: ...").
  static std::shared_ptr<RtlRouterModule> load(const std::string& path, std::string& error);
  ~RtlRouterModule();
  RtlRouterModule(const RtlRouterModule&) = delete;
  RtlRouterModule& operator=(const RtlRouterModule&) = delete;

  // "" when the module fits, else one line naming the first mismatch (ABI,
  // contract version, dims, ports, VCs, buffer depth, payload or coordinate
  // width). Creates and destroys one instance to read contract_version_o.
  std::string mismatch(const Expected& want) const;

  const icnsim_rtl_router_info& info() const { return *info_; }
  const std::string& path() const { return path_; }

  // The entry points.
  icnsim_rtl_router* create(const icnsim_rtl_router_straps& s) const { return create_(&s); }
  unsigned contract_version(const icnsim_rtl_router* r) const { return version_(r); }
  void evaluate(icnsim_rtl_router* r, const icnsim_rtl_router_inputs& in, icnsim_rtl_router_outputs& out) const {
    evaluate_(r, &in, &out);
  }
  void clock(icnsim_rtl_router* r) const { clock_(r); }
  void destroy(icnsim_rtl_router* r) const { destroy_(r); }
  // The optional trace entry points (a module made with --trace).
  bool traceable() const { return trace_open_ && trace_dump_ && trace_close_; }
  bool trace_open(icnsim_rtl_router* r, const std::string& path, const std::string& timescale) const {
    return trace_open_(r, path.c_str(), timescale.c_str()) == 0;
  }
  void trace_dump(icnsim_rtl_router* r, std::uint64_t time) const { trace_dump_(r, time); }
  std::string trace_close(icnsim_rtl_router* r) const { return trace_close_(r); }

 private:
  RtlRouterModule() = default;
  std::string path_;
  void* handle_ = nullptr;
  const icnsim_rtl_router_info* info_ = nullptr;
  decltype(&icnsim_rtl_router_create) create_ = nullptr;
  decltype(&icnsim_rtl_router_contract_version) version_ = nullptr;
  decltype(&icnsim_rtl_router_evaluate) evaluate_ = nullptr;
  decltype(&icnsim_rtl_router_clock) clock_ = nullptr;
  decltype(&icnsim_rtl_router_destroy) destroy_ = nullptr;
  decltype(&icnsim_rtl_router_trace_open) trace_open_ = nullptr;
  decltype(&icnsim_rtl_router_trace_dump) trace_dump_ = nullptr;
  decltype(&icnsim_rtl_router_trace_close) trace_close_ = nullptr;
};

}  // namespace icn::vc
