// The CUDA sweeps against the CPU sweeps: the paper's own check that the GPU program reproduces
// the CPU program (section 4). Both sum the same terms in double precision in different orders.
#include <gtest/gtest.h>

#include <cmath>

#include "dvm_test_support.hpp"
#include "require_cuda.hpp"

namespace ks::dvm {
namespace {

using testing::cpu_context;
using testing::cuda_context;
using testing::run;

void expect_same_iterate(const std::map<std::string, std::string>& setup, int iterations) {
  DvmMethod cpu, gpu;
  run(cpu, setup, cpu_context(), iterations);
  run(gpu, setup, cuda_context(), iterations);
  ASSERT_EQ(cpu.raw_moments().size(), gpu.raw_moments().size());
  double worst = 0.0;
  for (std::size_t k = 0; k < cpu.raw_moments().size(); ++k)
    worst = std::max(worst, std::fabs(cpu.raw_moments()[k] - gpu.raw_moments()[k]) / (1.0 + std::fabs(cpu.raw_moments()[k])));
  EXPECT_LT(worst, 1e-12);
  std::printf("[ measured ] CPU vs CUDA after %d iterations: largest relative difference %.2e\n", iterations, worst);
}

TEST(DvmCuda, CavityMatchesTheCpuToRoundOff) {
  KS_REQUIRE_CUDA();
  expect_same_iterate(testing::small_cavity(), 6);
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
  // Section 3.2: f is held for two z-slices of one batch, 2 x 8 B x N^2 x batch, plus per-cell
  // moments and geometry (~220 B per cell), never for all N^3 M^3 phase-space points.
  KS_REQUIRE_CUDA();
  DvmMethod m;
  auto p = testing::small_cavity();
  p["nx"] = p["ny"] = p["nz"] = "24";
  p["nv"] = "24";
  m.setup(testing::params(p), cuda_context());
  const DvmConfig& c = m.config();
  const double slices = 2.0 * 8.0 * double(c.slice_cells()) * double(c.batch_size());
  const double per_cell = double(m.solver().bytes()) - slices;
  EXPECT_GT(per_cell, 0.0);
  EXPECT_LT(per_cell, 300.0 * double(c.cells()));
  EXPECT_LT(double(m.solver().bytes()), 0.2 * 8.0 * double(c.cells()) * double(c.vg.count()));
}

}  // namespace
}  // namespace ks::dvm
