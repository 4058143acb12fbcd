// lbm.binary: the state of one grid level interpolated onto the other (see lbm_regrid.hpp).
#include "lbm_regrid.hpp"

#include <algorithm>
#include <cmath>

#include "lbm_model.hpp"
#include "lbm_solver.hpp"

namespace ks::lbm {

namespace {

// Density and velocity u_j = J_j / rho_j of both species at one point.
struct SpeciesState {
  double rho[kSpecies] = {0.0, 0.0};
  double u[kSpecies][3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
};

// The old lattice, read through its node moments.
class OldLattice {
 public:
  OldLattice(const LbmConfig& c, const LatticeGeometry& g, const std::vector<double>& moments) : c_(c), g_(g), m_(moments) {}

  // Trilinear interpolation at point p over the fluid corners, weights renormalised; false when no
  // corner with a non-zero weight is fluid.
  bool interpolate(const double p[3], SpeciesState& out) const {
    int i0[3];
    double t[3];
    for (int a = 0; a < 3; ++a) {
      i0[a] = int(std::floor(p[a]));
      t[a] = p[a] - i0[a];
    }
    double wsum = 0.0;
    SpeciesState acc;
    for (int corner = 0; corner < 8; ++corner) {
      double w = 1.0;
      int at[3];
      for (int a = 0; a < 3; ++a) {
        const int up = (corner >> a) & 1;
        w *= up ? t[a] : 1.0 - t[a];
        at[a] = clamped(i0[a] + up, a);
      }
      const long long k = node(at);
      if (w <= 0.0 || g_.type[k] != kFluid) continue;
      add(k, w, acc);
      wsum += w;
    }
    if (wsum <= 0.0) return false;
    for (int s = 0; s < kSpecies; ++s) {
      out.rho[s] = acc.rho[s] / wsum;
      for (int a = 0; a < 3; ++a) out.u[s][a] = acc.u[s][a] / wsum;
    }
    return true;
  }

  // The fluid node nearest to p (Euclidean, periodic where streaming is), by shells of growing
  // Chebyshev radius around the nearest node; -1 when the lattice has no fluid node.
  long long nearest_fluid(const double p[3]) const {
    if (g_.fluid_nodes == 0) return -1;
    int q[3];
    for (int a = 0; a < 3; ++a) q[a] = int(std::lround(p[a]));
    const int r_max = std::max({c_.nx, c_.ny, c_.nz});
    long long best = -1;
    double best_d2 = 0.0;
    auto visit = [&](int dx, int dy, int dz) {
      const int d[3] = {dx, dy, dz};
      int at[3];
      for (int a = 0; a < 3; ++a)
        if (!inside(q[a] + d[a], a, at[a])) return;
      const long long k = node(at);
      if (g_.type[k] != kFluid) return;
      double d2 = 0.0;
      for (int a = 0; a < 3; ++a) d2 += (q[a] + d[a] - p[a]) * (q[a] + d[a] - p[a]);
      if (best < 0 || d2 < best_d2) best = k, best_d2 = d2;
    };
    for (int r = 0; r <= r_max; ++r) {
      for (int dz = -r; dz <= r; ++dz)
        for (int dy = -r; dy <= r; ++dy) {
          if (std::abs(dz) == r || std::abs(dy) == r) {
            for (int dx = -r; dx <= r; ++dx) visit(dx, dy, dz);
          } else {
            visit(-r, dy, dz);
            if (r > 0) visit(r, dy, dz);
          }
        }
      // Every node of a later shell is at least r + 1/2 away (|p - q| <= 1/2 per axis).
      if (best >= 0 && (r + 0.5) * (r + 0.5) >= best_d2) break;
    }
    return best;
  }

  void add(long long k, double w, SpeciesState& acc) const {
    const long long N = c_.nodes();
    for (int s = 0; s < kSpecies; ++s) {
      const double rho = m_[(kRhoO2 + s) * N + k];
      acc.rho[s] += w * rho;
      for (int a = 0; a < 3; ++a) acc.u[s][a] += w * m_[(kJO2x + 3 * s + a) * N + k] / rho;
    }
  }

 private:
  int size(int a) const { return a == 0 ? c_.nx : a == 1 ? c_.ny : c_.nz; }
  // Streaming is periodic in x and y (the tube's walls are solid there) and, for the periodic box, in z.
  bool periodic(int a) const { return a < 2 || c_.periodic_z(); }
  // Interpolation corners beyond an open end take the end plane.
  int clamped(int i, int a) const {
    const int n = size(a);
    return periodic(a) ? ((i % n) + n) % n : std::clamp(i, 0, n - 1);
  }
  // The nearest-node search does not look past an open end.
  bool inside(int i, int a, int& out) const {
    const int n = size(a);
    if (!periodic(a) && (i < 0 || i >= n)) return false;
    out = ((i % n) + n) % n;
    return true;
  }
  long long node(const int at[3]) const { return ((long long)at[2] * c_.ny + at[1]) * c_.nx + at[0]; }

  const LbmConfig& c_;
  const LatticeGeometry& g_;
  const std::vector<double>& m_;
};

}  // namespace

void regrid_state(const LbmConfig& from, const LatticeGeometry& g_from, const std::vector<double>& moments_from, const LbmConfig& to,
                  const LatticeGeometry& g_to, LevelMap map, std::vector<double>& f_to) {
  const OldLattice old(from, g_from, moments_from);
  const long long N = to.nodes();
  SpeciesState inlet;  // at rest, inlet pressure and mole fraction
  mixture_densities(to, to.x_o2, inlet_pressure(to), inlet.rho);
  // Fluid nodes: the equilibrium of the interpolated moments. The non-equilibrium part is dropped.
#pragma omp parallel for schedule(dynamic)
  for (int z = 0; z < to.nz; ++z)
    for (int y = 0; y < to.ny; ++y)
      for (int x = 0; x < to.nx; ++x) {
        const long long k = ((long long)z * to.ny + y) * to.nx + x;
        if (g_to.type[k] != kFluid) continue;
        const double p[3] = {map.scale * x + map.offset, map.scale * y + map.offset, map.scale * z + map.offset};
        SpeciesState st;
        if (!old.interpolate(p, st)) {
          const long long near = old.nearest_fluid(p);
          st = inlet;
          if (near >= 0) {
            st = SpeciesState{};
            old.add(near, 1.0, st);
          }
        }
        for (int s = 0; s < kSpecies; ++s) {
          const Product<double> eq(st.u[s], to.theta(s), to.lattice_species(s));
          for (int i = 0; i < kQ; ++i) f_to[(std::size_t(s) * kQ + i) * N + k] = eq(st.rho[s], i);
        }
      }
      // Wall nodes: in each direction i arriving from a fluid node, what that node pushes along i at
      // equilibrium (full-way bounce-back returns it at the first step).
#pragma omp parallel for schedule(static)
  for (int z = 0; z < to.nz; ++z)
    for (int y = 0; y < to.ny; ++y)
      for (int x = 0; x < to.nx; ++x) {
        const long long k = ((long long)z * to.ny + y) * to.nx + x;
        if (g_to.type[k] != kWall) continue;
        for (int i = 0; i < kQ; ++i) {
          const long long src = neighbour(to, x, y, z, opposite(i));
          if (g_to.type[src] != kFluid) continue;
          for (int s = 0; s < kSpecies; ++s) f_to[(std::size_t(s) * kQ + i) * N + k] = f_to[(std::size_t(s) * kQ + i) * N + src];
        }
      }
}

}  // namespace ks::lbm
