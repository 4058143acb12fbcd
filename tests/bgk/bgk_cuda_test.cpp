// The CUDA path of kinetic.bgk against the CPU: both step variants (fused; the paper's Algorithms 1-2)
// must give the CPU's distribution to round-off. Skips, saying so, where no CUDA device is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "require_cuda.hpp"
#include "scoped_env.hpp"
#include "bgk_test_support.hpp"
#include "display_field_check.hpp"

namespace ks::bgk {
namespace {

struct Case {
  const char* name;
  std::map<std::string, std::string> params;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class BgkCudaMatchesCpu : public ::testing::TestWithParam<std::tuple<Case, const char*>> {};

// The same iterations of 50 steps on both backends: f and the raw moments must agree. A few hundred
// steps of O(1) operations per value: FMA contraction and libm/CUDA exp ulps, ~1e-13 relative.
void expect_cuda_matches_cpu(std::map<std::string, std::string> p, const char* variant, int iterations) {
  p["variant"] = variant;
  p["steps_per_iteration"] = "50";
  BgkMethod cpu, gpu;
  test_support::advance_on_cpu_and_cuda(cpu, gpu, p, iterations);
  std::vector<double> fc, fg;
  cpu.solver().read_f(fc);
  gpu.solver().read_f(fg);
  ASSERT_EQ(fc.size(), fg.size());
  EXPECT_LT(test_support::max_relative_difference(fc, fg), 1e-11);
  const auto& mc = cpu.raw_moments();
  const auto& mg = gpu.raw_moments();
  for (std::size_t k = 0; k < mc.size(); ++k) ASSERT_NEAR(mg[k], mc[k], 1e-11 * (1.0 + std::fabs(mc[k]))) << k;
}

TEST_P(BgkCudaMatchesCpu, DistributionAgreesToRoundOff) {
  KS_REQUIRE_CUDA();
  expect_cuda_matches_cpu(std::get<0>(GetParam()).params, std::get<1>(GetParam()), 4);
}

std::map<std::string, std::string> with(std::map<std::string, std::string> p, const std::string& k, const std::string& v) {
  p[k] = v;
  return p;
}

INSTANTIATE_TEST_SUITE_P(
    ShockAndCavity, BgkCudaMatchesCpu,
    ::testing::Combine(
        ::testing::Values(Case{"shock", testing::small_shock()}, Case{"shock_large_shift", with(testing::small_shock(), "dt", "0.4")},
                          Case{"cavity", with(testing::small_cavity(), "conservative", "true")},
                          Case{"cavity_split", with(testing::small_cavity(), "streaming", "split")},
                          Case{"cavity_courant_1", with(testing::small_cavity(), "courant", "1")},
                          Case{"cavity_split_courant_1", with(with(testing::small_cavity(), "streaming", "split"), "courant", "1")},
                          Case{"cavity_wide_rows", with(with(testing::small_cavity(), "nx", "300"), "dt", "0.001")}),
        ::testing::Values("fused", "paper")),
    [](const auto& info) { return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param); });

// A grid of few tiles: each v_x slice's velocities are split over several blocks a tile (on an H100 the
// moments in 3 parts and the relaxation in 2 here, bgk_cavity_tiles.hpp: tile_parts), their partial
// sums added in v_y order: the CPU's distribution to round-off.
TEST(BgkCuda, CavityTilesSplitOverVelocityPartsMatchTheCpu) {
  KS_REQUIRE_CUDA();
  expect_cuda_matches_cpu(with(with(with(testing::small_cavity(), "nx", "80"), "ny", "80"), "dt", "0.001"), "fused", 2);
}

// A GPU whose blocks cannot hold the cavity tiles' z-factor tables (Turing from nv = 32) computes the
// factors per velocity instead: the same distribution. The limit is lowered through
// KS_CUDA_SHARED_MEMORY_LIMIT below the 16 KiB table of nv = 8.
TEST(BgkCuda, CavityTilesWithoutRoomForTheZTablesMatchTheCpu) {
  KS_REQUIRE_CUDA();
  const test_support::ScopedEnv limit("KS_CUDA_SHARED_MEMORY_LIMIT", "16384");
  expect_cuda_matches_cpu(testing::small_cavity(), "fused", 2);
}

// The zero-copy view's images (Method::write_display_field): every cell field and selection (n, V
// and its components, T, P_xy, q) and the phase-space slice f(x, vx) as floats in device memory
// equal the host snapshot's, which the CPU computes from the same raw sums (and row of f).
#ifdef KS_HAVE_CUDA
TEST(BgkCudaDisplay, DeviceFieldsEqualTheSnapshot) {
  KS_REQUIRE_CUDA();
  BgkMethod m;
  m.setup(testing::params(testing::small_cavity()), testing::cuda_context());
  m.advance();
  const Snapshot snap = m.snapshot();
  const auto differences = test_support::display_differences(m, snap);
  EXPECT_EQ(differences.size(), 11u) << "n, V (4), T, P_xy, q (3), f(x, vx)";
  for (const auto& [name, difference] : differences) EXPECT_LT(difference, 2e-7) << name << ": float rounding of the same value";
  EXPECT_EQ(m.write_display_field("residual", -1, nullptr, 0), 0u) << "not a field";
  BgkMethod cpu;
  cpu.setup(testing::params(testing::small_cavity()), testing::cpu_context());
  EXPECT_EQ(cpu.write_display_field("n", -1, nullptr, 0), 0u) << "the CPU backend has no device copy";
}
#else
TEST(BgkCudaDisplay, DeviceFieldsEqualTheSnapshot) { GTEST_SKIP() << "built without CUDA"; }
#endif

}  // namespace
}  // namespace ks::bgk
