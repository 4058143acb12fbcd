// Helpers shared by the coagulation validation tests (CPU and CUDA).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "methods/coagulation/coag_method.hpp"
#include "methods/coagulation/coag_ensemble.hpp"
#include "methods/coagulation/coag_units.hpp"

namespace ks::coag::testing {

constexpr double kN0 = 1e17;  // 1/m^3, Table 1
constexpr double kD0 = 3e-9;  // m, Table 1

// The Table 1 free-molecular kernel for n_s particles of weight 1.
inline EnsembleConfig free_molecular_config(int n_s, std::int64_t refresh_every, std::uint64_t seed = 7) {
  EnsembleConfig cfg;
  cfg.n_s = n_s;
  cfg.box_volume = n_s / kN0;
  cfg.seed = seed;
  cfg.refresh_every = refresh_every;
  cfg.kernel.kind = KernelKind::FreeMolecular;
  cfg.kernel.KF = free_molecular_KF(300.0, 1000.0);
  return cfg;
}

// `runs` runs initialised on the host (lognormal for sigma_g0 > 1), with their rates.
inline Ensemble make_ensemble(const EnsembleConfig& cfg, int runs, double sigma_g0) {
  Ensemble e;
  e.resize(runs, cfg.n_s);
  for (int r = 0; r < runs; ++r) initialise_run(e, r, cfg, kD0, sigma_g0);
  return e;
}

// One run of particles spread over three decades of volume and of weight, as late in a run.
inline Ensemble spread_particles(const EnsembleConfig& cfg) {
  Ensemble e = make_ensemble(cfg, 1, 1.0);
  const PhiloxStream rng{5, 1};
  for (int k = 0; k < cfg.n_s; ++k) {
    double u0, u1;
    rng.uniform2(k, 0, u0, u1);
    e.v[k] *= std::pow(10.0, 3.0 * u0);
    e.w[k] *= std::pow(10.0, -3.0 * u1);
  }
  return e;
}

// Run 0's particles' aux (diameter and the kernel's powers).
inline std::vector<ParticleAux> aux_of(const Ensemble& e, const EnsembleConfig& cfg) {
  std::vector<ParticleAux> aux(cfg.n_s);
  for (int k = 0; k < cfg.n_s; ++k) aux[k] = make_aux(e.v[k], cfg.kernel);
  return aux;
}

// A method set up with the defaults overridden by `overrides`, run to its end time.
inline std::unique_ptr<CoagulationMethod> run_to_end(const std::map<std::string, ParamValue>& overrides,
                                                     BackendRequest backend = BackendRequest::Cpu) {
  auto m = std::make_unique<CoagulationMethod>();
  ParamSet p(CoagulationMethod::static_info().params);
  for (const auto& [k, v] : overrides) p.set(k, v);
  m->setup(p, resolve_backend(backend));
  while (!m->finished()) m->advance();
  return m;
}

// The output index whose time is closest to x tau_char.
inline int output_near(const CoagulationMethod& m, double x) {
  int best = 0;
  for (int k = 0; k < int(m.output_times().size()); ++k)
    if (std::abs(m.output_times()[k] / m.tau_char() - x) < std::abs(m.output_times()[best] / m.tau_char() - x)) best = k;
  return best;
}

// Eq. (13): mean over the outputs in [tau_char, t_end] of |<d_g> - d_g_sec| / d_g_sec.
inline double eq13_error_dg(const CoagulationMethod& m) {
  double sum = 0.0;
  int n = 0;
  for (int k = 0; k < int(m.output_times().size()); ++k) {
    if (m.output_times()[k] < m.tau_char() * (1 - 1e-9)) continue;
    const double ref = m.sectional()[k].d_g;
    sum += std::abs(m.mean_dg(k).mean - ref) / ref;
    ++n;
  }
  return sum / n;
}

// Free molecular (no exact solution): `selection` gives the inverse transform's d_g and sigma_g within
// 4 combined standard errors, from other random numbers (the same pair distribution).
// `selection` holds the selection's parameters (selection, and step_fraction for stepped).
inline void expect_statistics_of_the_inverse_transform(const std::map<std::string, ParamValue>& selection) {
  const std::map<std::string, ParamValue> base = {{"n_s", std::int64_t(500)}, {"n_runs", std::int64_t(12)}, {"t_end", 100.0}};
  auto with = [&](const std::map<std::string, ParamValue>& s) {
    auto p = base;
    for (const auto& [k, v] : s) p[k] = v;
    return run_to_end(p);
  };
  const auto prefix = with({{"selection", std::string("prefix")}}), other = with(selection);
  const int k = int(prefix->output_times().size()) - 1;
  for (auto stat : {&CoagulationMethod::mean_dg, &CoagulationMethod::mean_sigma_g}) {
    const MeanAndError a = ((*prefix).*stat)(k), b = ((*other).*stat)(k);
    EXPECT_NEAR(a.mean, b.mean, 4.0 * std::hypot(a.stderr_, b.stderr_));
    EXPECT_GT(b.stderr_, 0.0);
  }
}

}  // namespace ks::coag::testing
