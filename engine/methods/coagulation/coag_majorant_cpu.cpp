// Selection against a majorant kernel on the CPU (coag_majorant.hpp): the reference of the GPU's
// majorant loop, which makes the same trials, picks and sampler moves.
#include "coag_majorant_cpu.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace ks::coag {

SamplerSet HostSamplers::view(int n) { return {order.data(), slot.data(), start.data(), tree.data(), base.data(), n}; }

void rebuild_samplers(HostSamplers& h, const Majorant& m, const ParticleAux* aux, const double* w, int n) {
  const std::size_t S = std::size_t(m.n_samplers);
  h.order.resize(S * n);
  h.slot.resize(S * n);
  h.start.assign(S * (kClasses + 1), 0);
  h.tree.assign(S * (kTreeSize + 1), 0.0);
  h.base.assign(S, 0);
  std::vector<int> cls(n);
  for (std::size_t s = 0; s < S; ++s) {
    int largest = 0;
    for (int k = 0; k < n; ++k) {
      cls[k] = raw_class(sampler_value(m.spec[s], aux[k], w[k]));
      largest = std::max(largest, cls[k]);
    }
    const int base = window_base(largest);
    h.base[s] = base;
    int* st = h.start.data() + s * (kClasses + 1);
    for (int k = 0; k < n; ++k) {
      cls[k] = std::max(cls[k] - base, 0);
      ++st[cls[k] + 1];
    }
    for (int c = 0; c < kClasses; ++c) st[c + 1] += st[c];
    std::vector<int> next(st, st + kClasses);
    int* order = h.order.data() + s * n;
    int* slot = h.slot.data() + s * n;
    for (int k = 0; k < n; ++k) {  // stable: a class's particles in index order
      const int at = next[cls[k]]++;
      order[at] = k;
      slot[k] = at;
    }
    h.view(n).build_tree(int(s));
  }
}

bool update_samplers(const SamplerSet& set, const Majorant& m, const ChangedParticle (&p)[2]) {
  int from[kMaxSamplers][2], to[kMaxSamplers][2];
  const Powers before[2] = {Powers(p[0].old_aux), Powers(p[1].old_aux)};
  const Powers after[2] = {Powers(p[0].new_aux), Powers(p[1].new_aux)};
  for (int s = 0; s < m.n_samplers; ++s)
    for (int q = 0; q < 2; ++q) {
      from[s][q] = set.class_of(s, m.spec[s], before[q], p[q].old_w);
      to[s][q] = set.class_of(s, m.spec[s], after[q], p[q].new_w);
      if (to[s][q] >= kClasses) return false;
    }
  for (int s = 0; s < m.n_samplers; ++s)
    set.move_pair(s, p[0].index, from[s][0], to[s][0], set.place(s, p[0].index), p[1].index, from[s][1], to[s][1],
                  set.place(s, p[1].index));
  return true;
}

std::uint64_t advance_run_majorant_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                       const Interrupt& stop) {
  auto [n, v, w, C, aux, rng] = run_particles(e, run, cfg);  // no C' kept
  const KernelParams& kp = cfg.kernel;
  const Majorant m = majorant_of(kp);
  HostSamplers h;
  rebuild_samplers(h, m, aux.data(), w, n);  // at the start of every advance, as on the GPU
  const SamplerSet set = h.view(n);

  std::uint64_t done = 0;
  while (done < max_events && !stop.requested()) {
    const std::uint64_t event = e.events[run];
    const TermTotals totals = term_totals(m, set);
    // Trials in lane order until one is accepted; the event's time is theirs.
    std::uint64_t trials = 0;
    Trial pick{-1, -1, 0.0};
    for (int round = 0; round < kMaxRounds && pick.i < 0; ++round)
      for (int lane = 0; lane < kCandidatesPerRound; ++lane) {
        const Trial t = draw_trial(rng, event, round, lane, m, set, totals);
        ++trials;
        if (trial_accepted(t, m, set, aux[t.i], w[t.i], aux[t.j], w[t.j], kp)) {
          pick = t;
          break;
        }
      }
    if (pick.i < 0) throw run_failed(no_trial_message(run, event));
    const double t_new = e.t[run] + double(trials) * trial_time(m, totals, cfg.box_volume);
    if (!(t_new <= t_target)) break;

    const int i = pick.i, j = pick.j;
    ChangedParticle p[2] = {{i, aux[i], w[i], {}, 0.0}, {j, aux[j], w[j], {}, 0.0}};
    coalesce(v[i], w[i], v[j], w[j]);
    aux[i] = make_aux(v[i], kp);
    aux[j] = make_aux(v[j], kp);
    p[0].new_aux = aux[i], p[0].new_w = w[i];
    p[1].new_aux = aux[j], p[1].new_w = w[j];
    bool rebuild = !update_samplers(set, m, p);  // a value above its sampler's window
    e.t[run] = t_new;
    ++e.events[run];
    ++done;
    if (++e.since_refresh[run] >= static_cast<std::uint64_t>(cfg.refresh_every)) {
      e.since_refresh[run] = 0;
      rebuild = true;
    }
    if (rebuild) rebuild_samplers(h, m, aux.data(), w, n);
  }
  return done;
}

}  // namespace ks::coag
