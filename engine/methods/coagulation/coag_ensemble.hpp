// The state of an ensemble of independent inverse-MC runs, host side. Run r's
// particles occupy [r*n_s, (r+1)*n_s) of every array.
#pragma once

#include <cstdint>
#include <vector>

#include "core/philox.hpp"
#include "coag_config.hpp"
#include "coag_model.hpp"

namespace ks::coag {

struct Ensemble {
  int n_runs = 0;
  std::vector<double> v, w, C;               // volume (m^3), weight (real particles), C'_k = sum_j beta'_kj (m^3/s)
  std::vector<double> t;                     // per run: simulated time, s
  std::vector<std::uint64_t> events;         // per run: coagulation events so far (the RNG counter)
  std::vector<std::uint64_t> since_refresh;  // per run: events since the last full recompute of C'

  // Sizes every array for n_runs runs of n_s particles (kept runs keep their values).
  void resize(int runs, int n_s) {
    const std::size_t count = std::size_t(runs) * n_s;
    n_runs = runs;
    v.resize(count);
    w.resize(count);
    C.resize(count);
    t.resize(runs);
    events.resize(runs);
    since_refresh.resize(runs);
  }
};

// The RNG stream of run r: key (seed, r), counter = event index; draw purpose 0 for events,
// purpose 1 for the initial size distribution.
KS_HD PhiloxStream run_stream(std::uint64_t seed, int run) { return PhiloxStream{seed, static_cast<std::uint32_t>(run)}; }
constexpr std::uint32_t kPurposeEvent = 0;
constexpr std::uint32_t kPurposeInitial = 1;

// Run r's part of the ensemble as a CPU loop starts from: its n_s particles' volumes, weights and C'
// (pointers into the ensemble), their ParticleAux computed from the volumes, and the run's RNG stream.
struct RunParticles {
  int n;
  double* v;
  double* w;
  double* C;
  std::vector<ParticleAux> aux;
  PhiloxStream rng;
};
RunParticles run_particles(Ensemble& e, int run, const EnsembleConfig& cfg);

// Initial particles of run r: monodisperse (sigma_g0 == 1) or sampled from a lognormal,
// all with weight exactly 1 (the box holds n_s / N0, so a particle starts as one real one); C'
// from eq. (2) unless with_rates is false (the GPU computes them itself: O(n_s^2), Algorithm 1).
// Exactly 1, not N0 V / n_s as computed (1 +- an ulp for some n_s): the weights then stay dyadic
// fractions, every subtraction of coalesce() is exact and equal weights meet its split rule. From
// 1 - 2^-53 the subtractions round, near-equal weights leave slivers of weight that carry whole
// volumes, and a run needed 36-43 % more events for a noisier result (the benchmark's n_s 5e5, 1e6).
void initialise_run(Ensemble& e, int run, const EnsembleConfig& cfg, double d0, double sigma_g0, bool with_rates = true);
// C'_k of every particle of run r from eq. (2) (O(n_s^2)).
void recompute_rates(Ensemble& e, int run, const EnsembleConfig& cfg);

// Mean waiting time between events, eq. (4) with C' summed over ordered pairs: dt = 2V / sum_k C'_k.
KS_HD double waiting_time(double sum_C, double box_volume) { return 2.0 * box_volume / sum_C; }

}  // namespace ks::coag
