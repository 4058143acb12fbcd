// Majorant trials in parallel steps on the CPU (coag_stepped.hpp): a step's trials one after the other
// up to its stop, then its events, as the GPU's thread blocks make them.
#include "coag_stepped_cpu.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace ks::coag {

ParticleTrees HostTrees::view(int n) { return {tree.data(), total.data(), base.data(), n}; }

void rebuild_trees(HostTrees& h, const Majorant& m, const ParticleAux* aux, const double* w, int n) {
  const std::size_t S = std::size_t(m.n_samplers);
  h.tree.assign(S * (n + 1), 0);
  h.total.assign(S, 0);
  h.base.assign(S, 0);
  for (std::size_t s = 0; s < S; ++s) {
    int largest = 0;
    for (int k = 0; k < n; ++k) largest = std::max(largest, raw_class(sampler_value(m.spec[s], aux[k], w[k])));
    h.base[s] = window_base(largest);
  }
  const ParticleTrees trees = h.view(n);
  for (int k = 0; k < n; ++k) {
    std::uint64_t units[kMaxSamplers];
    particle_units(m, trees, aux[k], w[k], units);  // inside every window: they were set from these values
    for (std::size_t s = 0; s < S; ++s) {
      h.tree[s * (n + 1) + k + 1] = units[s];
      h.total[s] += units[s];
    }
  }
  for (std::size_t s = 0; s < S; ++s) {  // each node adds itself to its parent: the linear build
    std::uint64_t* t = h.tree.data() + s * (n + 1);
    for (int k = 1; k <= n; ++k)
      if (const int parent = k + (k & -k); parent <= n) t[parent] += t[k];
  }
}

std::uint64_t advance_run_stepped_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                      const Interrupt& stop) {
  auto [n, v, w, C, aux, rng] = run_particles(e, run, cfg);  // no C' kept
  const int K = cfg.step_trials;
  const KernelParams& kp = cfg.kernel;
  const Majorant m = majorant_of(kp);
  HostTrees h;
  rebuild_trees(h, m, aux.data(), w, n);  // at the start of every advance, as on the GPU
  const ParticleTrees trees = h.view(n);
  const auto add = [](std::uint64_t& to, std::uint64_t delta) { to += delta; };

  std::vector<Trial> kept;  // the step's accepted trials before its stop, in slot order
  kept.reserve(std::size_t(K));
  std::vector<std::uint64_t> touched(std::size_t(n), 0);  // per particle: the last step whose kept trial took it
  std::uint64_t step = 0;
  std::uint64_t done = 0;
  while (done < max_events && !stop.requested()) {
    const std::uint64_t event = e.events[run];
    const TermTotals totals = term_totals(m, trees);
    const double dt = trial_time(m, totals, cfg.box_volume);
    // Steps of K trials from the state at its start until one keeps an accepted trial. A trial is
    // drawn only when the step reaches it: the draws are keyed by their index, so the trials after the
    // stop need not be made.
    for (std::uint64_t group = 0;; group += K) {
      if (group >= kMaxGroupTrials) throw run_failed(no_step_trial_message(run, event));
      ++step;
      kept.clear();
      int end = K;  // the stop: the first trial after the target or touching a kept trial's particle
      for (int s = 0; s < K; ++s) {
        if (!(e.t[run] + double(group + s + 1) * dt <= t_target)) {
          end = s;
          break;
        }
        const Trial t = draw_step_trial(rng, event, std::uint32_t(group + s), m, trees, totals);
        if (touched[t.i] == step || touched[t.j] == step) {
          end = s;
          break;
        }
        if (trial_accepted(t, m, trees, aux[t.i], w[t.i], aux[t.j], w[t.j], kp)) {
          touched[t.i] = touched[t.j] = step;
          kept.push_back(t);
        }
      }
      if (kept.empty()) {
        if (end < K) return done;  // the target comes before the next event
        continue;
      }
      bool rebuild = false;
      for (const Trial& t : kept) {
        const int i = t.i, j = t.j;
        std::uint64_t change_i[kMaxSamplers], change_j[kMaxSamplers];
        const bool inside = coalesce_kept(m, trees, kp, i, j, aux[i], w[i], aux[j], w[j], v, w, aux.data(), change_i, change_j);
        rebuild = rebuild || !inside;
        if (rebuild) continue;  // the trees are rebuilt after the step
        for (int k = 0; k < m.n_samplers; ++k) {
          trees.add(k, i, change_i[k], add);
          trees.add(k, j, change_j[k], add);
          h.total[k] += change_i[k] + change_j[k];
        }
      }
      e.t[run] += double(group + std::uint64_t(end)) * dt;
      e.events[run] += kept.size();
      done += kept.size();
      if (rebuild) rebuild_trees(h, m, aux.data(), w, n);
      break;
    }
  }
  return done;
}

}  // namespace ks::coag
