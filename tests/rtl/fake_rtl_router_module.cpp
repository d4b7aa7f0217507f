/* A fake RTL router module for the refusal tests (tests/rtl/rtl_bridge_test.py):
 * the entry points of rtl/bridge/icnsim_rtl_router.h around no router, with
 * the parameters the test chooses:
 *   FAKE_VCS       the Vcs it reports (2 fits preset=booksim's network)
 *   FAKE_CONTRACT  what contract_version_o reads (1 fits)
 *   FAKE_NO_QUERY  leave out icnsim_rtl_router_query (not a module)
 *   FAKE_MODE      what a module that is accepted does wrong while it runs:
 *                  1 sends each flit back out of the port it came in on, with
 *                    a payload that is no packet's handle;
 *                  2 swallows every flit and returns no credit (a sink);
 *                  3 returns a credit for VC 0 on the port a flit came in on,
 *                    every cycle after (credits for flits it does not hold).
 *                  0 or unset: nothing is sent.
 */
#include <cstdlib>

#include "rtl/bridge/icnsim_rtl_router.h"

#define EXPORT __attribute__((visibility("default")))

struct icnsim_rtl_router {
  int unused;
};

#ifndef FAKE_NO_QUERY
static const icnsim_rtl_router_info info = {ICNSIM_RTL_ROUTER_ABI, 2, 5, FAKE_VCS, 4, 32, 8, "fake_router"};
EXPORT const icnsim_rtl_router_info* icnsim_rtl_router_query(void) { return &info; }
#endif
EXPORT icnsim_rtl_router* icnsim_rtl_router_create(const icnsim_rtl_router_straps* s) {
  (void)s;
  return static_cast<icnsim_rtl_router*>(std::calloc(1, sizeof(icnsim_rtl_router)));
}
EXPORT uint32_t icnsim_rtl_router_contract_version(const icnsim_rtl_router* r) {
  (void)r;
  return FAKE_CONTRACT;
}
#ifndef FAKE_MODE
#define FAKE_MODE 0
#endif

EXPORT void icnsim_rtl_router_evaluate(icnsim_rtl_router* r, const icnsim_rtl_router_inputs* in,
                                       icnsim_rtl_router_outputs* out) {
  for (unsigned p = 0; p < ICNSIM_RTL_ROUTER_MAX_PORTS; ++p) {
    out->flit[p].valid = 0;
    out->credit[p].valid = 0;
    if (FAKE_MODE == 1 && in->flit[p].valid) {
      out->flit[p] = in->flit[p];
      out->flit[p].payload += 1000000;
    }
    if (FAKE_MODE == 3 && in->flit[p].valid) r->unused = static_cast<int>(p) + 1;
  }
  if (FAKE_MODE == 3 && r->unused != 0) out->credit[r->unused - 1] = {1, 0};
}
EXPORT void icnsim_rtl_router_clock(icnsim_rtl_router* r) { (void)r; }
EXPORT void icnsim_rtl_router_destroy(icnsim_rtl_router* r) { std::free(r); }
