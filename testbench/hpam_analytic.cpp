#include "testbench/hpam_analytic.hpp"

#include <cmath>

namespace icn::hpam {

namespace {
double lg(double x) { return std::log2(x); }
double lg_plus(double x) { return lg(x) * (lg(x) + 1); }  // the paper's log2^+
// Gamma_lk and Omega_lk of eq. (3), levels 1 and 2.
double gamma12(const PaperCosts& k) { return k.c1_us + k.c2(); }
double gamma22(const PaperCosts& k) { return 2 * k.c2(); }
double omega12(const PaperCosts& k) { return k.copy1_us + k.lambda_us + k.copy2(); }
double omega22(const PaperCosts& k) { return 2 * k.copy2() + k.lambda_us; }
// B_lk^S(a, b) = a Gamma_lk + b S Omega_lk (READING-NOTES: Omega_lk, not Omega_ll).
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

}  // namespace icn::hpam
