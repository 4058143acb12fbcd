// Acceptance-rejection selection of the event's pair (selection = "rejection"), host and device.
// Beyond the paper, which selects by inverse transform on cumulative sums (eq. 5a, 5b): the same
// pair distribution without any sum over the particles. A candidate k is drawn uniformly and
// accepted with probability value(k) / bound, bound >= every value: the accepted k then has
// probability value(k) / sum(value) exactly. Candidates come in rounds of 32 (a warp's lanes on
// the GPU); the pick is the first accepted in lane order, on the CPU and the GPU alike.
#pragma once

#include <cstdint>
#include <string>

#include "coag_ensemble.hpp"
#include "coag_trials.hpp"

namespace ks::coag {

constexpr std::uint32_t kPurposeFirstPick = 3;   // RNG draws of the candidates for i (eq. 5a) ...
constexpr std::uint32_t kPurposeSecondPick = 4;  // ... and for j (eq. 5b); 2 is the cloud view's

struct Candidate {
  int k;
  double u;  // acceptance uniform in (0, 1)
};

// Candidate `lane` of round `round` of event `event`: k uniform in [0, n) from 64 random bits
// (floor(x n / 2^64), computed exactly in 64-bit pieces), u from the other 64.
KS_HD Candidate draw_candidate(const PhiloxStream& rng, std::uint64_t event, std::uint32_t purpose, int round, int lane, int n) {
  const PhiloxCounter r = rng.draw(event, purpose, std::uint32_t(round) * kCandidatesPerRound + std::uint32_t(lane));
  const std::uint64_t low = (std::uint64_t(r.v[1]) * std::uint32_t(n)) >> 32;
  const int k = int((std::uint64_t(r.v[0]) * std::uint32_t(n) + low) >> 32);
  return {k, uniform_open01(r.v[2], r.v[3])};
}

KS_HD bool accepted(const Candidate& c, double value, double bound) { return c.u * bound < value; }

// The high 32 bits of a rate's bit pattern (0 for rates <= 0): for non-negative doubles their
// order is the values' order, so the largest of them bounds the largest rate as
// rate_bound(hi) (a warp finds it with one integer max-reduction; the CPU uses the same bound).
KS_HD std::uint32_t rate_high_word(double C) { return C > 0.0 ? high_word(C) : 0; }
KS_HD double rate_bound(std::uint32_t high_word) {
  return double_of_bits((std::uint64_t(high_word) + 1) << 32);  // above every double with that high word
}

// The extremes of the run's particles that bound a row of eq. (5b). Volumes only grow and weights
// only shrink in coalesce(), so the largest volume and smallest weight are kept exact from each
// event's pair, while the smallest volume and largest weight taken at the start stay valid bounds.
struct PairBounds {
  ParticleAux smallest, largest;
  double w_min, w_max;

  KS_HD void note(const ParticleAux& a, double w) {
    if (a.v > largest.v) largest = a;
    if (w < w_min) w_min = w;
  }
};

// Whether the row of every particle peaks at the size extremes: beta(i, k) as a function of
// v_k has a single minimum (free molecular: d/dx of ln[(d_i + x)^2 (d_i^-3 + x^-3)^1/2] has the
// sign of 2t^3 - 2t^2 + 2t - 3/2, t = x / d_i, increasing; continuum: (D_i + D_k)(d_i + d_k) ~
// 2 + d_i/d_k + d_k/d_i) or is monotonic (additive) or constant. The Fuchs interpolation has no
// such proof here, so it keeps the inverse transform.
KS_HD bool rejection_supported(KernelKind kind) { return kind != KernelKind::Fuchs; }

// Bound on beta_ik pair_weight(w_i, w_k) over every k: the kernel at the two size extremes times
// the largest pair_weight, which is at w_min (w_k <= w_i) or w_max (w_k >= w_i); 1e-12 covers
// the rounding of the products.
KS_HD double row_bound(const ParticleAux& i, double wi, const PairBounds& b, const KernelParams& kp) {
  const double at_small = beta(i, b.smallest, kp), at_large = beta(i, b.largest, kp);
  const double pw_low = wi / (wi + b.w_min), pw_high = b.w_max / (wi + b.w_max);
  return (1.0 + 1e-12) * (at_small > at_large ? at_small : at_large) * (pw_low > pw_high ? pw_low : pw_high);
}

// The host's selection: rounds of candidates in lane order until one is accepted; the GPU's warp
// takes a round at once and the first accepted lane, the same pick.
// Returns -1 after kMaxRounds.
template <class Value>
int select_by_rejection(const PhiloxStream& rng, std::uint64_t event, std::uint32_t purpose, int n, double bound, Value value) {
  for (int round = 0; round < kMaxRounds; ++round)
    for (int lane = 0; lane < kCandidatesPerRound; ++lane) {
      const Candidate c = draw_candidate(rng, event, purpose, round, lane, n);
      if (accepted(c, value(c.k), bound)) return c.k;
    }
  return -1;
}

// Why a run stopped when a selection gave up (CPU and GPU alike).
inline std::string no_pair_message(int run, std::uint64_t event) {
  return "aerosol.coagulation: run " + std::to_string(run) + ", event " + std::to_string(event) +
         ": selection by rejection accepted no pair in " + std::to_string(kMaxRounds) + " rounds; the rates C' are not finite";
}

// The bounds of particles [0, n) (aux and weights), host side.
inline PairBounds pair_bounds(const ParticleAux* aux, const double* w, int n) {
  PairBounds b{aux[0], aux[0], w[0], w[0]};
  for (int k = 1; k < n; ++k) {
    if (aux[k].v < b.smallest.v) b.smallest = aux[k];
    if (w[k] > b.w_max) b.w_max = w[k];
    b.note(aux[k], w[k]);
  }
  return b;
}

}  // namespace ks::coag
