#include "coag_ensemble.hpp"

#include <cmath>

#include "coag_units.hpp"

namespace ks::coag {

void initialise_run(Ensemble& e, int run, const EnsembleConfig& cfg, double d0, double sigma_g0, bool with_rates) {
  const std::size_t base = std::size_t(run) * cfg.n_s;
  const PhiloxStream rng = run_stream(cfg.seed, cfg.first_run + run);
  for (int k = 0; k < cfg.n_s; ++k) {
    double d = d0;
    if (sigma_g0 > 1.0) {  // Box-Muller normal in ln d
      double u0, u1;
      rng.uniform2(static_cast<std::uint64_t>(k), kPurposeInitial, u0, u1);
      const double z = std::sqrt(-2.0 * std::log(u0)) * std::cos(2.0 * kPi * u1);
      d = d0 * std::exp(z * std::log(sigma_g0));
    }
    e.v[base + k] = volume_of_diameter(d);
    e.w[base + k] = 1.0;
  }
  e.t[run] = 0.0;
  e.events[run] = 0;
  e.since_refresh[run] = 0;
  if (with_rates) recompute_rates(e, run, cfg);
}

void recompute_rates(Ensemble& e, int run, const EnsembleConfig& cfg) {
  const std::size_t base = std::size_t(run) * cfg.n_s;
  const int n = cfg.n_s;
  std::vector<ParticleAux> aux(n);
  for (int k = 0; k < n; ++k) aux[k] = make_aux(e.v[base + k], cfg.kernel);
#pragma omp parallel for schedule(static) if (n >= 2048)
  for (int i = 0; i < n; ++i) {
    double sum = 0.0;
    const double wi = e.w[base + i];
    for (int j = 0; j < n; ++j)
      if (j != i) sum += beta(aux[i], aux[j], cfg.kernel) * weight_factor(wi, e.w[base + j]);
    e.C[base + i] = sum;
  }
}

RunParticles run_particles(Ensemble& e, int run, const EnsembleConfig& cfg) {
  const int n = cfg.n_s;
  const std::size_t first = std::size_t(run) * n;
  RunParticles r{n,
                 e.v.data() + first,
                 e.w.data() + first,
                 e.C.data() + first,
                 std::vector<ParticleAux>(n),
                 run_stream(cfg.seed, cfg.first_run + run)};
  for (int k = 0; k < n; ++k) r.aux[k] = make_aux(r.v[k], cfg.kernel);
  return r;
}

}  // namespace ks::coag
