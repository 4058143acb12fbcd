// kinetic.bgk, normal shock (section 4): the converged M = 1.5 structure on the CPU.
// Grid: the paper's velocity box (16^3 on [-5, 7] x [-6, 6]^2), L = 70, dt = 0.05, with nx = 256
// (dx = 0.27 lambda-, about 1/15 of the shock thickness), run to t = 200 (residual ~2e-6).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <sstream>

#include "bgk_test_support.hpp"
#include "core/errors.hpp"
#include "methods/bgk/bgk_diagnostics.hpp"

namespace ks::bgk {
namespace {

class ConvergedShock : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    method_ = std::make_unique<BgkMethod>();
    method_->setup(testing::params({{"case", "shock"}, {"mach", "1.5"}, {"nx", "256"}, {"t_end", "200"}, {"tolerance", "0"},
                                    {"steps_per_iteration", "400"}}),
                   testing::cpu_context());
    while (!method_->finished()) method_->advance();
    shock_ = analyse_shock(method_->config(), method_->raw_moments());
  }
  static void TearDownTestSuite() { method_.reset(); }
  static std::unique_ptr<BgkMethod> method_;
  static ShockAnalysis shock_;
};
std::unique_ptr<BgkMethod> ConvergedShock::method_;
ShockAnalysis ConvergedShock::shock_;

TEST_F(ConvergedShock, ShockFarFieldSatisfiesRankineHugoniot) {
  EXPECT_LT(shock_.rh_error, 0.005);  // issue tolerance 0.5 %; measured ~3e-5
  EXPECT_NEAR(shock_.downstream.n, 4 * 2.25 / 5.25, 0.005 * 1.714);
}

// Steady BGK conserves the fluxes of mass, momentum and energy through every cross-section. The cell-centre
// fluxes differ from the scheme's face fluxes by O(dx |df/dx|): ~0.5 % at dx = 0.27; tolerance 1 %.
TEST_F(ConvergedShock, MassMomentumAndEnergyFluxesAreConstantAcrossTheShock) {
  const char* names[3] = {"mass", "momentum", "energy"};
  for (int q = 0; q < 3; ++q) EXPECT_LT(shock_.flux_spread[q], 0.01) << names[q];
}

// A structure, not a jump: the density rises over several mean free paths. BGK with mu ~ T^0.74 gives
// lambda-/delta ~ 0.17 at M = 1.5 (hard-sphere Boltzmann and DSMC: 0.15-0.2).
TEST_F(ConvergedShock, ShockThicknessIsSeveralMeanFreePaths) {
  EXPECT_GT(shock_.inverse_thickness, 0.12);
  EXPECT_LT(shock_.inverse_thickness, 0.25);
  EXPECT_LT(std::fabs(shock_.centre), 3.0);  // the shock stays where it started
}

TEST_F(ConvergedShock, TemperatureRisesAheadOfDensity) {
  // Kinetic shock structure: the normalised temperature profile leads the density profile upstream.
  const BgkConfig& c = method_->config();
  const CellFields f = cell_fields(method_->raw_moments(), c.cells());
  auto where_half = [&](const std::vector<double>& y, double a, double b) {
    for (int i = 0; i + 1 < c.nx; ++i)
      if ((y[i] - a) / (b - a) < 0.5 && (y[i + 1] - a) / (b - a) >= 0.5) return c.x0 + (i + 1) * c.dx;
    return 0.0;
  };
  EXPECT_LT(where_half(f.T, c.upstream.T, c.downstream.T), where_half(f.n, c.upstream.n, c.downstream.n) - 0.5);
}

// A restart from a checkpoint continues exactly as if never stopped.
TEST(BgkCheckpoint, RestartContinuesBitExactly) {
  BgkMethod a;
  a.setup(testing::params(testing::small_shock()), testing::cpu_context());
  for (int k = 0; k < 3; ++k) a.advance();
  std::stringstream state;
  a.save_state(state);
  for (int k = 0; k < 2; ++k) a.advance();
  BgkMethod b;
  b.setup(testing::params(testing::small_shock()), testing::cpu_context());
  b.load_state(state);
  for (int k = 0; k < 2; ++k) b.advance();
  EXPECT_EQ(a.raw_moments(), b.raw_moments());
  EXPECT_EQ(a.time(), b.time());
}

TEST(BgkCheckpoint, StateOfAnotherGridIsRefused) {
  BgkMethod a;
  a.setup(testing::params(testing::small_shock()), testing::cpu_context());
  std::stringstream state;
  a.save_state(state);
  auto other = testing::small_shock();
  other["nx"] = "65";
  BgkMethod b;
  b.setup(testing::params(other), testing::cpu_context());
  EXPECT_THROW(b.load_state(state), Error);
  b.advance();  // the refused load left it runnable
}

}  // namespace
}  // namespace ks::bgk
