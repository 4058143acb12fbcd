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
#include "expect_error.hpp"
#include "require_cuda.hpp"
#include "scoped_env.hpp"

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
  std::printf("[ measured ] CPU vs CUDA (%s slices) after %d iterations: largest relative difference %.2e\n", precision.c_str(), iterations,
              worst);
}

TEST(DvmCuda, CavityMatchesTheCpuToRoundOff) {
  KS_REQUIRE_CUDA();
  expect_same_iterate(testing::small_cavity(), 6);
}

TEST(DvmCuda, CavityWithSinglePrecisionSlicesMatchesTheCpuToFloatRoundOff) {
  KS_REQUIRE_CUDA();
  expect_same_iterate(testing::small_cavity(), 6, "fp32");
}

TEST(DvmCuda, FactoredShakhovOfHalfAxesOf32And64PointsMatchesTheCpu) {
  // nv = 64 and 128: the sweep factors f^S's exponential by velocity axes (sweep_kernel's kXYHalf),
  // one and two groups of 32 xi_z a half-axis.
  KS_REQUIRE_CUDA();
  for (const char* nv : {"64", "128"}) {
    SCOPED_TRACE(std::string("nv ") + nv);
    const bool wide = std::string(nv) == "128";
    const std::map<std::string, std::string> p = {
        {"case", "cavity"},       {"kn", "1"}, {"lid_speed", "0.1"}, {"nx", wide ? "3" : "5"}, {"ny", wide ? "3" : "4"},
        {"nz", wide ? "2" : "3"}, {"nv", nv}};
    expect_same_iterate(p, 2);
    expect_same_iterate(p, 2, "fp32");
  }
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

TEST(DvmCuda, OctantMomentsLoadedSixteenBytesAtATimeMatchTheCpu) {
  // Octants wide enough for every moment thread to load a 16-byte group of pairs: 32^2 pairs of
  // 4 floats (64^3 velocities), 24^2 pairs of 2 doubles (48^3).
  KS_REQUIRE_CUDA();
  const std::map<std::string, std::string> wide = {{"case", "cavity"}, {"kn", "1"}, {"lid_speed", "0.1"},
                                                   {"nx", "4"},        {"ny", "3"}, {"nz", "3"}};
  auto fp32 = wide, fp64 = wide;
  fp32["nv"] = "64";
  fp64["nv"] = "48";
  expect_same_iterate(fp32, 2, "fp32");
  expect_same_iterate(fp64, 2);
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

// estimate_memory counts every device array the solver holds but the small tables: the velocity
// axis's values and weights (2 x nv doubles) and the inverse cell sizes (nx + ny + nz doubles); for
// the cavity and the stretched cube (whose display brackets bytes() leaves out) exactly that apart.
TEST(DvmCuda, DeviceEstimateIsWhatTheSolverHoldsButTheSmallTables) {
  KS_REQUIRE_CUDA();
  for (const auto& p : {testing::small_cavity(), testing::small_cube()}) {
    DvmMethod m;
    const MemoryEstimate e = m.estimate_memory(testing::params(p), cuda_context());
    m.setup(testing::params(p), cuda_context());
    const DvmConfig& c = m.config();
    const std::uint64_t tables = 8 * (2 * std::uint64_t(c.vg.m) + c.n(0) + c.n(1) + c.n(2));
    EXPECT_EQ(std::uint64_t(m.solver().bytes()), e.device_bytes + tables) << p.at("case");
  }
}

// A row wider than 16 warps of 16 cells is refused naming nx before anything is sized from it (at
// nx = 4096 the sweep's shared memory would exceed what a block may ask for: a CUDA error).
TEST(DvmCuda, RowWiderThanTheSweepIsRefusedNamingNx) {
  KS_REQUIRE_CUDA();
  for (const char* nx : {"257", "4096"}) {
    DvmMethod m;
    const auto p = testing::params({{"case", "cavity"}, {"nx", nx}, {"ny", "2"}, {"nz", "2"}, {"nv", "4"}});
    test_support::expect_error([&] { m.setup(p, cuda_context()); }, ErrorKind::BadInput, {"nx", "nx <= 256"});
  }
}

// A GPU with less shared memory a block than Hopper (Turing: 64 KiB, sm_86/89: 99 KiB) holds fewer
// strips of a row: the sweep takes wider strips and gives the same iterate, or refuses a row that
// cannot fit, naming nx and the limit. The limit is lowered through KS_CUDA_SHARED_MEMORY_LIMIT.
TEST(DvmCuda, SweepWithinASmallerGpusSharedMemoryGivesTheCpuIterate) {
  KS_REQUIRE_CUDA();
  // nx 40 in fp64: 20 KiB of rows and 3.5 KiB a strip; 32 KiB holds the 3 strips of 16 cells, where
  // the H100 would take 10 strips of 4 for this small grid.
  const test_support::ScopedEnv limit("KS_CUDA_SHARED_MEMORY_LIMIT", "32768");
  expect_same_iterate({{"case", "cavity"}, {"kn", "1"}, {"lid_speed", "0.1"}, {"nx", "40"}, {"ny", "3"}, {"nz", "2"}, {"nv", "8"}}, 2);
}

TEST(DvmCuda, RowTooWideForTheGpusSharedMemoryIsRefusedNamingNxAndTheLimit) {
  KS_REQUIRE_CUDA();
  const test_support::ScopedEnv limit("KS_CUDA_SHARED_MEMORY_LIMIT", "16384");
  DvmMethod m;
  const auto p = testing::params({{"case", "cavity"}, {"nx", "200"}, {"ny", "2"}, {"nz", "2"}, {"nv", "4"}, {"precision", "fp64"}});
  test_support::expect_error([&] { m.setup(p, cuda_context()); }, ErrorKind::BadInput,
                             {"nx", "16 KiB of shared memory a block", "single precision halves it"});
  DvmMethod strips;
  const auto q = testing::params({{"case", "cavity"}, {"nx", "24"}, {"ny", "2"}, {"nz", "2"}, {"nv", "4"}, {"strip", "4"}});
  test_support::expect_error([&] { strips.setup(q, cuda_context()); }, ErrorKind::BadInput, {"strip", "a strip of at least"});
}

// The zero-copy view's images (Method::write_display_field): every field and selection (n with the
// closed cavity's mass rescaling, U and its components, T, p, q and its components, P_xy) as floats
// in device memory equal the host snapshot's: from the initial iterate, after iterations, after a
// checkpoint load, and on the cube's stretched grid, resampled onto the uniform display grid as the
// snapshot is.
#ifdef KS_HAVE_CUDA
TEST(DvmCudaDisplay, DeviceFieldsEqualTheSnapshot) {
  KS_REQUIRE_CUDA();
  const auto expect_equal = [](const DvmMethod& m, const std::string& when) {
    const auto differences = test_support::display_differences(m, m.snapshot());
    EXPECT_EQ(differences.size(), 12u) << "n, U (4), T, p, q (4), P_xy";
    for (const auto& [name, difference] : differences) EXPECT_LT(difference, 2e-7) << name << " " << when;
  };
  DvmMethod m;
  m.setup(testing::params(testing::small_cavity()), cuda_context());
  expect_equal(m, "before the first sweep");
  m.advance();
  m.advance();
  expect_equal(m, "after two iterations");
  std::stringstream state;
  m.save_state(state);
  DvmMethod loaded;
  loaded.setup(testing::params(testing::small_cavity()), cuda_context());
  loaded.load_state(state);
  expect_equal(loaded, "after a checkpoint load");
  DvmMethod cube;
  cube.setup(testing::params(testing::small_cube()), cuda_context());
  cube.advance();
  cube.advance();
  expect_equal(cube, "on the cube's stretched grid");
}
#else
TEST(DvmCudaDisplay, DeviceFieldsEqualTheSnapshot) { GTEST_SKIP() << "built without CUDA"; }
#endif

}  // namespace
}  // namespace ks::dvm
