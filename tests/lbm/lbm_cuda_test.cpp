// The CUDA path of lbm.binary against the CPU: the same populations after the same steps, in FP64 to
// near round-off and in FP32 within FP32 round-off. Skips, saying so, where no CUDA device is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "display_field_check.hpp"
#include "expect_error.hpp"
#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_diagnostics.hpp"
#include "methods/lbm/lbm_model.hpp"
#include "methods/lbm/lbm_pull_nodes.hpp"
#include "require_cuda.hpp"

namespace ks::lbm {
namespace {

struct Case {
  const char* name;
  std::map<std::string, std::string> params;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::map<std::string, std::string> with(std::map<std::string, std::string> p, const std::string& k, const std::string& v) {
  p[k] = v;
  return p;
}

class LbmCudaMatchesCpu : public ::testing::TestWithParam<std::tuple<Case, const char*>> {};

TEST_P(LbmCudaMatchesCpu, PopulationsAgreeToRoundOff) {
  KS_REQUIRE_CUDA();
  auto p = std::get<0>(GetParam()).params;
  const std::string precision = std::get<1>(GetParam());
  p["precision"] = precision;
  p["steps_per_iteration"] = "50";
  LbmMethod cpu, gpu;
  test_support::advance_on_cpu_and_cuda(cpu, gpu, p, 4);
  std::vector<double> fc, fg;
  cpu.solver().read_f(fc);
  gpu.solver().read_f(fg);
  ASSERT_EQ(fc.size(), fg.size());
  // 200 steps; each population passes through ~100 operations per step (moments, two products of
  // three factors, sqrt, division) whose rounding differs by FMA contraction and the device's sqrt
  // and division: ~1e-16 (FP64) or ~1e-7 (FP32) per step, growing at most linearly and damped by the
  // relaxation. Bounds: 1e-12 and 2e-5 of the largest population.
  const double bound = precision == "fp64" ? 1e-12 : 2e-5;
  EXPECT_LT(test_support::max_relative_difference(fc, fg), bound);
  const double rms_c = cpu.solver().momentum_rms(), rms_g = gpu.solver().momentum_rms();
  EXPECT_NEAR(rms_g / rms_c, 1.0, precision == "fp64" ? 1e-10 : 1e-3);
}

INSTANTIATE_TEST_SUITE_P(TubeBedBox, LbmCudaMatchesCpu,
                         ::testing::Combine(::testing::Values(Case{"tube_interpolated", testing::small_tube()},
                                                              Case{"tube_simple", with(testing::small_tube(), "bounce_back", "simple")},
                                                              Case{"packed_bed", testing::small_bed()},
                                                              Case{"periodic_wave",
                                                                   with(with(testing::periodic_box(8, 8, 32), "wave_amplitude", "0.05"),
                                                                        "uz", "0.05")}),
                                            ::testing::Values("fp64", "fp32")),
                         [](const auto& info) { return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param); });

// The fused step (gpu_step = fused, lbm_cuda_pull.cuh) and its in-place form (gpu_step = in_place,
// lbm_cuda_in_place.cuh, one copy of the populations) against the paper's three kernels on the GPU: the
// same pre-collision populations (every entry, the solid nodes' too, as read_f gives them), moments
// and residual, through live switches of the wall scheme and of the outlet pressure (which the fused
// step applies a step later than the paper's kernels, so it settles its state first). Compared after
// 25, 50 and 75 steps, so the in-place step is read and settled in both of its layouts. Both compute
// the same operations on the same values, the pressure planes' inlined in another kernel
// (contracted into FMAs differently): equal to round-off, 1e-15 (FP64) and 7e-7 (FP32) measured on
// an H100 (0 without pressure planes). FP16 rounds to half what the paper's kernels store between
// their stages (bounced-back and plane populations), which the fused step keeps in registers:
// within that rounding (2^-11 of the deviations from f0; 2e-5 measured).
class LbmCudaFusedStep : public ::testing::TestWithParam<std::tuple<Case, const char*, const char*>> {};

TEST_P(LbmCudaFusedStep, EqualsThePaperKernels) {
  KS_REQUIRE_CUDA();
  auto p = std::get<0>(GetParam()).params;
  const std::string precision = std::get<1>(GetParam()), step = std::get<2>(GetParam());
  p["precision"] = precision;
  p["steps_per_iteration"] = "25";
  LbmMethod fused, paper;
  fused.setup(testing::params(with(p, "gpu_step", step)), testing::cuda_context());
  paper.setup(testing::params(with(p, "gpu_step", "paper")), testing::cuda_context());
  const double bound = precision == "fp16" ? 1e-4 : precision == "fp32" ? 5e-6 : 1e-13;
  auto compare = [&](const std::string& stage) {
    std::vector<double> f_fused, f_paper;
    fused.solver().read_f(f_fused);
    paper.solver().read_f(f_paper);
    ASSERT_EQ(f_fused.size(), f_paper.size()) << stage;
    const double populations = test_support::max_relative_difference(f_paper, f_fused);
    const double moments = test_support::max_relative_difference(paper.solver().moments(), fused.solver().moments());
    std::printf("%s %s, %s: populations %.3g, moments %.3g\n", step.c_str(), precision.c_str(), stage.c_str(), populations, moments);
    EXPECT_LE(populations, bound) << stage;
    EXPECT_LE(moments, bound) << stage;
    EXPECT_NEAR(fused.solver().momentum_rms() / paper.solver().momentum_rms(), 1.0, 10 * bound) << stage;
  };
  const bool simple_first = p.count("bounce_back");
  const char* scheme[2] = {simple_first ? "simple" : "interpolated", simple_first ? "interpolated" : "simple"};
  const double outlet[2] = {0.97, 0.98};
  fused.advance(), paper.advance();
  compare(std::string("25 steps, ") + scheme[0] + " bounce-back");
  for (int k = 0; k < 2; ++k) {
    for (LbmMethod* m : {&fused, &paper}) {
      m->set_live("bounce_back", scheme[1 - k % 2]);
      if (p.at("geometry") != "periodic") m->set_live("pressure_ratio", outlet[k]);
    }
    fused.advance(), paper.advance();
    compare(std::to_string(50 + 25 * k) + " steps, then " + scheme[1 - k % 2]);
  }
}

INSTANTIATE_TEST_SUITE_P(TubeBedBox, LbmCudaFusedStep,
                         ::testing::Combine(::testing::Values(Case{"tube_simple", with(testing::small_tube(), "bounce_back", "simple")},
                                                              Case{"packed_bed", testing::small_bed()},
                                                              Case{"periodic_wave",
                                                                   with(with(testing::periodic_box(8, 8, 32), "wave_amplitude", "0.05"),
                                                                        "uz", "0.05")}),
                                            ::testing::Values("fp64", "fp32", "fp16"), ::testing::Values("fused", "in_place")),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param) + "_" + std::get<2>(info.param);
                         });

// A state written into a fused or in-place solver (a checkpoint, a grid-level switch) is the paper's
// pre-collision one; the run from it equals the run it was read from, to the bit (FP32). Read after
// an odd number of steps and run on for an even one, so the in-place runs compared are in different
// layouts.
#ifdef KS_HAVE_CUDA
TEST(LbmCudaFusedStep, WrittenStateContinuesAsTheRunItCameFrom) {
  KS_REQUIRE_CUDA();
  auto p = testing::small_bed();
  p["precision"] = "fp32";
  LbmMethod m;
  m.setup(testing::params(p), testing::cpu_context());
  const auto geometry = std::make_shared<const LatticeGeometry>(m.geometry());
  const int device = testing::cuda_context().cuda_device;
  for (const GpuStep step : {GpuStep::Fused, GpuStep::InPlace}) {
    LbmConfig c = m.config();
    c.gpu_step = step;
    auto run = make_cuda_solver(c, geometry, device), restarted = make_cuda_solver(c, geometry, device);
    run->step(31);
    std::vector<double> f;
    run->read_f(f);
    restarted->write_f(f);
    run->step(40);
    restarted->step(40);
    std::vector<double> f_run, f_restarted;
    run->read_f(f_run);
    restarted->read_f(f_restarted);
    EXPECT_EQ(f_run, f_restarted) << (step == GpuStep::Fused ? "fused" : "in_place");
  }
}

// The in-place step holds one copy of the populations: the device memory its solver takes (the bytes
// of its DeviceBuffers: the device's free memory moves with other tests under ctest -j) is the fused
// step's less one array of the fluid nodes' populations, plus its value per species and solid source and its index per fluid node; and it
// is within the estimate that set-up checks before allocating.
TEST(LbmCudaInPlace, HoldsOneCopyOfThePopulationsWithinTheEstimate) {
  KS_REQUIRE_CUDA();
  auto p = testing::small_bed();
  p["nx"] = p["ny"] = "64", p["nz"] = "128", p["sphere_count"] = "1000", p["precision"] = "fp32";
  LbmMethod m;
  m.setup(testing::params(p), testing::cpu_context());
  const auto geometry = std::make_shared<const LatticeGeometry>(m.geometry());
  const int device = testing::cuda_context().cuda_device;
  const auto taken = [&](GpuStep step) {
    LbmConfig c = m.config();
    c.gpu_step = step;
    const std::uint64_t before = device_buffer_bytes();
    const auto solver = make_cuda_solver(c, geometry, device);
    return double(device_buffer_bytes() - before);
  };
  const double fused = taken(GpuStep::Fused), in_place = taken(GpuStep::InPlace);
  const double fluid = double(geometry->fluid_nodes), sources = double(pull_nodes(m.config(), *geometry).solid_sources);
  // The in-place step: one population array less, its first_solid in place of the fused step's sources,
  // and a value per species and solid source.
  const double saved = kSpecies * kQ * 4 * fluid + (kQ - 1) * 4 * fluid - 4 * fluid - kSpecies * 4 * sources;
  std::printf("fused %.1f MB, in place %.1f MB, expected saving %.1f MB (%.2f solid sources a fluid node)\n", fused / 1e6, in_place / 1e6,
              saved / 1e6, sources / fluid);
  EXPECT_NEAR(fused - in_place, saved, 4.2e6 + 0.02 * saved);
  EXPECT_LE(in_place, double(m.estimate_memory(testing::params(with(p, "gpu_step", "in_place")), testing::cuda_context()).device_bytes));
}
#endif

// grid_level switched mid-run on the GPU: the interpolation runs on the host from the solver's
// moments, so CPU and GPU must still agree to round-off on the coarse lattice and after switching back.
TEST(LbmCudaGridLevel, SwitchMidRunMatchesTheCpu) {
  KS_REQUIRE_CUDA();
  auto p = testing::small_tube();
  p["steps_per_iteration"] = "50";
  LbmMethod cpu, gpu;
  cpu.setup(testing::params(p), testing::cpu_context());
  gpu.setup(testing::params(p), testing::cuda_context());
  auto compare = [&](const char* stage) {
    std::vector<double> fc, fg;
    cpu.solver().read_f(fc);
    gpu.solver().read_f(fg);
    ASSERT_EQ(fc.size(), fg.size()) << stage;
    EXPECT_LT(test_support::max_relative_difference(fc, fg), 1e-12) << stage;  // FP64, as LbmCudaMatchesCpu
  };
  for (const char* level : {"coarse", "fine"}) {
    for (int k = 0; k < 2; ++k) cpu.advance(), gpu.advance();
    cpu.set_live("grid_level", std::string(level));
    gpu.set_live("grid_level", std::string(level));
    for (int k = 0; k < 2; ++k) cpu.advance(), gpu.advance();
    compare(level);
  }
  EXPECT_EQ(gpu.config().nx, 20);  // back on the fine lattice
}

// FP16 storage keeps f - f0 in half precision (11-bit significand): the tube's steady profile must
// stay as accurate as FP32's. Run to eq. (19) in both and compare the Poiseuille error and the centre
// velocity: half rounding of the deviation (~5e-4 of it) bounds the drift to a fraction of a percent.
PoiseuilleProfile steady_gpu_profile(const std::string& precision) {
  LbmMethod m;
  const PoiseuilleProfile pr = testing::steady_tube_profile(m, {{"precision", precision}}, testing::cuda_context(), 8000);
  std::printf("%s on the GPU: L2 error %.4f, centre velocity %.6e after %lld steps\n", precision.c_str(), pr.l2_error, pr.centre_velocity,
              (long long)m.steps());
  return pr;
}

TEST(LbmCudaFp16, CompressedStorageKeepsThePoiseuilleProfile) {
  KS_REQUIRE_CUDA();
  const PoiseuilleProfile fp32 = steady_gpu_profile("fp32"), fp16 = steady_gpu_profile("fp16");
  EXPECT_LT(fp16.l2_error, 0.015);
  EXPECT_LT(std::fabs(fp16.l2_error - fp32.l2_error), 0.003);
  EXPECT_NEAR(fp16.centre_velocity / fp32.centre_velocity, 1.0, 0.005);
}

// The packed bed's pressure falls along z, so f0 follows the starting state's linear fall (not the
// inlet's rest state, which left the outlet's deviations 4 % of f and the half's rounding 20 % of the
// flow there). The plane-averaged bulk velocity after the same steps as FP64, every plane.
TEST(LbmCudaFp16, CompressedStorageKeepsTheBedsBulkVelocity) {
  KS_REQUIRE_CUDA();
  auto bulk_velocity = [](const std::string& precision) {
    auto p = testing::small_bed();
    p["precision"] = precision;
    p["steps_per_iteration"] = "500";
    LbmMethod m;
    m.setup(testing::params(p), testing::cuda_context());
    for (int k = 0; k < 6; ++k) m.advance();
    return plane_averages(m.config(), m.geometry(), m.moments()).uz_mix;
  };
  const std::vector<double> fp64 = bulk_velocity("fp64"), fp16 = bulk_velocity("fp16");
  double worst = 0.0;
  for (std::size_t z = 0; z < fp64.size(); ++z) worst = std::max(worst, std::fabs(fp16[z] / fp64[z] - 1.0));
  std::printf("fp16 against fp64, small bed after 3000 steps: largest plane difference of the bulk u_z %.3e (u_z %.3e at z = 0)\n", worst,
              fp64[0]);
  EXPECT_LT(worst, 0.02);
}

// The zero-copy view's images (Method::write_display_field): every node field and selection
// (densities, mole fraction, the three velocities and their components, the solid mask) as floats
// in device memory equal the host snapshot's (velocities 0 in solids).
#ifdef KS_HAVE_CUDA
TEST(LbmCudaDisplay, DeviceFieldsEqualTheSnapshot) {
  KS_REQUIRE_CUDA();
  LbmMethod m;
  m.setup(testing::params(testing::small_bed()), testing::cuda_context());
  for (int i = 0; i < 3; ++i) m.advance();
  const Snapshot snap = m.snapshot();
  const auto differences = test_support::display_differences(m, snap);
  EXPECT_EQ(differences.size(), 16u) << "rho_O2, rho_N2, X_O2, u_O2 (4), u_N2 (4), u (4), solid";
  for (const auto& [name, difference] : differences) EXPECT_LT(difference, 2e-7) << name << ": float rounding of the same value";
  EXPECT_EQ(m.write_display_field("sphere_diameter", -1, nullptr, 0), 0u) << "the bed's geometry is drawn from the host";
  LbmMethod cpu;
  cpu.setup(testing::params(testing::small_tube()), testing::cpu_context());
  EXPECT_EQ(cpu.write_display_field("u", -1, nullptr, 0), 0u) << "the CPU backend has no device copy";
}
#else
TEST(LbmCudaDisplay, DeviceFieldsEqualTheSnapshot) { GTEST_SKIP() << "built without CUDA"; }
#endif

TEST(LbmFp16, CompressedStorageIsRefusedOnTheCpuWithTheAlternatives) {
  auto p = testing::small_tube();
  p["precision"] = "fp16";
  LbmMethod m;
  test_support::expect_error([&] { m.setup(testing::params(p), testing::cpu_context()); }, ErrorKind::BadInput,
                             {"precision", "fp32 or fp64"});
}

}  // namespace
}  // namespace ks::lbm
