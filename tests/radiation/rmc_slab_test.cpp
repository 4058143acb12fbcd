// radiation.rmc on 1D slabs (periodic in y and z): Table 1 cases 1 and 2 against the exact solution,
// the isothermal grey slab formula at several optical thicknesses, and grey reflecting walls.
#include <gtest/gtest.h>

#include <cmath>

#include "methods/radiation/rmc_planck.hpp"
#include "methods/radiation/rmc_reference.hpp"
#include "rmc_test_support.hpp"

namespace ks::rmc {
namespace {

using test::rms_over_peak;
using test::run;

// div q of an isothermal grey slab (T, kappa, thickness L) between cold black walls.
double isothermal_slab(double kappa, double L, double T, double x) {
  return 2.0 * kappa * kStefanBoltzmann * std::pow(T, 4) * (expint_e2(kappa * x) + expint_e2(kappa * (L - x)));
}

TEST(RmcSlab, Case1LinearProfileWithinTwoPercentOfTheExactSolution) {
  // Table 1 case 1 on 32 cells across (8 x 8 periodic cells averaged), 2000 rays per cell.
  const auto m = run({{"profile", "lin1"}, {"kappa", "1"}, {"nx", "32"}, {"ny", "8"}, {"nz", "8"}, {"rays_per_cell", "2000"}});
  const double err = rms_over_peak(m->profile(m->mean()), m->reference());
  RecordProperty("rms_error_over_peak", std::to_string(err));
  EXPECT_LT(err, 0.02);
}

TEST(RmcSlab, Case2ParabolicProfileWithinTwoPercentOfTheExactSolution) {
  const auto m = run({{"profile", "parab1"}, {"kappa", "1"}, {"nx", "32"}, {"ny", "8"}, {"nz", "8"}, {"rays_per_cell", "2000"}});
  EXPECT_LT(rms_over_peak(m->profile(m->mean()), m->reference()), 0.02);
}

TEST(RmcSlab, ReferenceIsTheIsothermalSlabFormula) {
  // The E2-kernel solution on cells reduces to 2 kappa sigma T^4 [E2(kappa x) + E2(kappa (L - x))].
  const SpectralTables t = build_tables(grey_gas(2.0), 0.0, 1000.0, 1000.0);
  const std::vector<double> x = {0.01, 0.2, 0.5, 0.77, 0.99};
  const auto q = slab_net_emission(t, std::vector<double>(40, 1000.0), 1.0, 0.0, 0.0, x);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(q[i] / isothermal_slab(2.0, 1.0, 1000.0, x[i]), 1.0, 1e-9) << x[i];
}

class RmcIsothermalSlab : public ::testing::TestWithParam<double> {};

TEST_P(RmcIsothermalSlab, MatchesTheExponentialIntegralFormula) {
  // Optically thin (emission 4 kappa sigma T^4 everywhere) to thick (only the wall layers cool).
  const double tau = GetParam();
  const auto m = run({{"profile", "isothermal"},
                      {"temperature", "1000"},
                      {"kappa", std::to_string(tau)},
                      {"nx", "32"},
                      {"ny", "4"},
                      {"nz", "4"},
                      {"rays_per_cell", "1500"},
                      {"rays_per_batch", "500"}});
  const auto x = m->stations();
  std::vector<double> exact;
  for (double xi : x) exact.push_back(isothermal_slab(tau, 1.0, 1000.0, xi));
  EXPECT_LT(rms_over_peak(m->profile(m->mean()), exact), 0.02) << "kappa L = " << tau;
}

INSTANTIATE_TEST_SUITE_P(OpticalThickness, RmcIsothermalSlab, ::testing::Values(0.1, 1.0, 10.0));

// An isothermal grey slab between cold walls of emissivity eps = 1 - rho. Diffuse walls leave with a
// uniform intensity J = 2 rho I_b (1/2 - E3(tau_L)) / (1 - 2 rho E3(tau_L)), so
// div q = 2 pi kappa (I_b - J) [E2(kappa x) + E2(kappa (L - x))]. Specular walls: per direction
// mu the wall intensity is J(mu) = rho I_b (1 - a) / (1 - rho a), a = exp(-kappa L / mu), and
// div q = 2 pi kappa int_0^1 (I_b - J(mu)) [exp(-kappa x / mu) + exp(-kappa (L - x) / mu)] dmu.
double reflecting_slab(double kappa, double L, double T, double eps, bool specular, double x) {
  const double Ib = kStefanBoltzmann * std::pow(T, 4) / kPi, rho = 1.0 - eps;
  if (!specular) {
    const double e3 = 0.5 * (std::exp(-kappa * L) - kappa * L * expint_e2(kappa * L));
    const double J = 2.0 * rho * Ib * (0.5 - e3) / (1.0 - 2.0 * rho * e3);
    return 2.0 * kPi * kappa * (Ib - J) * (expint_e2(kappa * x) + expint_e2(kappa * (L - x)));
  }
  std::vector<double> mu, w;
  gauss_legendre(200, mu, w);
  double sum = 0.0;
  for (std::size_t i = 0; i < mu.size(); ++i) {
    const double m = 0.5 * (mu[i] + 1.0), a = std::exp(-kappa * L / m);
    const double J = rho * Ib * (1.0 - a) / (1.0 - rho * a);
    sum += 0.5 * w[i] * (Ib - J) * (std::exp(-kappa * x / m) + std::exp(-kappa * (L - x) / m));
  }
  return 2.0 * kPi * kappa * sum;
}

class RmcReflectingWalls : public ::testing::TestWithParam<std::string> {};

TEST_P(RmcReflectingWalls, GreyWallsMatchTheReflectingSlabSolution) {
  const bool specular = GetParam() == "specular";
  const auto m = run({{"profile", "isothermal"},
                      {"temperature", "1000"},
                      {"kappa", "0.5"},
                      {"emissivity_x0", "0.3"},
                      {"emissivity_x1", "0.3"},
                      {"reflection", GetParam()},
                      {"nx", "32"},
                      {"ny", "4"},
                      {"nz", "4"},
                      {"rays_per_cell", "2000"},
                      {"rays_per_batch", "500"}});
  std::vector<double> exact, other, black;
  for (double x : m->stations()) {
    exact.push_back(reflecting_slab(0.5, 1.0, 1000.0, 0.3, specular, x));
    other.push_back(reflecting_slab(0.5, 1.0, 1000.0, 0.3, !specular, x));
    black.push_back(isothermal_slab(0.5, 1.0, 1000.0, x));
  }
  const std::vector<double> q = m->profile(m->mean());
  EXPECT_LT(rms_over_peak(q, exact), 0.01) << GetParam();
  // The reflection law shows (diffuse and specular differ by 1-4 % here), and so do the walls.
  EXPECT_LT(rms_over_peak(q, exact), 0.5 * rms_over_peak(q, other));
  EXPECT_GT(rms_over_peak(q, black), 0.1);
}

INSTANTIATE_TEST_SUITE_P(Reflection, RmcReflectingWalls, ::testing::Values("diffuse", "specular"));

}  // namespace
}  // namespace ks::rmc
