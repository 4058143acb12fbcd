// kinetic.dvm model pieces: the trapezoidal velocity quadrature, the Shakhov equilibrium's moments,
// the wall emission of eq. (9) and the cube's stretched axes.
#include <gtest/gtest.h>

#include <cmath>

#include "methods/dvm/dvm_cases.hpp"
#include "methods/dvm/dvm_geometry.hpp"
#include "methods/dvm/dvm_model.hpp"

namespace ks::dvm {
namespace {

// Raw sums of g over the velocity table.
std::vector<double> sums(const std::vector<Velocity>& v, auto g) {
  std::vector<double> s(kRaw, 0.0);
  for (const Velocity& u : v) add_raw(s.data(), u.w * g(u), u.x, u.y, u.z);
  return s;
}

TEST(DvmModel, TrapezoidalQuadratureRecoversAMaxwelliansMoments) {
  // 32 points on [-4, 4]: the trapezoidal rule is spectrally accurate for a Gaussian well inside the
  // box; the truncation at |xi| = 4 costs ~ exp(-(4 - 0.3)^2 / 1.2) ~ 1e-5 of the mass, and up to
  // ~ 4^3 times that of the third moments.
  const VelocityGrid vg{32, 4.0};
  const auto v = velocity_table(vg);
  ASSERT_EQ((long long)v.size(), vg.count());
  const double U[3] = {0.3, -0.1, 0.05}, T = 1.2, n = 0.8;
  const Macro m = macro_from_raw(sums(v, [&](const Velocity& u) { return n * unit_maxwellian(U, T)(u.x, u.y, u.z); }).data());
  EXPECT_NEAR(m.n, n, 1e-5 * n);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(m.U[a], U[a], 1e-5);
  EXPECT_NEAR(m.T, T, 1e-4 * T);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(m.q[a], 0.0, 1e-4);
  EXPECT_NEAR(m.P[3], 0.0, 1e-6);
}

TEST(DvmModel, ShakhovEquilibriumKeepsDensityMomentumEnergyAndCarriesOneThirdOfTheHeatFlux) {
  // f^S has the density, velocity and temperature of its parameters and the heat flux (1 - Pr) q:
  // with Pr = 2/3 one third (eq. 2). Same quadrature error as above.
  const VelocityGrid vg{32, 4.0};
  const auto v = velocity_table(vg);
  Macro in{};
  in.n = 1.1, in.U[0] = 0.2, in.U[1] = 0.1, in.T = 0.9, in.p = 0.5 * in.n * in.T;
  in.q[0] = 0.02, in.q[1] = -0.01, in.q[2] = 0.005;
  const CellState s = cell_state(in, 1.0, 0.81, 2.0 / 3.0);
  const Macro out = macro_from_raw(sums(v, [&](const Velocity& u) { return shakhov(s, u.x, u.y, u.z); }).data());
  EXPECT_NEAR(out.n, in.n, 1e-5);
  EXPECT_NEAR(out.U[0], in.U[0], 1e-5);
  EXPECT_NEAR(out.U[1], in.U[1], 1e-5);
  EXPECT_NEAR(out.T, in.T, 1e-4);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(out.q[a], in.q[a] / 3.0, 1e-5);
}

TEST(DvmModel, RelaxationTimeFollowsEquationTen) {
  // tau = mu / p with mu_ref of eq. (10): at n = T = 1, p = 1/2 and 1/tau = 1 / (2 mu_ref).
  const double mu = reference_viscosity(1.0, 0.81);
  EXPECT_NEAR(mu, 15.0 * std::sqrt(kPi) / (2.0 * 3.38 * 5.38), 1e-12);
  Macro m{};
  m.n = 1.0, m.T = 1.0, m.p = 0.5;
  EXPECT_NEAR(cell_state(m, mu, 0.81, 2.0 / 3.0).inv_tau, 0.5 / mu, 1e-14);
  m.T = 2.0, m.p = 1.0;  // mu ~ T^0.81, p ~ T
  EXPECT_NEAR(cell_state(m, mu, 0.81, 2.0 / 3.0).inv_tau, 1.0 / (mu * std::pow(2.0, 0.81)), 1e-14);
}

TEST(DvmModel, DiffuseWallWithTheGasTemperatureReEmitsAtTheGasDensity) {
  // A wall at rest at the gas temperature facing a gas at rest: eq. (9) gives rho_w = n exactly
  // in discrete form, for every side.
  const VelocityGrid vg{16, 4.0};
  const auto v = velocity_table(vg);
  const WallTable w;
  const double U[3] = {0, 0, 0};
  for (int side = 0; side < 6; ++side)
    EXPECT_NEAR(incident_flux(v, side, 0.7, U, 1.0) / unit_emission(v, w, side, 0), 0.7, 1e-13) << "side " << side;
}

TEST(DvmModel, PaperCubeGridGrowsAtAboutTwoPerCent) {
  // 181 cells across [-6, 6] with 31 on the unit cube: the paper quotes a cell-to-cell ratio of 1.02.
  double r[2];
  const Axis a = stretched_axis(-6.0, 6.0, 181, 31, r);
  ASSERT_EQ(a.cells(), 181);
  EXPECT_DOUBLE_EQ(a.faces.front(), -6.0);
  EXPECT_DOUBLE_EQ(a.faces.back(), 6.0);
  EXPECT_NEAR(r[0], 1.02, 0.002);
  EXPECT_NEAR(r[1], r[0], 1e-12);  // symmetric box, same ratio both sides
  for (int i = 0; i < a.cells(); ++i) ASSERT_GT(a.size(i), 0.0);
  // The cube's faces are cell faces.
  int lo = -1, hi = -1;
  for (int i = 0; i <= a.cells(); ++i) {
    if (std::fabs(a.faces[i] + 0.5) < 1e-12) lo = i;
    if (std::fabs(a.faces[i] - 0.5) < 1e-12) hi = i;
  }
  EXPECT_EQ(hi - lo, 31);
}

}  // namespace
}  // namespace ks::dvm
