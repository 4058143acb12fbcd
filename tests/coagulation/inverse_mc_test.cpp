// Unit checks of the inverse Monte Carlo event loop (Wei & Kruis 2013, section 2).
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <numeric>

#include "coagulation_test_support.hpp"
#include "methods/coagulation/coag_ensemble.hpp"
#include "methods/coagulation/coag_cpu.hpp"
#include "methods/coagulation/coag_rates_cpu.hpp"
#include "methods/coagulation/coag_units.hpp"

namespace ks::coag {
namespace {

using testing::free_molecular_config;
using testing::kD0;
using testing::make_ensemble;

constexpr double kNever = 1e300;  // a target time no run reaches

double total_volume(const Ensemble& e) {
  double s = 0.0;
  for (std::size_t k = 0; k < e.v.size(); ++k) s += e.w[k] * e.v[k];
  return s;
}

TEST(Coalesce, ConservesVolumeInEveryBranch) {
  struct Case {
    double vi, wi, vj, wj;
  };
  for (const Case c : {Case{1.0, 4.0, 3.0, 1.0}, Case{2.0, 0.5, 5.0, 2.0}, Case{1.0, 2.0, 7.0, 2.0}}) {
    double vi = c.vi, wi = c.wi, vj = c.vj, wj = c.wj;
    coalesce(vi, wi, vj, wj);
    EXPECT_DOUBLE_EQ(vi * wi + vj * wj, c.vi * c.wi + c.vj * c.wj);
    // One event stands for min(w_i, w_j) real coagulations: the real number drops by that much.
    EXPECT_DOUBLE_EQ(wi + wj, c.wi + c.wj - std::min(c.wi, c.wj));
    EXPECT_GT(wi, 0.0);
    EXPECT_GT(wj, 0.0);
  }
}

TEST(Selection, PicksTheIntervalHoldingTheTarget) {
  const double values[] = {1.0, 0.0, 2.0, 3.0};
  EXPECT_EQ(select_by_cumulative(values, 4, 0.0), 0);
  EXPECT_EQ(select_by_cumulative(values, 4, 0.999), 0);
  EXPECT_EQ(select_by_cumulative(values, 4, 1.0), 2);  // the zero-rate particle is never picked
  EXPECT_EQ(select_by_cumulative(values, 4, 2.999), 2);
  EXPECT_EQ(select_by_cumulative(values, 4, 3.0), 3);
  EXPECT_EQ(select_by_cumulative(values, 4, 6.0), 3);  // rounding at the total: the last positive one
}

TEST(Selection, FrequenciesFollowTheRates) {
  const double values[] = {1.0, 2.0, 3.0, 4.0};
  const PhiloxStream rng{11, 0};
  constexpr int kDraws = 200000;
  int counts[4] = {};
  for (int k = 0; k < kDraws; ++k) {
    double u0, u1;
    rng.uniform2(k, 0, u0, u1);
    ++counts[select_by_cumulative(values, 4, u0 * 10.0)];
  }
  for (int i = 0; i < 4; ++i) {
    const double p = values[i] / 10.0;
    const double sd = std::sqrt(kDraws * p * (1 - p));  // binomial
    EXPECT_NEAR(counts[i], kDraws * p, 4.0 * sd) << "particle " << i;
  }
}

TEST(InverseMC, EveryEventConservesTotalVolume) {
  const EnsembleConfig cfg = free_molecular_config(300, 1200);
  Ensemble e = make_ensemble(cfg, 1, 1.6);
  const double before = total_volume(e);
  const std::uint64_t events = advance_run_cpu(e, 0, cfg, kNever, 3000);
  EXPECT_EQ(events, 3000u);
  // Each event adds v_i + v_j once and moves weights exactly: only round-off of the sums remains.
  EXPECT_NEAR(total_volume(e) / before, 1.0, 1e-12);
  for (double w : e.w) EXPECT_GT(w, 0.0);
}

TEST(InverseMC, SmartBookkeepingMatchesFullRecompute) {
  const EnsembleConfig cfg = free_molecular_config(400, 1 << 30);  // no refresh: pure eq. (6) updates
  Ensemble e = make_ensemble(cfg, 1, 1.5);
  advance_run_cpu(e, 0, cfg, kNever, 2000);
  Ensemble full = e;
  recompute_rates(full, 0, cfg);
  // 2000 incremental updates of sums of positive terms: drift of order sqrt(2000) * 1e-16 relative.
  for (int k = 0; k < cfg.n_s; ++k) EXPECT_NEAR(e.C[k] / full.C[k], 1.0, 1e-11) << "particle " << k;
}

TEST(InverseMC, TheResultDoesNotDependOnTheThreadCount) {
  const EnsembleConfig cfg = free_molecular_config(5000, 20000);  // above the inner-parallel threshold
  Ensemble one = make_ensemble(cfg, 1, 1.3), many = one;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  advance_run_cpu(one, 0, cfg, kNever, 300);
  omp_set_num_threads(std::max(2, threads));
  advance_run_cpu(many, 0, cfg, kNever, 300);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.v, many.v);
  EXPECT_EQ(one.w, many.w);
  EXPECT_EQ(one.t, many.t);
}

TEST(InverseMC, WaitingTimeIsTheInverseTotalEventRate) {
  // Monodisperse, weight 1: n_s (n_s - 1) / 2 pairs, each at rate beta / V (eq. 4 with eq. 2-3).
  const EnsembleConfig cfg = free_molecular_config(100, 400);
  Ensemble e = make_ensemble(cfg, 1, 1.0);
  const double sum = std::accumulate(e.C.begin(), e.C.end(), 0.0);
  const ParticleAux a = make_aux(volume_of_diameter(kD0), cfg.kernel);
  const double rate = 0.5 * cfg.n_s * (cfg.n_s - 1) * beta(a, a, cfg.kernel) / cfg.box_volume;
  EXPECT_NEAR(waiting_time(sum, cfg.box_volume) * rate, 1.0, 1e-12);
}

}  // namespace
}  // namespace ks::coag
