/* icnsim_rtl_router.h: the C entry point of a loadable RTL router module.
 *
 * A module is a shared object made by scripts/rtl_router_module from a
 * SystemVerilog router that implements docs/rtl_router.md's port contract,
 * Verilated, with the generic wrapper rtl/bridge/icnsim_rtl_router_module.cpp
 * implementing the functions below. icnsim loads it with dlopen
 * (router.model=rtl, router.rtl=FILE): loading a module runs its code, so
 * load only modules you built or trust.
 *
 * Versions: ICNSIM_RTL_ROUTER_ABI is this header's version (the layout of the
 * structs and the functions' signatures); the port contract's version is the
 * router's own contract_version_o, read after reset
 * (icnsim_rtl_router_contract_version). icnsim refuses a module whose ABI or
 * contract version is not the one it was built for.
 *
 * One cycle t of the contract, as icnsim drives it:
 *   icnsim_rtl_router_evaluate(r, in, out)  inputs of cycle t (clock low), settle,
 *                                           outputs of cycle t
 *   icnsim_rtl_router_clock(r)              the clock edge that ends cycle t
 * Straps are driven and reset applied (before cycle 1) by create.
 */
#ifndef ICNSIM_RTL_ROUTER_H_
#define ICNSIM_RTL_ROUTER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ICNSIM_RTL_ROUTER_ABI 1u
#define ICNSIM_RTL_ROUTER_MAX_PORTS 16u

/* The module's parameters, fixed when it was verilated. */
typedef struct icnsim_rtl_router_info {
  uint32_t abi;        /* ICNSIM_RTL_ROUTER_ABI of the wrapper */
  uint32_t dims;       /* Dims */
  uint32_t ports;      /* Ports */
  uint32_t vcs;        /* Vcs */
  uint32_t depth;      /* Depth: flits per input VC */
  uint32_t payload_w;  /* PayloadW, bits (the ABI carries the low 64) */
  uint32_t coord_w;    /* CoordW, bits per coordinate */
  const char* top;     /* the top module's name */
} icnsim_rtl_router_info;

/* The contract's straps (docs/rtl_router.md "Signature"). */
typedef struct icnsim_rtl_router_straps {
  uint32_t router_id;
  uint64_t coord;       /* Dims * CoordW bits, x0 lowest */
  uint64_t last_coord;  /* per dimension k - 1, same layout */
  uint32_t torus;
  uint32_t route_cfg;   /* [0] dateline, [1] whole_dimension, [2] random ties */
  uint64_t seed[4];     /* seed_i = {seed[3], seed[2], seed[1], seed[0]} */
} icnsim_rtl_router_straps;

/* One flit on a port (valid 0: the other fields are ignored). */
typedef struct icnsim_rtl_flit {
  uint8_t valid, head, tail, vc;
  uint32_t pad;
  uint64_t src, dst;  /* addresses (coordinates, Dims * CoordW bits) */
  uint64_t payload;   /* the low 64 payload bits; higher bits are 0 */
} icnsim_rtl_flit;

/* One credit on a port: an entry of VC `vc` freed (valid 0: none). */
typedef struct icnsim_rtl_credit {
  uint8_t valid, vc;
} icnsim_rtl_credit;

/* A cycle's inputs and outputs, per port (ports entries used). */
typedef struct icnsim_rtl_router_inputs {
  icnsim_rtl_flit flit[ICNSIM_RTL_ROUTER_MAX_PORTS];      /* in_*_i */
  icnsim_rtl_credit credit[ICNSIM_RTL_ROUTER_MAX_PORTS];  /* out_credit_*_i */
} icnsim_rtl_router_inputs;
typedef struct icnsim_rtl_router_outputs {
  icnsim_rtl_flit flit[ICNSIM_RTL_ROUTER_MAX_PORTS];      /* out_*_o */
  icnsim_rtl_credit credit[ICNSIM_RTL_ROUTER_MAX_PORTS];  /* in_credit_*_o */
} icnsim_rtl_router_outputs;

typedef struct icnsim_rtl_router icnsim_rtl_router; /* one instance */

/* The functions a module exports, by these names. */
const icnsim_rtl_router_info* icnsim_rtl_router_query(void);
icnsim_rtl_router* icnsim_rtl_router_create(const icnsim_rtl_router_straps* straps);
uint32_t icnsim_rtl_router_contract_version(const icnsim_rtl_router* r);
void icnsim_rtl_router_evaluate(icnsim_rtl_router* r, const icnsim_rtl_router_inputs* in,
                                icnsim_rtl_router_outputs* out);
void icnsim_rtl_router_clock(icnsim_rtl_router* r);
void icnsim_rtl_router_destroy(icnsim_rtl_router* r);

/* Optional (modules made with scripts/rtl_router_module --trace): the
 * router's own signals as a VCD at `path`, one sample per dump, time in
 * `timescale` units ("1 ns", "1 ps"). open returns 0 on success;
 * close writes the file into place and returns "" or one line (a string
 * owned by the router, valid until destroy). A module without these
 * symbols runs untraced. */
int icnsim_rtl_router_trace_open(icnsim_rtl_router* r, const char* path, const char* timescale);
void icnsim_rtl_router_trace_dump(icnsim_rtl_router* r, uint64_t time);
const char* icnsim_rtl_router_trace_close(icnsim_rtl_router* r);

#ifdef __cplusplus
}
#endif

#endif /* ICNSIM_RTL_ROUTER_H_ */
