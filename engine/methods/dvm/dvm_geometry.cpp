#include "dvm_geometry.hpp"

#include <algorithm>
#include <cmath>

#include "core/checked.hpp"
#include "core/communicator.hpp"
#include "dvm_model.hpp"

namespace ks::dvm {

Axis uniform_axis(double lo, double hi, int n) {
  Axis a;
  for (int i = 0; i <= n; ++i) a.faces.push_back(lo + (hi - lo) * i / n);
  return a;
}

bool DvmConfig::closed() const {
  for (FaceKind f : face)
    if (f == FaceKind::Inflow) return false;
  return true;
}

Geometry make_geometry(const DvmConfig& c) {
  Geometry g;
  const int n[3] = {c.n(0), c.n(1), c.n(2)};
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < n[a]; ++i) {
      g.size[a].push_back(c.axis[a].size(i));
      g.inv_size[a].push_back(1.0 / c.axis[a].size(i));
    }
  const long long cells = c.cells();
  auto index = [&](int i, int j, int k) { return ((long long)k * n[1] + j) * n[0] + i; };
  g.solid.assign(cells, 0);
  if (c.has_body)
    for (int k = 0; k < n[2]; ++k)
      for (int j = 0; j < n[1]; ++j)
        for (int i = 0; i < n[0]; ++i) {
          const double x[3] = {c.axis[0].centre(i), c.axis[1].centre(j), c.axis[2].centre(k)};
          bool inside = true;
          for (int a = 0; a < 3; ++a) inside = inside && x[a] > c.body_lo[a] && x[a] < c.body_hi[a];
          g.solid[index(i, j, k)] = inside;
        }
  g.link.assign(cells * 6, kFluid);
  g.volume.assign(cells, 0.0);
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) {
        const long long cell = index(i, j, k);
        if (g.solid[cell]) continue;
        g.volume[cell] = g.size[0][i] * g.size[1][j] * g.size[2][k];
        for (int side = 0; side < 6; ++side) {
          const int a = side / 2, step = side % 2 ? 1 : -1;
          int nb[3] = {i, j, k};
          nb[a] += step;
          int& l = g.link[cell * 6 + side];
          if (nb[a] < 0 || nb[a] >= n[a]) {
            const FaceKind kind = c.face[side];
            if (kind == FaceKind::Periodic) {
              l = kPeriodic;
            } else if (kind == FaceKind::Inflow) {
              l = kInflow;
            } else {
              l = checked_narrow<int>(std::int64_t(g.faces.size()), "wall faces of nx, ny, nz, body_cells (int links)");
              g.faces.push_back({cell, side, c.face_wall_type[side]});
            }
          } else if (g.solid[index(nb[0], nb[1], nb[2])]) {
            l = checked_narrow<int>(std::int64_t(g.faces.size()), "wall faces of nx, ny, nz, body_cells (int links)");
            g.faces.push_back({cell, side, 0});
          }
        }
      }
  for (const Face& f : g.faces) g.face_type.push_back(f.type);
  return g;
}

std::vector<Velocity> velocity_table(const VelocityGrid& vg) {
  std::vector<Velocity> v;
  v.reserve(vg.count());
  const int h = vg.m / 2;
  for (int o = 0; o < 8; ++o)
    for (int ix = 0; ix < h; ++ix)
      for (int iy = 0; iy < h; ++iy)
        for (int iz = 0; iz < h; ++iz) {
          const int kx = octant_point(vg, o & 1, ix), ky = octant_point(vg, o & 2, iy), kz = octant_point(vg, o & 4, iz);
          v.push_back({vg.v(kx), vg.v(ky), vg.v(kz), vg.w(kx) * vg.w(ky) * vg.w(kz)});
        }
  return v;
}

OctantAxis octant_axis(const VelocityGrid& vg) {
  const int h = vg.m / 2;
  OctantAxis a{std::vector<double>(2 * h), std::vector<double>(2 * h)};
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < h; ++i) {
      const int k = octant_point(vg, side == 1, i);
      a.xi[side * h + i] = vg.v(k);
      a.w[side * h + i] = vg.w(k);
    }
  return a;
}

std::vector<Batch> make_batches(const DvmConfig& c) {
  std::vector<Batch> b;
  const long long oct = c.octant(), size = c.batch_size();
  for (int o = 0; o < 8; ++o)
    for (long long s = 0; s < oct; s += size)
      b.push_back({o * oct + s, std::min(size, oct - s), {(o & 1) ? 1 : -1, (o & 2) ? 1 : -1, (o & 4) ? 1 : -1}});
  return b;
}

std::vector<Batch> rank_batches(const DvmConfig& c) {
  const std::vector<Batch> all = make_batches(c);
  const Block mine = block_of(std::int64_t(all.size()), c.rank, c.ranks);
  return {all.begin() + mine.begin, all.begin() + mine.end};
}

WallTable wall_table(const DvmConfig& c) {
  WallTable w;
  w.count = int(c.walls.size());
  for (int t = 0; t < w.count; ++t) w.wall[t] = unit_maxwellian(c.walls[t].U, c.walls[t].T);
  w.inflow_n = c.initial_n;
  w.inflow = unit_maxwellian(c.initial_U, c.initial_T);
  return w;
}

namespace {
double component(const Velocity& v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }
}  // namespace

double unit_emission(const std::vector<Velocity>& v, const WallTable& w, int side, int type) {
  const int a = side / 2;
  const double into_cell = side % 2 ? -1.0 : 1.0;  // a wall below the cell emits upwards
  double s = 0.0;
  for (const Velocity& u : v) {
    const double xn = component(u, a) * into_cell;
    if (xn > 0.0) s += xn * u.w * w.wall[type](u.x, u.y, u.z);
  }
  return s;
}

double incident_flux(const std::vector<Velocity>& v, int side, double n, const double* U, double T) {
  const int a = side / 2;
  const double towards_wall = side % 2 ? 1.0 : -1.0;
  const UnitMaxwellian M = unit_maxwellian(U, T);
  double s = 0.0;
  for (const Velocity& u : v) {
    const double xn = component(u, a) * towards_wall;
    if (xn > 0.0) s += xn * u.w * n * M(u.x, u.y, u.z);
  }
  return s;
}

namespace {

// Length of `n` cells growing from h0 by `r` per cell (the first is h0 r).
double grown_length(double h0, double r, int n) {
  double s = 0.0, h = h0;
  for (int i = 0; i < n; ++i) s += (h *= r);
  return s;
}

double solve_ratio(double h0, int n, double length) {
  double lo = 0.5, hi = 2.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (grown_length(h0, mid, n) < length ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

Axis stretched_axis(double lo, double hi, int cells, int body, double ratio_out[2]) {
  const double h0 = 1.0 / body, L1 = -0.5 - lo, L2 = hi - 0.5;
  const int outer = cells - body;
  int best = 1;
  double best_gap = 1e300;
  for (int n1 = 1; n1 < outer; ++n1) {
    const double gap = std::fabs(solve_ratio(h0, n1, L1) - solve_ratio(h0, outer - n1, L2));
    if (gap < best_gap) best_gap = gap, best = n1;
  }
  const int n1 = best, n2 = outer - best;
  ratio_out[0] = solve_ratio(h0, n1, L1);
  ratio_out[1] = solve_ratio(h0, n2, L2);
  Axis a;
  std::vector<double> left;
  double x = -0.5, h = h0;
  for (int i = 0; i < n1; ++i) left.push_back(x -= (h *= ratio_out[0]));
  left.back() = lo;  // remove the bisection's last rounding
  for (auto it = left.rbegin(); it != left.rend(); ++it) a.faces.push_back(*it);
  for (int i = 0; i <= body; ++i) a.faces.push_back(-0.5 + double(i) / body);
  x = 0.5, h = h0;
  for (int i = 0; i < n2; ++i) a.faces.push_back(x += (h *= ratio_out[1]));
  a.faces.back() = hi;
  return a;
}

}  // namespace ks::dvm
