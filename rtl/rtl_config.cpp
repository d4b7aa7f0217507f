// Anchors the verilated RTL library (CMake needs one source of its own).
namespace icn::rtl {
extern const unsigned kRouteStreamHeight = ICNSIM_RTL_ROUTE_STREAM_HEIGHT;
}
