// The paper's analytic execution times (Ben Miled et al., eqs. 5, 6, 10, 11:
// two-level HPAM, one processor in level 1), in microseconds, evaluated from
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

double eq5_hybrid_broadcast(const PaperCosts& k, const PaperCase& c);
double eq6_multicast_broadcast(const PaperCosts& k, const PaperCase& c);
double eq10_hybrid_scatter(const PaperCosts& k, const PaperCase& c);
double eq11_multicast_scatter(const PaperCosts& k, const PaperCase& c);

}  // namespace icn::hpam
