// lbm.binary as a Method: bit-exact checkpoints and crafted ones refused, live parameters, the packed
// bed end to end and its coarse grid level, the memory estimate and what ends a run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>

#include "core/errors.hpp"
#include "expect_error.hpp"
#include "first_of_two_ranks.hpp"
#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_diagnostics.hpp"

namespace ks::lbm {
namespace {

using test_support::patched;

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
  EXPECT_EQ(s.fields.back().desc.name, "sphere_diameter");
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

// --- memory estimate ---

// Every term of the tube's estimate is proportional to nz at fixed nx, ny (the nodes, and the wall
// links of the tube's lateral wall), up to the rounding of the link bound: one link of 2 x 24 B.
// The CPU holds no device memory; fp32 and fp16 storage need less than fp64.
TEST(LbmMemoryEstimate, GrowsWithTheLatticeAndThePrecision) {
  LbmMethod m;
  auto p = testing::small_tube();
  p["nx"] = "16", p["ny"] = "16", p["nz"] = "32";
  const MemoryEstimate a = m.estimate_memory(testing::params(p), testing::cpu_context());
  p["nz"] = "64";
  const MemoryEstimate b = m.estimate_memory(testing::params(p), testing::cpu_context());
  EXPECT_NEAR(double(b.host_bytes), 2.0 * double(a.host_bytes), 2.0 * 2 * sizeof(WallLink));
  EXPECT_EQ(a.device_bytes, 0u);
  EXPECT_NE(a.detail.find("nx x ny x nz = 16 x 16 x 32"), std::string::npos) << a.detail;
  p["precision"] = "fp32";
  EXPECT_LT(m.estimate_memory(testing::params(p), testing::cpu_context()).host_bytes, b.host_bytes);
  // The coarse level: the lattice (over 90 % of the fine estimate here) shrinks 8-fold, the wall links
  // about 4-fold, so the estimate is below 1/8 + 1/4 x 10 % < 1/6 of the fine one.
  p["precision"] = "fp64";
  p["grid_level"] = "coarse";
  EXPECT_LT(double(m.estimate_memory(testing::params(p), testing::cpu_context()).host_bytes), double(b.host_bytes) / 6.0);
  // On CUDA (the estimate touches no device): both population arrays in the storage type are on the
  // device, at least 2 x 54 x 2, 4, 8 B per node.
  p["grid_level"] = "fine";
  const std::uint64_t nodes = 16 * 16 * 64;
  std::uint64_t last = 0;
  const std::pair<const char*, std::uint64_t> storage[] = {{"fp16", 2}, {"fp32", 4}, {"fp64", 8}};
  for (const auto& [precision, bytes] : storage) {
    p["precision"] = precision;
    const MemoryEstimate e = m.estimate_memory(testing::params(p), testing::cuda_context());
    EXPECT_GE(e.device_bytes, 2 * 54 * bytes * nodes) << precision;
    EXPECT_GT(e.device_bytes, last) << precision;
    EXPECT_GT(e.host_bytes, 0u) << precision;
    last = e.device_bytes;
  }
  p["precision"] = "fp16";
  test_support::expect_error([&] { m.estimate_memory(testing::params(p), testing::cpu_context()); }, ErrorKind::BadInput,
                             {"precision", "CUDA"});
  // The in-place step holds one population array (54 x 4 B a node in FP32) instead of two, 4 B a node
  // in place of the fused step's sources (26 x 4 B), and a value per species (2 x 4 B) per solid
  // source: the links and up to 18 a node of the two end planes. The fused step's estimate (what a
  // refusal prints) names it and what it needs.
  p["precision"] = "fp32";
  const MemoryEstimate fused = m.estimate_memory(testing::params(p), testing::cuda_context());
  p["gpu_step"] = "in_place";
  const MemoryEstimate in_place = m.estimate_memory(testing::params(p), testing::cuda_context());
  const std::uint64_t sources = std::uint64_t(LbmMethod::wall_link_bound(lbm_param_table().read(testing::params(p)))) + 18 * 16 * 16;
  EXPECT_EQ(in_place.device_bytes + (54 * 4 + 26 * 4 - 4) * nodes, fused.device_bytes + 2 * 4 * sources);
  EXPECT_NE(fused.detail.find("gpu_step = in_place (one population array) needs about " + format_bytes(in_place.device_bytes)),
            std::string::npos)
      << fused.detail;
  EXPECT_EQ(in_place.detail.find("gpu_step = in_place"), std::string::npos) << in_place.detail;
  // In FP16 the fused step holds no sources (pulls_from_sources): the in-place step saves an array of
  // 54 x 2 B a node, less its own 4 B a node and 2 x 2 B per solid source.
  p["precision"] = "fp16";
  const MemoryEstimate in_place16 = m.estimate_memory(testing::params(p), testing::cuda_context());
  p["gpu_step"] = "fused";
  const MemoryEstimate fused16 = m.estimate_memory(testing::params(p), testing::cuda_context());
  EXPECT_EQ(in_place16.device_bytes + (54 * 2 - 4) * nodes, fused16.device_bytes + 2 * 2 * sources);
}

// MPI ranks run the fused step where the in-place one is asked (gpu_step_of): a rank's estimate for
// in_place is the fused step's on its slab, and it names no in-place alternative (it once asked
// itself for one without end).
TEST(LbmMemoryEstimate, ARankEstimatesTheFusedStepWhereTheInPlaceOneIsAsked) {
  LbmMethod m;
  auto p = testing::small_tube();
  p["nx"] = "16", p["ny"] = "16", p["nz"] = "64", p["precision"] = "fp32";
  ExecutionContext rank = testing::cuda_context();
  rank.comm = std::make_shared<test_support::FirstOfTwoRanks>();
  p["gpu_step"] = "fused";
  const MemoryEstimate fused = m.estimate_memory(testing::params(p), rank);
  p["gpu_step"] = "in_place";
  const MemoryEstimate asked_in_place = m.estimate_memory(testing::params(p), rank);
  EXPECT_EQ(asked_in_place.device_bytes, fused.device_bytes);
  EXPECT_EQ(fused.detail.find("gpu_step = in_place"), std::string::npos) << fused.detail;
  // A slab of 32 planes and its 2 halo planes: less than the one process's 64 planes (the same step).
  p["gpu_step"] = "fused";
  EXPECT_LT(fused.device_bytes, m.estimate_memory(testing::params(p), testing::cuda_context()).device_bytes);
}

// The bound on the wall links holds on the lattices build_geometry makes: the tube and the packed
// bed, on both grid levels.
TEST(LbmMemoryEstimate, WallLinkBoundHoldsForTubeAndBedOnBothLevels) {
  for (const auto& base : {testing::small_tube(), testing::small_bed()})
    for (const char* level : {"fine", "coarse"}) {
      auto p = base;
      p["grid_level"] = level;
      LbmMethod m;
      m.setup(testing::params(p), testing::cpu_context());
      const std::int64_t bound = LbmMethod::wall_link_bound(lbm_param_table().read(testing::params(p)));
      std::printf("%s, %s: %zu wall links, bound %lld\n", p["geometry"].c_str(), level, m.geometry().links.size(), (long long)bound);
      EXPECT_GE(bound, std::int64_t(m.geometry().links.size())) << p["geometry"] << ", " << level;
    }
}

// A small CPU set-up holds both population arrays, the wall links, the node types, the moments and
// the spheres; saving a checkpoint adds the state (the populations as double). The estimate is not
// below their sum. It is above it by read_f's double copy, the snapshot's fields and a second moments
// array (601 B per node: 44 % of the sum at fp64, 65 % at fp32) and by the links' bound over their
// count (2 x 24 B x 128032 against 24 B x 49260 held: 22 % of the sum at fp32): below twice the sum.
TEST(LbmMemoryEstimate, IsNotBelowWhatASmallSetUpHoldsAndSaves) {
  for (const char* precision : {"fp64", "fp32"}) {
    auto p = testing::small_bed();
    p["precision"] = precision;
    LbmMethod m;
    const MemoryEstimate e = m.estimate_memory(testing::params(p), testing::cpu_context());
    m.setup(testing::params(p), testing::cpu_context());
    std::stringstream state;
    m.save_state(state);
    const std::size_t real = std::string(precision) == "fp32" ? sizeof(float) : sizeof(double);
    std::vector<double> f;
    m.solver().read_f(f);
    const std::size_t held = 2 * f.size() * real + m.geometry().links.size() * sizeof(WallLink) + m.geometry().type.size() +
                             m.moments().size() * sizeof(double) + 3 * m.scene().shapes.spheres.size() * sizeof(Sphere);
    const std::size_t saved = state.str().size();
    std::printf("%s: estimate %llu B, held %zu B + state %zu B (ratio %.3f)\n", precision, (unsigned long long)e.host_bytes, held, saved,
                double(e.host_bytes) / double(held + saved));
    EXPECT_GE(e.host_bytes, held + saved) << precision;
    EXPECT_LT(e.host_bytes, 2 * (held + saved)) << precision;
  }
}

// --- crafted checkpoints ---

// The state's layout (save_state): tag (u32 length, "lbm.binary", u32 version), iteration, steps
// (i64), the residual steps and values (u64 count + doubles each), the populations (u64 count + doubles).
struct StateLayout {
  static constexpr std::size_t kIteration = 4 + 10 + 4, kSteps = kIteration + 8, kResidualSteps = kSteps + 8;
  std::size_t iterations, residuals, populations;
  explicit StateLayout(std::size_t n) : iterations(n), residuals(kResidualSteps + 8 + 8 * n), populations(residuals + 8 + 8 * n) {}
};

// A real state with one count, index or value corrupted at a time is refused as bad input naming what
// is wrong; the method keeps its state and runs on bit for bit as a twin that never saw the crafted states.
TEST(LbmCheckpoint, CraftedStateIsRefusedAndTheRunGoesOn) {
  auto p = testing::small_tube();
  p["steps_per_iteration"] = "10";
  LbmMethod m, twin;
  m.setup(testing::params(p), testing::cpu_context());
  twin.setup(testing::params(p), testing::cpu_context());
  for (LbmMethod* x : {&m, &twin}) x->advance(), x->advance();
  std::stringstream out;
  m.save_state(out);
  const std::string good = out.str();
  const StateLayout at(2);
  const std::uint64_t pops = 54 * std::uint64_t(m.config().nodes());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Crafted {
    std::string bytes;
    const char* says;  // a word of the refusal
  };
  const Crafted crafted[] = {
      {patched<std::int64_t>(good, at.kIteration, 3), "residual history of 2 steps"},  // iterations beyond the history
      {patched<std::int64_t>(good, at.kIteration, -1), "0 <= iterations <= steps"},
      {patched<std::int64_t>(good, at.kSteps, 1), "0 <= iterations <= steps"},               // fewer steps than iterations
      {patched<std::uint64_t>(good, at.kResidualSteps, std::uint64_t(1) << 40), "corrupt"},  // a history of 2^40 points
      {patched<double>(good, at.kResidualSteps + 8, 0.0), "a step in [1, 20]"},
      {patched<double>(good, at.residuals + 8, nan), "finite residual"},
      {patched<std::uint64_t>(good, at.populations, pops - 1), "populations, the set-up has"},
      {patched<std::uint64_t>(good, at.populations, pops + 1), "corrupt"},
      {patched<double>(good, at.populations + 8 + 8 * 1000, nan), "finite populations"},
      {good.substr(0, good.size() - 1), "truncated"},
  };
  for (const Crafted& c : crafted) {
    std::istringstream in(c.bytes);
    test_support::expect_error([&] { m.load_state(in); }, ErrorKind::BadInput, {"checkpoint", c.says});
    EXPECT_EQ(m.progress().iteration, 2) << c.says;
    EXPECT_EQ(m.steps(), 20) << c.says;
  }
  std::istringstream in(good);
  m.load_state(in);  // the real state is still accepted
  m.advance();
  twin.advance();
  std::vector<double> fm, ft;
  m.solver().read_f(fm);
  twin.solver().read_f(ft);
  ASSERT_EQ(fm.size(), ft.size());
  EXPECT_EQ(std::memcmp(fm.data(), ft.data(), fm.size() * sizeof(double)), 0);
  EXPECT_EQ(m.progress().residual, twin.progress().residual);
  EXPECT_EQ(m.snapshot().series[0].y, twin.snapshot().series[0].y);
}

// --- what ends a run ---

// Progress::converged is eq. (19)-(20) met: true when the tolerance ended the run, false when
// max_steps did (tolerance 0, or a tolerance not met by then). 1e-4 is met on the small tube within
// a few hundred steps (the developing flow's relative momentum change falls below it), far before
// max_steps; 100 steps leave it well above 1e-7.
TEST(LbmConvergence, ConvergedOnlyWhenTheToleranceEndsTheRun) {
  struct Case {
    const char* tolerance;
    const char* max_steps;
    bool converged;
  };
  for (const Case c : {Case{"1e-4", "20000", true}, Case{"0", "100", false}, Case{"1e-7", "100", false}}) {
    auto p = testing::small_tube();
    p["steps_per_iteration"] = "50", p["tolerance"] = c.tolerance, p["max_steps"] = c.max_steps;
    LbmMethod m;
    m.setup(testing::params(p), testing::cpu_context());
    EXPECT_FALSE(m.progress().converged);
    while (!m.finished()) m.advance();
    const Progress g = m.progress();
    std::printf("tolerance %s, max_steps %s: %lld steps, residual %.3e, converged %d\n", c.tolerance, c.max_steps, (long long)m.steps(),
                g.residual, int(g.converged));
    EXPECT_EQ(g.converged, c.converged) << "tolerance " << c.tolerance;
    if (c.converged) EXPECT_LT(m.steps(), 20000);
    else EXPECT_EQ(m.steps(), 100);
  }
}

}  // namespace
}  // namespace ks::lbm
