// The paper's equations as the testbench evaluates them (testbench/
// hpam_analytic) reproduce the paper's own stated findings for them: hybrid
// broadcast optimum r2 x c2/2 (eq. 5), multicast broadcast optimum r2/2 x 1
// (eq. 6), brute force worst, multicast gain above 43 % at 4x4 and above 46 %
// from 16x16 (section 3.1), scatter: small sub-meshes for large messages.
#include <gtest/gtest.h>

#include <cmath>

#include "testbench/hpam_analytic.hpp"

namespace icn::hpam {
namespace {

struct Best {
  unsigned p = 0, q = 0;
  double t = 1e300;
};

template <class F>
Best best_shape(unsigned r2, unsigned c2, bool column_only, F eq) {
  Best b;
  for (unsigned p = 1; p <= r2; p *= 2)
    for (unsigned q = 1; q <= (column_only ? 1 : c2); q *= 2) {
      const double t = eq(p, q);
      if (t < b.t) b = {p, q, t};
    }
  return b;
}

TEST(HpamAnalytic, BroadcastOptimaAndMulticastGainAsThePaperStates) {
  for (unsigned n : {4u, 8u, 16u, 64u, 256u})
    for (double q : {2.0, 8.0, 32.0})
      for (double s : {0.0, 1024.0, 65536.0, 1048576.0}) {
        PaperCosts k;
        k.q = q;
        auto hybrid = [&](unsigned p, unsigned qq) { return eq5_hybrid_broadcast(k, {n, n, p, qq, s}); };
        auto multicast = [&](unsigned p, unsigned) { return eq6_multicast_broadcast(k, {n, n, p, 1, s}); };
        const Best h = best_shape(n, n, false, hybrid), m = best_shape(n, n, true, multicast);
        EXPECT_EQ(h.p, n) << n << " Q " << q << " S " << s;
        EXPECT_EQ(h.q, n / 2) << n << " Q " << q << " S " << s;
        EXPECT_EQ(m.p, n / 2) << n << " Q " << q << " S " << s;
        for (unsigned p = 1; p <= n; p *= 2)
          for (unsigned qq = 1; qq <= n; qq *= 2) EXPECT_LE(hybrid(p, qq), hybrid(1, 1));
        const double gain = 100 * (h.t - m.t) / h.t;
        EXPECT_GT(gain, n == 4 ? 43.0 : (n >= 16 ? 46.0 : 40.0)) << n << " Q " << q << " S " << s;
      }
}

TEST(HpamAnalytic, ScatterWantsSmallSubMeshesForLargeMessages) {
  PaperCosts k;
  k.q = 2;
  auto area = [&](double s) {
    const Best b = best_shape(4, 4, false, [&](unsigned p, unsigned q) { return eq10_hybrid_scatter(k, {4, 4, p, q, s}); });
    return b.p * b.q;
  };
  EXPECT_GE(area(0), area(1024));
  EXPECT_GE(area(1024), area(65536));
  EXPECT_EQ(area(1048576), 1u);
}

}  // namespace
}  // namespace icn::hpam
