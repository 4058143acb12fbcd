// Majorant trials made in parallel steps (selection = "stepped"), host and device. Beyond the paper
// (issue 31: one large run that uses the GPU's threads, not one warp's serial chain of events).
//
// The trials are those of coag_majorant.hpp (a term in proportion to its total, i from F_a, j from
// G_a, accepted with probability q_ij / (B(i, j) + B(j, i)), a trial standing for V / sum B of time), made
// K at a time against the particles as they were when the step began. A step keeps its trials in
// slot order up to the first one that touches a particle an earlier accepted trial of the step
// coalesced (its stop): every kept trial saw its particles as they are, the kept accepted pairs share
// no particle and are coalesced at once, and the time advances by the kept trials. The trials from the
// stop on are dropped and drawn afresh in the next step. So a particle that took part in an event
// rests until its step ends: it misses the trials it would have had in the rest of the step, about
// K / n_s of them on average (its share of the trials, roughly 2 / n_s each, over half a step),
// the method's only departure from the event-by-event majorant. K = step_fraction n_s (at least 1:
// with K = 1 a step is one trial and nothing rests).
//
// Sampling: a particle is drawn in proportion to its class bound (the same bounds as the majorant's
// samplers) by a descent of a Fenwick tree over the particles in index order. The bounds are integers
// in units of the window's lowest class (4..7 times a power of two, below 2^27), so the trees hold exact
// uint64 sums that any order of addition (the GPU's atomics) leaves the same: the CPU and the GPU draw
// the same particles. A step's draws are keyed by (events so far, trial index): every step of a run
// has fresh ones, and a step that accepts nothing goes on with the next K indices, so no state beyond
// the event counter is needed to resume a run.
#pragma once

#include <cstdint>

#include "coag_majorant.hpp"

namespace ks::coag {

constexpr std::uint32_t kPurposeStepped = 6;  // RNG draws of a step's trials
constexpr int kBlockStepTrials = 1024;        // one GPU thread block's trials (a thread each)
// K at most: the trials of 16 blocks (above kBlockStepTrials one run's steps span several blocks). A
// step stops at its first touch, on average after about sqrt(pi n_s / (4 p)) trials for an acceptance
// p (the birthday bound), so a larger K adds kept trials only for large n_s.
constexpr int kMaxStepTrials = 16 * kBlockStepTrials;
// A step gives up (non-finite particles) after as many trials as the majorant's selection does.
constexpr std::uint64_t kMaxGroupTrials = std::uint64_t(kMaxRounds) * kCandidatesPerRound;

// Trials per step for n_s particles: step_fraction n_s, from 1 to kMaxStepTrials.
inline int step_trials(double step_fraction, int n_s) {
  const double k = step_fraction * double(n_s);
  return k < 1.0 ? 1 : k > kMaxStepTrials ? kMaxStepTrials : int(k);
}

// Class c of the window at `base` as an integer: class_bound(base + c) / unit(base), 4..7 times 2^octave.
KS_HD std::uint64_t class_units(int base, int c) {
  const int top = base + c + 1, low = base + 1;
  return std::uint64_t(4 + (top & 3)) << ((top >> 2) - (low >> 2));
}
// The unit's exponent: class_bound(base) = (4 + ((base + 1) & 3)) 2^unit_exponent(base).
KS_HD int unit_exponent(int base) { return ((base + 1) >> 2) - 1025; }

// Bits 64..127 of a * b: a 64-bit uniform times a total is the target below the total.
KS_HD std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return std::uint64_t((unsigned __int128)a * b >> 64);
#endif
}

// One run's trees, on the host or the device: sampler s's Fenwick tree at tree[s (n + 1) + 1 .. n]
// (1-based), its total in units at total_units[s] and its window's base at base[s].
struct ParticleTrees {
  std::uint64_t* tree;
  std::uint64_t* total_units;
  const int* base;
  int n;

  KS_HD double bound(int s, int c) const { return class_bound(base[s] + c); }
  KS_HD int class_of(int s, const SamplerSpec& spec, const Powers& p, double w) const {
    return window_class(sampler_value(spec, p, w), base[s]);
  }
  KS_HD double total(int s) const { return ldexp(double(total_units[s]), unit_exponent(base[s])); }
  // The particle whose interval of the cumulative bounds holds target (< total_units[s]).
  KS_HD int draw(int s, std::uint64_t target) const {
    const std::uint64_t* t = tree + std::size_t(s) * (n + 1);
    int pos = 0;
    for (int step = 1 << (31 - clz_of(unsigned(n))); step > 0; step >>= 1)
      if (pos + step <= n && t[pos + step] <= target) {
        pos += step;
        target -= t[pos];
      }
    return pos;
  }
  // draw(s, target) and draw(r, other) at once: both descents' loads of a level issued together.
  KS_HD void descend(int s, std::uint64_t target, int r, std::uint64_t other, int& at_s, int& at_r) const {
    const std::uint64_t* a = tree + std::size_t(s) * (n + 1);
    const std::uint64_t* b = tree + std::size_t(r) * (n + 1);
    int x = 0, y = 0;
    for (int step = 1 << (31 - clz_of(unsigned(n))); step > 0; step >>= 1) {
      const std::uint64_t va = x + step <= n ? a[x + step] : ~std::uint64_t(0);
      const std::uint64_t vb = y + step <= n ? b[y + step] : ~std::uint64_t(0);
      if (va <= target) x += step, target -= va;
      if (vb <= other) y += step, other -= vb;
    }
    at_s = x, at_r = y;
  }
  // Adds delta (modulo 2^64: a negative delta wraps) to particle p's nodes of sampler s's tree; the
  // caller adds it to total_units[s].
  template <typename Add>
  KS_HD void add(int s, int p, std::uint64_t delta, Add&& add_to) const {
    std::uint64_t* t = tree + std::size_t(s) * (n + 1);
    for (int k = p + 1; k <= n; k += k & -k) add_to(t[k], delta);
  }

 private:
  KS_HD static int clz_of(unsigned x) {
#ifdef __CUDA_ARCH__
    return __clz(int(x));
#else
    return __builtin_clz(x);
#endif
  }
};

// Trial `index` of the step group that began after `event` events: two Philox draws (term; i and j
// each from 64 bits, or j uniform; the acceptance uniform).
KS_HD Trial draw_step_trial(const PhiloxStream& rng, std::uint64_t event, std::uint32_t index, const Majorant& m, const ParticleTrees& s,
                            const TermTotals& t) {
  const PhiloxCounter r0 = rng.draw(event, kPurposeStepped, 2u * index), r1 = rng.draw(event, kPurposeStepped, 2u * index + 1);
  const double target = double(r0.v[0]) * 0x1p-32 * t.cum[m.n_terms - 1];
  int a = 0;
  while (a < m.n_terms - 1 && !(target < t.cum[a])) ++a;
  const auto u64 = [](std::uint32_t hi, std::uint32_t lo) { return std::uint64_t(hi) << 32 | lo; };
  Trial trial;
  const std::uint64_t target_i = mul_high(u64(r0.v[1], r0.v[2]), s.total_units[m.f[a]]);
  if (m.g[a] < 0) {
    trial.i = s.draw(m.f[a], target_i);
    trial.j = int((std::uint64_t(r0.v[3]) * std::uint32_t(s.n)) >> 32);
  } else {
    s.descend(m.f[a], target_i, m.g[a], mul_high(u64(r0.v[3], r1.v[0]), s.total_units[m.g[a]]), trial.i, trial.j);
  }
  trial.u = uniform_open01(r1.v[2], r1.v[3]);
  return trial;
}

// A particle's entries in every sampler (class_units of its class), or false when a value lies above a
// window (the trees are then rebuilt).
KS_HD bool particle_units(const Majorant& m, const ParticleTrees& s, const ParticleAux& a, double w, std::uint64_t (&units)[kMaxSamplers]) {
  const Powers p(a);
  bool inside = true;
  for (int k = 0; k < m.n_samplers; ++k) {
    const int c = s.class_of(k, m.spec[k], p, w);
    inside = inside && c < kClasses;
    units[k] = c < kClasses ? class_units(s.base[k], c) : 0;
  }
  return inside;
}

// Whether the pairs (ai, aj) and (bi, bj) share a particle: a step stops at the first trial that shares
// one with an earlier accepted trial.
KS_HD bool shares_a_particle(int ai, int aj, int bi, int bj) { return ai == bi || ai == bj || aj == bi || aj == bj; }

// A kept trial's event: coalesces particles i and j (their values before: ai, wi, aj, wj), writes v, w
// and aux, and gives each sampler's change of their entries (modulo 2^64); false when a new value lies
// above its window (the trees are then rebuilt and the changes unused).
KS_HD bool coalesce_kept(const Majorant& m, const ParticleTrees& trees, const KernelParams& kp, int i, int j, ParticleAux ai, double wi,
                         ParticleAux aj, double wj, double* v, double* w, ParticleAux* aux, std::uint64_t (&change_i)[kMaxSamplers],
                         std::uint64_t (&change_j)[kMaxSamplers]) {
  std::uint64_t before_i[kMaxSamplers], before_j[kMaxSamplers];
  particle_units(m, trees, ai, wi, before_i);
  particle_units(m, trees, aj, wj, before_j);
  double vi = ai.v, vj = aj.v;
  coalesce(vi, wi, vj, wj);
  const ParticleAux ni = make_aux(vi, kp), nj = make_aux(vj, kp);
  v[i] = vi, w[i] = wi, aux[i] = ni;
  v[j] = vj, w[j] = wj, aux[j] = nj;
  const bool inside = particle_units(m, trees, ni, wi, change_i) & particle_units(m, trees, nj, wj, change_j);
  for (int k = 0; k < m.n_samplers; ++k) change_i[k] -= before_i[k], change_j[k] -= before_j[k];
  return inside;
}

// Why a run stopped when no trial of a step group was accepted (CPU and GPU alike).
inline std::string no_step_trial_message(int run, std::uint64_t event) {
  return "aerosol.coagulation: run " + std::to_string(run) + ", event " + std::to_string(event) +
         ": selection 'stepped' accepted no pair in " + std::to_string(kMaxGroupTrials) +
         " trials; the particles' volumes or weights are not finite";
}

}  // namespace ks::coag
