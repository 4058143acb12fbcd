// The 3D lid-driven cavity (section 4.1) on small grids: mass, mirror symmetry about z = 1/2, the
// iteration count at Kn = 1, restarts and live changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/errors.hpp"
#include "dvm_test_support.hpp"
#include "expect_error.hpp"
#include "methods/dvm/dvm_fields.hpp"

namespace ks::dvm {
namespace {

using testing::cpu_context;
using testing::params;
using testing::run;
using testing::small_cavity;

TEST(DvmCavity, ClosedCavityKeepsItsMassAndTheRescalingVanishesAtConvergence) {
  // Eq. (9) lags one iteration, so an iteration changes the mass slightly; the field is rescaled to
  // the initial mass (exact to round-off), and the change itself dies out as the iterates converge.
  // It dies out only if the discrete equilibrium keeps the density: 16 points on [-4, 4] (h = 0.53)
  // sum a Maxwellian to ~ exp(-pi^2 / h^2) = 1e-15; 10 points (h = 0.89) leave a 1e-5 source.
  DvmMethod m;
  auto p = small_cavity();
  p["nv"] = "16";
  m.setup(params(p), cpu_context());
  const double mass0 = m.total_mass();
  double first_defect = 0.0;
  for (int i = 0; i < 40 && !m.finished(); ++i) {
    m.advance();
    if (i == 0) first_defect = std::fabs(m.mass_defect());
    ASSERT_NEAR(m.total_mass(), mass0, 1e-13 * mass0) << "iteration " << i;
  }
  EXPECT_GT(first_defect, 1e-6);
  EXPECT_LT(std::fabs(m.mass_defect()), 1e-3 * first_defect);
}

TEST(DvmCavity, SolutionIsMirrorSymmetricAboutTheMidPlane) {
  // The lid moves along x, so z -> 1 - z maps the cavity onto itself: n, Ux, Uy, T are even and Uz is
  // odd. The octants sweeping +z and -z sum in different orders: round-off only.
  DvmMethod m;
  run(m, small_cavity(), cpu_context(), 8);
  const DvmConfig& c = m.config();
  const CellFields f = cell_fields(m.raw_moments(), m.geometry().solid);
  const int nx = c.n(0), ny = c.n(1), nz = c.n(2);
  double worst = 0.0, largest_uz = 0.0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const long long a = ((long long)k * ny + j) * nx + i, b = ((long long)(nz - 1 - k) * ny + j) * nx + i;
        worst = std::max({worst, std::fabs(f.n[a] - f.n[b]), std::fabs(f.T[a] - f.T[b]), std::fabs(f.U[3 * a] - f.U[3 * b]),
                          std::fabs(f.U[3 * a + 1] - f.U[3 * b + 1]), std::fabs(f.U[3 * a + 2] + f.U[3 * b + 2])});
        largest_uz = std::max(largest_uz, std::fabs(f.U[3 * a + 2]));
      }
  EXPECT_LT(worst, 1e-13);
  EXPECT_GT(largest_uz, 1e-4) << "the flow is three-dimensional";
}

TEST(DvmCavity, ConvergesToTheTolerance1e9InAboutThePapersIterationCount) {
  // Section 4.1: 36 iterations at Kn = 1 to 1e-9 on 64^3 x 64^3. The contraction per iteration is set
  // by the collision probability across the cavity, not by the grid: expect 25 to 45 on 12^3 x 16^3.
  DvmMethod m;
  auto p = small_cavity();
  p["nx"] = p["ny"] = p["nz"] = "12";
  p["nv"] = "16";
  p["tolerance"] = "1e-9";
  run(m, p, cpu_context(), 100);
  ASSERT_TRUE(m.finished());
  EXPECT_GE(m.iterations(), 25);
  EXPECT_LE(m.iterations(), 45);
  std::printf("[ measured ] cavity 12^3 x 16^3, Kn = 1: %lld iterations to 1e-9\n", (long long)m.iterations());
}

TEST(DvmCavity, LidDragsTheGasAndTheVortexTurnsWithIt) {
  DvmMethod m;
  run(m, small_cavity(), cpu_context(), 30);
  const Snapshot s = m.snapshot();
  const Series* ux = nullptr;
  for (const Series& x : s.series)
    if (x.name == "Ux/U on the vertical centreline") ux = &x;
  ASSERT_NE(ux, nullptr);
  EXPECT_GT(ux->y.back(), 0.1) << "gas under the lid follows it";
  EXPECT_LT(ux->y.back(), 1.0) << "but slips at Kn = 1";
  EXPECT_LT(ux->y.front(), 0.0) << "return flow at the bottom";
}

TEST(DvmCavity, SmallerBatchesGiveTheSameIterate) {
  // Batches split an octant's velocities; each velocity's sweep is independent of the others.
  DvmMethod a, b;
  run(a, small_cavity(), cpu_context(), 3);
  auto p = small_cavity();
  p["batch"] = "37";
  run(b, p, cpu_context(), 3);
  ASSERT_EQ(a.raw_moments().size(), b.raw_moments().size());
  for (std::size_t k = 0; k < a.raw_moments().size(); ++k)
    ASSERT_NEAR(a.raw_moments()[k], b.raw_moments()[k], 1e-13 * (1.0 + std::fabs(a.raw_moments()[k]))) << k;
}

TEST(DvmCavity, SinglePrecisionSlicesChangeTheIterateOnlyAtFloatRoundOff) {
  // Storing f in 4-byte floats (the paper's choice) rounds each value by <= 6e-8 relative; an update
  // is a convex combination of upwind values and f^S, so the rounding does not grow along a sweep.
  DvmMethod single, twice;
  auto p = small_cavity();
  p["precision"] = "fp32";
  run(single, p, cpu_context(), 5);
  p["precision"] = "fp64";
  run(twice, p, cpu_context(), 5);
  ASSERT_EQ(single.raw_moments().size(), twice.raw_moments().size());
  double worst = 0.0;
  for (std::size_t k = 0; k < single.raw_moments().size(); ++k)
    worst = std::max(worst, std::fabs(single.raw_moments()[k] - twice.raw_moments()[k]) / (1.0 + std::fabs(twice.raw_moments()[k])));
  std::printf("[ measured ] fp32 vs fp64 slices after 5 iterations: largest relative difference %.2e\n", worst);
  EXPECT_GT(worst, 1e-12) << "the fp32 run did not store floats";
  EXPECT_LT(worst, 1e-6);
}

TEST(DvmCavity, RestartFromACheckpointContinuesExactly) {
  DvmMethod straight, first, second;
  run(straight, small_cavity(), cpu_context(), 6);
  run(first, small_cavity(), cpu_context(), 3);
  std::stringstream state;
  first.save_state(state);
  second.setup(params(small_cavity()), cpu_context());
  second.load_state(state);
  for (int i = 0; i < 3; ++i) second.advance();
  EXPECT_EQ(second.iterations(), 6);
  EXPECT_EQ(second.raw_moments(), straight.raw_moments());
}

TEST(DvmCavity, LiveKnudsenChangeContinuesFromTheCurrentMoments) {
  DvmMethod m, unchanged;
  run(m, small_cavity(), cpu_context(), 5);
  run(unchanged, small_cavity(), cpu_context(), 5);
  const double mass = m.total_mass();
  m.set_live("kn", 0.5);
  EXPECT_EQ(m.iterations(), 5);
  m.advance();
  unchanged.advance();
  EXPECT_EQ(m.iterations(), 6);
  EXPECT_NEAR(m.total_mass(), mass, 1e-13 * mass);
  EXPECT_NE(m.raw_moments(), unchanged.raw_moments());  // the sweep relaxed at the new Kn
  EXPECT_THROW(m.set_live("nx", std::int64_t(12)), Error);
}

TEST(DvmCavity, OddVelocityGridIsRefusedNamingTheKey) {
  DvmMethod m;
  auto p = small_cavity();
  p["nv"] = "11";
  test_support::expect_error([&] { m.setup(params(p), cpu_context()); }, ErrorKind::BadInput, {"nv", "even"});
}

}  // namespace
}  // namespace ks::dvm
