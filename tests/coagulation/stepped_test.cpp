// Majorant trials in parallel steps (selection = "stepped", coag_stepped.hpp): the trees' draws and
// updates, a step's stop, and that runs keep the inverse transform's statistics (the constant and
// additive kernels' exact solutions are checked with every selection in coagulation_validation_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "coagulation_test_support.hpp"
#include "core/errors.hpp"
#include "expect_error.hpp"
#include "methods/coagulation/coag_cpu.hpp"
#include "methods/coagulation/coag_stepped_cpu.hpp"

namespace ks::coag {
namespace {

using testing::aux_of;
using testing::free_molecular_config;
using testing::make_ensemble;
using testing::run_to_end;
using testing::spread_particles;

constexpr double kNever = 1e300;

EnsembleConfig stepped(EnsembleConfig cfg, int K, KernelKind kind = KernelKind::FreeMolecular) {
  cfg.selection = Selection::Stepped;
  cfg.step_trials = K;
  cfg.kernel.kind = kind;
  cfg.kernel.K = 3e-16;
  cfg.kernel.B = 1e8;
  return cfg;
}

// A descent of a tree finds the particle whose interval of the cumulative class bounds holds the
// target, as a search of the cumulative sums does, for every sampler; each particle's entry is its
// class bound in units, and the totals add them up.
TEST(Stepped, TreesDrawTheParticleWhoseIntervalHoldsTheTarget) {
  const EnsembleConfig cfg = stepped(free_molecular_config(1237, 1 << 30), 8);  // not a power of two
  const Ensemble e = spread_particles(cfg);
  const std::vector<ParticleAux> aux = aux_of(e, cfg);
  const Majorant m = majorant_of(cfg.kernel);
  HostTrees h;
  rebuild_trees(h, m, aux.data(), e.w.data(), cfg.n_s);
  const ParticleTrees trees = h.view(cfg.n_s);
  const PhiloxStream rng{9, 2};
  for (int s = 0; s < m.n_samplers; ++s) {
    std::vector<std::uint64_t> cumulative(cfg.n_s);
    std::uint64_t sum = 0;
    for (int k = 0; k < cfg.n_s; ++k) {
      std::uint64_t units[kMaxSamplers];
      ASSERT_TRUE(particle_units(m, trees, aux[k], e.w[k], units));
      // The entry bounds the value within a class (a factor 2^(1/4)).
      const double value = sampler_value(m.spec[s], aux[k], e.w[k]);
      const double bound = std::ldexp(double(units[s]), unit_exponent(h.base[s]));
      ASSERT_GE(bound, value);
      if (units[s] != class_units(h.base[s], 0)) {  // class 0 also holds the values below the window
        ASSERT_LE(bound, value * 1.25);
      }
      cumulative[k] = sum += units[s];
    }
    ASSERT_EQ(h.total[s], sum);
    for (int q = 0; q < 4000; ++q) {
      const PhiloxCounter r = rng.draw(std::uint64_t(s), 0, std::uint32_t(q));
      const std::uint64_t target = mul_high(std::uint64_t(r.v[0]) << 32 | r.v[1], sum);
      const int expected = int(std::upper_bound(cumulative.begin(), cumulative.end(), target) - cumulative.begin());
      ASSERT_EQ(trees.draw(s, target), expected) << "sampler " << s << ", target " << target;
    }
  }
}

// Changing particles' entries with add() (negative changes wrap) leaves the trees a rebuild from the
// changed particles gives.
TEST(Stepped, AddedChangesGiveTheRebuiltTrees) {
  const EnsembleConfig cfg = stepped(free_molecular_config(500, 1 << 30), 8);
  Ensemble e = spread_particles(cfg);
  std::vector<ParticleAux> aux = aux_of(e, cfg);
  const Majorant m = majorant_of(cfg.kernel);
  HostTrees h;
  rebuild_trees(h, m, aux.data(), e.w.data(), cfg.n_s);
  const ParticleTrees trees = h.view(cfg.n_s);
  const auto add = [](std::uint64_t& to, std::uint64_t delta) { to += delta; };
  for (int k = 0; k < cfg.n_s / 2; k += 7) {  // particles k and n - 1 - k swap: the largest values stay
    const int other = cfg.n_s - 1 - k;
    std::uint64_t before[2][kMaxSamplers], after[2][kMaxSamplers];
    particle_units(m, trees, aux[k], e.w[k], before[0]);
    particle_units(m, trees, aux[other], e.w[other], before[1]);
    std::swap(aux[k], aux[other]);
    std::swap(e.w[k], e.w[other]);
    particle_units(m, trees, aux[k], e.w[k], after[0]);
    particle_units(m, trees, aux[other], e.w[other], after[1]);
    for (int s = 0; s < m.n_samplers; ++s) {
      trees.add(s, k, after[0][s] - before[0][s], add);
      trees.add(s, other, after[1][s] - before[1][s], add);
      h.total[s] += after[0][s] - before[0][s] + after[1][s] - before[1][s];
    }
  }
  HostTrees rebuilt;
  rebuild_trees(rebuilt, m, aux.data(), e.w.data(), cfg.n_s);
  ASSERT_EQ(rebuilt.base, h.base);  // the largest values did not change
  EXPECT_EQ(rebuilt.tree, h.tree);
  EXPECT_EQ(rebuilt.total, h.total);
}

// With K = n_s / 4 many trials of a step touch a particle an earlier accepted trial coalesced, so steps
// stop often: the run still conserves total volume through its stops and its rebuilds (the additive
// kernel's volumes leave their windows), and stops within K events of max_events.
TEST(Stepped, LargeStepsConserveVolumeThroughStopsAndRebuilds) {
  for (const KernelKind kind : {KernelKind::FreeMolecular, KernelKind::Additive}) {  // additive: values leave windows
    const EnsembleConfig cfg = stepped(free_molecular_config(400, 1 << 30), 100, kind);
    Ensemble e = make_ensemble(cfg, 1, 1.5);
    auto volume = [&] {
      double s = 0.0;
      for (int k = 0; k < cfg.n_s; ++k) s += e.w[k] * e.v[k];
      return s;
    };
    const double before = volume();
    const std::uint64_t done = advance_run_cpu(e, 0, cfg, kNever, 3000);
    EXPECT_GE(done, 3000u);
    EXPECT_LT(done, 3000u + 100u);
    EXPECT_EQ(e.events[0], done);
    EXPECT_NEAR(volume() / before, 1.0, 1e-12);
    EXPECT_GT(e.t[0], 0.0);
  }
}

// One trial a step (K = 1) is the majorant's selection with other random numbers; 25 trials a step at
// n_s 500 (5 % of the particles) still gives the inverse transform's d_g and sigma_g.
TEST(Stepped, FreeMolecularStatisticsMatchTheInverseTransform) {
  testing::expect_statistics_of_the_inverse_transform({{"selection", std::string("stepped")}, {"step_fraction", 0.002}});
  testing::expect_statistics_of_the_inverse_transform({{"selection", std::string("stepped")}, {"step_fraction", 0.01}});
}

TEST(Stepped, NonFiniteParticlesFailTheRunInsteadOfHanging) {
  const EnsembleConfig cfg = stepped(free_molecular_config(64, 1 << 30), 4);
  Ensemble e = make_ensemble(cfg, 1, 1.5);
  for (double& v : e.v) v = NAN;
  test_support::expect_error([&] { advance_run_cpu(e, 0, cfg, kNever, 1); }, ErrorKind::RunFailed, {"stepped", "not finite"});
}

TEST(Stepped, FuchsKernelIsRefusedNamingTheSelection) {
  test_support::expect_error(
      [] {
        run_to_end({{"kernel", std::string("fuchs")}, {"selection", std::string("stepped")}});
      },
      ErrorKind::BadInput, {"selection", "stepped", "fuchs"});
}

TEST(Stepped, TrialsAStepFollowTheFraction) {
  EXPECT_EQ(step_trials(1e-4, 2000), 1);
  EXPECT_EQ(step_trials(1e-4, 1000000), 100);
  EXPECT_EQ(step_trials(1e-3, 10000000), 10000);  // across ten GPU blocks
  EXPECT_EQ(step_trials(1e-2, 4000000), kMaxStepTrials);
}

}  // namespace
}  // namespace ks::coag
