// Selection of the event's pair by acceptance-rejection (selection = "rejection"): the sampler,
// its bounds, and that runs with it keep the inverse transform's statistics (the exact solutions of
// the constant and additive kernels are checked with every selection in coagulation_validation_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "coagulation_test_support.hpp"
#include "core/errors.hpp"
#include "expect_error.hpp"
#include "methods/coagulation/coag_cpu.hpp"
#include "methods/coagulation/coag_rejection.hpp"

namespace ks::coag {
namespace {

using testing::free_molecular_config;
using testing::make_ensemble;
using testing::run_to_end;

constexpr double kNever = 1e300;

TEST(PairRejection, FrequenciesFollowTheValues) {
  const double values[] = {1.0, 0.0, 2.0, 3.0, 4.0};
  const PhiloxStream rng{11, 0};
  std::uint32_t high = 0;
  for (double v : values) high = std::max(high, rate_high_word(v));
  constexpr int kDraws = 200000;
  int counts[5] = {};
  for (int e = 0; e < kDraws; ++e)
    ++counts[select_by_rejection(rng, e, kPurposeFirstPick, 5, rate_bound(high), [&](int k) { return values[k]; })];
  EXPECT_EQ(counts[1], 0);  // a zero rate is never accepted
  for (int i = 0; i < 5; ++i) {
    const double p = values[i] / 10.0;
    const double sd = std::sqrt(kDraws * p * (1 - p));  // binomial
    EXPECT_NEAR(counts[i], kDraws * p, 4.0 * sd + 1e-9) << "particle " << i;
  }
}

TEST(PairRejection, RateBoundLiesJustAboveTheLargestRate) {
  for (double c : {1e-30, 3.7e-12, 1.0, 2.0, 6.02e23}) {
    const double b = rate_bound(rate_high_word(c));
    EXPECT_GT(b, c);
    EXPECT_LT(b, c * (1.0 + std::ldexp(1.0, -19)));  // the low 32 of 52 mantissa bits rounded up
  }
  EXPECT_EQ(rate_high_word(-1e-20), 0u);  // a negative round-off rate never raises the bound
}

// Row values beta_ik pair_weight(w_i, w_k) never exceed row_bound for a wide population with
// weights over three decades, for every kernel the bound supports; at some i it is nearly reached.
TEST(PairRejection, RowBoundHoldsForEveryParticle) {
  EnsembleConfig cfg = free_molecular_config(400, 1600);
  Ensemble e = make_ensemble(cfg, 1, 2.5);
  const PhiloxStream rng{5, 0};
  for (int k = 0; k < cfg.n_s; ++k) e.w[k] = std::ldexp(1.0, -int(rng.draw(k).v[0] % 10));
  for (KernelKind kind : {KernelKind::FreeMolecular, KernelKind::Constant, KernelKind::Additive, KernelKind::Continuum}) {
    KernelParams kp = cfg.kernel;
    kp.kind = kind;
    kp.K = 1e-15;
    kp.B = 1e10;
    kp.kT = 1.380649e-23 * 300.0;
    kp.mu = 1.81e-5;
    ASSERT_TRUE(rejection_supported(kind));
    std::vector<ParticleAux> aux(cfg.n_s);
    for (int k = 0; k < cfg.n_s; ++k) aux[k] = make_aux(e.v[k], kp);
    const PairBounds b = pair_bounds(aux.data(), e.w.data(), cfg.n_s);
    double closest = 0.0;
    for (int i = 0; i < cfg.n_s; ++i) {
      const double bound = row_bound(aux[i], e.w[i], b, kp);
      double largest = 0.0;
      for (int k = 0; k < cfg.n_s; ++k)
        if (k != i) largest = std::max(largest, beta(aux[i], aux[k], kp) * pair_weight(e.w[i], e.w[k]));
      ASSERT_LE(largest, bound) << "kernel " << int(kind) << ", particle " << i;
      closest = std::max(closest, largest / bound);
    }
    EXPECT_GT(closest, 0.9) << "kernel " << int(kind);
  }
  EXPECT_FALSE(rejection_supported(KernelKind::Fuchs));
}

TEST(PairRejection, SmartBookkeepingMatchesFullRecompute) {
  EnsembleConfig cfg = free_molecular_config(400, 1 << 30);  // no refresh: pure eq. (6) updates
  cfg.selection = Selection::Rejection;
  Ensemble e = make_ensemble(cfg, 1, 1.5);
  const double volume = [&] {
    double s = 0;
    for (int k = 0; k < cfg.n_s; ++k) s += e.w[k] * e.v[k];
    return s;
  }();
  EXPECT_EQ(advance_run_cpu(e, 0, cfg, kNever, 2000), 2000u);
  Ensemble full = e;
  recompute_rates(full, 0, cfg);
  for (int k = 0; k < cfg.n_s; ++k) EXPECT_NEAR(e.C[k] / full.C[k], 1.0, 1e-11) << "particle " << k;
  double after = 0;
  for (int k = 0; k < cfg.n_s; ++k) after += e.w[k] * e.v[k];
  EXPECT_NEAR(after / volume, 1.0, 1e-12);
}

// Free molecular: the inverse transform's d_g and sigma_g (coagulation_test_support.hpp).
TEST(PairRejection, FreeMolecularStatisticsMatchTheInverseTransform) {
  testing::expect_statistics_of_the_inverse_transform({{"selection", std::string("rejection")}});
}

// A non-finite rate (here +inf: its bound is NaN) would make rejection loop for ever; the run
// fails instead, saying why.
TEST(PairRejection, NonFiniteRatesFailTheRunInsteadOfHanging) {
  EnsembleConfig cfg = free_molecular_config(64, 1 << 30);
  cfg.selection = Selection::Rejection;
  Ensemble e = make_ensemble(cfg, 1, 1.5);
  e.C[5] = INFINITY;
  test_support::expect_error([&] { advance_run_cpu(e, 0, cfg, kNever, 1); }, ErrorKind::RunFailed, {"not finite"});
}

TEST(PairRejection, FuchsKernelIsRefusedNamingTheSelection) {
  test_support::expect_error(
      [] {
        run_to_end({{"kernel", std::string("fuchs")}, {"selection", std::string("rejection")}});
      },
      ErrorKind::BadInput, {"selection", "fuchs"});
}

}  // namespace
}  // namespace ks::coag
