// radiation.rmc: properties of the estimator itself: reciprocity, the 1/sqrt(rays) fall of the
// standard error, multigrid and sorting leaving the result unchanged, restarts and live changes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "core/errors.hpp"
#include "expect_error.hpp"
#include "methods/radiation/rmc_planck.hpp"
#include "rmc_test_support.hpp"

namespace ks::rmc {
namespace {

using test::max_sigma_distance;
using test::run;
using test_support::cpu_context;
using test_support::cuda_context;
using test_support::method_params;

TEST(RmcEstimator, UniformTemperatureGivesZeroToRoundOff) {
  // Gas and (grey, reflecting) walls at one temperature: every term of eq. (12) vanishes exactly.
  const auto m = run({{"profile", "isothermal"},
                      {"temperature", "800"},
                      {"wall_temperature", "800"},
                      {"kappa", "2"},
                      {"emissivity_x0", "0.4"},
                      {"emissivity_x1", "0.7"},
                      {"nx", "8"},
                      {"ny", "2"},
                      {"nz", "2"},
                      {"rays_per_cell", "200"}});
  const double emission = 4.0 * 2.0 * kStefanBoltzmann * std::pow(800.0, 4);
  for (double q : m->mean()) EXPECT_LT(std::fabs(q), 1e-12 * emission);
}

TEST(RmcEstimator, StandardErrorFallsAsOneOverSqrtRays) {
  const std::map<std::string, std::string> base = {{"profile", "parab1"}, {"kappa", "1"}, {"nx", "16"}, {"ny", "2"}, {"nz", "2"}};
  auto few = base, many = base;
  few["rays_per_cell"] = "400";
  many["rays_per_cell"] = "6400", many["rays_per_batch"] = "1600";
  const auto a = run(few), b = run(many);
  double sa = 0.0, sb = 0.0;
  for (double s : a->std_error()) sa += s;
  for (double s : b->std_error()) sb += s;
  EXPECT_NEAR(sa / sb, 4.0, 0.3);  // sqrt(6400 / 400)
  // The snapshot's mean standard error against its 1/sqrt(N) companion, 16 batches on.
  const Snapshot snap = b->snapshot();
  const Series *measured = nullptr, *clt = nullptr;
  for (const Series& s : snap.series) {
    if (s.name == "mean std(Q^R)") measured = &s;
    if (s.name == "mean std(Q^R) 1/sqrt(N)") clt = &s;
  }
  ASSERT_TRUE(measured && clt);
  ASSERT_EQ(clt->x, measured->x);
  ASSERT_EQ(measured->y.size(), 4u);
  EXPECT_EQ(clt->y.front(), measured->y.front());
  EXPECT_NEAR(measured->y.back() / clt->y.back(), 1.0, 0.1);
}

TEST(RmcEstimator, MultigridAgreesWithTheFineGridWithinTheStatisticalError) {
  // Case 10's set-up with a grey gas of kappa = 5/m: 4 levels (32 -> 16 -> 8 -> 4), 5 steps each,
  // and eq. (25) steps; the far field of each ray is traced on coarser cells.
  const std::map<std::string, std::string> base = {
      {"profile", "parab1"}, {"kappa", "5"}, {"nx", "32"}, {"ny", "4"}, {"nz", "4"}, {"rays_per_cell", "1500"}, {"rays_per_batch", "500"}};
  const auto fine = run(base);
  auto mg = base;
  mg["grid_levels"] = "4";
  const auto coarse = run(mg);
  EXPECT_EQ(coarse->problem().levels.size(), 4u);
  EXPECT_LT(coarse->face_crossings(), 0.8 * fine->face_crossings());
  EXPECT_LT(max_sigma_distance(*fine, *coarse), 4.0);
  mg["steps_per_level"] = "0";
  mg["level_fraction"] = "0.8";  // eq. (25) needs conservative fractions (section 4.3)
  mg["seed"] = "7";
  EXPECT_LT(max_sigma_distance(*fine, *run(mg)), 4.0);
}

TEST(RmcEstimator, SortingChangesTheOrderNotTheStatistics) {
  const std::map<std::string, std::string> base = {
      {"profile", "parab1"}, {"kappa", "1"}, {"nx", "16"}, {"ny", "4"}, {"nz", "4"}, {"rays_per_cell", "1000"}, {"rays_per_batch", "500"}};
  auto sorted = base;
  sorted["sorting"] = "true";
  EXPECT_LT(max_sigma_distance(*run(base), *run(sorted)), 4.0);
}

// Lag-1 correlation of the station errors of Q^R(x) against the exact slab solution.
double neighbour_error_correlation(const RmcMethod& m) {
  const std::vector<double> q = m.profile(m.mean()), ref = m.reference();
  double mean = 0.0;
  for (std::size_t i = 0; i < q.size(); ++i) mean += (q[i] - ref[i]) / double(q.size());
  double c0 = 0.0, c1 = 0.0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    const double e = q[i] - ref[i] - mean;
    c0 += e * e;
    if (i + 1 < q.size()) c1 += e * (q[i + 1] - ref[i + 1] - mean);
  }
  return c1 / c0;
}

TEST(RmcEstimator, RayPacketsShareTheRaysOfNeighboursNotTheStatistics) {
  // ray_packets: the 32 cells of a row (nx = 32) draw the same rays. Each cell's estimate keeps its
  // distribution (same result within the statistical error, standard errors of the same size); what
  // changes is that neighbours' errors become correlated.
  const std::map<std::string, std::string> base = {
      {"profile", "parab1"}, {"kappa", "1"}, {"nx", "32"}, {"ny", "2"}, {"nz", "2"}, {"rays_per_cell", "1000"}, {"rays_per_batch", "500"}};
  auto shared = base;
  shared["ray_packets"] = "true";
  const auto a = run(base), b = run(shared);
  EXPECT_LT(max_sigma_distance(*a, *b), 4.0);
  double sa = 0.0, sb = 0.0;
  for (double s : a->std_error()) sa += s;
  for (double s : b->std_error()) sb += s;
  EXPECT_NEAR(sb / sa, 1.0, 0.1);
  const double independent = neighbour_error_correlation(*a), packets = neighbour_error_correlation(*b);
  std::printf("[ measured ] lag-1 correlation of the station errors: independent rays %.2f, packets %.2f\n", independent, packets);
  EXPECT_LT(independent, 0.6);
  EXPECT_GT(packets, 0.8);
}

TEST(RmcEstimator, RestartContinuesBitForBit) {
  const auto params = method_params<RmcMethod>(
      {{"profile", "lin1"}, {"nx", "8"}, {"ny", "2"}, {"nz", "2"}, {"rays_per_cell", "600"}, {"rays_per_batch", "100"}});
  RmcMethod straight, first, second;
  straight.setup(params, cpu_context());
  first.setup(params, cpu_context());
  for (int i = 0; i < 6; ++i) straight.advance();
  for (int i = 0; i < 3; ++i) first.advance();
  std::stringstream state;
  first.save_state(state);
  second.setup(params, cpu_context());
  second.load_state(state);
  for (int i = 0; i < 3; ++i) second.advance();
  EXPECT_EQ(second.mean(), straight.mean());
  EXPECT_EQ(second.std_error(), straight.std_error());
}

TEST(RmcEstimator, MemoryEstimateGrowsWithTheCellsAndCoversTheSavedState) {
  auto params = [](int nx) {
    return method_params<RmcMethod>(
        {{"profile", "lin1"}, {"nx", std::to_string(nx)}, {"ny", "4"}, {"nz", "4"}, {"rays_per_cell", "200"}, {"rays_per_batch", "100"}});
  };
  RmcMethod m;
  const MemoryEstimate small = m.estimate_memory(params(32), cpu_context()), large = m.estimate_memory(params(64), cpu_context());
  // Every array is per cell or per cell of a grid level; doubling nx doubles both but for the rounding up of
  // the coarsest levels (588 level cells for 32 x 4 x 4, 1180 for 64 x 4 x 4): within 1 % of 2.
  EXPECT_NEAR(double(large.host_bytes) / double(small.host_bytes), 2.0, 0.02);
  EXPECT_EQ(small.device_bytes, 0u);
  EXPECT_NE(small.detail.find("nx x ny x nz = 32 x 4 x 4: 512 cells"), std::string::npos) << small.detail;
  // CUDA (nothing is allocated, so no GPU is needed): the device holds 7 doubles per cell and more.
  const MemoryEstimate gpu = m.estimate_memory(params(32), cuda_context());
  EXPECT_GE(gpu.device_bytes, 512u * 56u);
  EXPECT_GT(gpu.host_bytes, small.host_bytes);
  // The saved state is the running sums (2 doubles per cell, counted among the estimate's 11) and one entry per
  // batch in four history series (not counted: 4 x 8 B per batch, far below the other 9 doubles per cell).
  m.setup(params(32), cpu_context());
  m.advance();
  m.advance();
  std::stringstream state;
  m.save_state(state);
  EXPECT_GE(small.host_bytes, state.str().size());
}

TEST(RmcEstimator, CraftedStateIsRefusedAndLeavesTheMethodAsItWas) {
  const auto params = method_params<RmcMethod>(
      {{"profile", "lin1"}, {"nx", "8"}, {"ny", "2"}, {"nz", "2"}, {"rays_per_cell", "600"}, {"rays_per_batch", "100"}});
  RmcMethod m, straight;
  m.setup(params, cpu_context());
  straight.setup(params, cpu_context());
  for (int i = 0; i < 2; ++i) m.advance(), straight.advance();
  std::stringstream saved;
  m.save_state(saved);
  const std::string good = saved.str();
  // The layout of save_state: tag (4 + 13 + 4 B), iteration, rays, batch (4 B), steps, then the sums (count +
  // 32 doubles each) and the four histories (count + 2 entries each).
  const std::size_t kIteration = 21, kRays = 29, kSteps = 41, kSums = 49, kSums2 = kSums + 8 + 32 * 8, kHistory = kSums2 + 8 + 32 * 8;
  ASSERT_EQ(good.size(), kHistory + 4 * (8 + 2 * 8));
  auto patched = [&good](std::size_t at, auto value) { return ks::test_support::patched(good, at, value); };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::pair<std::string, const char*> crafted[] = {
      {patched(kRays, std::int64_t(-1)), "-1 rays per cell from 2 batches"},
      {patched(kIteration, std::int64_t(1000)), "200 rays per cell from 1000 batches"},
      {patched(kRays, std::int64_t(2000000000)), "2000000000 rays per cell"},
      {patched(kSteps, nan), "face crossings"},
      {patched(kSums, std::uint64_t(33)), "vector of 33 items"},
      {patched(kSums, std::uint64_t(1) << 60), "corrupt"},
      {patched(kSums + 8 + 3 * 8, nan), "sums of cell 3"},
      {patched(kSums2 + 8, -1.0), "sums of cell 0"},
      {patched(kHistory, std::uint64_t(3)), "vector of 3 items"},
      {patched(kHistory, std::uint64_t(1)), "a history of 1 entries for 2 batches"},
      {good.substr(0, good.size() - 4), "truncated"},
  };
  for (const auto& [state, word] : crafted) {
    std::istringstream in(state);
    test_support::expect_error([&] { m.load_state(in); }, ErrorKind::BadInput, {"checkpoint", word});
  }
  // Refused states changed nothing: the estimate goes on bit for bit with the one never checkpointed.
  EXPECT_EQ(m.rays_per_cell(), 200);
  EXPECT_EQ(m.progress().iteration, 2);
  m.advance(), straight.advance();
  EXPECT_EQ(m.mean(), straight.mean());
  EXPECT_EQ(m.snapshot().series.size(), straight.snapshot().series.size());
}

TEST(RmcEstimator, ConvergedStaysFalseWhenTheRayTargetEndsTheRun) {
  // radiation.rmc has no convergence tolerance: the ray count ends every run.
  const auto m = run({{"profile", "lin1"}, {"nx", "8"}, {"ny", "2"}, {"nz", "2"}, {"rays_per_cell", "200"}});
  EXPECT_TRUE(m->finished());
  EXPECT_EQ(m->progress().fraction_done, 1.0);
  EXPECT_FALSE(m->progress().converged);
}

TEST(RmcEstimator, LiveChangesExtendOrRestartTheEstimate) {
  RmcMethod m;
  m.setup(method_params<RmcMethod>({{"nx", "8"}, {"ny", "2"}, {"nz", "2"}, {"rays_per_cell", "200"}, {"rays_per_batch", "100"}}),
          cpu_context());
  while (!m.finished()) m.advance();
  EXPECT_EQ(m.rays_per_cell(), 200);
  m.set_live("rays_per_cell", std::int64_t(400));  // a larger target: the same estimate goes on
  EXPECT_FALSE(m.finished());
  m.advance();
  EXPECT_EQ(m.rays_per_cell(), 300);
  m.set_live("sorting", true);  // speed only: goes on
  EXPECT_EQ(m.rays_per_cell(), 300);
  m.set_live("grid_levels", std::int64_t(2));  // another estimator: starts again
  EXPECT_EQ(m.rays_per_cell(), 0);
  EXPECT_THROW(m.set_live("nx", std::int64_t(16)), Error);
}

TEST(RmcEstimator, MissingSpectralTableNamesTheFile) {
  setenv("KS_RESOURCE_DIR", "/nonexistent", 1);
  RmcMethod m;
  test_support::expect_error(
      [&] {
        m.setup(method_params<RmcMethod>({{"gas", "H2O"}}), cpu_context());
      },
      ErrorKind::BadInput, {"/nonexistent/radiation/nbck_h2o.json"});
  unsetenv("KS_RESOURCE_DIR");
}

}  // namespace
}  // namespace ks::rmc
