// The generic wrapper of a loadable RTL router module: implements
// icnsim_rtl_router.h over any router verilated (as plain C++, --prefix
// Vicnsim_rtl_top) with docs/rtl_router.md's port contract. The router's
// parameters come in as macros, the same values as its -G parameters
// (scripts/rtl_router_module passes both):
//   ICNSIM_RTL_DIMS, ICNSIM_RTL_VCS, ICNSIM_RTL_DEPTH, ICNSIM_RTL_PAYLOAD_W,
//   ICNSIM_RTL_COORD_W, ICNSIM_RTL_TOP (the top module's name, a string).
// Built with -fvisibility=hidden: only the six entry points are exported, so
// the module's Verilator runtime never meets icnsim's own.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "Vicnsim_rtl_top.h"
#include "rtl/bridge/icnsim_rtl_router.h"
#include "verilated.h"
#if VM_TRACE
#include "models/verilated_vcd_file.hpp"
#include "verilated_vcd_c.h"
#endif

#ifndef ICNSIM_RTL_TOP
#error "ICNSIM_RTL_TOP and the parameters must be defined (scripts/rtl_router_module)"
#endif

#define ICNSIM_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr unsigned kDims = ICNSIM_RTL_DIMS;
constexpr unsigned kPorts = 2 * kDims + 1;
constexpr unsigned kVcs = ICNSIM_RTL_VCS;
constexpr unsigned kPayloadW = ICNSIM_RTL_PAYLOAD_W;
constexpr unsigned kCoordW = ICNSIM_RTL_COORD_W;
constexpr unsigned kAddrW = kDims * kCoordW;
constexpr unsigned kVcW = [] {
  unsigned w = 0;
  while ((1u << w) < kVcs) ++w;
  return kVcs > 1 ? w : 1u;
}();
constexpr unsigned kFieldW = kPayloadW < 64 ? kPayloadW : 64;  // the payload bits the ABI carries
static_assert(kPorts <= ICNSIM_RTL_ROUTER_MAX_PORTS, "more ports than the ABI carries");
static_assert(kAddrW <= 64, "addresses wider than the ABI's 64 bits");

const icnsim_rtl_router_info kInfo{ICNSIM_RTL_ROUTER_ABI, kDims, kPorts, kVcs, ICNSIM_RTL_DEPTH,
                                   kPayloadW, kCoordW, ICNSIM_RTL_TOP};

std::uint64_t mask(unsigned w) { return w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1; }

// A field of a flat port vector: Verilator's integers up to 64 bits, VlWide above.
template <class T>
void put(T& port, unsigned lsb, unsigned w, std::uint64_t v) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t m = mask(w) << lsb;
    port = static_cast<T>((static_cast<std::uint64_t>(port) & ~m) | ((v << lsb) & m));
  } else {
    for (unsigned done = 0; done < w;) {
      const unsigned b = lsb + done, off = b % 32, n = std::min(32 - off, w - done);
      const std::uint32_t m = static_cast<std::uint32_t>(mask(n)) << off;
      port[b / 32] = (port[b / 32] & ~m) | ((static_cast<std::uint32_t>(v >> done) << off) & m);
      done += n;
    }
  }
}
template <class T>
std::uint64_t get(const T& port, unsigned lsb, unsigned w) {
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<std::uint64_t>(port) >> lsb) & mask(w);
  } else {
    std::uint64_t v = 0;
    for (unsigned done = 0; done < w;) {
      const unsigned b = lsb + done, off = b % 32, n = std::min(32 - off, w - done);
      v |= ((static_cast<std::uint64_t>(port[b / 32]) >> off) & mask(n)) << done;
      done += n;
    }
    return v;
  }
}

}  // namespace

struct icnsim_rtl_router {
  VerilatedContext context;
  std::unique_ptr<Vicnsim_rtl_top> model;
#if VM_TRACE
  std::unique_ptr<icn::CheckedVcdFile> file;
  std::unique_ptr<VerilatedVcdC> vcd;
  std::string error;
#endif
};

ICNSIM_EXPORT const icnsim_rtl_router_info* icnsim_rtl_router_query(void) { return &kInfo; }

ICNSIM_EXPORT icnsim_rtl_router* icnsim_rtl_router_create(const icnsim_rtl_router_straps* s) {
  auto* r = new icnsim_rtl_router;
  r->context.debug(0);
#if VM_TRACE
  r->context.traceEverOn(true);
#endif
  r->model = std::make_unique<Vicnsim_rtl_top>(&r->context, "router");
  Vicnsim_rtl_top& m = *r->model;
  m.router_id_i = s->router_id;
  put(m.coord_i, 0, kAddrW, s->coord);
  put(m.last_coord_i, 0, kAddrW, s->last_coord);
  m.torus_i = s->torus & 1u;
  m.route_cfg_i = static_cast<std::uint8_t>(s->route_cfg);
  for (unsigned w = 0; w < 4; ++w) put(m.seed_i, 64 * w, 64, s->seed[w]);
  // Reset before cycle 1: straps driven, one edge in reset, released.
  m.clk_i = 0;
  m.rst_ni = 0;
  m.eval();
  m.clk_i = 1;
  m.eval();
  m.clk_i = 0;
  m.rst_ni = 1;
  m.eval();
  return r;
}

ICNSIM_EXPORT uint32_t icnsim_rtl_router_contract_version(const icnsim_rtl_router* r) {
  return r->model->contract_version_o;
}

ICNSIM_EXPORT void icnsim_rtl_router_evaluate(icnsim_rtl_router* r, const icnsim_rtl_router_inputs* in,
                                              icnsim_rtl_router_outputs* out) {
  Vicnsim_rtl_top& m = *r->model;
  std::uint64_t valid = 0, credit = 0;
  for (unsigned p = 0; p < kPorts; ++p) {
    const icnsim_rtl_flit& f = in->flit[p];
    if (f.valid) {
      valid |= std::uint64_t{1} << p;
      put(m.in_head_i, p, 1, f.head);
      put(m.in_tail_i, p, 1, f.tail);
      put(m.in_vc_i, p * kVcW, kVcW, f.vc);
      put(m.in_src_i, p * kAddrW, kAddrW, f.src);
      put(m.in_dst_i, p * kAddrW, kAddrW, f.dst);
      put(m.in_payload_i, p * kPayloadW, kFieldW, f.payload);
    }
    if (in->credit[p].valid) {
      credit |= std::uint64_t{1} << p;
      put(m.out_credit_vc_i, p * kVcW, kVcW, in->credit[p].vc);
    }
  }
  put(m.in_valid_i, 0, kPorts, valid);
  put(m.out_credit_valid_i, 0, kPorts, credit);
  m.eval();
  const std::uint64_t out_valid = get(m.out_valid_o, 0, kPorts);
  const std::uint64_t credit_valid = get(m.in_credit_valid_o, 0, kPorts);
  for (unsigned p = 0; p < kPorts; ++p) {
    icnsim_rtl_flit& f = out->flit[p];
    f.valid = (out_valid >> p) & 1u;
    if (f.valid) {
      f.head = static_cast<std::uint8_t>(get(m.out_head_o, p, 1));
      f.tail = static_cast<std::uint8_t>(get(m.out_tail_o, p, 1));
      f.vc = static_cast<std::uint8_t>(get(m.out_vc_o, p * kVcW, kVcW));
      f.src = get(m.out_src_o, p * kAddrW, kAddrW);
      f.dst = get(m.out_dst_o, p * kAddrW, kAddrW);
      f.payload = get(m.out_payload_o, p * kPayloadW, kFieldW);
    }
    out->credit[p].valid = (credit_valid >> p) & 1u;
    if (out->credit[p].valid) out->credit[p].vc = static_cast<std::uint8_t>(get(m.in_credit_vc_o, p * kVcW, kVcW));
  }
}

ICNSIM_EXPORT void icnsim_rtl_router_clock(icnsim_rtl_router* r) {
  Vicnsim_rtl_top& m = *r->model;
  m.clk_i = 1;
  m.eval();
  m.clk_i = 0;
}

#if VM_TRACE
ICNSIM_EXPORT int icnsim_rtl_router_trace_open(icnsim_rtl_router* r, const char* path, const char* timescale) {
  r->file = std::make_unique<icn::CheckedVcdFile>();
  r->vcd = std::make_unique<VerilatedVcdC>(r->file.get());
  r->model->trace(r->vcd.get(), 99);
  icn::set_time_base(*r->vcd, timescale);
  r->vcd->open(path);
  return r->vcd->isOpen() ? 0 : -1;
}

ICNSIM_EXPORT void icnsim_rtl_router_trace_dump(icnsim_rtl_router* r, uint64_t time) {
  if (r->vcd && r->vcd->isOpen()) r->vcd->dump(time);
}

ICNSIM_EXPORT const char* icnsim_rtl_router_trace_close(icnsim_rtl_router* r) {
  if (!r->vcd) return "";
  r->vcd->close();
  r->error = r->file->finish();
  r->vcd.reset();
  return r->error.c_str();
}
#endif

ICNSIM_EXPORT void icnsim_rtl_router_destroy(icnsim_rtl_router* r) {
  if (r == nullptr) return;
#if VM_TRACE
  if (r->vcd) r->vcd->close();
#endif
  r->model->final();
  delete r;
}
