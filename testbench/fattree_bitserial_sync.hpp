// The bit-serial tree's synchronisation scheme in the results (Ishii 1985,
// section 2.1; routers/fattree_bitserial/sync_scheme.hpp): its verdict and its
// hardware cost, both read from the level statistics the parts count.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "routers/fattree_bitserial/bit_serial_fat_tree.hpp"

namespace icn {

// Section 2.1's requirement: a switch decides an output only once every
// stream that wants it has arrived (ConcentratorSwitch's late requests). The
// failure is a stream lost to such a decision: prefix (and store, which must
// never see a late request) fail the run with it; a late request that still
// found a free path cost nothing and is only counted. Flushing answers a late
// trunk stream by flushing. Mid-stream runs report the counts only (injected
// faults make streams late, and their own checks say so). "" when it held.
std::string bitserial_sync_problem(bitserial::SyncScheme scheme, const std::vector<bitserial::BitSerialLevelStats>& levels);

// result.sync: the scheme, per level the memory elements of one switch and
// the most buffering bits a stream turning there carried, the late requests
// and the streams a flush made lost (a flushed stream that a switch below had
// already denied counts once, as denied).
nlohmann::ordered_json bitserial_sync_json(bitserial::SyncScheme scheme,
                                           const std::vector<bitserial::BitSerialLevelStats>& levels);

}  // namespace icn
