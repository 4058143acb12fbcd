// radiation.rmc: the ray of the emission-based reciprocal Monte Carlo method (ERMC, eq. 12-14),
// shared by the CPU and CUDA paths. A ray leaves the centre of its cell i with a direction from
// eq. (9) and a pseudo-spectral point (n, g) drawn at T_max (eq. 15-17); it marches cell by cell
// (Algorithm 1), and each cell j it crosses adds
//   QE tau alpha (1 - I_b(T_j) / I_b(T_i)) R_I,   alpha = 1 - exp(-k_j ds)   (eq. 2, 12, 14)
// to the estimate of cell i. Here Q^R is the net emission (emitted minus absorbed power per unit
// volume, = div q, as Algorithm 1 accumulates it): positive where the gas cools.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"
#include "core/philox.hpp"
#include "rmc_spectral.hpp"

namespace ks::rmc {

constexpr int kMaxLevels = 12;
constexpr int kMaxSteps = 1 << 22;  // a guard for rays in a transparent, fully periodic box

struct LevelView {
  int n[3];
  double h[3];
  int steps;  // -1: march to depletion
  const double* coord;  // per cell: table coordinate of its temperature
};

// Everything a ray reads except the k and I_b tables (the Lookup policy holds those).
struct MarchView {
  LevelView level[kMaxLevels];
  int levels;
  double L[3];
  bool periodic[3];
  double wall_coord[6], wall_eps[6];  // walls -x, +x, -y, +y, -z, +z
  bool specular;
  double tolerance;
  // Sampling at T_max (see SpectralTables).
  const double* cdf_band;
  const double* cdf_point;
  const double* cdf_sorted;
  const int* sorted_point;
  const double* inv_source;
  int bands, per_band;
  double emission_max;
  bool sorting;
  std::uint64_t seed;
};

// Tables in (global) memory with linear interpolation in the temperature coordinate.
struct TableLookup {
  const double* emission;    // [band][t]
  const double* absorption;  // [point][t]
  int nt;

  KS_HD double E(int band, double t) const { return interpolate_row(emission + (long long)band * nt, nt, t); }
  KS_HD double k(int point, double t) const { return interpolate_row(absorption + (long long)point * nt, nt, t); }
  KS_HD double coord(int /*level*/, const LevelView& lv, long long cell) const { return lv.coord[cell]; }
};

// The first index i < n with cdf[i] > u (cdf inclusive, ending at 1, u in (0, 1)).
KS_HD int search_cdf(const double* cdf, int n, double u) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (cdf[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

KS_HD double unit_word(std::uint32_t w) { return (double(w) + 0.5) * (1.0 / 4294967296.0); }

// One ray's estimate of Q^R_i (W/m^3) and the face crossings it made.
struct RayResult {
  double q;
  int steps;
};

// Cell-by-cell traversal state in the style of Amanatides & Woo: the path length at which the ray
// crosses the next face on each axis, so a step costs a comparison and an addition (Fig. 1's
// "shortest distance" without a division per step). Re-anchored at walls, wraps and level changes.
template <class Real>
struct Traversal {
  Real org[3], d[3], tmax[3], tdelta[3], t;

  KS_HD void anchor(const Real pos[3], const int idx[3], const LevelView& lv) {
    t = 0;
    KS_UNROLL
    for (int a = 0; a < 3; ++a) {
      org[a] = pos[a];
      if (d[a] == Real(0)) {
        tmax[a] = tdelta[a] = Real(1e30);
        continue;
      }
      const Real face = Real(idx[a] + (d[a] > Real(0) ? 1 : 0)) * Real(lv.h[a]);
      const Real s = (face - pos[a]) / d[a];
      tmax[a] = s > Real(0) ? s : Real(0);
      tdelta[a] = Real(lv.h[a]) / (d[a] > Real(0) ? d[a] : -d[a]);
    }
  }
  KS_HD void position(Real pos[3]) const {
    KS_UNROLL
    for (int a = 0; a < 3; ++a) pos[a] = org[a] + t * d[a];
  }
  // The axis whose face the ray crosses first (ties to the lower axis) and the path length there.
  KS_HD int next_face(Real& tface) const {
    const int axis = tmax[0] <= tmax[1] ? (tmax[0] <= tmax[2] ? 0 : 2) : (tmax[1] <= tmax[2] ? 1 : 2);
    tface = axis == 0 ? tmax[0] : (axis == 1 ? tmax[1] : tmax[2]);
    return axis;
  }
};

// A ray from the centre of cell `cell` (indices ci) with direction dir and pseudo-spectral point
// `point`, marched in precision Real. `rng`/`index` give the random numbers of diffuse reflections.
template <class Real, class Lookup>
KS_HD RayResult trace_ray(const MarchView& v, const Lookup& look, long long cell, const int ci[3], const double dir[3], int point,
                          const PhiloxStream& rng, std::uint64_t index) {
  const int band = point / v.per_band;
  const LevelView* lv = &v.level[0];
  const Real ti = Real(look.coord(0, *lv, cell));
  const Real Ei = Real(look.E(band, ti));
  // QE R_I of eq. (14) folded into one factor: QE k_i I_b,i / (k_max I_b,max), applied to (1 - E_j / E_i).
  const Real scale = Real(v.emission_max * look.k(point, ti) * v.inv_source[point]);
  const Real tol = Real(v.tolerance);
  int idx[3] = {ci[0], ci[1], ci[2]};
  Traversal<Real> r;
  Real pos[3];
  KS_UNROLL
  for (int a = 0; a < 3; ++a) {
    r.d[a] = Real(dir[a]);
    pos[a] = Real((ci[a] + 0.5) * lv->h[a]);
  }
  r.anchor(pos, idx, *lv);
  long long cur = cell;
  int level = 0, steps_left = lv->steps, reflections = 0;
  Real tau = 1, q = 0, Elast = Ei;
  int steps = 0;
  while (steps < kMaxSteps) {
    // The face crossed first (Fig. 1).
    Real tface;
    const int axis = r.next_face(tface);
    const Real ds = tface - r.t;
    const Real tj = Real(look.coord(level, *lv, cur));
    const Real alpha = Real(1) - exp(-Real(look.k(point, tj)) * ds);  // eq. (2)
    Elast = Real(look.E(band, tj));
    q += scale * tau * alpha * (Ei - Elast);
    tau *= Real(1) - alpha;  // eq. (3)
    ++steps;
    if (tau <= tol) break;
    // Into the next cell. The body is written once per axis (a is a constant in each copy), so on the
    // device idx and the traversal stay in registers instead of local memory.
    r.t = tface;
    bool absorbed = false;
    KS_UNROLL
    for (int a = 0; a < 3; ++a) {
      if (a != axis) continue;
      const int step = r.d[a] > Real(0) ? 1 : -1;
      idx[a] += step;
      if (idx[a] >= 0 && idx[a] < lv->n[a]) {
        r.tmax[a] += r.tdelta[a];
      } else if (v.periodic[a]) {
        idx[a] = step > 0 ? 0 : lv->n[a] - 1;
        r.position(pos);
        pos[a] = step > 0 ? Real(0) : Real(v.L[a]);
        r.anchor(pos, idx, *lv);
      } else {
        // A wall absorbs eps_w of what reaches it (eq. 3) and reflects the rest.
        idx[a] -= step;
        const int side = 2 * a + (step > 0 ? 1 : 0);
        const Real eps = Real(v.wall_eps[side]);
        q += scale * tau * eps * (Ei - Real(look.E(band, v.wall_coord[side])));
        tau *= Real(1) - eps;
        absorbed = tau <= tol;
        if (absorbed) break;
        r.position(pos);
        pos[a] = step > 0 ? Real(v.L[a]) : Real(0);
        if (v.specular) {
          r.d[a] = -r.d[a];
        } else {
          // Lambertian: cos(theta) = sqrt(u) about the inward normal.
          const PhiloxCounter w = rng.draw(index, 1u + std::uint32_t(reflections));
          const double ct = sqrt(unit_word(w.v[0])), st = sqrt(1.0 - ct * ct), ph = 2.0 * 3.14159265358979323846 * unit_word(w.v[1]);
          r.d[a] = Real(-step * ct);
          r.d[(a + 1) % 3] = Real(st * cos(ph));
          r.d[(a + 2) % 3] = Real(st * sin(ph));
        }
        ++reflections;
        r.anchor(pos, idx, *lv);
      }
    }
    if (absorbed) break;
    if (steps_left > 0 && --steps_left == 0 && level + 1 < v.levels) {
      // Drop to the coarser grid (section 4.3) into the coarse cell that holds the centre of the
      // ray's current cell (integer arithmetic, the map build_levels averages with).
      r.position(pos);
      const LevelView* fine = lv;
      lv = &v.level[++level];
      steps_left = lv->steps;
      KS_UNROLL
      for (int a = 0; a < 3; ++a) idx[a] = (2 * idx[a] + 1) * lv->n[a] / (2 * fine->n[a]);
      r.anchor(pos, idx, *lv);
    }
    cur = ((long long)idx[2] * lv->n[1] + idx[1]) * lv->n[0] + idx[0];
  }
  // What is left is absorbed where the ray stopped (Algorithm 1, line 29).
  q += scale * tau * (Ei - Elast);
  return {double(q), steps};
}

// Rays [r0, r1) of batch `batch` from cell `cell`: adds their estimates to sum and sum2 and their face
// crossings to steps. Each ray's random numbers come from one Philox draw keyed by (seed, cell) at
// counter (batch, ray), so every backend traces the same rays. With sorting, the rays' spectral
// variates are the descending order statistics of the chunk (from the same draws), mapped through the
// table ordered by k(T_max): a thread marches its rays from the most to the least absorbing, in step
// with its neighbours (section 4.2).
template <class Real, class Lookup>
KS_HD void trace_rays(const MarchView& v, const Lookup& look, long long cell, const int ci[3], std::uint32_t batch, int r0,
                      int r1, double& sum, double& sum2, double& steps) {
  const PhiloxStream rng{v.seed, std::uint32_t(cell)};
  double u_top = 1.0;
  for (int r = r0; r < r1; ++r) {
    const std::uint64_t index = (std::uint64_t(batch) << 32) | std::uint32_t(r);
    const PhiloxCounter w = rng.draw(index, 0u);
    const double ct = 1.0 - 2.0 * unit_word(w.v[0]);  // eq. (9): R_theta = (1 - cos theta) / 2
    const double st = sqrt(1.0 - ct * ct), ph = 2.0 * 3.14159265358979323846 * unit_word(w.v[1]);
    const double d[3] = {st * cos(ph), st * sin(ph), ct};
    int point;
    if (v.sorting) {
      u_top *= pow(unit_word(w.v[2]), 1.0 / double(r1 - r));  // the next-lower order statistic
      point = v.sorted_point[search_cdf(v.cdf_sorted, v.bands * v.per_band, u_top)];
    } else {
      const int band = search_cdf(v.cdf_band, v.bands, unit_word(w.v[2]));
      point = band * v.per_band + search_cdf(v.cdf_point + (long long)band * v.per_band, v.per_band, unit_word(w.v[3]));
    }
    const RayResult ray = trace_ray<Real>(v, look, cell, ci, d, point, rng, index);
    sum += ray.q;
    sum2 += ray.q * ray.q;
    steps += ray.steps;
  }
}

// Rays of one cell split into chunks so that small grids still fill a GPU: chunk c of `chunks` holds
// rays [c B / chunks, (c + 1) B / chunks). CPU and GPU use the same split and sum chunks in order.
KS_HD int chunk_begin(int rays, int chunks, int c) { return int((long long)rays * c / chunks); }

}  // namespace ks::rmc
