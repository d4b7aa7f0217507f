// The interlaced bypass torus of the VC family (network.topology=ibt) alone:
// its links and its routing function. Every expected value is computed from
// coordinates (tests/support/ibt_vc_route.hpp: the iBT's definition and the
// routing rule written out again); nothing calls IbtTopology's class or
// bypass functions.
#include <gtest/gtest.h>

#include <vector>

#include "routers/vc/ibt_vc_topology.hpp"
#include "tests/support/ibt_vc_route.hpp"

namespace icn {

namespace {

using test::coords_of;
using test::node_of;
using test::bypass_of;
using test::expected_route;

const std::vector<test::Shape> kIbtShapes{
    {8, 1, {3}, 2},         // a ring with chords of 3
    {8, 2, {2}, 2},         // the VC family's default: iBT(8^2; <2>)
    {12, 2, {4, 8}, 4},     // two bypass lengths
    {9, 3, {3}, 2},         // three dimensions
};

}  // namespace

TEST(VcIbt, LinksPairUpAndBypassLinksFollowTheClassDefinition) {
  for (const test::Shape& s : kIbtShapes) {
    vc::IbtVcTopology t(s.k, s.n, s.b, s.vcs, true);
    SCOPED_TRACE(t.describe());
    for (unsigned r = 0; r < t.routers(); ++r) {
      ASSERT_EQ(t.ports(r), 2 * s.n + 3);
      EXPECT_FALSE(t.neighbor(r, 0).has_value());
      const auto c = coords_of(r, s);
      unsigned bdim, blen;
      bypass_of(c, s, bdim, blen);
      for (unsigned p = 1; p < t.ports(r); ++p) {
        const auto nb = t.neighbor(r, p);
        ASSERT_TRUE(nb.has_value()) << r << " port " << p;
        const auto back = t.neighbor(nb->router, nb->port);
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(back->router, r) << "port " << p;
        EXPECT_EQ(back->port, p);
        // Where the link goes, from the coordinates.
        const bool plus = (p % 2) == 1;
        const unsigned dim = p <= 2 * s.n ? (p - 1) / 2 : bdim;
        const unsigned len = p <= 2 * s.n ? 1 : blen;
        auto e = c;
        e[dim] = (e[dim] + (plus ? len : s.k - len)) % s.k;
        EXPECT_EQ(nb->router, node_of(e, s)) << r << " port " << t.port_name(r, p);
      }
    }
    EXPECT_EQ(t.port_name(0, 2 * s.n + 1), "b+");
    EXPECT_EQ(t.port_name(0, 2 * s.n + 2), "b-");
  }
}

// Every pair of every shape: the walk of the routing function takes exactly
// the expected route (hop by hop), which is never longer than the torus's
// shorter-way-round distance and for some pairs shorter; with datelines each
// hop carries the lower VC half until the path wraps past 0 in that dimension
// (a bypass that jumps over 0 included), the upper from that hop on.
TEST(VcIbt, RoutesTakeTheNonOvershootingBypassAndSwitchClassOnEveryWrap) {
  for (const test::Shape& s : kIbtShapes) {
    vc::IbtVcTopology t(s.k, s.n, s.b, s.vcs, true);
    SCOPED_TRACE(t.describe());
    const std::uint64_t all = (std::uint64_t{1} << s.vcs) - 1, lower = (std::uint64_t{1} << (s.vcs / 2)) - 1;
    unsigned shorter = 0, bypass_wraps = 0;
    for (unsigned src = 0; src < t.nodes(); ++src)
      for (unsigned dst = 0; dst < t.nodes(); ++dst) {
        const auto want = expected_route(src, dst, s);
        unsigned at = src, torus = 0;
        const auto a = coords_of(src, s), z = coords_of(dst, s);
        for (unsigned d = 0; d < s.n; ++d) torus += std::min((z[d] + s.k - a[d]) % s.k, (a[d] + s.k - z[d]) % s.k);
        for (std::size_t h = 0; h <= want.size(); ++h) {
          const vc::RouteChoice c = t.route(at, src, dst);
          if (h == want.size()) {
            ASSERT_EQ(c.port, 0u) << src << "->" << dst << ": not ejected after " << h << " hops";
            EXPECT_EQ(c.vc_mask, all);
            break;
          }
          ASSERT_EQ(c.port, want[h].port) << src << "->" << dst << " hop " << h;
          ASSERT_EQ(c.vc_mask, want[h].crossed ? (all & ~lower) : lower) << src << "->" << dst << " hop " << h;
          at = t.neighbor(at, c.port)->router;
          ASSERT_EQ(at, want[h].next);
          if (want[h].crossed && c.port > 2 * s.n && (h == 0 || !want[h - 1].crossed)) ++bypass_wraps;
        }
        ASSERT_LE(want.size(), torus);
        shorter += want.size() < torus;
      }
    EXPECT_GT(shorter, 0u) << "the bypass links are never used";
    EXPECT_GT(bypass_wraps, 0u) << "no route wraps past 0 on a bypass link: the case is not exercised";
  }
  // Without datelines every VC is allowed.
  vc::IbtVcTopology none(8, 2, {2}, 4, false);
  EXPECT_EQ(none.route(0, 0, 7).vc_mask, 0b1111u);
}

TEST(VcIbt, ParametersOutsideTheIbtRulesAreRefused) {
  EXPECT_THROW(vc::IbtVcTopology(8, 2, {4}, 2, true), std::invalid_argument);   // 2b = 0 mod k
  EXPECT_THROW(vc::IbtVcTopology(8, 2, {3}, 2, true), std::invalid_argument);   // not a multiple of n*K
  EXPECT_THROW(vc::IbtVcTopology(9, 2, {2}, 2, true), std::invalid_argument);   // n*K does not divide k
  EXPECT_THROW(vc::IbtVcTopology(8, 2, {}, 2, true), std::invalid_argument);    // no bypass: a torus
  EXPECT_THROW(vc::IbtVcTopology(8, 2, {2}, 1, true), std::invalid_argument);   // datelines need 2 VCs
  EXPECT_NO_THROW(vc::IbtVcTopology(8, 2, {2}, 1, false));
}

}  // namespace icn
