// Selection against a majorant kernel (selection = "majorant", coag_majorant.hpp): the bound, the
// samplers' bookkeeping, the pair distribution and waiting time of an event, and that runs with it keep
// the inverse transform's statistics (the constant and additive kernels' exact solutions are checked
// with every selection in coagulation_validation_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "coagulation_test_support.hpp"
#include "core/errors.hpp"
#include "expect_error.hpp"
#include "methods/coagulation/coag_cpu.hpp"
#include "methods/coagulation/coag_majorant_cpu.hpp"

namespace ks::coag {
namespace {

using testing::aux_of;
using testing::free_molecular_config;
using testing::make_ensemble;
using testing::run_to_end;
using testing::spread_particles;

constexpr double kNever = 1e300;

EnsembleConfig with_kernel(EnsembleConfig cfg, KernelKind kind) {
  cfg.kernel.kind = kind;
  cfg.kernel.K = 3e-16;
  cfg.kernel.B = 1e8;
  cfg.kernel.kT = 1.380649e-23 * 300.0;
  cfg.kernel.mu = 1.8e-5;
  cfg.selection = Selection::Majorant;
  return cfg;
}

// B(i, j) + B(j, i) >= q_ij = beta_ij max(w_i, w_j) for every pair and every supported kernel, and
// not so loose that trials are mostly wasted.
TEST(Majorant, BoundsEveryPairRate) {
  for (KernelKind kind : {KernelKind::FreeMolecular, KernelKind::Constant, KernelKind::Additive, KernelKind::Continuum}) {
    SCOPED_TRACE("kernel " + std::to_string(int(kind)));
    const EnsembleConfig cfg = with_kernel(free_molecular_config(200, 1 << 30), kind);
    const Ensemble e = spread_particles(cfg);
    const std::vector<ParticleAux> aux = aux_of(e, cfg);
    const Majorant m = majorant_of(cfg.kernel);
    HostSamplers h;
    rebuild_samplers(h, m, aux.data(), e.w.data(), cfg.n_s);
    const SamplerSet set = h.view(cfg.n_s);
    double sum_q = 0.0, sum_bound = 0.0;
    for (int i = 0; i < cfg.n_s; ++i)
      for (int j = 0; j < cfg.n_s; ++j) {
        if (i == j) continue;
        const double q = beta(aux[i], aux[j], cfg.kernel) * std::max(e.w[i], e.w[j]);
        const double bound = pair_majorant(m, set, aux[i], e.w[i], aux[j], e.w[j]);
        ASSERT_LE(q, bound) << "pair " << i << ", " << j;
        sum_q += q;
        sum_bound += bound;
      }
    EXPECT_GT(sum_q / sum_bound, 0.05);
  }
}

// After thousands of events' moves, every sampler is still a partition of the particles by their
// current class (order a permutation, slot its inverse) and its tree of class bounds is exact.
TEST(Majorant, SamplersStayConsistentThroughEvents) {
  const EnsembleConfig cfg = with_kernel(free_molecular_config(300, 1 << 30), KernelKind::FreeMolecular);
  Ensemble e = spread_particles(cfg);
  std::vector<ParticleAux> aux = aux_of(e, cfg);
  const Majorant m = majorant_of(cfg.kernel);
  HostSamplers h;
  rebuild_samplers(h, m, aux.data(), e.w.data(), cfg.n_s);
  const SamplerSet set = h.view(cfg.n_s);
  const PhiloxStream rng{9, 0};
  int moved = 0;
  for (int ev = 0; ev < 3000; ++ev) {
    double u0, u1;
    rng.uniform2(ev, 0, u0, u1);
    const int i = int(u0 * cfg.n_s), j = (i + 1 + int(u1 * (cfg.n_s - 1))) % cfg.n_s;
    ChangedParticle p[2] = {{i, aux[i], e.w[i], {}, 0.0}, {j, aux[j], e.w[j], {}, 0.0}};
    coalesce(e.v[i], e.w[i], e.v[j], e.w[j]);
    aux[i] = make_aux(e.v[i], cfg.kernel);
    aux[j] = make_aux(e.v[j], cfg.kernel);
    p[0].new_aux = aux[i], p[0].new_w = e.w[i];
    p[1].new_aux = aux[j], p[1].new_w = e.w[j];
    if (update_samplers(set, m, p)) {
      ++moved;
    } else {
      rebuild_samplers(h, m, aux.data(), e.w.data(), cfg.n_s);
    }
  }
  EXPECT_GT(moved, 2000);
  for (int s = 0; s < m.n_samplers; ++s) {
    const int* order = h.order.data() + s * cfg.n_s;
    const int* slot = h.slot.data() + s * cfg.n_s;
    const int* start = h.start.data() + s * (kClasses + 1);
    ASSERT_EQ(start[0], 0);
    ASSERT_EQ(start[kClasses], cfg.n_s);
    for (int c = 0; c < kClasses; ++c)
      for (int at = start[c]; at < start[c + 1]; ++at) {
        const int k = order[at];
        ASSERT_EQ(slot[k], at);
        ASSERT_EQ(set.class_of(s, m.spec[s], Powers(aux[k]), e.w[k]), c) << "sampler " << s << ", particle " << k;
      }
  }
  // The trees updated event by event hold the exact sums a tree built from the final counts holds.
  HostSamplers fresh = h;
  for (int s = 0; s < m.n_samplers; ++s) fresh.view(cfg.n_s).build_tree(s);
  EXPECT_EQ(h.tree, fresh.tree);
}

// One event from a fixed state, drawn 200000 times with other random numbers: the unordered pair
// {i, j} comes with probability q_ij / sum q (4 binomial standard deviations), and the event's mean
// time is eq. (4)'s 2 V / sum C'.
TEST(Majorant, PairsFollowTheRatesAndTheMeanWaitingTimeIsEq4) {
  EnsembleConfig cfg = with_kernel(free_molecular_config(6, 1 << 30), KernelKind::FreeMolecular);
  const Ensemble start = [&] {
    Ensemble e = spread_particles(cfg);
    recompute_rates(e, 0, cfg);
    return e;
  }();
  const std::vector<ParticleAux> aux = aux_of(start, cfg);
  std::map<std::pair<int, int>, int> counts;
  double sum_q = 0.0;
  for (int i = 0; i < cfg.n_s; ++i)
    for (int j = i + 1; j < cfg.n_s; ++j) sum_q += beta(aux[i], aux[j], cfg.kernel) * std::max(start.w[i], start.w[j]);
  constexpr int kDraws = 200000;
  double time = 0.0;
  for (int d = 0; d < kDraws; ++d) {
    Ensemble e = start;
    e.events[0] = d;
    ASSERT_EQ(advance_run_cpu(e, 0, cfg, kNever, 1), 1u);
    time += e.t[0];
    std::vector<int> changed;
    for (int k = 0; k < cfg.n_s; ++k)
      if (e.v[k] != start.v[k] || e.w[k] != start.w[k]) changed.push_back(k);
    ASSERT_EQ(changed.size(), 2u);
    ++counts[std::make_pair(changed[0], changed[1])];
  }
  for (int i = 0; i < cfg.n_s; ++i)
    for (int j = i + 1; j < cfg.n_s; ++j) {
      const double p = beta(aux[i], aux[j], cfg.kernel) * std::max(start.w[i], start.w[j]) / sum_q;
      const int seen = counts[std::make_pair(i, j)];
      EXPECT_NEAR(seen, kDraws * p, 4.0 * std::sqrt(kDraws * p * (1 - p)) + 1e-9) << "pair " << i << ", " << j;
    }
  const double sum_C = std::accumulate(start.C.begin(), start.C.end(), 0.0);
  // A trial's time is fixed, the number of trials geometric: the mean within 4 of its standard errors.
  EXPECT_NEAR(time / kDraws / waiting_time(sum_C, cfg.box_volume), 1.0, 0.01);
}

// Free molecular: the inverse transform's d_g and sigma_g (coagulation_test_support.hpp).
TEST(Majorant, FreeMolecularStatisticsMatchTheInverseTransform) {
  testing::expect_statistics_of_the_inverse_transform({{"selection", std::string("majorant")}});
}

// Rebuilds (every refresh_every events, and at a value above a window) keep volume and the
// statistics: a run with a rebuild every 50 events conserves total volume to round-off.
TEST(Majorant, FrequentRebuildsConserveVolume) {
  EnsembleConfig cfg = with_kernel(free_molecular_config(400, 50), KernelKind::FreeMolecular);
  Ensemble e = make_ensemble(cfg, 1, 1.5);
  auto volume = [&] {
    double s = 0.0;
    for (int k = 0; k < cfg.n_s; ++k) s += e.w[k] * e.v[k];
    return s;
  };
  const double before = volume();
  EXPECT_EQ(advance_run_cpu(e, 0, cfg, kNever, 5000), 5000u);
  EXPECT_NEAR(volume() / before, 1.0, 1e-12);
  EXPECT_LT(e.since_refresh[0], 50u);
}

// A non-finite volume makes every trial's acceptance NaN: the run fails, saying why, instead of hanging.
TEST(Majorant, NonFiniteParticlesFailTheRunInsteadOfHanging) {
  EnsembleConfig cfg = with_kernel(free_molecular_config(64, 1 << 30), KernelKind::FreeMolecular);
  Ensemble e = make_ensemble(cfg, 1, 1.5);
  for (double& v : e.v) v = NAN;
  test_support::expect_error([&] { advance_run_cpu(e, 0, cfg, kNever, 1); }, ErrorKind::RunFailed, {"majorant", "not finite"});
}

TEST(Majorant, FuchsKernelIsRefusedNamingTheSelection) {
  test_support::expect_error(
      [] {
        run_to_end({{"kernel", std::string("fuchs")}, {"selection", std::string("majorant")}});
      },
      ErrorKind::BadInput, {"selection", "majorant", "fuchs"});
}

}  // namespace
}  // namespace ks::coag
