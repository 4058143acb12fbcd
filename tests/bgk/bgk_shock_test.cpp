// kinetic.bgk, normal shock (section 4): the converged M = 1.5 structure on the CPU.
// Grid: the paper's velocity box (16^3 on [-5, 7] x [-6, 6]^2), L = 70, dt = 0.05, with nx = 256
// (dx = 0.27 lambda-, about 1/15 of the shock thickness), run to t = 200 (residual ~2e-6).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>

#include "bgk_test_support.hpp"
#include "core/errors.hpp"
#include "expect_error.hpp"
#include "io/binary_io.hpp"
#include "methods/bgk/bgk_diagnostics.hpp"

namespace ks::bgk {
namespace {

class ConvergedShock : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    method_ = std::make_unique<BgkMethod>();
    method_->setup(
        testing::params(
            {{"case", "shock"}, {"mach", "1.5"}, {"nx", "256"}, {"t_end", "200"}, {"tolerance", "0"}, {"steps_per_iteration", "400"}}),
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

// The fields of a kinetic.bgk state (save_state's order), to rewrite a real state with one field corrupted.
struct SavedState {
  std::int64_t iteration = 0, steps = 0;
  double time = 0.0;
  std::vector<double> residual_t, residual, drag_t, drag, f;

  explicit SavedState(const std::string& bytes) {
    std::istringstream in(bytes);
    bin::expect_tag(in, "kinetic.bgk", 1);
    iteration = bin::read<std::int64_t>(in);
    steps = bin::read<std::int64_t>(in);
    time = bin::read<double>(in);
    for (auto* v : {&residual_t, &residual, &drag_t, &drag, &f}) *v = bin::read_vector<double>(in);
  }
  std::string bytes() const {
    std::ostringstream out;
    bin::write_tag(out, "kinetic.bgk", 1);
    bin::write(out, iteration);
    bin::write(out, steps);
    bin::write(out, time);
    for (const auto* v : {&residual_t, &residual, &drag_t, &drag, &f}) bin::write_vector(out, *v);
    return out.str();
  }
};

// A real state with a count, an index range or a value corrupted is refused as bad input, and the
// refused load leaves the method as it was: it saves the same bytes and steps as a twin never handed
// the state. Small shock and small cavity (which also keeps the lid drag per iteration), 2 iterations.
TEST(BgkCheckpoint, CorruptedStateIsRefusedAndLeavesTheRunAsItWas) {
  for (const auto& p : {testing::small_shock(), testing::small_cavity()}) {
    SCOPED_TRACE(p.at("case"));
    BgkMethod m, twin;
    for (BgkMethod* x : {&m, &twin}) {
      x->setup(testing::params(p), testing::cpu_context());
      for (int k = 0; k < 2; ++k) x->advance();
    }
    std::stringstream saved;
    m.save_state(saved);
    const std::string good = saved.str();
    const SavedState real(good);
    ASSERT_EQ(SavedState(good).bytes(), good) << "the test's reading of the state";
    const bool cavity = p.at("case") == "cavity";
    const std::pair<const char*, std::function<void(SavedState&)>> corruptions[] = {
        {"negative iteration count", [](SavedState& s) { s.iteration = -1; }},
        {"fewer steps than iterations", [](SavedState& s) { s.steps = s.iteration - 1; }},
        {"time not finite", [](SavedState& s) { s.time = std::nan(""); }},
        {"negative time", [](SavedState& s) { s.time = -1.0; }},
        {"iteration count beyond the residual history", [](SavedState& s) { s.iteration += 1, s.steps += 1; }},
        {"residual times without residuals", [](SavedState& s) { s.residual.pop_back(); }},
        {"a residual time after the state's time", [](SavedState& s) { s.residual_t.back() = 2.0 * s.time; }},
        {"a residual time not finite", [](SavedState& s) { s.residual_t.front() = std::nan(""); }},
        {"drag history of the other case",
         [cavity](SavedState& s) {
           if (cavity) s.drag_t.clear(), s.drag.clear();
           else s.drag_t = s.drag = s.residual;
         }},
        {"one phase-space cell missing", [](SavedState& s) { s.f.pop_back(); }},
        {"one phase-space cell too many", [](SavedState& s) { s.f.push_back(1.0); }},
        {"f not finite", [](SavedState& s) { s.f[s.f.size() / 2] = std::numeric_limits<double>::infinity(); }},
    };
    for (const auto& [what, corrupt] : corruptions) {
      SavedState s = real;
      corrupt(s);
      std::istringstream in(s.bytes());
      test_support::expect_error([&] { m.load_state(in); }, ErrorKind::BadInput, {"checkpoint"});
      std::stringstream after;
      m.save_state(after);
      EXPECT_EQ(after.str(), good) << what << ": the refused state changed the method";
    }
    // A count far beyond the bytes that follow is refused before anything is allocated.
    std::string huge = good;
    const std::uint64_t count = ~0ull >> 4;
    std::memcpy(&huge[43], &count, sizeof count);  // the residual times' count: after the tag (19 B) and 3 x 8 B
    std::istringstream in(huge);
    test_support::expect_error([&] { m.load_state(in); }, ErrorKind::BadInput, {"checkpoint"});
    m.advance();
    twin.advance();
    EXPECT_EQ(m.raw_moments(), twin.raw_moments());
    EXPECT_EQ(m.progress().iteration, 3);
  }
}

// converged is set only when the residual (relative change of n, V, T per unit time, ~0.05 after the
// first iterations of the small shock) fell below `tolerance`, not when t_end ended the run.
TEST(BgkProgress, ConvergedOnlyWhenTheToleranceEndsTheRun) {
  auto p = testing::small_shock();
  p["tolerance"] = "1";
  BgkMethod m;
  m.setup(testing::params(p), testing::cpu_context());
  m.advance();
  EXPECT_FALSE(m.progress().converged) << "the residual of the first iteration does not count";
  while (!m.finished()) m.advance();
  EXPECT_TRUE(m.progress().converged);
  EXPECT_LT(m.time(), 400.0);

  for (const char* tolerance : {"0", "1e-12"}) {
    p["tolerance"] = tolerance;
    p["t_end"] = "3";
    m.setup(testing::params(p), testing::cpu_context());
    while (!m.finished()) m.advance();
    EXPECT_NEAR(m.time(), 3.0, 1e-12) << "tolerance " << tolerance;
    EXPECT_GT(m.progress().residual, 1e-12);
    EXPECT_FALSE(m.progress().converged) << "tolerance " << tolerance << ": t_end ended the run";
  }
}

}  // namespace
}  // namespace ks::bgk
