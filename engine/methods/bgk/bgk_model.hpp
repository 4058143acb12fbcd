// kinetic.bgk: the formulas shared by the CPU and CUDA paths (Frezzotti, Ghiroldi & Gibelli,
// "Solving kinetic equations on GPUs I"): free streaming (eq. 12, 15) with the exact integer shift,
// diffuse walls with zero net mass flux (eq. 23-24), moments (eq. 8), collision frequency (eq. 9, 21)
// and the exact relaxation (eq. 14). Distribution layout: f[(j * ny + k) * nx + i], x contiguous.
#pragma once

#include <cmath>

#include "bgk_config.hpp"
#include "core/constants.hpp"

namespace ks::bgk {

// Pointers the streaming step reads (host or device memory alike).
struct StreamInputs {
  const double* f = nullptr;             // f^n
  const double* ghost_left = nullptr;    // per velocity: shock, Phi^-; cavity, unit-density wall Maxwellian
  const double* ghost_right = nullptr;   // shock, Phi^+
  const double* ghost_bottom = nullptr;  // cavity only
  const double* ghost_top = nullptr;     // cavity only (the lid)
  const double* nw_left = nullptr;       // cavity: wall densities per row (eq. 24); null: factor 1
  const double* nw_right = nullptr;
  const double* nw_bottom = nullptr;  // per column
  const double* nw_top = nullptr;
};

// The reduced distribution F(x, v_x) = sum over v_y, v_z of f dv_y dv_z for v_x index jx at one cell:
// f points at the cell's value for velocity 0, the values of velocity j lie `stride` * j further on.
// The phase-space view of the host snapshot and of the CUDA zero-copy view.
KS_HD double reduced_distribution(const VelocityGrid& g, const double* f, long long stride, int jx) {
  const int slice = g.n[1] * g.n[2];
  double sum = 0.0;
  for (int j = jx * slice; j < (jx + 1) * slice; ++j) sum += f[j * stride] * g.h[1] * g.h[2];
  return sum;
}

KS_HD double wall_factor(const double* nw, int at) { return nw ? nw[at] : 1.0; }

// Courant numbers of one discrete velocity: v_x dt / dx and v_y dt / dy. Computed once per velocity
// (or v_x slice) by the callers, outside the loops over cells.
struct Courant {
  double x = 0.0, y = 0.0;
};
KS_HD double courant_x(const BgkConfig& c, int jx) { return c.vg.v(0, jx) * c.dt / c.dx; }
KS_HD double courant_y(const BgkConfig& c, int jy) { return c.ny > 1 ? c.vg.v(1, jy) * c.dt / c.dy : 0.0; }

// f^n of velocity j at cell (i, k), inside the grid.
KS_HD double f_at(const BgkConfig& c, const StreamInputs& s, int j, int i, int k) { return s.f[((long long)j * c.ny + k) * c.nx + i]; }

// First-order upwind for the fraction `frac` of a cell (eq. 12): va the cell's value after the integer
// shift, vb its upwind neighbour's.
KS_HD double upwind(double va, double vb, double frac) { return (1.0 - frac) * va + frac * vb; }

// Free streaming along x over dt for velocity j at cell (i, k): the exact shift by the integer part
// of the Courant number C = v_x dt / dx followed by first-order upwind for its fraction (eq. 12, 15).
// Cells beyond the ends take the boundary distribution.
KS_HD double swept_x(const BgkConfig& c, const StreamInputs& s, int j, int i, int k, double C) {
  const double* row = s.f + ((long long)j * c.ny + k) * c.nx;
  const double aC = fabs(C);
  const int shift = int(aC);
  const double frac = aC - shift;
  int a, b;
  double ghost;
  if (C >= 0.0) {
    a = i - shift;
    b = a - 1;
    ghost = s.ghost_left[j] * wall_factor(s.nw_left, k);
  } else {
    a = i + shift;
    b = a + 1;
    ghost = s.ghost_right[j] * wall_factor(s.nw_right, k);
  }
  const double va = (a >= 0 && a < c.nx) ? row[a] : ghost;
  const double vb = (b >= 0 && b < c.nx) ? row[b] : ghost;
  return upwind(va, vb, frac);
}

// The y upwind difference added to the x-swept value fx: |C_y| (up - here).
KS_HD double add_y_upwind(double fx, double up, double here, double aCy) { return fx + aCy * (up - here); }

// The streamed value f~ (before relaxation) for velocity j at cell (i, k). In 2D the y upwind
// difference is added to the x-swept value: split, from the x-swept upwind row (x first, then y);
// unsplit, from f^n (donor cell). The cavity keeps the Courant numbers within courant_number's bound.
KS_HD double streamed(const BgkConfig& c, const StreamInputs& s, int j, int i, int k, Courant C) {
  const double fx = swept_x(c, s, j, i, k, C.x);
  if (c.ny == 1) return fx;
  const bool unsplit = c.streaming == Streaming::Unsplit;
  const int k_up = C.y >= 0.0 ? k - 1 : k + 1;
  double up;
  if (k_up < 0) up = s.ghost_bottom[j] * wall_factor(s.nw_bottom, i);
  else if (k_up >= c.ny) up = s.ghost_top[j] * wall_factor(s.nw_top, i);
  else up = unsplit ? f_at(c, s, j, i, k_up) : swept_x(c, s, j, i, k_up, C.x);
  const double here = unsplit ? f_at(c, s, j, i, k) : fx;
  return add_y_upwind(fx, up, here, fabs(C.y));
}

// The value of velocity j that leaves cell (i, k) through a y wall during the step (eq. 24): what
// `streamed` takes as the cell's y upwind value, the x-swept f (split) or f^n (unsplit).
KS_HD double y_wall_outgoing(const BgkConfig& c, const StreamInputs& s, int j, int i, int k, double Cx) {
  return c.streaming == Streaming::Unsplit ? f_at(c, s, j, i, k) : swept_x(c, s, j, i, k, Cx);
}

// Running sums over the velocity grid for eq. (8).
struct MomentSums {
  double s0 = 0.0, s1[3] = {0.0, 0.0, 0.0}, s2 = 0.0;

  KS_HD void add(double f, double vx, double vy, double vz) {
    s0 += f;
    s1[0] += vx * f;
    s1[1] += vy * f;
    s1[2] += vz * f;
    s2 += (vx * vx + vy * vy + vz * vz) * f;
  }
};

// n, V and T of eq. (8) in the normalisation above (2 R T -> T).
KS_HD Macro macro_from_sums(const MomentSums& m, double cell_volume) {
  Macro out;
  out.n = m.s0 * cell_volume;
  double V2 = 0.0;
  for (int a = 0; a < 3; ++a) {
    out.V[a] = m.s1[a] / m.s0;
    V2 += out.V[a] * out.V[a];
  }
  out.T = (2.0 / 3.0) * (m.s2 / m.s0 - V2);
  return out;
}

// nu = n R T / mu(T) with mu ~ T^omega (eq. 9, 21), in units of nu_ref.
KS_HD double collision_frequency(const Macro& m, double omega) { return m.n * pow(m.T, 1.0 - omega); }

// 1D factor of the Maxwellian of eq. (7): exp(-(v - V)^2 / T).
KS_HD double gauss(double v, double V, double T) {
  const double d = v - V;
  return exp(-d * d / T);
}

// Effective n, V, T whose discrete Maxwellian has the moments n, V, T of f (section 2.1, [12]).
// The discrete moments factorise over the axes, so a fixed-point sweep costs O(n[0] + n[1] + n[2]).
// The map contracts by the quadrature error's derivative: ~1e-6 on fine boxes (two sweeps), ~0.05
// on a box of 2.5 thermal widths (ten); it stops at round-off or after kMaxSweeps.
KS_HD Macro effective_maxwellian(const Macro& target, const VelocityGrid& g) {
  constexpr int kMaxSweeps = 40;
  Macro e = target;
  double S0[3];
  for (int sweep = 0;; ++sweep) {
    double Vd[3], E = 0.0, V2 = 0.0;
    for (int a = 0; a < 3; ++a) {
      double s0 = 0.0, s1 = 0.0, s2 = 0.0;
      for (int k = 0; k < g.n[a]; ++k) {
        const double v = g.v(a, k), w = gauss(v, e.V[a], e.T);
        s0 += w;
        s1 += v * w;
        s2 += v * v * w;
      }
      S0[a] = s0 * g.h[a] / sqrt(constants::kPi * e.T);
      Vd[a] = s1 / s0;
      E += s2 / s0;
      V2 += Vd[a] * Vd[a];
    }
    const double dT = target.T - (2.0 / 3.0) * (E - V2);
    double change = fabs(dT) / target.T;
    for (int a = 0; a < 3; ++a) change = fmax(change, fabs(target.V[a] - Vd[a]) / sqrt(target.T));
    if (change < 1e-14 || sweep == kMaxSweeps) break;
    for (int a = 0; a < 3; ++a) e.V[a] += target.V[a] - Vd[a];
    e.T += dT;
  }
  e.n = target.n / (S0[0] * S0[1] * S0[2]);
  return e;
}

// What the relaxation of a cell needs: the Maxwellian's parameters and exp(-nu dt) (eq. 14).
struct CellRelaxation {
  Macro phi;     // parameters of Phi (effective ones with the conservative correction)
  double decay;  // exp(-nu dt)
};

KS_HD CellRelaxation cell_relaxation(const MomentSums& m, const BgkConfig& c) {
  const Macro mac = macro_from_sums(m, c.vg.cell_volume());
  CellRelaxation r;
  r.phi = c.conservative ? effective_maxwellian(mac, c.vg) : mac;
  r.decay = exp(-collision_frequency(mac, c.omega) * c.dt);
  return r;
}

// n / (pi T)^(3/2): the Maxwellian's prefactor in this normalisation.
KS_HD double maxwellian_prefactor(const Macro& m) { return m.n / pow(constants::kPi * m.T, 1.5); }

// Exact solution of the homogeneous relaxation df/dt = nu (Phi - f) over dt (eq. 14).
KS_HD double relax(double f_streamed, double phi, double decay) { return (1.0 - decay) * phi + decay * f_streamed; }

// Zero net mass flux through a diffuse wall (eq. 24), discretely: the density of the re-emitted
// Maxwellian is the outgoing flux over the inflow of a unit-density wall Maxwellian, so streaming
// conserves mass to round-off.
KS_HD double wall_density(double outgoing_flux, double unit_inflow) { return outgoing_flux / unit_inflow; }

}  // namespace ks::bgk
