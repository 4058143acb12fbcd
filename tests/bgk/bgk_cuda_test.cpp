// The CUDA path of kinetic.bgk against the CPU: both step variants (fused; the paper's Algorithms 1-2)
// must give the CPU's distribution to round-off. Skips, saying so, where no CUDA device is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "require_cuda.hpp"
#include "bgk_test_support.hpp"

namespace ks::bgk {
namespace {

struct Case {
  const char* name;
  std::map<std::string, std::string> params;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class BgkCudaMatchesCpu : public ::testing::TestWithParam<std::tuple<Case, const char*>> {};

TEST_P(BgkCudaMatchesCpu, DistributionAgreesToRoundOff) {
  KS_REQUIRE_CUDA();
  auto p = std::get<0>(GetParam()).params;
  p["variant"] = std::get<1>(GetParam());
  p["steps_per_iteration"] = "50";
  BgkMethod cpu, gpu;
  cpu.setup(testing::params(p), testing::cpu_context());
  gpu.setup(testing::params(p), testing::cuda_context());
  for (int k = 0; k < 4; ++k) {
    cpu.advance();
    gpu.advance();
  }
  std::vector<double> fc, fg;
  cpu.solver().read_f(fc);
  gpu.solver().read_f(fg);
  ASSERT_EQ(fc.size(), fg.size());
  // 200 steps of O(1) operations per value: FMA contraction and libm/CUDA exp ulps, ~1e-13 relative.
  EXPECT_LT(test_support::max_relative_difference(fc, fg), 1e-11);
  const auto& mc = cpu.raw_moments();
  const auto& mg = gpu.raw_moments();
  for (std::size_t k = 0; k < mc.size(); ++k) ASSERT_NEAR(mg[k], mc[k], 1e-11 * (1.0 + std::fabs(mc[k]))) << k;
}

std::map<std::string, std::string> with(std::map<std::string, std::string> p, const std::string& k, const std::string& v) {
  p[k] = v;
  return p;
}

INSTANTIATE_TEST_SUITE_P(
    ShockAndCavity, BgkCudaMatchesCpu,
    ::testing::Combine(::testing::Values(Case{"shock", testing::small_shock()},
                                         Case{"shock_large_shift", with(testing::small_shock(), "dt", "0.4")},
                                         Case{"cavity", with(testing::small_cavity(), "conservative", "true")},
                                         Case{"cavity_wide_rows", with(with(testing::small_cavity(), "nx", "300"), "dt", "0.001")}),
                       ::testing::Values("fused", "paper")),
    [](const auto& info) { return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param); });

}  // namespace
}  // namespace ks::bgk
