/* A fake RTL router module for the refusal tests (tests/rtl/rtl_bridge_test.py):
 * the entry points of rtl/bridge/icnsim_rtl_router.h around no router, with
 * the parameters the test chooses:
 *   FAKE_VCS       the Vcs it reports (2 fits preset=booksim's network)
 *   FAKE_CONTRACT  what contract_version_o reads (1 fits)
 *   FAKE_NO_QUERY  leave out icnsim_rtl_router_query (not a module)
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
EXPORT void icnsim_rtl_router_evaluate(icnsim_rtl_router* r, const icnsim_rtl_router_inputs* in,
                                       icnsim_rtl_router_outputs* out) {
  (void)r, (void)in, (void)out;
}
EXPORT void icnsim_rtl_router_clock(icnsim_rtl_router* r) { (void)r; }
EXPORT void icnsim_rtl_router_destroy(icnsim_rtl_router* r) { std::free(r); }
