#include "lbm_packing.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/constants.hpp"
#include "core/errors.hpp"
#include "core/philox.hpp"
#include "lbm_params.hpp"

namespace ks::lbm {

namespace {

// Mean of d^3 under p(d) ~ d^-k on [a, b] (Simpson's rule, 512 intervals: relative error < 1e-10).
double mean_cube(double k, double a, double b) {
  constexpr int kIntervals = 512;
  const double h = (b - a) / kIntervals;
  double num = 0.0, den = 0.0;
  for (int i = 0; i <= kIntervals; ++i) {
    const double d = a + i * h, w = (i == 0 || i == kIntervals) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    const double p = std::pow(d, -k);
    num += w * p * d * d * d;
    den += w * p;
  }
  return num / den;
}

// k with mean_cube(k) = target (mean_cube falls monotonically with k).
double size_exponent(double target, double a, double b) {
  double lo = -40.0, hi = 40.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (mean_cube(mid, a, b) > target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// Inverse of the cumulative distribution of p(d) ~ d^-k on [a, b] at u.
double sample_diameter(double u, double k, double a, double b) {
  if (std::fabs(1.0 - k) < 1e-12) return a * std::pow(b / a, u);
  const double e = 1.0 - k;
  return std::pow(std::pow(a, e) + u * (std::pow(b, e) - std::pow(a, e)), 1.0 / e);
}

// Sphere indices sorted into cubic cells of side d_max over the bed.
struct CellList {
  double size, lo[3];
  int n[3];
  std::vector<std::vector<int>> cells;

  CellList(const PackingSpec& s) : size(s.d_max) {
    lo[0] = s.axis[0] - s.radius;
    lo[1] = s.axis[1] - s.radius;
    lo[2] = s.z0;
    n[0] = n[1] = int(std::ceil(2.0 * s.radius / size)) + 1;
    n[2] = int(std::ceil((s.z1 - s.z0) / size)) + 1;
    cells.resize(std::size_t(n[0]) * n[1] * n[2]);
  }
  int coord(double x, int a) const { return std::clamp(int((x - lo[a]) / size), 0, n[a] - 1); }
  void fill(const std::vector<Sphere>& sp) {
    for (auto& c : cells) c.clear();
    for (std::size_t k = 0; k < sp.size(); ++k)
      cells[(std::size_t(coord(sp[k].c[2], 2)) * n[1] + coord(sp[k].c[1], 1)) * n[0] + coord(sp[k].c[0], 0)].push_back(int(k));
  }
  template <class F>
  void near(const Sphere& s, F f) const {
    const int b[3] = {coord(s.c[0], 0), coord(s.c[1], 1), coord(s.c[2], 2)};
    for (int k = std::max(0, b[2] - 1); k <= std::min(n[2] - 1, b[2] + 1); ++k)
      for (int j = std::max(0, b[1] - 1); j <= std::min(n[1] - 1, b[1] + 1); ++j)
        for (int i = std::max(0, b[0] - 1); i <= std::min(n[0] - 1, b[0] + 1); ++i)
          for (int o : cells[(std::size_t(k) * n[1] + j) * n[0] + i]) f(o);
  }
};

// Pushes sphere s back inside the bed section of the tube.
void contain(Sphere& s, const PackingSpec& spec) {
  const double dx = s.c[0] - spec.axis[0], dy = s.c[1] - spec.axis[1];
  const double rho = std::sqrt(dx * dx + dy * dy), lim = spec.radius - s.r;
  if (rho > lim) {
    s.c[0] = spec.axis[0] + dx * lim / rho;
    s.c[1] = spec.axis[1] + dy * lim / rho;
  }
  s.c[2] = std::clamp(s.c[2], spec.z0 + s.r, spec.z1 - s.r);
}

// One Gauss-Seidel sweep: every overlapping pair is moved apart to touching, in index order.
// Returns the largest overlap met (before its correction).
double separation_sweep(std::vector<Sphere>& sp, const CellList& cells, const PackingSpec& spec, bool move) {
  double worst = 0.0;
  for (std::size_t a = 0; a < sp.size(); ++a) {
    cells.near(sp[a], [&](int b) {
      if (std::size_t(b) <= a) return;
      double d[3], dist2 = 0.0;
      for (int k = 0; k < 3; ++k) {
        d[k] = sp[b].c[k] - sp[a].c[k];
        dist2 += d[k] * d[k];
      }
      const double reach = sp[a].r + sp[b].r;
      if (dist2 >= reach * reach) return;
      const double dist = std::sqrt(dist2), overlap = reach - dist;
      worst = std::max(worst, overlap);
      if (!move || dist == 0.0) return;
      for (int k = 0; k < 3; ++k) {
        sp[a].c[k] -= 0.5 * overlap * d[k] / dist;
        sp[b].c[k] += 0.5 * overlap * d[k] / dist;
      }
      contain(sp[a], spec);
      contain(sp[b], spec);
    });
  }
  return worst;
}

}  // namespace

Packing pack_spheres(const PackingSpec& spec, const Interrupt& stop) {
  if (!(spec.d_min > 0.0 && spec.d_max >= spec.d_min))
    throw bad_input(param_keys(&LbmParams::d_min, &LbmParams::d_max),
                    "the sphere size range [" + std::to_string(spec.d_min) + ", " + std::to_string(spec.d_max) + "] is empty",
                    "0 < d_min <= d_max");
  const double bed_volume = constants::kPi * spec.radius * spec.radius * (spec.z1 - spec.z0);
  const double target = (1.0 - spec.porosity) * bed_volume / (spec.count * constants::kPi / 6.0);
  const double lo = std::pow(spec.d_min, 3), hi = std::pow(spec.d_max, 3);
  if (!(target > lo * 1.0001 && target < hi * 0.9999))
    throw bad_input(
        "porosity",
        "porosity " + std::to_string(spec.porosity) + " with " + std::to_string(spec.count) + " spheres needs a mean d^3 of " +
            std::to_string(target),
        "a porosity whose mean d^3 lies in (" + std::to_string(lo) + ", " + std::to_string(hi) + ") for this count and size range");
  Packing out;
  out.size_exponent = spec.d_min == spec.d_max ? 0.0 : size_exponent(target, spec.d_min, spec.d_max);
  const PhiloxStream rng{spec.seed, 0x9ac1u};
  double solid = 0.0;
  out.spheres.resize(spec.count);
  for (int k = 0; k < spec.count; ++k) {
    double u[6];
    rng.uniform2(k, 0, u[0], u[1]);
    rng.uniform2(k, 1, u[2], u[3]);
    rng.uniform2(k, 2, u[4], u[5]);
    Sphere& s = out.spheres[k];
    s.r = 0.5 * (spec.d_min == spec.d_max ? spec.d_min : sample_diameter(u[0], out.size_exponent, spec.d_min, spec.d_max));
    const double rho = (spec.radius - s.r) * std::sqrt(u[1]), phi = 2.0 * constants::kPi * u[2];
    s.c[0] = spec.axis[0] + rho * std::cos(phi);
    s.c[1] = spec.axis[1] + rho * std::sin(phi);
    s.c[2] = spec.z0 + s.r + u[3] * (spec.z1 - spec.z0 - 2.0 * s.r);
    solid += 4.0 / 3.0 * constants::kPi * s.r * s.r * s.r;
  }
  out.porosity = 1.0 - solid / bed_volume;
  CellList cells(spec);
  const double tolerance = spec.overlap_tolerance * spec.d_min;
  double first_overlap = 0.0;
  for (out.sweeps = 0; out.sweeps < spec.max_sweeps; ++out.sweeps) {
    stop.throw_if_requested();
    cells.fill(out.spheres);
    separation_sweep(out.spheres, cells, spec, true);
    cells.fill(out.spheres);
    out.max_overlap = separation_sweep(out.spheres, cells, spec, false) / spec.d_min;
    if (out.max_overlap * spec.d_min < tolerance) return out;
    // The overlap falls about geometrically: the fraction of the way in its logarithm.
    if (out.sweeps == 0) first_overlap = out.max_overlap;
    const double way = std::log(first_overlap / spec.overlap_tolerance);
    stop.report("packing " + std::to_string(spec.count) + " spheres (sweep " + std::to_string(out.sweeps + 1) + ")",
                way > 0.0 ? std::clamp(std::log(first_overlap / out.max_overlap) / way, 0.0, 1.0) : 0.0);
  }
  throw bad_input(param_key(&LbmParams::sphere_count),
                  std::to_string(spec.count) + " spheres still overlap by " + std::to_string(out.max_overlap) + " d_min after " +
                      std::to_string(spec.max_sweeps) + " sweeps",
                  "fewer spheres or a larger porosity");
}

}  // namespace ks::lbm
