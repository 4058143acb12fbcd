#include "lbm_geometry.hpp"

#include <atomic>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "lbm_model.hpp"
#include "lbm_params.hpp"

namespace ks::lbm {

namespace {

// Spheres sorted into cubic buckets so that a point finds the spheres near it.
class SphereBuckets {
 public:
  SphereBuckets(const std::vector<Sphere>& spheres, const LbmConfig& c) : spheres_(spheres) {
    double rmax = 0.0;
    for (const Sphere& s : spheres) rmax = std::max(rmax, s.r);
    size_ = std::max(2.0 * rmax + 2.0, 4.0);
    for (int a = 0; a < 3; ++a) n_[a] = int(std::ceil(((a == 0 ? c.nx : a == 1 ? c.ny : c.nz) + 2.0) / size_)) + 1;
    cells_.assign(std::size_t(n_[0]) * n_[1] * n_[2], {});
    for (std::size_t k = 0; k < spheres.size(); ++k) cells_[cell_of(spheres[k].c)].push_back(int(k));
  }

  // Calls f(sphere) for every sphere whose bucket neighbours the bucket of p.
  template <class F>
  void near(const double p[3], F f) const {
    int b[3];
    for (int a = 0; a < 3; ++a) b[a] = bucket(p[a], a);
    for (int i = std::max(0, b[0] - 1); i <= std::min(n_[0] - 1, b[0] + 1); ++i)
      for (int j = std::max(0, b[1] - 1); j <= std::min(n_[1] - 1, b[1] + 1); ++j)
        for (int k = std::max(0, b[2] - 1); k <= std::min(n_[2] - 1, b[2] + 1); ++k)
          for (int s : cells_[(std::size_t(k) * n_[1] + j) * n_[0] + i]) f(spheres_[s]);
  }

 private:
  int bucket(double x, int a) const { return std::clamp(int(std::floor((x + 1.0) / size_)), 0, n_[a] - 1); }
  std::size_t cell_of(const double p[3]) const {
    return (std::size_t(bucket(p[2], 2)) * n_[1] + bucket(p[1], 1)) * n_[0] + bucket(p[0], 0);
  }
  const std::vector<Sphere>& spheres_;
  double size_ = 4.0;
  int n_[3] = {1, 1, 1};
  std::vector<std::vector<int>> cells_;
};

// Smallest root t in [0, 1 + eps] of |p + t e - c|^2 = r^2 where the segment enters (sign = -1)
// or leaves (sign = +1) the sphere or circle; +inf when there is none.
double crossing(const double* p, const double* e, const double* c, double r, int dims, int sign) {
  double a = 0.0, b = 0.0, q = -r * r;
  for (int k = 0; k < dims; ++k) {
    const double d = p[k] - c[k];
    a += e[k] * e[k];
    b += d * e[k];
    q += d * d;
  }
  if (a == 0.0) return std::numeric_limits<double>::infinity();
  const double disc = b * b - a * q;
  if (disc < 0.0) return std::numeric_limits<double>::infinity();
  const double t = (-b + sign * std::sqrt(disc)) / a;
  return t >= 0.0 && t <= 1.0 + 1e-9 ? t : std::numeric_limits<double>::infinity();
}

}  // namespace

Shapes centred_tube(int nx, int ny) {
  Shapes s;
  s.tube = true;
  s.axis[0] = 0.5 * (nx - 1);
  s.axis[1] = 0.5 * (ny - 1);
  s.radius = 0.5 * std::min(nx, ny) - 2.0;
  return s;
}

Shapes coarsened(const Shapes& fine) {
  Shapes s = fine;
  auto map = [](double x) { return 0.5 * (x - 0.5); };
  s.axis[0] = map(fine.axis[0]);
  s.axis[1] = map(fine.axis[1]);
  s.radius = 0.5 * fine.radius;
  for (Sphere& sp : s.spheres) {
    for (double& x : sp.c) x = map(x);
    sp.r *= 0.5;
  }
  return s;
}

LatticeGeometry build_geometry(const LbmConfig& c, Shapes shapes, const Slab& slab, const Interrupt& stop) {
  if (c.nodes() >= (1ll << 31))
    throw bad_input(param_keys(&LbmParams::nx, &LbmParams::ny, &LbmParams::nz), "the lattice has " + std::to_string(c.nodes()) + " nodes",
                    "fewer than 2^31");
  LatticeGeometry g;
  g.shapes = std::move(shapes);
  const Shapes& s = g.shapes;
  // The solid mask over a window of the held planes and `m` more on each side (a halo plane's type
  // needs its neighbours); the whole lattice wraps onto itself instead. Node indices of the window
  // (neighbour() wraps in it only where it is the whole ring) and of the held lattice differ by m planes.
  const int m = slab.halo;
  LbmConfig win = c;
  win.nz = slab.planes() + 2 * m;
  const long long plane = (long long)c.nx * c.ny, W = win.nodes();
  auto global_z = [&](int w) { return slab.global(w - m); };
  std::vector<std::uint8_t> solid(W, 0);
  stop.report("marking solid nodes", 0.0);
  // The tube, node by node; the spheres over their bounding boxes.
#pragma omp parallel for schedule(static)
  for (int w = 0; w < win.nz; ++w)
    for (int y = 0; y < c.ny; ++y)
      for (int x = 0; x < c.nx; ++x) {
        const double dx = x - s.axis[0], dy = y - s.axis[1];
        if (s.tube && dx * dx + dy * dy >= s.radius * s.radius) solid[(std::size_t(w) * c.ny + y) * c.nx + x] = 1;
      }
  for (const Sphere& sp : s.spheres) {
    int lo[3], hi[3];
    const int n[3] = {c.nx, c.ny, c.nz};
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::max(0, int(std::ceil(sp.c[a] - sp.r)));
      hi[a] = std::min(n[a] - 1, int(std::floor(sp.c[a] + sp.r)));
    }
    for (int w = 0; w < win.nz; ++w) {
      const int z = global_z(w);
      if (z < lo[2] || z > hi[2]) continue;
      for (int y = lo[1]; y <= hi[1]; ++y)
        for (int x = lo[0]; x <= hi[0]; ++x) {
          const double d0 = x - sp.c[0], d1 = y - sp.c[1], d2 = z - sp.c[2];
          if (d0 * d0 + d1 * d1 + d2 * d2 < sp.r * sp.r) solid[(std::size_t(w) * c.ny + y) * c.nx + x] = 1;
        }
    }
  }
  stop.throw_if_requested();
  stop.report("classifying nodes", 0.2);
  g.type.assign(std::size_t(slab.planes()) * plane, kFluid);
  long long fluid = 0;
#pragma omp parallel for schedule(static) reduction(+ : fluid)
  for (int zl = 0; zl < slab.planes(); ++zl)
    for (int y = 0; y < c.ny; ++y)
      for (int x = 0; x < c.nx; ++x) {
        const int w = zl + m;
        const long long k = (std::size_t(w) * c.ny + y) * c.nx + x;
        const bool owned = slab.owns(slab.global(zl));
        if (!solid[k]) {
          fluid += owned;
          continue;
        }
        bool wall = false;
        for (int i = 0; i < kQ && !wall; ++i) wall = !solid[neighbour(win, x, y, w, i)];
        g.type[k - m * plane] = wall ? kWall : kInterior;
      }
  g.fluid_nodes = g.lattice_fluid_nodes = fluid;

  // Wall links of the owned fluid nodes: the first point of the segment x_f -> x_f + c_i that is solid.
  stop.throw_if_requested();
  stop.report("finding wall links", 0.3);
  const SphereBuckets buckets(s.spheres, c);
  std::vector<std::vector<WallLink>> per_plane(slab.planes());
  std::atomic<int> planes_done{0};
#pragma omp parallel for schedule(dynamic)
  for (int zl = slab.first_owned(); zl < slab.first_owned() + slab.owned(); ++zl) {
    if (stop.requested()) continue;
    for (int y = 0; y < c.ny; ++y)
      for (int x = 0; x < c.nx; ++x) {
        const int w = zl + m, z = slab.global(zl);
        const long long k = (std::size_t(w) * c.ny + y) * c.nx + x;
        if (solid[k]) continue;
        for (int i = 0; i < kQ; ++i) {
          if (i == 13) continue;  // rest
          const int zn = z + cz(i);
          if (!c.periodic_z() && (zn < 0 || zn >= c.nz)) continue;  // open end, not a wall
          const long long sn = neighbour(win, x, y, w, i);
          if (!solid[sn]) continue;
          const double p[3] = {double(x), double(y), double(z)}, e[3] = {double(cx(i)), double(cy(i)), double(cz(i))};
          double t = std::numeric_limits<double>::infinity();
          if (s.tube) t = std::min(t, crossing(p, e, s.axis, s.radius, 2, +1));
          buckets.near(p, [&](const Sphere& sp) { t = std::min(t, crossing(p, e, sp.c, sp.r, 3, -1)); });
          // The neighbour is solid, so the segment crosses a surface; round-off at grazing
          // incidence can miss it by ~1e-12: then the wall is at the solid node.
          const double delta = std::isfinite(t) ? std::min(t, 1.0) : 1.0;
          const int zf = z - cz(i);
          long long ff = -1;
          if (c.periodic_z() || (zf >= 0 && zf < c.nz)) {
            ff = neighbour(win, x, y, w, opposite(i));
            ff = solid[ff] ? -1 : ff - m * plane;
          }
          per_plane[zl].push_back({std::int32_t(k - m * plane), std::int32_t(sn - m * plane), std::int32_t(ff), i, delta});
        }
      }
    stop.report("finding wall links", 0.3 + 0.7 * double(++planes_done) / slab.owned());
  }
  stop.throw_if_requested();
  for (auto& links : per_plane) g.links.insert(g.links.end(), links.begin(), links.end());
  return g;
}

}  // namespace ks::lbm
