// radiation.rmc: the CUDA tracer against the CPU tracer. Both draw the same rays (Philox keyed by
// seed and cell), so the double-precision path agrees to round-off; the texture path reads float
// tables with 9-bit hardware interpolation and agrees within the statistical error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "display_field_check.hpp"
#include "require_cuda.hpp"
#include "rmc_test_support.hpp"

namespace ks::rmc {
namespace {

using test::max_sigma_distance;
using test::rms_over_peak;
using test::run;
using test_support::cuda_context;

const std::map<std::string, std::string> kSlab = {
    {"profile", "parab1"},    {"kappa", "2"},           {"nx", "16"}, {"ny", "4"}, {"nz", "4"}, {"emissivity_x0", "0.5"},
    {"rays_per_cell", "600"}, {"rays_per_batch", "200"}};

double largest_difference_over_peak(const RmcMethod& a, const RmcMethod& b) {
  const auto qa = a.mean(), qb = b.mean();
  double worst = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < qa.size(); ++i) {
    worst = std::max(worst, std::fabs(qa[i] - qb[i]));
    peak = std::max(peak, std::fabs(qa[i]));
  }
  return worst / peak;
}

// The convergence series the CUDA path reduces on the device (its sums stay there) against the CPU's
// from the host's sums: the largest difference over the series' largest value.
double series_difference(const RmcMethod& a, const RmcMethod& b, const std::string& name) {
  auto find = [&](const Snapshot& s) {
    for (const Series& x : s.series)
      if (x.name == name) return x;
    return Series{};
  };
  const Series sa = find(a.snapshot()), sb = find(b.snapshot());
  EXPECT_EQ(sa.x, sb.x) << name;
  EXPECT_FALSE(sa.y.empty()) << name;
  double worst = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < sa.y.size() && i < sb.y.size(); ++i) {
    worst = std::max(worst, std::fabs(sa.y[i] - sb.y[i]));
    peak = std::max(peak, std::fabs(sa.y[i]));
  }
  return worst / peak;
}

TEST(RmcCuda, DoublePathMatchesTheCpuToRoundOff) {
  KS_REQUIRE_CUDA();
  for (const auto& extra :
       std::vector<std::map<std::string, std::string>>{{},
                                                       {{"grid_levels", "3"}, {"sorting", "true"}},
                                                       {{"reflection", "specular"}, {"seed", "5"}},
                                                       {{"grid_levels", "3"}, {"sorting", "true"}, {"ray_packets", "true"}}}) {
    auto p = kSlab;
    p.insert(extra.begin(), extra.end());
    const auto cpu = run(p), gpu = run(p, cuda_context());
    const double d = largest_difference_over_peak(*cpu, *gpu);
    std::printf("[ measured ] CPU vs CUDA (double tables), %zu extra settings: largest difference / peak %.2e\n", extra.size(), d);
    EXPECT_LT(d, 1e-9);
    for (const char* series : {"change per batch", "mean std(Q^R)"}) EXPECT_LT(series_difference(*cpu, *gpu, series), 1e-9) << series;
  }
}

// The CUDA solver traces the next batch while one ends (issue 49); what it traced ahead counts only
// for the batch asked next. Snapshots, a live change and a batch size that shrinks at the end come
// between the batches here: the sums and series stay the CPU's to round-off.
TEST(RmcCuda, BatchesTracedAheadGiveTheCpusSumsWhateverComesBetween) {
  KS_REQUIRE_CUDA();
  auto p = kSlab;
  p["rays_per_cell"] = "1100";  // 200-ray batches, the last one of 100
  p["grid_levels"] = "3", p["sorting"] = "true";
  auto stepped = [&](const ExecutionContext& ctx) {
    auto m = std::make_unique<RmcMethod>();
    m->setup(test_support::method_params<RmcMethod>(p), ctx);
    m->advance();
    (void)m->snapshot();  // the sums to the host while the next batch may be tracing
    m->advance();
    m->set_live("sorting", false);  // speed only: the estimate goes on, the tables are loaded again
    m->advance();
    m->set_live("sorting", true);
    while (!m->finished()) m->advance();
    return m;
  };
  const auto cpu = stepped(test_support::cpu_context()), gpu = stepped(cuda_context());
  EXPECT_EQ(gpu->progress().sim_time, 1100.0);
  EXPECT_LT(largest_difference_over_peak(*cpu, *gpu), 1e-9);
  for (const char* series : {"change per batch", "mean std(Q^R)"}) EXPECT_LT(series_difference(*cpu, *gpu, series), 1e-9) << series;
}

// One process keeps the sums on the device and adds each batch's series there, a sum per block; the
// host adds the blocks in order, so two runs give the same series bit for bit (with atomic adds of
// the blocks they differed in the last bits from run to run). 32^3 cells: 128 blocks.
TEST(RmcCuda, TwoRunsGiveTheSameSeriesBitForBit) {
  KS_REQUIRE_CUDA();
  auto p = kSlab;
  p["nx"] = p["ny"] = p["nz"] = "32";
  p["rays_per_cell"] = "60", p["rays_per_batch"] = "20";
  const auto a = run(p, cuda_context()), b = run(p, cuda_context());
  for (const char* series : {"change per batch", "mean std(Q^R)"}) EXPECT_EQ(series_difference(*a, *b, series), 0.0) << series;
}

TEST(RmcCuda, BoxWithTexturesSortingAndMultigridAgreesStatistically) {
  KS_REQUIRE_CUDA();
  std::map<std::string, std::string> p = {
      {"profile", "sin"}, {"kappa", "5"}, {"nx", "20"}, {"ny", "20"}, {"nz", "20"}, {"rays_per_cell", "2000"}, {"rays_per_batch", "1000"}};
  const auto cpu = run(p);
  p["texture"] = "true";
  const auto tex = run(p, cuda_context());
  EXPECT_LT(rms_over_peak(tex->profile(tex->mean()), tex->reference()), 0.02);
  EXPECT_LT(max_sigma_distance(*cpu, *tex), 4.5);
  p["sorting"] = "true", p["grid_levels"] = "3", p["steps_per_level"] = "10", p["single_precision"] = "true", p["seed"] = "3";
  const auto all = run(p, cuda_context());
  EXPECT_LT(rms_over_peak(all->profile(all->mean()), all->reference()), 0.02);
}

TEST(RmcCuda, TexturePathAgreesWithTheCpuWithinTheStatisticalError) {
  KS_REQUIRE_CUDA();
  auto p = kSlab;
  p["rays_per_cell"] = "4000", p["rays_per_batch"] = "2000";
  const auto cpu = run(p);
  p["texture"] = "true";
  const auto gpu = run(p, cuda_context());
  const double d = max_sigma_distance(*cpu, *gpu);
  std::printf("[ measured ] CPU vs CUDA (float textures): largest station difference %.2e sigma\n", d);
  EXPECT_LT(d, 4.0);
  p["single_precision"] = "true";
  const auto single = run(p, cuda_context());
  const double ds = max_sigma_distance(*cpu, *single);
  std::printf("[ measured ] CPU vs CUDA (float textures, float marching): largest station difference %.2e sigma\n", ds);
  EXPECT_LT(ds, 4.0);
}

// The zero-copy view's images (Method::write_display_field): Q^R and its standard error from the
// device copy of the running sums, T and kappa_P from the device copies of the set-up's, equal the
// snapshot's fields, also after a checkpoint load (which replaces the sums) and the next batch.
#ifdef KS_HAVE_CUDA
TEST(RmcCudaDisplay, DeviceFieldsEqualTheSnapshotAcrossACheckpoint) {
  KS_REQUIRE_CUDA();
  const ParamSet p = test_support::method_params<RmcMethod>(kSlab);
  RmcMethod m;
  m.setup(p, cuda_context());
  m.advance();
  m.advance();
  const Snapshot snap = m.snapshot();
  // Q_R_std: sum2 / n - m^2 may contract differently on the device.
  const auto tolerance = [](const std::string& name) { return name == "Q_R_std[-1]" ? 1e-6 : 2e-7; };
  const auto differences = test_support::display_differences(m, snap);
  EXPECT_EQ(differences.size(), 4u) << "T, Q_R, Q_R_std, kappa_P";
  for (const auto& [name, difference] : differences) EXPECT_LT(difference, tolerance(name)) << name;
  std::stringstream state;
  m.save_state(state);
  RmcMethod restarted;
  restarted.setup(p, cuda_context());
  restarted.load_state(state);
  restarted.advance();
  const Snapshot after = restarted.snapshot();
  for (const auto& [name, difference] : test_support::display_differences(restarted, after))
    EXPECT_LT(difference, tolerance(name)) << name << " after the load";
}
#else
TEST(RmcCudaDisplay, DeviceFieldsEqualTheSnapshotAcrossACheckpoint) { GTEST_SKIP() << "built without CUDA"; }
#endif

}  // namespace
}  // namespace ks::rmc
