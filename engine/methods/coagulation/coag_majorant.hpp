// Selection against a majorant kernel (selection = "majorant"), host and device. Beyond the paper:
// an event's work does not grow with n_s (issue 31), as in the majorant-kernel methods of Eibeck &
// Wagner (2001) and Xu, Zhao & Zheng (JCP 2015). No C' is kept.
//
// The pair rate of the weighted scheme, q_ij = beta_ij max(w_i, w_j) (coag_model.hpp), is bounded by
// a sum of products, q_ij <= B(i, j) + B(j, i) with B(i, j) = scale sum_a coef_a F_a(i) G_a(j), where
// F_a = w h_a(d) and G_a = g_a(d) are power laws of the diameter (majorant_of). A trial proposes the
// ordered pair (i, j) with probability B(i, j) / sum B: the term a in proportion to its total, then i
// from F_a and j from G_a; it is accepted with probability q_ij / (B(i, j) + B(j, i)), so an accepted
// unordered pair has probability q_ij / sum B. Trials come at the rate sum B / V, so real events come at
// the rate q_ij / V of the weighted scheme (coag_ensemble.hpp: 2V / sum C' is their mean waiting time),
// and a trial costs O(1): each event's time is its number of trials times V / sum B.
//
// Sampling in proportion to a value without sums over the particles: each value belongs to a class,
// its double's exponent and two leading mantissa bits (a factor 2^(1/4)), whose upper end bounds it
// within 19 %. A sampler keeps its particles grouped by class (order, with slot its inverse) and the
// classes' bounds in a Fenwick tree; a class is drawn from the cumulative bounds, a member uniformly,
// and the member's true value enters the acceptance above. The bounds' partial sums are sums of integers
// times powers of two within 53 bits, exact in any order, so the CPU and the GPU hold the same values.
// A sampler's classes are a window of kClasses above its base; smaller values sit in class 0 (its
// bound still holds); a larger value than the window holds, or every refresh_every events, rebuilds
// the samplers from the particles (a stable counting sort by class), as does the start of every advance.
#pragma once

#include <cstdint>
#include <string>

#include "coag_ensemble.hpp"
#include "coag_trials.hpp"

namespace ks::coag {

constexpr int kClasses = 96;       // a sampler's window: 24 factors of two
constexpr int kClassHeadroom = 8;  // classes left above the largest value at a rebuild
constexpr int kMaxSamplers = 7;
constexpr int kMaxTerms = 4;
constexpr std::uint32_t kPurposeMajorant = 5;  // RNG draws of the trials (2: cloud view, 3, 4: rejection)

// d^p of the diameter d, or the volume.
enum class Power : int { Zero, Half, NegThreeHalves, One, NegOne, Two, Volume };

struct SamplerSpec {
  bool weighted;  // times the particle's weight
  Power power;
};

struct Majorant {
  double scale = 0.0;
  int n_terms = 0;
  double coef[kMaxTerms] = {};
  int f[kMaxTerms] = {};  // sampler of the first particle
  int g[kMaxTerms] = {};  // sampler of the second; -1: uniform (G = 1)
  int n_samplers = 0;
  SamplerSpec spec[kMaxSamplers] = {};
};

KS_HD bool majorant_supported(KernelKind kind) { return kind != KernelKind::Fuchs; }

// The terms of each kernel's majorant, with max(w_i, w_j) <= w_i + w_j and:
//   free molecular, eq. (11): (d_i + d_j)^2 <= 2 (d_i^2 + d_j^2), (d_i^-3 + d_j^-3)^1/2 <= d_i^-3/2 + d_j^-3/2,
//     q_ij <= 2 K_F (w_i + w_j)(d_i^1/2 + d_j^1/2 + d_i^2 d_j^-3/2 + d_i^-3/2 d_j^2);
//   constant: K (w_i + w_j); additive: B (v_i + v_j)(w_i + w_j);
//   continuum: 2 pi (D_i + D_j)(d_i + d_j) = (2 kT / 3 mu)(2 + d_i/d_j + d_j/d_i), times (w_i + w_j).
// Each product splits into its w_i half (the terms below) and the mirrored w_j half.
namespace detail {
KS_HD constexpr int add_sampler(Majorant& m, bool weighted, Power p) {
  for (int s = 0; s < m.n_samplers; ++s)
    if (m.spec[s].weighted == weighted && m.spec[s].power == p) return s;
  m.spec[m.n_samplers] = {weighted, p};
  return m.n_samplers++;
}
KS_HD constexpr void add_term(Majorant& m, double coef, Power f, Power g) {
  m.coef[m.n_terms] = coef;
  m.f[m.n_terms] = add_sampler(m, true, f);
  m.g[m.n_terms] = g == Power::Zero ? -1 : add_sampler(m, false, g);
  ++m.n_terms;
}
}  // namespace detail

// The terms of a kernel's majorant without its scale (a compile-time constant for the GPU loop).
KS_HD constexpr Majorant majorant_terms(KernelKind kind) {
  Majorant m;
  switch (kind) {
    case KernelKind::FreeMolecular:
      detail::add_term(m, 1.0, Power::Half, Power::Zero);
      detail::add_term(m, 1.0, Power::Zero, Power::Half);
      detail::add_term(m, 1.0, Power::Two, Power::NegThreeHalves);
      detail::add_term(m, 1.0, Power::NegThreeHalves, Power::Two);
      break;
    case KernelKind::Constant: detail::add_term(m, 1.0, Power::Zero, Power::Zero); break;
    case KernelKind::Additive:
      detail::add_term(m, 1.0, Power::Volume, Power::Zero);
      detail::add_term(m, 1.0, Power::Zero, Power::Volume);
      break;
    case KernelKind::Continuum:
      detail::add_term(m, 2.0, Power::Zero, Power::Zero);
      detail::add_term(m, 1.0, Power::One, Power::NegOne);
      detail::add_term(m, 1.0, Power::NegOne, Power::One);
      break;
    case KernelKind::Fuchs: break;
  }
  return m;
}

KS_HD double majorant_scale(const KernelParams& kp) {
  switch (kp.kind) {
    case KernelKind::FreeMolecular: return 2.0 * kp.KF;
    case KernelKind::Constant: return kp.K;
    case KernelKind::Additive: return kp.B;
    case KernelKind::Continuum: return 2.0 * kp.kT / (3.0 * kp.mu);
    case KernelKind::Fuchs: break;
  }
  return 0.0;
}

inline Majorant majorant_of(const KernelParams& kp) {
  Majorant m = majorant_terms(kp.kind);
  m.scale = majorant_scale(kp);
  return m;
}

// The powers of a particle's diameter the samplers use, each computed once.
struct Powers {
  double v, d, sqrt_d, inv_d, inv_d_sqrt_d;
  KS_HD explicit Powers(const ParticleAux& a) : v(a.v), d(a.d), sqrt_d(sqrt(a.d)), inv_d(1.0 / a.d), inv_d_sqrt_d(1.0 / (a.d * sqrt_d)) {}
};

KS_HD double sampler_value(const SamplerSpec& s, const Powers& p, double w) {
  double x = 1.0;
  switch (s.power) {
    case Power::Zero: x = 1.0; break;
    case Power::Half: x = p.sqrt_d; break;
    case Power::NegThreeHalves: x = p.inv_d_sqrt_d; break;
    case Power::One: x = p.d; break;
    case Power::NegOne: x = p.inv_d; break;
    case Power::Two: x = p.d * p.d; break;
    case Power::Volume: x = p.v; break;
  }
  return s.weighted ? w * x : x;
}
KS_HD double sampler_value(const SamplerSpec& s, const ParticleAux& a, double w) { return sampler_value(s, Powers(a), w); }

// The class of a positive double: its exponent and two leading mantissa bits; class_bound(c) is
// the smallest double above every value of class c.
KS_HD int raw_class(double x) { return int(high_word(x) >> 18); }
KS_HD double class_bound(int raw) { return double_of_bits((std::uint64_t(raw) + 1) << 50); }
// A value's class in a window starting at `base`: at least 0, kClasses or more when outside the window.
KS_HD int window_class(double x, int base) {
  const int c = raw_class(x) - base;
  return c < 0 ? 0 : c;
}
KS_HD int window_base(int largest_raw) { return largest_raw + kClassHeadroom - (kClasses - 1); }

// One run's samplers, on the host or the device: sampler s holds order[s n .. (s+1) n) (particles by
// class), slot (each particle's place in order), start[s (kClasses + 1) ..] (where each class begins),
// tree[s (kTreeSize + 1) ..] (its total, then a Fenwick tree of the class bounds) and base[s].
constexpr int kTreeSize = 128;  // a power of two >= kClasses
struct SamplerSet {
  int* order;
  int* slot;
  int* start;
  double* tree;
  int* base;
  int n;

  KS_HD double total(int s) const { return tree[s * (kTreeSize + 1)]; }
  KS_HD int place(int s, int p) const { return slot[std::size_t(s) * n + p]; }
  KS_HD int class_of(int s, const SamplerSpec& spec, const Powers& p, double w) const {
    return window_class(sampler_value(spec, p, w), base[s]);
  }
  KS_HD double bound(int s, int c) const { return class_bound(base[s] + c); }
  // Sampler s's tree from its class counts (start) and base.
  KS_HD void build_tree(int s) const {
    double* t = tree + s * (kTreeSize + 1);
    const int* st = start + s * (kClasses + 1);
    for (int i = 1; i <= kTreeSize; ++i) t[i] = i <= kClasses ? (st[i] - st[i - 1]) * bound(s, i - 1) : 0.0;
    for (int i = 1; i <= kTreeSize; ++i)
      if (i + (i & -i) <= kTreeSize) t[i + (i & -i)] += t[i];
    t[0] = t[kTreeSize];
  }
  // One particle more (sign 1) or less (-1) in class c of sampler s.
  KS_HD void tally(int s, int c, double sign) const {
    double* t = tree + s * (kTreeSize + 1);
    const double delta = sign * bound(s, c);
    t[0] += delta;
    for (int i = c + 1; i <= kTreeSize; i += i & -i) t[i] += delta;
  }
  // The particle of sampler s for 32-bit uniforms x (class) and y (member within the class): the
  // first class whose cumulative bound exceeds the target (a descent of the tree; every partial sum
  // is exact, so the class is the same as a search of the cumulative bounds), then a member.
  KS_HD int draw(int s, std::uint32_t x, std::uint32_t y) const {
    const double* t = tree + s * (kTreeSize + 1);
    const double target = double(x) * 0x1p-32 * t[0];  // below the total
    int c = 0;
    double below = 0.0;
    for (int step = kTreeSize / 2; step > 0; step >>= 1)
      if (below + t[c + step] <= target) {
        c += step;
        below += t[c];
      }
    const int* st = start + s * (kClasses + 1);
    if (c >= kClasses || st[c + 1] == st[c]) return order[std::size_t(s) * n];  // only with non-finite bounds: refused
    const std::uint32_t count = std::uint32_t(st[c + 1] - st[c]);
    return order[std::size_t(s) * n + st[c] + int((std::uint64_t(y) * count) >> 32)];
  }
  // Moves particle p, at place `hole`, of sampler s from class a to class b: the class boundaries
  // between them shift by one, each boundary's element filling the hole the last one left (|b - a|
  // moves). The boundary elements are read before any is written, a batch at a time (on the GPU: one
  // memory latency a batch instead of one a class); an empty class's boundary is the hole itself.
  // Returns the place of particle `other` (`other_place` unless it was one of those moved).
  KS_HD int move(int s, int p, int a, int b, int hole, int other, int other_place) const {
    int* ord = order + std::size_t(s) * n;
    int* sl = slot + std::size_t(s) * n;
    int* st = start + s * (kClasses + 1);
    constexpr int kBatch = 8;
    const int step = a < b ? 1 : -1;
    while (a != b) {
      int at[kBatch], moved[kBatch];
      int count = 0;
      for (; count < kBatch && a != b; ++count, a += step) {
        at[count] = step > 0 ? st[a + 1] - 1 : st[a];  // the class's last (up) or first (down) place
        st[step > 0 ? a + 1 : a] -= step;
      }
      for (int k = 0; k < count; ++k) moved[k] = ord[at[k]];
      for (int k = 0; k < count; ++k) {
        if (at[k] != hole) {
          ord[hole] = moved[k];
          sl[moved[k]] = hole;
          if (moved[k] == other) other_place = hole;
        }
        hole = at[k];
      }
    }
    ord[hole] = p;
    sl[p] = hole;
    return other_place;
  }
  // Both particles of an event (i at place_i, then j) from their old classes to their new ones in
  // sampler s, with the tree's counts.
  KS_HD void move_pair(int s, int i, int from_i, int to_i, int place_i, int j, int from_j, int to_j, int place_j) const {
    if (from_i != to_i) {
      place_j = move(s, i, from_i, to_i, place_i, j, place_j);
      tally(s, from_i, -1.0);
      tally(s, to_i, 1.0);
    }
    if (from_j != to_j) {
      move(s, j, from_j, to_j, place_j, -1, 0);
      tally(s, from_j, -1.0);
      tally(s, to_j, 1.0);
    }
  }
};

// Each term's total proposal weight coef_a U(F_a) U(G_a), accumulated; the last is sum B / scale
// (s: a SamplerSet, or coag_stepped.hpp's trees).
struct TermTotals {
  double cum[kMaxTerms];
};
template <typename Samplers>
KS_HD TermTotals term_totals(const Majorant& m, const Samplers& s) {
  TermTotals t{};
  double acc = 0.0;
  for (int a = 0; a < m.n_terms; ++a) {
    acc += m.coef[a] * s.total(m.f[a]) * (m.g[a] < 0 ? double(s.n) : s.total(m.g[a]));
    t.cum[a] = acc;
  }
  return t;
}
// Time a trial stands for: V / sum B.
KS_HD double trial_time(const Majorant& m, const TermTotals& t, double box_volume) { return box_volume / (m.scale * t.cum[m.n_terms - 1]); }

struct Trial {
  int i, j;
  double u;  // acceptance uniform in (0, 1)
};

// Trial `lane` of round `round` of event `event`: two Philox draws (term, i's class and member,
// j's class and member or uniform index, the acceptance uniform).
KS_HD Trial draw_trial(const PhiloxStream& rng, std::uint64_t event, int round, int lane, const Majorant& m, const SamplerSet& s,
                       const TermTotals& t) {
  const std::uint32_t index = 2u * (std::uint32_t(round) * kCandidatesPerRound + std::uint32_t(lane));
  const PhiloxCounter r0 = rng.draw(event, kPurposeMajorant, index), r1 = rng.draw(event, kPurposeMajorant, index + 1);
  const double target = double(r0.v[0]) * 0x1p-32 * t.cum[m.n_terms - 1];
  int a = 0;
  while (a < m.n_terms - 1 && !(target < t.cum[a])) ++a;
  Trial trial;
  trial.i = s.draw(m.f[a], r0.v[1], r0.v[2]);
  trial.j = m.g[a] < 0 ? int((std::uint64_t(r0.v[3]) * std::uint32_t(s.n)) >> 32) : s.draw(m.g[a], r0.v[3], r1.v[0]);
  trial.u = uniform_open01(r1.v[2], r1.v[3]);
  return trial;
}

// B(i, j) + B(j, i) from the particles' class bounds (s: a SamplerSet, or coag_stepped.hpp's trees).
template <typename Samplers>
KS_HD double pair_majorant(const Majorant& m, const Samplers& s, const ParticleAux& ai, double wi, const ParticleAux& aj, double wj) {
  const Powers pi(ai), pj(aj);
  double fi[kMaxSamplers], fj[kMaxSamplers];
  for (int k = 0; k < m.n_samplers; ++k) {
    fi[k] = s.bound(k, s.class_of(k, m.spec[k], pi, wi));
    fj[k] = s.bound(k, s.class_of(k, m.spec[k], pj, wj));
  }
  double sum = 0.0;
  for (int a = 0; a < m.n_terms; ++a) {
    const double gi = m.g[a] < 0 ? 1.0 : fi[m.g[a]], gj = m.g[a] < 0 ? 1.0 : fj[m.g[a]];
    sum += m.coef[a] * (fi[m.f[a]] * gj + fj[m.f[a]] * gi);
  }
  return m.scale * sum;
}

template <typename Samplers>
KS_HD bool trial_accepted(const Trial& t, const Majorant& m, const Samplers& s, const ParticleAux& ai, double wi, const ParticleAux& aj,
                          double wj, const KernelParams& kp) {
  if (t.i == t.j) return false;
  return t.u * pair_majorant(m, s, ai, wi, aj, wj) < beta(ai, aj, kp) * (wi > wj ? wi : wj);
}

// Why a run stopped when no trial was accepted (CPU and GPU alike).
inline std::string no_trial_message(int run, std::uint64_t event) {
  return "aerosol.coagulation: run " + std::to_string(run) + ", event " + std::to_string(event) +
         ": selection by majorant accepted no pair in " + std::to_string(kMaxRounds) +
         " rounds of trials; the particles' volumes or weights are not finite";
}

}  // namespace ks::coag
