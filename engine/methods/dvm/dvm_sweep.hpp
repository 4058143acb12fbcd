// kinetic.dvm: the upwind update of eq. (7) for one discrete velocity in one cell, shared by the CPU
// sweep and the CUDA sweep kernel (Algorithm 2). f is kept for two z-slices only (section 3.2):
// A holds slice k - sz, B the slice being swept; element (cell c of a slice) is at [c * stride].
// The slices store f as T (float or double); the update itself is computed in double.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "dvm_geometry.hpp"
#include "dvm_model.hpp"

namespace ks::dvm {

// Device- or host-side pointers to the per-cell data of the sweep.
struct SweepView {
  int nx, ny;
  const double* inv_size[3];  // reciprocal cell sizes per axis
  const unsigned char* solid;
  const int* link;  // [cell * 6 + side]
  const int* face_type;
  const double* face_rho;  // diffuse-wall densities of eq. (9), from the previous iteration
  const CellState* state;  // f^S and 1/tau from the previous iteration
};

// The value a boundary gives a velocity entering the gas: the free stream, or a diffuse wall's
// re-emitted Maxwellian (eq. 8) of the face's density. Evaluated where a sweep meets a boundary.
KS_HD double boundary_value(const WallTable& w, int link, const int* face_type, const double* face_rho, const Velocity& v) {
  if (link == kInflow) return w.inflow_n * w.inflow(v.x, v.y, v.z);
  return face_rho[link] * w.wall[face_type[link]](v.x, v.y, v.z);
}

// Eq. (7) solved for f_ijk: sum_a |xi_a| / dx_a (f_upwind_a - f) = (f - f^S) / tau. Per axis a,
// link[a] says where the upwind value comes from: the neighbour cell, a diffuse wall (rho_w M_w,
// eq. 8), the free stream, or nowhere (periodic axis with one cell). It is split in two so that the
// sweep's serial dependence, the x-upwind value of the cell swept just before, enters last:
// upwind_prepare does the rest (the y and z upwind terms, 1 / denominator) ahead of it, given the
// source f^S / tau (collision_source, or the CUDA sweep's factored shakhov_source).
struct Upwind {
  double num;      // (f^S / tau + every upwind term but a fluid x-neighbour's)
  double coef_x;   // |xi_x| / dx if the x-upwind value is a fluid neighbour's, else 0
  double inv_den;  // 1 / (1 / tau + sum_a |xi_a| / dx_a)
};

KS_HD double collision_source(const CellState& s, const Velocity& v) { return s.inv_tau * shakhov(s, v.x, v.y, v.z); }

KS_HD Upwind upwind_prepare(const CellState& s, double source, const Velocity& v, const int* link, const double* coef, double up_y,
                            double up_z, const WallTable& walls, const int* face_type, const double* face_rho) {
  Upwind u{source, 0.0, 0.0};
  double den = s.inv_tau;
  const double fluid[3] = {0.0, up_y, up_z};
  for (int a = 0; a < 3; ++a) {
    const int l = link[a];
    if (l == kPeriodic) continue;
    den += coef[a];
    if (a == 0 && l == kFluid) {
      u.coef_x = coef[0];
      continue;
    }
    const double up = l == kFluid ? fluid[a] : boundary_value(walls, l, face_type, face_rho, v);
    u.num += coef[a] * up;
  }
  u.inv_den = reciprocal(den);
  return u;
}

// upwind_prepare for a cell whose three upwind neighbours are fluid cells (most cells): the same
// terms in the same order, without the boundary cases.
KS_HD Upwind upwind_prepare_fluid(const CellState& s, double source, const double* coef, double up_y, double up_z) {
  Upwind u{source, coef[0], 0.0};
  u.num += coef[1] * up_y;
  u.num += coef[2] * up_z;
  u.inv_den = reciprocal(s.inv_tau + coef[0] + coef[1] + coef[2]);
  return u;
}

// f_ijk from the prepared terms and the x-upwind value (any finite value when coef_x is 0).
KS_HD double upwind_finish(const Upwind& u, double left) { return (u.num + u.coef_x * left) * u.inv_den; }

// f^{n+1} in cell (i, j) of slice k for velocity v, its upwind neighbours already swept: x and y
// neighbours from slice B, z from slice A. `sign` is the batch's octant; c = j * nx + i.
template <class T>
KS_HD double update_cell(const SweepView& g, const WallTable& walls, const Velocity& v, const int* sign, int i, int j, int k, const T* A,
                         const T* B, long long stride) {
  const long long c = (long long)j * g.nx + i;
  const long long cell = (long long)k * g.nx * g.ny + c;
  const int* L = g.link + cell * 6;
  int link[3];
  double coef[3];
  const double xi[3] = {v.x, v.y, v.z};
  const int ijk[3] = {i, j, k};
  for (int a = 0; a < 3; ++a) {
    link[a] = L[2 * a + (sign[a] > 0 ? 0 : 1)];
    coef[a] = fabs(xi[a]) * g.inv_size[a][ijk[a]];
  }
  const double left = link[0] == kFluid ? double(B[(c - sign[0]) * stride]) : 0.0;
  const double up_y = link[1] == kFluid ? double(B[(c - sign[1] * (long long)g.nx) * stride]) : 0.0;
  const double up_z = link[2] == kFluid ? double(A[c * stride]) : 0.0;
  const CellState& s = g.state[cell];
  return upwind_finish(upwind_prepare(s, collision_source(s, v), v, link, coef, up_y, up_z, walls, g.face_type, g.face_rho), left);
}

// The cell (i, j) visited n-th (0-based) by a sweep in direction `sign` over an nx x ny slice.
KS_HD void sweep_cell(int n, int nx, int ny, const int* sign, int& i, int& j) {
  const int ii = n % nx, jj = n / nx;
  i = sign[0] > 0 ? ii : nx - 1 - ii;
  j = sign[1] > 0 ? jj : ny - 1 - jj;
}

}  // namespace ks::dvm
