// Anchors the verilated RTL library (CMake needs one source of its own).
namespace icn::rtl {
extern const unsigned kRouteStreamHeight = ICNSIM_RTL_ROUTE_STREAM_HEIGHT;
extern const unsigned kReplicatorDepth = ICNSIM_RTL_REPLICATOR_DEPTH;
extern const unsigned kReplicatorBranches = ICNSIM_RTL_REPLICATOR_BRANCHES;
}
