// The CUDA sweeps against the CPU sweeps: the paper's own check that the GPU program reproduces
// the CPU program (section 4). Both compute each update in double and sum the same terms in different
// orders; with fp64 slices they agree to double round-off. With fp32 slices both round each f to the
// same float unless the device's exp differs from the host's in the last bit at a rounding boundary,
// so they agree to float round-off.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "display_field_check.hpp"
#include "dvm_test_support.hpp"
#include "require_cuda.hpp"

namespace ks::dvm {
namespace {

using testing::cpu_context;
using testing::cuda_context;
using testing::run;

void expect_same_iterate(std::map<std::string, std::string> setup, int iterations, const std::string& precision = "fp64") {
  setup["precision"] = precision;
  DvmMethod cpu, gpu;
  run(cpu, setup, cpu_context(), iterations);
  run(gpu, setup, cuda_context(), iterations);
  ASSERT_EQ(cpu.raw_moments().size(), gpu.raw_moments().size());
  double worst = 0.0;
  for (std::size_t k = 0; k < cpu.raw_moments().size(); ++k)
    worst = std::max(worst, std::fabs(cpu.raw_moments()[k] - gpu.raw_moments()[k]) / (1.0 + std::fabs(cpu.raw_moments()[k])));
  EXPECT_LT(worst, precision == "fp64" ? 1e-12 : 1e-7);
  std::printf("[ measured ] CPU vs CUDA (%s slices) after %d iterations: largest relative difference %.2e\n", precision.c_str(),
              iterations, worst);
}

TEST(DvmCuda, CavityMatchesTheCpuToRoundOff) {
  KS_REQUIRE_CUDA();
  expect_same_iterate(testing::small_cavity(), 6);
}

TEST(DvmCuda, CavityWithSinglePrecisionSlicesMatchesTheCpuToFloatRoundOff) {
  KS_REQUIRE_CUDA();
  expect_same_iterate(testing::small_cavity(), 6, "fp32");
}

TEST(DvmCuda, EveryStripWidthGivesTheCpuIterate) {
  // The wavefront of strips: 10 cells per row in strips of 4 (3 warps, the last one ragged), 8 (2)
  // and 16 (one warp with a partial strip).
  KS_REQUIRE_CUDA();
  for (const char* strip : {"4", "8", "16"}) {
    SCOPED_TRACE(std::string("strip ") + strip);
    auto p = testing::small_cavity();
    p["strip"] = strip;
    expect_same_iterate(p, 3);
  }
}

TEST(DvmCuda, CavityInSmallBatchesMatchesTheCpu) {
  KS_REQUIRE_CUDA();
  auto p = testing::small_cavity();
  p["batch"] = "50";
  expect_same_iterate(p, 4);
}

TEST(DvmCuda, CubeMatchesTheCpuToRoundOff) {
  KS_REQUIRE_CUDA();
  expect_same_iterate(testing::small_cube(), 4);
}

TEST(DvmCuda, CouetteMatchesTheCpuToRoundOff) {
  KS_REQUIRE_CUDA();
  expect_same_iterate({{"case", "couette"}, {"kn", "0.1"}, {"ny", "40"}, {"nv", "16"}}, 10);
}

TEST(DvmCuda, DeviceMemoryFollowsTwoSlicesPerVelocityNotThePhaseSpace) {
  // Section 3.2: f is held for two z-slices of one batch, 2 x 4 B x N^2 x batch (the paper's 8 N^2 P Q
  // with fp32 slices), plus per-cell moments and geometry (~220 B per cell), never for all N^3 M^3
  // phase-space points.
  KS_REQUIRE_CUDA();
  DvmMethod m;
  auto p = testing::small_cavity();
  p["nx"] = p["ny"] = p["nz"] = "24";
  p["nv"] = "24";
  m.setup(testing::params(p), cuda_context());
  const DvmConfig& c = m.config();
  ASSERT_EQ(c.f_bytes(), 4);
  const double slices = 2.0 * 4.0 * double(c.slice_cells()) * double(c.batch_size());
  const double per_cell = double(m.solver().bytes()) - slices;
  EXPECT_GT(per_cell, 0.0);
  EXPECT_LT(per_cell, 300.0 * double(c.cells()));
  EXPECT_LT(double(m.solver().bytes()), 0.2 * 4.0 * double(c.cells()) * double(c.vg.count()));
}

// The zero-copy view's image (Method::write_display_field): n (with the closed cavity's mass
// rescaling), |U| and T of each cell as floats in device memory equal the host snapshot's fields.
// Stretched grids (the cube) are resampled onto the uniform display grid as the snapshot is.
// Before the first sweep and after a checkpoint load the host draws instead.
#ifdef KS_HAVE_CUDA
TEST(DvmCudaDisplay, DeviceFieldsEqualTheSnapshotAfterAnIteration) {
  KS_REQUIRE_CUDA();
  DvmMethod m;
  m.setup(testing::params(testing::small_cavity()), cuda_context());
  EXPECT_EQ(m.write_display_field("n", nullptr, 0), 0u) << "no sweep yet: only the host has the sums";
  m.advance();
  m.advance();
  const Snapshot snap = m.snapshot();
  for (const char* name : {"n", "U", "T"})
    EXPECT_LT(test_support::largest_display_difference(m, snap, name), 2e-7) << name << ": float rounding of the same value";
  EXPECT_EQ(m.write_display_field("p", nullptr, 0), 0u) << "not a display field";
  std::stringstream state;
  m.save_state(state);
  m.load_state(state);
  EXPECT_EQ(m.write_display_field("n", nullptr, 0), 0u) << "after a load the solver holds no sums of the state";
  DvmMethod cube;
  cube.setup(testing::params(testing::small_cube()), cuda_context());
  cube.advance();
  cube.advance();
  const Snapshot cube_snap = cube.snapshot();
  for (const char* name : {"n", "U", "T"})
    EXPECT_LT(test_support::largest_display_difference(cube, cube_snap, name), 2e-7) << "cube " << name << ": resampled alike";
}
#else
TEST(DvmCudaDisplay, DeviceFieldsEqualTheSnapshotAfterAnIteration) { GTEST_SKIP() << "built without CUDA"; }
#endif

}  // namespace
}  // namespace ks::dvm
