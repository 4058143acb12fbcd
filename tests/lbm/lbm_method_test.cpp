// lbm.binary as a Method: bit-exact checkpoints, live parameters, the packed bed end to end and its
// coarse grid level.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>

#include "core/errors.hpp"
#include "expect_error.hpp"
#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_diagnostics.hpp"

namespace ks::lbm {
namespace {

class LbmCheckpoint : public ::testing::TestWithParam<const char*> {};

// Save after two updates, continue two more; a fresh method restored from the save and advanced twice
// holds the same bits (FP32 populations round-trip exactly through double).
TEST_P(LbmCheckpoint, RestartContinuesBitExact) {
  auto p = testing::small_bed();
  p["precision"] = GetParam();
  p["steps_per_iteration"] = "20";
  LbmMethod a, b;
  a.setup(testing::params(p), testing::cpu_context());
  a.advance();
  a.advance();
  std::stringstream state;
  a.save_state(state);
  a.advance();
  a.advance();
  b.setup(testing::params(p), testing::cpu_context());
  b.load_state(state);
  b.advance();
  b.advance();
  std::vector<double> fa, fb;
  a.solver().read_f(fa);
  b.solver().read_f(fb);
  ASSERT_EQ(fa.size(), fb.size());
  EXPECT_EQ(std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(double)), 0);
  EXPECT_EQ(a.progress().iteration, b.progress().iteration);
  EXPECT_EQ(a.progress().residual, b.progress().residual);
}

INSTANTIATE_TEST_SUITE_P(Fp64AndFp32, LbmCheckpoint, ::testing::Values("fp64", "fp32"));

TEST(LbmLive, TransportAndBoundaryValuesApplyAndInadmissibleOnesAreRefused) {
  LbmMethod m;
  m.setup(testing::params(testing::small_tube()), testing::cpu_context());
  m.set_live("pressure_ratio", 0.98);
  m.set_live("x_o2", 0.21);
  m.set_live("bounce_back", std::string("simple"));
  EXPECT_EQ(m.config().pressure_ratio, 0.98);
  EXPECT_EQ(m.config().x_o2, 0.21);
  EXPECT_EQ(m.config().bounce_back, BounceBack::Simple);
  // nu = 0.1 with D_AB = 0.01 is Sc = 10 > Y_A Y_B / (X_A X_B): refused, the run keeps its D_AB.
  EXPECT_THROW(m.set_live("d_ab", 0.01), Error);
  EXPECT_EQ(m.config().diffusivity, 0.12);
  test_support::expect_error([&] { m.set_live("precision", std::string("fp32")); }, ErrorKind::BadInput, {"not a live parameter"});
  m.advance();
  EXPECT_TRUE(std::isfinite(m.progress().residual));
}

// A short bed: the mixture flows downstream everywhere on average and the plane-averaged pressure
// falls from inlet to outlet; the snapshot carries every declared grid field and the spheres.
TEST(LbmPackedBed, MixtureFlowsThroughTheBedAndPressureFalls) {
  auto p = testing::small_bed();
  p["steps_per_iteration"] = "400";
  LbmMethod m;
  m.setup(testing::params(p), testing::cpu_context());
  for (int it = 0; it < 3; ++it) m.advance();
  const PlaneAverages a = plane_averages(m.config(), m.geometry(), m.moments());
  const int nz = m.config().nz;
  for (int z = 1; z < nz - 1; ++z) EXPECT_GT(a.uz_mix[z], 0.0) << "z = " << z;
  EXPECT_GT(a.pressure[0], a.pressure[nz / 2]);
  EXPECT_GT(a.pressure[nz / 2], a.pressure[nz - 1]);
  double o2 = 0.0, n2 = 0.0;
  for (int z = 8; z < nz - 8; ++z) {
    o2 += a.uz[kO2][z];
    n2 += a.uz[kN2][z];
  }
  std::printf("bed: mean u_z O2 %.6e, N2 %.6e (N2/O2 - 1 = %.2e)\n", o2, n2, n2 / o2 - 1.0);
  const Snapshot s = m.snapshot();
  ASSERT_EQ(s.fields.size(), LbmMethod::static_info().fields.size());
  EXPECT_EQ(s.fields.back().desc.name, "spheres");
  EXPECT_EQ(s.fields.back().grid.kind, Grid::Kind::Particles);
  EXPECT_EQ(s.fields.back().positions.size(), 40u);
  EXPECT_EQ(s.diagnostics["sphere_count"], 40);
}

// The coarse level keeps the physical bed: half the lattice, the same spheres at half the size, about
// the same porosity (a sphere of d = 2 to 4 is resolved by a few nodes, so the lattice porosity differs).
TEST(LbmPackedBed, CoarseLevelHalvesTheLatticeAndKeepsTheSpheres) {
  auto p = testing::small_bed();
  LbmMethod fine, coarse;
  fine.setup(testing::params(p), testing::cpu_context());
  p["grid_level"] = "coarse";
  coarse.setup(testing::params(p), testing::cpu_context());
  EXPECT_EQ(coarse.config().nx * 2, fine.config().nx);
  EXPECT_EQ(coarse.config().nz * 2, fine.config().nz);
  ASSERT_EQ(coarse.scene().shapes.spheres.size(), fine.scene().shapes.spheres.size());
  EXPECT_EQ(coarse.scene().shapes.spheres[0].r * 2, fine.scene().shapes.spheres[0].r);
  std::printf("lattice porosity of the bed: fine %.4f, coarse %.4f, spheres %.4f\n", fine.bed_porosity(), coarse.bed_porosity(),
              fine.scene().packing->porosity);
  EXPECT_NEAR(coarse.bed_porosity(), fine.bed_porosity(), 0.1);
}

}  // namespace
}  // namespace ks::lbm
