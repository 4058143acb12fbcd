// lbm.binary model formulas: the entropic equilibrium against eq. (6), conservation by the
// collision (eq. 2), the pressure boundary, and the Schmidt-number check (eq. 11).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/errors.hpp"
#include "expect_error.hpp"
#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_model.hpp"

namespace ks::lbm {
namespace {

// Eq. (6) as printed, one axis, c_j = 1: (2 - s) ((2u + s) / (1 - u))^c with s = sqrt(1 + 3u^2),
// times the 1D weight (2/3, 1/6) whose products are eq. (7).
double eq6_axis(double u, int c) {
  const double s = std::sqrt(1.0 + 3.0 * u * u);
  return (c == 0 ? 2.0 / 3.0 : 1.0 / 6.0) * (2.0 - s) * std::pow((2.0 * u + s) / (1.0 - u), c);
}

TEST(LbmModel, EntropicAxisAtOneThirdIsEquationSix) {
  for (double u : {-0.4, -0.1, 0.0, 0.03, 0.2, 0.5}) {
    const Axis<double> a = entropic_axis(u);
    for (int c = -1; c <= 1; ++c) EXPECT_NEAR(a.v[c + 1], eq6_axis(u, c), 1e-15) << "u = " << u << ", c = " << c;
  }
}

// Both factors: unit density and velocity u exactly; temperature theta + u^2, exactly for the
// isothermal factor and up to (3/4) u^4 for eq. (6) (its S = sqrt(1 + 3u^2) expanded to fourth order).
TEST(LbmModel, EquilibriumAxesHaveExactDensityMomentumAndTemperature) {
  for (double theta : {1.0 / 3.0, 0.2918, 0.26})
    for (double u : {-0.2, -0.05, 0.0, 0.1, 0.2}) {
      const bool lattice = theta == 1.0 / 3.0;
      const Axis<double> a = equilibrium_axis(u, theta, lattice);
      EXPECT_NEAR(a.v[0] + a.v[1] + a.v[2], 1.0, 1e-15);
      EXPECT_NEAR(a.v[2] - a.v[0], u, 1e-15);
      EXPECT_NEAR(a.v[2] + a.v[0], theta + u * u, (lattice ? 0.75 * std::pow(u, 4) * 1.01 : 0.0) + 1e-15);
    }
}

// The collision keeps each species' mass and the mixture momentum (eq. 3 constraints) to round-off
// and moves the species velocities towards each other (tau_2 relaxation).
TEST(LbmModel, CollisionConservesSpeciesMassAndMixtureMomentum) {
  LbmConfig c;
  c.mass[kO2] = lattice_mass(kO2);
  c.mass[kN2] = lattice_mass(kN2);
  const CollisionParams<double> p = collision_params<double>(c);
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> noise(0.9, 1.1);
  double f[kSpecies][kQ];
  const double ua[3] = {0.05, -0.02, 0.08}, ub[3] = {-0.03, 0.01, 0.02};
  for (int s = 0; s < kSpecies; ++s) {
    const Product<double> eq(s == 0 ? ua : ub, c.theta(s), c.lattice_species(s));
    for (int i = 0; i < kQ; ++i) f[s][i] = eq(s == 0 ? 0.5 : 0.45, i) * noise(gen);
  }
  const SpeciesMoments<double> a0 = species_moments(f[0]), b0 = species_moments(f[1]);
  collide(f, p);
  const SpeciesMoments<double> a1 = species_moments(f[0]), b1 = species_moments(f[1]);
  EXPECT_NEAR(a1.rho, a0.rho, 1e-15);
  EXPECT_NEAR(b1.rho, b0.rho, 1e-15);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(a1.j[k] + b1.j[k], a0.j[k] + b0.j[k], 1e-15);
    const double before = a0.j[k] / a0.rho - b0.j[k] / b0.rho, after = a1.j[k] / a1.rho - b1.j[k] / b1.rho;
    EXPECT_LT(std::fabs(after), std::fabs(before));
  }
}

// The collision's rates against eq. (9) written out: tau_1 = mu / P = 3 nu rho / n and tau_2 =
// D_AB m_AB / (X_A X_B P) = 3 D_AB m_A m_B n / rho, with n = sum rho_j / m_j and P = n / 3 (lattice
// units), beta_k = 1 / (2 tau_k + 1); and the mixture velocity J / rho.
TEST(LbmModel, MixtureRelaxationRatesAreEquationNine) {
  LbmConfig c;
  c.mass[kO2] = lattice_mass(kO2);
  c.mass[kN2] = lattice_mass(kN2);
  c.viscosity = 0.021;
  c.diffusivity = 0.034;
  const CollisionParams<double> p = collision_params<double>(c);
  for (double rho_a : {0.0, 0.2, 0.7})
    for (double rho_b : {0.05, 0.4}) {
      const SpeciesMoments<double> a{rho_a, {0.01, -0.02, 0.03}}, b{rho_b, {-0.004, 0.002, 0.05}};
      const double rho = rho_a + rho_b, n = rho_a / c.mass[kO2] + rho_b / c.mass[kN2];
      const double tau1 = 3.0 * c.viscosity * rho / n, tau2 = 3.0 * c.diffusivity * c.mass[kO2] * c.mass[kN2] * n / rho;
      const double beta1 = 1.0 / (2.0 * tau1 + 1.0), beta2 = 1.0 / (2.0 * tau2 + 1.0);
      const MixtureRelaxation<double> r = mixture_relaxation(a, b, p);
      EXPECT_NEAR(r.a1, 2.0 * beta1, 1e-15) << rho_a << " " << rho_b;
      EXPECT_NEAR(r.a2, 2.0 * (beta1 - beta2), 1e-15) << rho_a << " " << rho_b;
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(r.u[k], (a.j[k] + b.j[k]) / rho, 1e-15);
    }
}

// The inlet boundary sets the prescribed density, zero tangential velocity, and keeps the known
// populations.
TEST(LbmModel, PressureBoundaryImposesDensityAndNormalFlow) {
  const double theta = 1.0 / 3.0, u[3] = {0.01, -0.02, 0.04};
  double f[kQ], known[kQ];
  const Product<double> eq(u, theta, true);
  for (int i = 0; i < kQ; ++i) known[i] = f[i] = eq(1.0, i) * (1.0 + 0.01 * std::sin(i));
  for (int side : {+1, -1}) {
    double g[kQ];
    std::copy(f, f + kQ, g);
    pressure_boundary(g, 1.02, theta, true, side);
    const SpeciesMoments<double> m = species_moments(g);
    EXPECT_NEAR(m.rho, 1.02, 1e-15);
    EXPECT_NEAR(m.j[0], 0.0, 1e-16);
    EXPECT_NEAR(m.j[1], 0.0, 1e-16);
    for (int i = 0; i < kQ; ++i) {
      if (cz(i) != side) {
        EXPECT_EQ(g[i], known[i]);
      }
    }
  }
}

// Eq. (11)'s bound in its mass-fraction form, Y_A Y_B / (X_A X_B), for air and the tube's mixture.
TEST(LbmModel, SchmidtBoundIsMassOverMoleFractions) {
  for (double x : {0.21, 0.47, 0.9}) {
    const double ma = lattice_mass(kO2) * x, mb = lattice_mass(kN2) * (1.0 - x);
    const double y = ma / (ma + mb);
    EXPECT_NEAR(max_schmidt(x), y * (1.0 - y) / (x * (1.0 - x)), 1e-14);
  }
}

TEST(LbmModel, InadmissibleSchmidtNumberNamesTheKeyAndTheLimit) {
  auto p = testing::periodic_box(8, 8, 8);
  p["viscosity"] = "0.2";
  p["d_ab"] = "0.1";
  test_support::expect_error([&] { make_config(lbm_param_table().read(testing::params(p))); }, ErrorKind::BadInput,
                             {"d_ab", "eq. 11", "allowed: d_ab >= "});
}

}  // namespace
}  // namespace ks::lbm
