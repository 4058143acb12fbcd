// kinetic.dvm: the upwind update of eq. (7) for one discrete velocity in one cell, shared by the CPU
// sweep and the CUDA sweep kernel (Algorithm 2). f is kept for two z-slices only (section 3.2):
// A holds slice k - sz, B the slice being swept; element (cell c of a slice) is at [c * stride].
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "dvm_geometry.hpp"
#include "dvm_model.hpp"

namespace ks::dvm {

// Device- or host-side pointers to the per-cell data of the sweep.
struct SweepView {
  int nx, ny;
  const double* size[3];      // cell sizes per axis
  const unsigned char* solid;
  const int* link;            // [cell * 6 + side]
  const int* face_type;
  const double* face_rho;     // diffuse-wall densities of eq. (9), from the previous iteration
  const CellState* state;     // f^S and 1/tau from the previous iteration
};

// The boundary values one velocity meets: each wall type's re-emitted Maxwellian (density 1) and the free stream.
struct Ghosts {
  double wall[kMaxWallTypes];
  double inflow;
};

KS_HD Ghosts ghosts_for(const WallTable& w, const Velocity& v) {
  Ghosts g;
  for (int t = 0; t < kMaxWallTypes; ++t) g.wall[t] = t < w.count ? unit_maxwellian(w.U[t], w.T[t], v.x, v.y, v.z) : 0.0;
  g.inflow = w.inflow_n * unit_maxwellian(w.inflow_U, w.inflow_T, v.x, v.y, v.z);
  return g;
}

// Eq. (7) solved for f_ijk: sum_a |xi_a| / dx_a (f_upwind_a - f) = (f - f^S) / tau. Per axis a,
// link[a] says where the upwind value comes from: the neighbour cell (fluid[a]), a diffuse wall
// (rho_w M_w, eq. 8), the free stream, or nowhere (periodic axis with one cell).
KS_HD double upwind_solve(const CellState& s, const Velocity& v, const int* link, const double* coef, const double* fluid,
                          const Ghosts& gh, const int* face_type, const double* face_rho) {
  double num = s.inv_tau * shakhov(s, v.x, v.y, v.z), den = s.inv_tau;
  for (int a = 0; a < 3; ++a) {
    const int l = link[a];
    if (l == kPeriodic) continue;
    const double up = l == kFluid ? fluid[a] : l == kInflow ? gh.inflow : face_rho[l] * gh.wall[face_type[l]];
    num += coef[a] * up;
    den += coef[a];
  }
  return num / den;
}

// f^{n+1} in cell (i, j) of slice k for velocity v, its upwind neighbours already swept: x and y
// neighbours from slice B, z from slice A. `sign` is the batch's octant; c = j * nx + i.
KS_HD double update_cell(const SweepView& g, const Ghosts& gh, const Velocity& v, const int* sign, int i, int j, int k,
                         const double* A, const double* B, long long stride) {
  const long long c = (long long)j * g.nx + i;
  const long long cell = (long long)k * g.nx * g.ny + c;
  const int* L = g.link + cell * 6;
  int link[3];
  double coef[3], fluid[3];
  const double xi[3] = {v.x, v.y, v.z};
  const int ijk[3] = {i, j, k};
  for (int a = 0; a < 3; ++a) {
    link[a] = L[2 * a + (sign[a] > 0 ? 0 : 1)];
    coef[a] = fabs(xi[a]) / g.size[a][ijk[a]];
  }
  fluid[0] = link[0] == kFluid ? B[(c - sign[0]) * stride] : 0.0;
  fluid[1] = link[1] == kFluid ? B[(c - sign[1] * (long long)g.nx) * stride] : 0.0;
  fluid[2] = link[2] == kFluid ? A[c * stride] : 0.0;
  return upwind_solve(g.state[cell], v, link, coef, fluid, gh, g.face_type, g.face_rho);
}

// The cell (i, j) visited n-th (0-based) by a sweep in direction `sign` over an nx x ny slice.
KS_HD void sweep_cell(int n, int nx, int ny, const int* sign, int& i, int& j) {
  const int ii = n % nx, jj = n / nx;
  i = sign[0] > 0 ? ii : nx - 1 - ii;
  j = sign[1] > 0 ? jj : ny - 1 - jj;
}

}  // namespace ks::dvm
