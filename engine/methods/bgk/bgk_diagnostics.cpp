#include "bgk_diagnostics.hpp"

#include <algorithm>
#include <cmath>

#include "bgk_model.hpp"
#include "bgk_solver.hpp"

namespace ks::bgk {

CellFields cell_fields(const std::vector<double>& raw, long long cells) {
  CellFields out;
  for (auto* v : {&out.n, &out.Vx, &out.Vy, &out.Vz, &out.T, &out.Pxy, &out.qx, &out.qy}) v->resize(cells);
  for (long long c = 0; c < cells; ++c) {
    const CellState s = cell_state(raw.data(), cells, c);
    out.n[c] = s.n;
    out.Vx[c] = s.V[0];
    out.Vy[c] = s.V[1];
    out.Vz[c] = s.V[2];
    out.T[c] = s.T;
    out.Pxy[c] = s.Pxy;
    out.qx[c] = s.q[0];
    out.qy[c] = s.q[1];
  }
  return out;
}

ShockAnalysis analyse_shock(const BgkConfig& c, const std::vector<double>& raw) {
  ShockAnalysis a;
  const long long cells = c.cells();
  const CellFields f = cell_fields(raw, cells);
  auto state = [&](int i) {
    Macro m;
    m.n = f.n[i];
    m.V[0] = f.Vx[i];
    m.T = f.T[i];
    return m;
  };
  a.upstream = state(int(0.05 * c.nx));
  a.downstream = state(int(0.95 * c.nx));
  const Macro& up = c.upstream;  // the boundary states are eq. (18)'s by construction
  const Macro& down = c.downstream;
  const double expected[3] = {down.n / up.n, up.V[0] / down.V[0], down.T / up.T};
  const double measured[3] = {a.downstream.n / a.upstream.n, a.upstream.V[0] / a.downstream.V[0], a.downstream.T / a.upstream.T};
  for (int q = 0; q < 3; ++q) a.rh_error = std::max(a.rh_error, std::fabs(measured[q] / expected[q] - 1.0));

  const int flux_moment[3] = {kSx, kSxx, kQx};  // sum v_x f, sum v_x^2 f, sum v_x v^2 f
  for (int q = 0; q < 3; ++q) {
    const double* F = &raw[std::size_t(flux_moment[q]) * cells];
    double sum = 0.0, lo = F[0], hi = F[0];
    for (long long i = 0; i < cells; ++i) {
      sum += F[i];
      lo = std::min(lo, F[i]);
      hi = std::max(hi, F[i]);
    }
    a.flux[q] = sum / cells;
    a.flux_spread[q] = (hi - lo) / std::fabs(a.flux[q]);
  }

  double slope = 0.0;
  const double half = 0.5 * (c.upstream.n + c.downstream.n);
  for (int i = 0; i + 1 < c.nx; ++i) {
    slope = std::max(slope, std::fabs(f.n[i + 1] - f.n[i]) / c.dx);
    if ((f.n[i] - half) * (f.n[i + 1] - half) <= 0.0 && f.n[i + 1] != f.n[i])
      a.centre = c.x0 + (i + 0.5 + (half - f.n[i]) / (f.n[i + 1] - f.n[i])) * c.dx;
  }
  a.inverse_thickness = slope / std::fabs(c.downstream.n - c.upstream.n);
  return a;
}

double lid_drag(const BgkConfig& c, const std::vector<double>& raw, long long cells, long long lid_row) {
  double sum = 0.0;
  for (int i = 0; i < c.nx; ++i) {
    const long long cell = lid_row + i;
    auto s = [&](int q) { return raw[std::size_t(q) * cells + cell]; };
    sum += 2.0 * (s(kSxy) - s(kSx) * s(kSy) / s(kS0));  // P_xy / p_ref
  }
  return -sum / c.nx / c.lid_speed;
}

double lid_drag_at_wall(const BgkConfig& c, const BoundaryData& b, const std::vector<double>& top_row) {
  const VelocityGrid& g = c.vg;
  double total = 0.0;
  for (int i = 0; i < c.nx; ++i) {
    // Gas arriving at the lid (v_y > 0) is the top row's; the wall re-emits n_w * Phi_lid (eq. 23-24).
    double out = 0.0;
    for (int j = 0; j < g.count(); ++j) {
      const double vy = g.v(1, g.jy(j));
      if (vy > 0.0) out += vy * top_row[std::size_t(j) * c.nx + i];
    }
    const double nw = wall_density(out, b.in_top);
    double Pxy = 0.0;  // sum v_x v_y f_wall; the net normal mass flux is zero, so V_wall drops out
    for (int j = 0; j < g.count(); ++j) {
      const double vx = g.v(0, g.jx(j)), vy = g.v(1, g.jy(j));
      Pxy += vx * vy * (vy > 0.0 ? top_row[std::size_t(j) * c.nx + i] : nw * b.top[j]);
    }
    total += 2.0 * Pxy * g.cell_volume();
  }
  return -total / c.nx / c.lid_speed;
}

std::vector<double> centreline_velocity(const BgkConfig& c, const CellFields& f) {
  const int i1 = c.nx / 2, i0 = c.nx % 2 ? i1 : i1 - 1;
  std::vector<double> u(c.ny);
  for (int k = 0; k < c.ny; ++k) u[k] = 0.5 * (f.Vx[std::size_t(k) * c.nx + i0] + f.Vx[std::size_t(k) * c.nx + i1]) / c.lid_speed;
  return u;
}

CavityAnalysis analyse_cavity(const BgkConfig& c, const BoundaryData& b, const std::vector<double>& raw,
                              const std::vector<double>& top_row) {
  CavityAnalysis a;
  a.D = lid_drag(c, raw, c.cells(), (long long)(c.ny - 1) * c.nx);
  a.D_wall = lid_drag_at_wall(c, b, top_row);
  const CellFields f = cell_fields(raw, c.cells());
  const std::vector<double> u = centreline_velocity(c, f);
  // The main vortex's centre: the highest sign change of V_x below the lid.
  int k0 = -1;
  for (int k = c.ny - 2; k >= 0; --k)
    if (u[k] <= 0.0 && u[k + 1] > 0.0) {
      k0 = k;
      break;
    }
  if (k0 < 0) return a;
  const double frac = -u[k0] / (u[k0 + 1] - u[k0]);  // zero between the centres of cells k0 and k0 + 1
  a.vortex_y = (k0 + 0.5 + frac) * c.dy;
  // Integral of the piecewise-linear profile from the zero to the last centre, then the half cell to the lid.
  double G = 0.5 * u[k0 + 1] * (1.0 - frac) * c.dy;
  for (int k = k0 + 1; k + 1 < c.ny; ++k) G += 0.5 * (u[k] + u[k + 1]) * c.dy;
  G += u[c.ny - 1] * 0.5 * c.dy;
  a.G = 2.0 * G / (c.ny * c.dy);
  return a;
}

std::vector<double> phase_space(const BgkConfig& c, const std::vector<double>& row) {
  const VelocityGrid& g = c.vg;
  std::vector<double> out(std::size_t(g.n[0]) * c.nx);
  for (int jx = 0; jx < g.n[0]; ++jx)
    for (int i = 0; i < c.nx; ++i) out[std::size_t(jx) * c.nx + i] = reduced_distribution(g, row.data() + i, c.nx, jx);
  return out;
}

}  // namespace ks::bgk
