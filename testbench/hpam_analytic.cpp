#include "testbench/hpam_analytic.hpp"

#include <algorithm>
#include <cmath>

namespace icn::hpam {

namespace {
double lg(double x) { return std::log2(x); }
double lg_plus(double x) { return lg(x) * (lg(x) + 1); }  // the paper's log2^+
double lg_minus(double x) { return lg(x) * (lg(x) - 1); }  // the paper's log2^-
// Gamma_lk and Omega_lk of eq. (3), levels 1 and 2.
double gamma11(const PaperCosts& k) { return 2 * k.c1_us; }
double omega11(const PaperCosts& k) { return 2 * k.copy1_us + k.lambda_us; }
double gamma12(const PaperCosts& k) { return k.c1_us + k.c2(); }
double gamma22(const PaperCosts& k) { return 2 * k.c2(); }
double omega12(const PaperCosts& k) { return k.copy1_us + k.lambda_us + k.copy2(); }
double omega22(const PaperCosts& k) { return 2 * k.copy2() + k.lambda_us; }
// B_lk^S(a, b) = a Gamma_lk + b S Omega_lk (READING-NOTES: Omega_lk, not Omega_ll).
double b11(const PaperCosts& k, double a, double b, double s) { return a * gamma11(k) + b * s * omega11(k); }
double b12(const PaperCosts& k, double a, double b, double s) { return a * gamma12(k) + b * s * omega12(k); }
double b22(const PaperCosts& k, double a, double b, double s) { return a * gamma22(k) + b * s * omega22(k); }
}  // namespace

double eq5_hybrid_broadcast(const PaperCosts& k, const PaperCase& c) {
  const double a12 = gamma12(k) + omega12(k) * c.s, a22 = gamma22(k) + omega22(k) * c.s;
  const double inter = (double(c.r2) / c.p2) * (double(c.c2) / c.q2) *
                       (a12 + k.lambda_us * (1 + (double(c.r2) - c.p2) / 2));
  return inter + (lg(c.p2) + lg(c.q2)) * a22 + k.lambda_us / 2 * (lg_plus(c.p2) + lg_plus(c.q2));
}

double eq6_multicast_broadcast(const PaperCosts& k, const PaperCase& c) {
  const double a12 = gamma12(k) + omega12(k) * c.s, a22 = gamma22(k) + omega22(k) * c.s;
  const double inter = (double(c.r2) / c.p2) * (a12 + k.lambda_us * (1 + (double(c.r2) - c.p2) / 2));
  return inter + lg(c.p2) * a22 + k.lambda_us / 2 * lg_plus(c.p2);
}

double eq10_hybrid_scatter(const PaperCosts& k, const PaperCase& c) {
  const double pq = double(c.p2) * c.q2;
  const double inter = (double(c.r2) / c.p2) * (double(c.c2) / c.q2) *
                       (b12(k, 1, pq, c.s) + k.lambda_us * (1 + (double(c.r2) - c.p2) / 2));
  return inter + b22(k, lg(c.p2) + lg(c.q2), pq - 1, c.s) + k.lambda_us / 2 * (lg_plus(c.p2) + lg_plus(c.q2));
}

double eq11_multicast_scatter(const PaperCosts& k, const PaperCase& c) {
  const double inter = (double(c.r2) / c.p2) * (b12(k, 1, double(c.p2) * c.c2, c.s) + k.lambda_us);
  return inter + b22(k, lg(c.p2), c.p2 - 1.0, c.s) + k.lambda_us / 2 * lg_plus(c.p2);
}

// Section 3.2. Level 1 part 1 (one step: the source hands the far half of
// level 1 its message), the inter-level step, then the rest of level 1's
// tree beside level 2's tree.
double eq7_relay_hybrid_broadcast(const PaperCosts& k, const RelayCase& c) {
  const double a11 = gamma11(k) + omega11(k) * c.s, a12 = gamma12(k) + omega12(k) * c.s,
               a22 = gamma22(k) + omega22(k) * c.s, L = k.lambda_us;
  const double level1 = c.all_levels ? (lg(c.r1) + lg(c.c1) - 1) * a11 + L / 2 * (lg_plus(c.r1) + lg_minus(c.c1)) : 0;
  const double level2 = (lg(c.r2) + lg(c.c2) - 1) * a22 + L / 2 * (lg_plus(c.r2) + lg_minus(c.c2));
  return a11 + L * c.c1 / 2 + a12 + L * (double(c.r1) - c.source_row) + std::max(level1, level2);
}

double eq8_relay_multicast_broadcast(const PaperCosts& k, const RelayCase& c) {
  const double a11 = gamma11(k) + omega11(k) * c.s, a12 = gamma12(k) + omega12(k) * c.s,
               a22 = gamma22(k) + omega22(k) * c.s, L = k.lambda_us;
  const double part1 = lg(c.c1) * (a11 + L / 2 * (lg(c.c1) + 1));
  const double inter = 2 * (a12 + L * (double(c.r1) - c.source_row + c.r2 / 4.0));
  const double level1 = c.all_levels ? lg(c.r1) * a11 + L / 2 * lg_plus(c.r1) : 0;
  const double level2 = (lg(c.r2) - 1) * a22 + L / 2 * lg_minus(c.r2);
  return part1 + inter + std::max(level1, level2);
}

// Section 4.2.
double eq12_13_relay_hybrid_scatter(const PaperCosts& k, const RelayCase& c) {
  const double f = double(c.c2) / c.c1, pq = double(c.p2) * c.q2, L = k.lambda_us;
  const double hop = L * (double(c.r1) - c.source_row + (double(c.r2) - c.p2) / (2.0 * c.p2));
  const double level2 = b22(k, lg(c.p2) + lg(c.q2), pq - 1, c.s) + L / 2 * (lg_plus(c.p2) + lg_plus(c.q2));
  if (c.q2 <= f) {  // case a, eq. (12)
    const double level1 = b11(k, lg(c.c1), c.r2 * f * (c.c1 - 1.0), c.s) + L / 2 * lg_plus(c.c1);
    const double inter = f / c.q2 * (double(c.r2) / c.p2) * (b12(k, 1, pq, c.s) + hop);
    return level1 + inter + level2;
  }
  // case b, eq. (13)
  const double steps = lg(c.c2) - lg(c.q2);
  const double level1 = b11(k, steps, double(c.r2) * (double(c.c2) - c.q2), c.s) + L * steps * (lg(c.c1) + (steps - 1) / 2);
  const double inter = (double(c.r2) / c.p2) * (b12(k, 1, pq, c.s) + hop);
  return level1 + inter + level2;
}

double eq14_relay_multicast_scatter(const PaperCosts& k, const RelayCase& c) {
  const double f = double(c.c2) / c.c1, L = k.lambda_us;
  const double hop = L * (double(c.r1) - c.source_row + (double(c.r2) - c.p2) / (2.0 * c.p2));
  const double level1 = b11(k, lg(c.c1), f * c.r2 * (c.c1 - 1.0), c.s) + L / 2 * lg_plus(c.c1);
  const double inter = (double(c.r2) / c.p2) * (b12(k, 1, c.p2 * f, c.s) + hop);
  return level1 + inter + b22(k, lg(c.p2), c.p2 - 1.0, c.s) + L / 2 * lg_plus(c.p2);
}

}  // namespace icn::hpam
