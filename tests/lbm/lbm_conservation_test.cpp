// lbm.binary in a closed periodic box: per-species mass conservation to round-off (also with a
// sphere under full-way bounce-back), and a uniform flow that stays uniform.
#include <gtest/gtest.h>

#include <cmath>

#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_model.hpp"

namespace ks::lbm {
namespace {

// Mass of species s: every population at the fluid nodes plus those in flight at wall nodes (sent
// there by a fluid node, returned at the next step by full-way bounce-back).
double species_mass(const LbmConfig& c, const LatticeGeometry& g, const std::vector<double>& f, int s) {
  const long long N = c.nodes();
  double m = 0.0;
  for (int z = 0; z < c.nz; ++z)
    for (int y = 0; y < c.ny; ++y)
      for (int x = 0; x < c.nx; ++x) {
        const long long k = ((long long)z * c.ny + y) * c.nx + x;
        for (int i = 0; i < kQ; ++i) {
          const bool counted = g.type[k] == kFluid || (g.type[k] == kWall && g.type[neighbour(c, x, y, z, opposite(i))] == kFluid);
          if (counted) m += f[(std::size_t(s) * kQ + i) * N + k];
        }
      }
  return m;
}

class LbmMassConservation : public ::testing::TestWithParam<bool> {};

// Random +-5 % perturbations of the populations; the collision conserves each species' mass up to the
// rounding of its update (~1e-16 relative per node and step) and streaming with full-way bounce-back
// only moves it: 1728 nodes x 300 steps of independent roundings add up to ~1e-16 sqrt(5e5) ~ 7e-14.
// Bound 1e-13.
TEST_P(LbmMassConservation, EachSpeciesKeepsItsMassToRoundOff) {
  const bool with_sphere = GetParam();
  LbmConfig c = make_config(lbm_param_table().read(testing::params(testing::periodic_box(12, 12, 12))));
  c.bounce_back = BounceBack::Simple;
  Shapes shapes;
  if (with_sphere) shapes.spheres.push_back({{5.3, 6.1, 5.7}, 3.1});
  auto g = std::make_shared<const LatticeGeometry>(build_geometry(c, shapes));
  ASSERT_EQ(with_sphere, g->fluid_nodes < c.nodes());
  auto solver = make_cpu_solver(c, g);
  std::vector<double> f;
  solver->read_f(f);
  for (std::size_t k = 0; k < f.size(); ++k) f[k] *= 1.0 + 0.05 * std::sin(0.37 * double(k));
  solver->write_f(f);
  const double m0[2] = {species_mass(c, *g, f, 0), species_mass(c, *g, f, 1)};
  solver->step(300);
  solver->read_f(f);
  for (int s = 0; s < kSpecies; ++s) {
    const double drift = species_mass(c, *g, f, s) / m0[s] - 1.0;
    RecordProperty(s == 0 ? "relative_mass_drift_O2" : "relative_mass_drift_N2", std::to_string(drift));
    std::printf("species %d: relative mass change %.2e after 300 steps\n", s, drift);
    EXPECT_LT(std::fabs(drift), 1e-13) << "species " << s;
  }
}

INSTANTIATE_TEST_SUITE_P(OpenAndWithSphere, LbmMassConservation, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "WithSphere" : "EmptyBox"; });

// A uniform mixture moving obliquely is a fixed point of collision and streaming: f = f^eq = f^*.
// FP64, 200 steps: the deviation stays at round-off (bound 1e-13 relative).
TEST(LbmUniformFlow, UniformObliqueFlowStaysUniform) {
  auto p = testing::periodic_box(8, 8, 8);
  p["ux"] = "0.05";
  p["uy"] = "-0.03";
  p["uz"] = "0.08";
  LbmMethod m;
  m.setup(testing::params(p), testing::cpu_context());
  const std::vector<double> before = m.moments();
  m.set_live("steps_per_iteration", std::int64_t(200));
  m.advance();
  const std::vector<double>& after = m.moments();
  double worst = 0.0;
  for (std::size_t k = 0; k < after.size(); ++k) worst = std::max(worst, std::fabs(after[k] - before[k]));
  EXPECT_LT(worst, 1e-13);
  EXPECT_NEAR(after[kJN2z * m.config().nodes()] / after[kRhoN2 * m.config().nodes()], 0.08, 1e-13);
}

}  // namespace
}  // namespace ks::lbm
