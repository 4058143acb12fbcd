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

#include "core/constants.hpp"
#include "core/host_device.hpp"
#include "core/philox.hpp"
#include "rmc_spectral.hpp"

namespace ks::rmc {

constexpr int kMaxLevels = 12;
constexpr int kMaxSteps = 1 << 22;  // a guard for rays in a transparent, fully periodic box

struct LevelView {
  int n[3];
  double h[3];
  float h_float[3];     // h in float: a float march reads it without a conversion
  int steps;            // -1: march to depletion
  const double* coord;  // per cell: table coordinate of its temperature

  template <class Real>
  KS_HD Real size(int a) const {
    if constexpr (sizeof(Real) == sizeof(float)) return h_float[a];
    else return h[a];
  }
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
  float tolerance_float;

  // The transmissivity cut-off in the march's precision (on the GPU a conversion every step otherwise).
  template <class Real>
  KS_HD Real cutoff() const {
    if constexpr (sizeof(Real) == sizeof(float)) return tolerance_float;
    else return tolerance;
  }
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
  // Cells c and c' draw the same random numbers where c >> packet_shift == c' >> packet_shift
  // (ray_packets: 5, runs of 32 cells along x; 0: every cell its own stream).
  int packet_shift;
};

// Tables in (global) memory with linear interpolation in the temperature coordinate.
struct TableLookup {
  const double* emission;    // [band][t]
  const double* absorption;  // [point][t]
  int nt;

  KS_HD double E(int band, double t) const { return interpolate_row(emission + (long long)band * nt, nt, t); }
  // k of pseudo-spectral point `point` and E of its band.
  KS_HD void k_and_E(int point, int band, double t, double& k, double& E_band) const {
    k = interpolate_row(absorption + (long long)point * nt, nt, t);
    E_band = E(band, t);
  }
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

// search_cdf over [0, hi] for a u whose answer is known to be <= hi (the descending order statistics
// of sorting): galloping down from hi, then bisecting; a few probes where successive u are close.
KS_HD int search_cdf_below(const double* cdf, int hi, double u) {
  int step = 1;
  while (hi - step >= 0 && cdf[hi - step] > u) {
    hi -= step;
    step *= 2;
  }
  int lo = hi - step + 1 > 0 ? hi - step + 1 : 0;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (cdf[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// A uniform in (0, 1] from a 32-bit word, in precision Real (a float may round up to 1).
template <class Real = double>
KS_HD Real unit_word(std::uint32_t w) {
  return (Real(w) + Real(0.5)) * Real(1.0 / 4294967296.0);
}

// exp(x) of a step's absorption: a float march on the GPU takes the hardware's 2^x (two instructions
// instead of eight, a few ulp against the textures' 9-bit interpolation of k); double everywhere else.
KS_HD float exp_step(float x) {
#ifdef __CUDA_ARCH__
  return __expf(x);
#else
  return std::exp(x);
#endif
}
KS_HD double exp_step(double x) { return exp(x); }

// sin and cos of 2 pi u.
KS_HD void sincos_2pi(double u, double& s, double& c) {
  const double ph = 2.0 * constants::kPi * u;
  s = sin(ph), c = cos(ph);
}
KS_HD void sincos_2pi(float u, float& s, float& c) {
#ifdef __CUDA_ARCH__
  sincospif(2.0f * u, &s, &c);
#else
  s = std::sin(6.28318531f * u), c = std::cos(6.28318531f * u);
#endif
}

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
      const Real face = Real(idx[a] + (d[a] > Real(0) ? 1 : 0)) * lv.size<Real>(a);
      const Real inv = Real(1) / d[a];  // one division per axis
      const Real s = (face - pos[a]) * inv;
      tmax[a] = s > Real(0) ? s : Real(0);
      tdelta[a] = lv.size<Real>(a) * (inv > Real(0) ? inv : -inv);
    }
  }
  KS_HD void position(Real pos[3]) const {
    KS_UNROLL
    for (int a = 0; a < 3; ++a) pos[a] = org[a] + t * d[a];
  }
  // The axis whose face the ray crosses first (ties to the lower axis) and the path length there,
  // by selects (nested conditions compile to branches that split a warp's lanes).
  KS_HD int next_face(Real& tface) const {
    const bool x_first = tmax[0] <= tmax[1];
    const Real txy = x_first ? tmax[0] : tmax[1];
    const bool z_first = tmax[2] < txy;
    tface = z_first ? tmax[2] : txy;
    return z_first ? 2 : (x_first ? 0 : 1);
  }
};

// A ray in flight: what the march carries from one face crossing to the next.
template <class Real>
struct RayState {
  Traversal<Real> r;
  int idx[3];
  long long cur;  // cell index on the current level
  int level, steps_left, reflections, steps, band, point;
  Real tau, q, Elast, Ei, scale;
};

// A ray from the centre of cell `cell` (indices ci) with direction dir and pseudo-spectral point
// `point`, to be marched in precision Real.
template <class Real, class Lookup>
KS_HD void start_ray(RayState<Real>& s, const MarchView& v, const Lookup& look, long long cell, const int ci[3], const Real dir[3],
                     int point) {
  s.point = point;
  s.band = point / v.per_band;
  const LevelView& lv = v.level[0];
  const Real ti = Real(look.coord(0, lv, cell));
  double ki, Ei;
  look.k_and_E(point, s.band, ti, ki, Ei);
  s.Ei = Real(Ei);
  // QE R_I of eq. (14) folded into one factor: QE k_i I_b,i / (k_max I_b,max), applied to (1 - E_j / E_i).
  s.scale = Real(v.emission_max * ki * v.inv_source[point]);
  Real pos[3];
  KS_UNROLL
  for (int a = 0; a < 3; ++a) {
    s.idx[a] = ci[a];
    s.r.d[a] = dir[a];
    pos[a] = Real((ci[a] + 0.5) * lv.h[a]);
  }
  s.r.anchor(pos, s.idx, lv);
  s.cur = cell;
  s.level = 0;
  s.steps_left = lv.steps;
  s.reflections = 0;
  s.steps = 0;
  s.tau = 1;
  s.q = 0;
  s.Elast = s.Ei;
}

// One face crossing of Algorithm 1: absorption in the current cell (eq. 2, 3), then into the next
// cell, through a periodic wrap, off a wall or down a grid level. False once the ray is spent
// (finish_ray then adds what is left). `rng`/`index` give the random numbers of diffuse reflections.
template <class Real, class Lookup>
KS_HD bool step_ray(RayState<Real>& s, const MarchView& v, const Lookup& look, const PhiloxStream& rng, std::uint64_t index) {
  const LevelView* lv = &v.level[s.level];
  const Real tol = v.cutoff<Real>();
  Traversal<Real>& r = s.r;
  int* idx = s.idx;
  Real pos[3];
  // The face crossed first (Fig. 1).
  Real tface;
  const int axis = r.next_face(tface);
  const Real ds = tface - r.t;
  const Real tj = Real(look.coord(s.level, *lv, s.cur));
  double kj, Ej;
  look.k_and_E(s.point, s.band, tj, kj, Ej);
  const Real alpha = Real(1) - exp_step(-Real(kj) * ds);  // eq. (2)
  s.Elast = Real(Ej);
  s.q += s.scale * s.tau * alpha * (s.Ei - s.Elast);
  s.tau *= Real(1) - alpha;  // eq. (3)
  ++s.steps;
  if (s.tau <= tol) return false;
  // Into the next cell: without branches while the ray stays inside the grid (the lanes of a warp
  // cross different axes). The loops are unrolled (a is a constant in each copy), so on the device
  // idx and the traversal stay in registers instead of local memory.
  r.t = tface;
  KS_UNROLL
  for (int a = 0; a < 3; ++a) {
    const bool crossed = a == axis;
    idx[a] += crossed ? (r.d[a] > Real(0) ? 1 : -1) : 0;
    r.tmax[a] += crossed ? r.tdelta[a] : Real(0);
  }
  // Only the crossed axis can have left the grid (the ray's cell was inside).
  const int crossed_at = axis == 0 ? idx[0] : (axis == 1 ? idx[1] : idx[2]);
  const bool inside = unsigned(crossed_at) < unsigned(lv->n[axis]);
  bool absorbed = false;
  KS_UNROLL
  for (int a = 0; a < 3; ++a) {
    if (inside || a != axis) continue;
    const int step = r.d[a] > Real(0) ? 1 : -1;
    if (v.periodic[a]) {
      idx[a] = step > 0 ? 0 : lv->n[a] - 1;
      r.position(pos);
      pos[a] = step > 0 ? Real(0) : Real(v.L[a]);
      r.anchor(pos, idx, *lv);
    } else {
      // A wall absorbs eps_w of what reaches it (eq. 3) and reflects the rest.
      idx[a] -= step;
      const int side = 2 * a + (step > 0 ? 1 : 0);
      const Real eps = Real(v.wall_eps[side]);
      s.q += s.scale * s.tau * eps * (s.Ei - Real(look.E(s.band, v.wall_coord[side])));
      s.tau *= Real(1) - eps;
      absorbed = s.tau <= tol;
      if (absorbed) break;
      r.position(pos);
      pos[a] = step > 0 ? Real(v.L[a]) : Real(0);
      if (v.specular) {
        r.d[a] = -r.d[a];
      } else {
        // Lambertian: cos(theta) = sqrt(u) about the inward normal.
        const PhiloxCounter w = rng.draw(index, 1u + std::uint32_t(s.reflections));
        const double ct = sqrt(unit_word(w.v[0])), st = sqrt(1.0 - ct * ct);
        double sn, cs;
        sincos_2pi(unit_word(w.v[1]), sn, cs);
        r.d[a] = Real(-step * ct);
        r.d[(a + 1) % 3] = Real(st * cs);
        r.d[(a + 2) % 3] = Real(st * sn);
      }
      ++s.reflections;
      r.anchor(pos, idx, *lv);
    }
  }
  if (absorbed) return false;
  if (s.steps_left > 0 && --s.steps_left == 0 && s.level + 1 < v.levels) {
    // Drop to the coarser grid (section 4.3) into the coarse cell that holds the centre of the
    // ray's current cell (integer arithmetic, the map build_levels averages with).
    r.position(pos);
    const LevelView* fine = lv;
    lv = &v.level[++s.level];
    s.steps_left = lv->steps;
    KS_UNROLL
    for (int a = 0; a < 3; ++a)  // halved axes without the integer division
      idx[a] = 2 * lv->n[a] == fine->n[a] ? idx[a] >> 1 : (2 * idx[a] + 1) * lv->n[a] / (2 * fine->n[a]);
    r.anchor(pos, idx, *lv);
  }
  s.cur = (idx[2] * lv->n[1] + idx[1]) * lv->n[0] + idx[0];  // int: at most 1024^3 cells
  return s.steps < kMaxSteps;
}

// The ray's estimate once it is spent: what is left is absorbed where it stopped (Algorithm 1, line 29).
template <class Real>
KS_HD RayResult finish_ray(const RayState<Real>& s) {
  return {double(s.q + s.scale * s.tau * (s.Ei - s.Elast)), s.steps};
}

// The rays [r, r1) of one chunk of batch `batch` from one cell, in order. Each ray's random numbers
// come from one Philox draw keyed by (seed, cell >> packet_shift) at counter (batch, ray), so every
// backend traces the same rays. With sorting, the rays' spectral variates are the descending order statistics of
// the chunk (from the same draws), mapped through the table ordered by k(T_max): the chunk's rays go
// from the most to the least absorbing, in step with the neighbouring chunks (section 4.2).
struct ChunkRays {
  PhiloxStream rng;
  std::uint32_t batch;
  int r, r1;
  int batch_rays;  // the cell's rays in the batch, all chunks: sorting's strata
  int sorted_at;   // sorting: the last ray's index in cdf_sorted (the next one is not above it)

  KS_HD ChunkRays(const MarchView& v, long long cell, std::uint32_t batch_, int r0, int r1_, int batch_rays_)
      : rng{v.seed, std::uint32_t(cell >> v.packet_shift)},
        batch(batch_),
        r(r0),
        r1(r1_),
        batch_rays(batch_rays_),
        sorted_at(v.bands * v.per_band - 1) {}
  KS_HD bool more() const { return r < r1; }
  KS_HD std::uint64_t index() const { return (std::uint64_t(batch) << 32) | std::uint32_t(r); }
  // The next ray's direction (eq. 9) and pseudo-spectral point (eq. 15-17), in the precision the
  // ray marches in (float launches cost a third less on the GPU); then moves on.
  template <class Real>
  KS_HD void next(const MarchView& v, Real dir[3], int& point) {
    const PhiloxCounter w = rng.draw(index(), 0u);
    const Real ct = Real(1) - Real(2) * unit_word<Real>(w.v[0]);  // eq. (9): R_theta = (1 - cos theta) / 2
    const Real st = sqrt(Real(1) - ct * ct);
    Real sn, cs;
    sincos_2pi(unit_word<Real>(w.v[1]), sn, cs);
    dir[0] = st * cs, dir[1] = st * sn, dir[2] = ct;
    if (v.sorting) {
      // Ray r of the batch's R draws its spectral variate in the r-th of R equal strata from the top:
      // u in ((R - 1 - r) / R, (R - r) / R]. A thread's rays descend through the spectrum, and the
      // lanes of a warp (neighbouring cells, same chunk) march the same stratum at the same time
      // however few rays a batch has (section 4.2; with random order statistics of each chunk's rays
      // the lanes drifted apart: the kernel is 14 % faster for strata, README).
      const double u = (double(batch_rays - 1 - r) + unit_word(w.v[2])) / double(batch_rays);
      sorted_at = search_cdf_below(v.cdf_sorted, sorted_at, u);
      point = v.sorted_point[sorted_at];
    } else {
      const int band = search_cdf(v.cdf_band, v.bands, unit_word(w.v[2]));
      point = band * v.per_band + search_cdf(v.cdf_point + (long long)band * v.per_band, v.per_band, unit_word(w.v[3]));
    }
    ++r;
  }
};

// Rays [r0, r1) of batch `batch` (batch_rays a cell) from cell `cell`, one after the other: adds their estimates to sum
// and sum2 and their face crossings to steps.
template <class Real, class Lookup>
KS_HD void trace_rays(const MarchView& v, const Lookup& look, long long cell, const int ci[3], std::uint32_t batch, int r0, int r1,
                      int batch_rays, double& sum, double& sum2, double& steps) {
  ChunkRays rays(v, cell, batch, r0, r1, batch_rays);
  while (rays.more()) {
    const std::uint64_t index = rays.index();
    Real dir[3];
    int point;
    rays.next(v, dir, point);
    RayState<Real> s;
    start_ray(s, v, look, cell, ci, dir, point);
    while (step_ray(s, v, look, rays.rng, index)) {
    }
    const RayResult ray = finish_ray(s);
    sum += ray.q;
    sum2 += ray.q * ray.q;
    steps += ray.steps;
  }
}

// Rays of one cell split into chunks so that small grids still fill a GPU: chunk c of `chunks` holds
// rays [c B / chunks, (c + 1) B / chunks). CPU and GPU use the same split and sum chunks in order.
KS_HD int chunk_begin(int rays, int chunks, int c) { return int((long long)rays * c / chunks); }

}  // namespace ks::rmc
