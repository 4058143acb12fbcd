// lbm.binary, the paper's tube benchmark (section 5.1, Fig. 6) on a small lattice: the steady mixture
// velocity across the tube against Poiseuille's parabola, with the simple (full-way) and the
// interpolated (Yu et al., eq. 14-15) bounce-back. Tube radius R = 8 dx (20 x 20 x 24 lattice),
// P_out / P_in = 0.99, X_O2 = 0.47, run to the paper's convergence criterion (eq. 19, 1e-7).
#include <gtest/gtest.h>

#include <cmath>

#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_diagnostics.hpp"

namespace ks::lbm {
namespace {

PoiseuilleProfile steady_profile(const std::string& scheme) {
  LbmMethod m;
  const PoiseuilleProfile pr = testing::steady_tube_profile(m, {{"bounce_back", scheme}}, testing::cpu_context(), 5000);
  EXPECT_LT(m.steps(), 5000) << scheme << " did not meet eq. (19)";
  ::testing::Test::RecordProperty(scheme + "_l2_error", std::to_string(pr.l2_error));
  std::printf("%s bounce-back: L2 error %.4f, max error %.4f of the centre velocity %.3e after %lld steps\n", scheme.c_str(), pr.l2_error,
              pr.max_error, pr.centre_velocity, (long long)m.steps());
  return pr;
}

// Full-way bounce-back puts the wall half-way along each link: on a staircase circle the effective
// radius is off by O(dx), so the profile is first-order, error ~ 2 dR / R ~ 2 * 0.2 / 8 = 5 %; the
// interpolated scheme is second order, ~ (dx / R)^2 = 1.6 %. Bounds: 6 % and 1.5 %.
TEST(LbmPoiseuille, InterpolatedBounceBackBeatsSimpleInTheTube) {
  const PoiseuilleProfile simple = steady_profile("simple"), yu = steady_profile("interpolated");
  EXPECT_LT(simple.l2_error, 0.06);
  EXPECT_LT(yu.l2_error, 0.015);
  EXPECT_LT(yu.l2_error, 0.5 * simple.l2_error);
  EXPECT_GT(yu.centre_velocity, 0.0);
}

}  // namespace
}  // namespace ks::lbm
