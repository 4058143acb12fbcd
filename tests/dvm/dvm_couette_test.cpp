// Planar Couette flow between diffuse plates: the free-molecular closed form and Navier-Stokes
// with slip, the checks the method note names in place of the paper's DSMC figures.
#include <gtest/gtest.h>

#include <cmath>

#include "dvm_test_support.hpp"
#include "methods/dvm/dvm_cases.hpp"
#include "methods/dvm/dvm_fields.hpp"

namespace ks::dvm {
namespace {

using testing::cpu_context;
using testing::run;

TEST(DvmCouette, FreeMolecularShearStressVelocityAndHeatingMatchTheClosedForm) {
  // Kn = 1e4: molecules fly plate to plate without colliding. The stress is -n U / (2 sqrt(pi)),
  // the gas moves at U / 2 and is warmer by U^2 / 6. The discrete half-range sums are a midpoint
  // rule on [0, v_max] with h = 8 / 47: relative error ~ h^2 / 12 = 0.24 %; allow 0.5 %.
  DvmMethod m;
  run(m, {{"case", "couette"}, {"kn", "1e4"}, {"lid_speed", "0.2"}, {"ny", "8"}, {"nv", "48"}, {"tolerance", "1e-9"}}, cpu_context(), 50);
  const CouetteReference ref = couette_reference(m.config(), 1e4);
  const CellFields f = cell_fields(m.raw_moments(), m.geometry().solid);
  for (std::size_t k = 0; k < f.n.size(); ++k) {
    EXPECT_NEAR(f.Pxy[k], ref.fm_shear, 5e-3 * std::fabs(ref.fm_shear)) << "cell " << k;
    EXPECT_NEAR(f.U[3 * k], ref.fm_velocity, 5e-3 * ref.fm_velocity) << "cell " << k;
    EXPECT_NEAR(f.T[k] - 1.0, ref.fm_temperature - 1.0, 5e-3 * (ref.fm_temperature - 1.0)) << "cell " << k;
  }
}

TEST(DvmCouette, SlipRegimeProfileIsLinearWithTheNavierStokesSlipSlope) {
  // Kn = 0.1 (l = mu v_m / p = 0.146 L): outside the Knudsen layers the profile is linear; its slope
  // and the (uniform) shear stress follow Navier-Stokes with first-order slip, sigma = 1.016, up to
  // the neglected O((l / L)^2) ~ 2 % terms: allow 3 % on the slope, 2 % on the stress.
  DvmMethod m;
  run(m,
      {{"case", "couette"},
       {"kn", "0.1"},
       {"lid_speed", "0.1"},
       {"ny", "200"},
       {"nv", "16"},
       {"tolerance", "1e-11"},
       {"max_iterations", "5000"}},
      cpu_context(), 5000);
  ASSERT_LT(m.snapshot().progress.residual, 1e-11) << "did not converge";
  const CouetteReference ref = couette_reference(m.config(), 0.1);
  const CellFields f = cell_fields(m.raw_moments(), m.geometry().solid);
  const Axis& y = m.config().axis[1];
  // Least-squares line through the central 40 % of the gap.
  double sy = 0, su = 0, syy = 0, syu = 0, count = 0;
  for (int j = 0; j < y.cells(); ++j) {
    const double yc = y.centre(j);
    if (yc < 0.3 || yc > 0.7) continue;
    const double u = f.U[3 * j];
    sy += yc, su += u, syy += yc * yc, syu += yc * u, ++count;
  }
  const double slope = (count * syu - sy * su) / (count * syy - sy * sy), icpt = (su - slope * sy) / count;
  double worst = 0.0;
  for (int j = 0; j < y.cells(); ++j)
    if (y.centre(j) >= 0.3 && y.centre(j) <= 0.7) worst = std::max(worst, std::fabs(f.U[3 * j] - icpt - slope * y.centre(j)));
  EXPECT_LT(worst, 1e-3 * slope) << "bulk profile is not linear";
  EXPECT_NEAR(slope, ref.slip_slope, 0.03 * ref.slip_slope);
  // Antisymmetric about the mid-gap up to the velocity grid's lack of Galilean invariance (the plates'
  // Maxwellians are shifted by 0 and U on the same grid): 1e-4 of U / 2.
  EXPECT_NEAR(icpt + 0.5 * slope, 0.05, 5e-6);
  for (std::size_t j = 0; j < f.Pxy.size(); ++j) EXPECT_NEAR(f.Pxy[j], ref.slip_shear, 0.02 * std::fabs(ref.slip_shear));
  // The gas slips: it moves slower than the upper plate next to it.
  EXPECT_LT(f.U[3 * (y.cells() - 1)], 0.1 - 0.05 * ref.slip_slope);
}

}  // namespace
}  // namespace ks::dvm
