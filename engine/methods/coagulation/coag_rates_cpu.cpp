#include "coag_rates_cpu.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "coag_rejection.hpp"
#include "core/errors.hpp"

namespace ks::coag {

int select_by_cumulative(const double* values, int n, double target) {
  double acc = 0.0;
  int last_positive = n - 1;
  for (int k = 0; k < n; ++k) {
    if (values[k] <= 0.0) continue;
    acc += values[k];
    last_positive = k;
    if (target < acc) return k;
  }
  return last_positive;
}

namespace {

// Work arrays of one run: row_i is the kernel row of the first particle times its symmetric
// weight part, beta_ik * pair_weight(w_i, w_k), before the event (filled for the inverse
// transform; selection by rejection needs no row and the update computes it); the update overwrites it
// and fills row_j with the new rows of i and j, summed afterwards into C'_i and C'_j.
struct Scratch {
  std::vector<double> row_i, row_j;
};

// The loop of both: by_rejection picks i and j by acceptance-rejection, else by inverse transform.
std::uint64_t advance_run_keeping_rates(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                        const Interrupt& stop, bool by_rejection) {
  auto [n, v, w, C, aux, rng] = run_particles(e, run, cfg);
  const KernelParams& kp = cfg.kernel;
  // Inner loops go parallel only for one large run; several runs are parallel over runs.
  const bool inner_parallel = n >= 4096 && !omp_in_parallel();

  Scratch s;
  s.row_i.resize(n);
  s.row_j.resize(n);
  PairBounds bounds = by_rejection ? pair_bounds(aux.data(), w, n) : PairBounds{};

  std::uint64_t done = 0;
  while (done < max_events && !stop.requested()) {
    double sum_C = 0.0;
    std::uint32_t C_high = 0;
    for (int k = 0; k < n; ++k) {
      sum_C += C[k];
      C_high = std::max(C_high, rate_high_word(C[k]));
    }
    const double dt = waiting_time(sum_C, cfg.box_volume);
    if (!(e.t[run] + dt <= t_target)) break;

    // Eq. (5a), (5b): i with probability C'_i / sum C', then j with beta'_ij / C'_i, i.e. with
    // row_i[k] = beta_ik pair_weight(w_i, w_k) over k != i (the common factor 2 w_i drops out).
    const std::uint64_t event = e.events[run];
    int i, j;
    ParticleAux ai;
    double wi_old;
    if (by_rejection) {
      i = select_by_rejection(rng, event, kPurposeFirstPick, n, rate_bound(C_high), [&](int k) { return C[k]; });
      if (i < 0) throw run_failed(no_pair_message(run, event));
      ai = aux[i];
      wi_old = w[i];
      j = select_by_rejection(rng, event, kPurposeSecondPick, n, row_bound(ai, wi_old, bounds, kp),
                              [&](int k) { return k == i ? 0.0 : beta(ai, aux[k], kp) * pair_weight(wi_old, w[k]); });
      if (j < 0) throw run_failed(no_pair_message(run, event));
    } else {
      double u_i, u_j;
      rng.uniform2(event, kPurposeEvent, u_i, u_j);
      i = select_by_cumulative(C, n, u_i * sum_C);
      ai = aux[i];
      wi_old = w[i];
#pragma omp parallel for schedule(static) if (inner_parallel)
      for (int k = 0; k < n; ++k) s.row_i[k] = k == i ? 0.0 : beta(ai, aux[k], kp) * pair_weight(wi_old, w[k]);
      double sum_i = 0.0;
      for (int k = 0; k < n; ++k) sum_i += s.row_i[k];
      j = select_by_cumulative(s.row_i.data(), n, u_j * sum_i);
    }
    const ParticleAux aj = aux[j];
    const double wj_old = w[j];

    coalesce(v[i], w[i], v[j], w[j]);
    aux[i] = make_aux(v[i], kp);
    aux[j] = make_aux(v[j], kp);
    const ParticleAux ni = aux[i], nj = aux[j];
    const double wi = w[i], wj = w[j];
    bounds.note(ni, wi);
    bounds.note(nj, wj);

    // Smart bookkeeping, eq. (6): only the terms with i and j change in C'_k, and
    // beta'_ki = 2 w_k beta_ki pair_weight(w_k, w_i); the old terms of j are computed here.
#pragma omp parallel for schedule(static) if (inner_parallel)
    for (int k = 0; k < n; ++k) {
      if (k == i || k == j) continue;
      const double wk = w[k];
      const ParticleAux ak = aux[k];
      const double ri_old = by_rejection ? beta(ai, ak, kp) * pair_weight(wi_old, wk) : s.row_i[k];
      const double rj_old = beta(aj, ak, kp) * pair_weight(wj_old, wk);
      const double ri = beta(ak, ni, kp) * pair_weight(wk, wi), rj = beta(ak, nj, kp) * pair_weight(wk, wj);
      C[k] += 2.0 * wk * (ri + rj - ri_old - rj_old);
      s.row_i[k] = ri;
      s.row_j[k] = rj;
    }
    const double rij = beta(ni, nj, kp) * pair_weight(wi, wj);
    double Ci = rij, Cj = rij;
    for (int k = 0; k < n; ++k) {
      if (k == i || k == j) continue;
      Ci += s.row_i[k];
      Cj += s.row_j[k];
    }
    C[i] = 2.0 * wi * Ci;
    C[j] = 2.0 * wj * Cj;

    e.t[run] += dt;
    ++e.events[run];
    ++done;
    if (++e.since_refresh[run] >= static_cast<std::uint64_t>(cfg.refresh_every)) {
      recompute_rates(e, run, cfg);
      e.since_refresh[run] = 0;
      if (by_rejection) bounds = pair_bounds(aux.data(), w, n);  // as the GPU does at a refresh
    }
  }
  return done;
}

}  // namespace

std::uint64_t advance_run_prefix_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                     const Interrupt& stop) {
  return advance_run_keeping_rates(e, run, cfg, t_target, max_events, stop, false);
}

std::uint64_t advance_run_rejection_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                        const Interrupt& stop) {
  return advance_run_keeping_rates(e, run, cfg, t_target, max_events, stop, true);
}

}  // namespace ks::coag
