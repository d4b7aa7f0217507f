// The paper's analytic execution times (Ben Miled et al.: eqs. 5, 6, 10, 11
// for one processor in level 1; eqs. 7, 8, 12, 13, 14 for an r1 x c1 level 1
// that relays), in microseconds, evaluated from
// the configuration for the `expected` fields and the reproduction tables.
// Never used by the model: the model's times are observed in its routers and NICs.
#pragma once

#include <optional>
#include <string>

namespace icn::hpam {

// Table 1, with Q: level-1 costs as given, level-2 costs Q times larger.
struct PaperCosts {
  double c1_us = 2;           // C_send^1 = C_recv^1
  double copy1_us = 0.01;     // lambda'_1 / W_1, per byte
  double lambda_us = 0.01;    // Lambda = lambda / W, per byte
  double q = 2;
  double c2() const { return c1_us * q; }
  double copy2() const { return copy1_us * q; }
};

struct PaperCase {
  unsigned r2 = 4, c2 = 4, p2 = 1, q2 = 1;
  double s = 0;  // S, bytes
};

// Several level-1 processors (sections 3.2, 4.2); the source in row x of
// level 1 (the paper's worst case is x = 0: its Lambda r1 becomes Lambda (r1 - x)).
struct RelayCase {
  unsigned r1 = 4, c1 = 4, r2 = 16, c2 = 16, p2 = 1, q2 = 1;
  unsigned source_row = 0;
  bool all_levels = false;  // destinations in both levels (eqs. 7, 8: the max's first term)
  double s = 0;
};

double eq5_hybrid_broadcast(const PaperCosts& k, const PaperCase& c);
double eq6_multicast_broadcast(const PaperCosts& k, const PaperCase& c);
double eq10_hybrid_scatter(const PaperCosts& k, const PaperCase& c);
double eq11_multicast_scatter(const PaperCosts& k, const PaperCase& c);
// Eq. (7): the hybrid broadcast with the two sub-meshes r2 x c2/2 (c1 >= 2).
double eq7_relay_hybrid_broadcast(const PaperCosts& k, const RelayCase& c);
// Eq. (8): the multicast broadcast with sub-meshes r2/2 x 1.
double eq8_relay_multicast_broadcast(const PaperCosts& k, const RelayCase& c);
// Eq. (12) when q2 <= c2/c1 (case a), eq. (13) otherwise (case b); level 2 only.
double eq12_13_relay_hybrid_scatter(const PaperCosts& k, const RelayCase& c);
// Eq. (14), its first B_11 read as B_11(l c1, (c2/c1) r2 (c1 - 1)) (READING-NOTES); level 2 only.
double eq14_relay_multicast_scatter(const PaperCosts& k, const RelayCase& c);

}  // namespace icn::hpam
