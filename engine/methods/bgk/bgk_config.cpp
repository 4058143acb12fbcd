// kinetic.bgk's keys become the discretised problem here, and only here.
#include "bgk_config.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bgk_params.hpp"
#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"

namespace ks::bgk {
namespace {

constexpr double kThermalWidths = 2.5;  // the velocity box must hold V +- 2.5 sqrt(T) of every boundary state

}  // namespace

void rankine_hugoniot(double mach, Macro& upstream, Macro& downstream) {
  const double M2 = mach * mach;
  upstream = Macro{};
  upstream.V[0] = mach * std::sqrt(5.0 / 6.0);  // M (gamma R T)^(1/2) / (2 R T)^(1/2), gamma = 5/3
  downstream = Macro{};
  downstream.n = 4.0 * M2 / (M2 + 3.0);
  downstream.V[0] = upstream.V[0] / downstream.n;
  downstream.T = (5.0 * M2 - 1.0) * (M2 + 3.0) / (16.0 * M2);
}

double courant_number(const BgkConfig& c) {
  double vmax[2] = {0.0, 0.0};
  for (int a = 0; a < 2; ++a) vmax[a] = std::max(std::fabs(c.vg.v(a, 0)), std::fabs(c.vg.v(a, c.vg.n[a] - 1)));
  const double Cx = vmax[0] * c.dt / c.dx;
  if (c.kind == Case::Shock) return Cx;
  const double Cy = vmax[1] * c.dt / c.dy;
  return c.streaming == Streaming::Unsplit ? Cx + Cy : std::max(Cx, Cy);
}

BgkConfig make_config(const BgkParams& p) {
  BgkConfig c;
  c.kind = p.problem;
  const int nv = p.nv;
  const double vx0 = p.vx_min, vx1 = p.vx_max, vt = p.vt_max;
  if (vx1 <= vx0)
    throw bad_input(param_key(&BgkParams::vx_max), "the v_x box [" + std::to_string(vx0) + ", " + std::to_string(vx1) + "] is empty",
                    "vx_max > vx_min");
  for (int a = 0; a < 3; ++a) c.vg.n[a] = nv;
  c.vg.lo[0] = vx0;
  c.vg.h[0] = (vx1 - vx0) / nv;
  c.vg.lo[1] = c.vg.lo[2] = -vt;
  c.vg.h[1] = c.vg.h[2] = 2.0 * vt / nv;
  c.dt = p.dt;
  c.omega = p.omega;
  c.conservative = p.conservative;
  c.nx = p.nx;
  if (c.kind == Case::Shock) {
    const double L = p.length;
    c.ny = 1;
    c.dx = L / c.nx;
    c.x0 = -0.5 * L;
    rankine_hugoniot(p.mach, c.upstream, c.downstream);
  } else {
    const double delta = p.delta;
    c.ny = p.ny;
    c.dx = delta / c.nx;
    c.dy = delta / c.ny;
    c.x0 = c.y0 = 0.0;
    c.lid_speed = p.lid_speed;
    c.streaming = p.streaming;
  }
  // The CUDA tiles index a cell with int; cells() and phase_cells() are 64-bit.
  const std::int64_t cells = checked_narrow<int>(checked_mul(c.nx, c.ny, "nx * ny cells"), "nx * ny cells");
  const std::int64_t velocities = checked_product({nv, nv, nv}, "nv^3 velocities");
  const std::int64_t bytes =
      checked_product({2, cells, velocities, std::int64_t(sizeof(double))}, "nx * ny cells x nv^3 velocities x 2 copies of f");
  if (bytes > std::int64_t(64e9))
    throw bad_input(param_keys(&BgkParams::nx, &BgkParams::ny, &BgkParams::nv),
                    "the phase space needs " + format_bytes(std::uint64_t(bytes)), "at most 64 GB (two copies of f)");
  if (const double target = p.courant; target > 0.0) {
    c.dt *= target / courant_number(c);
    // The rescaled dt can land an ulp or two above the target Courant number (above the cavity's
    // bound at courant = 1): step it down to the largest dt at or below the target.
    while (courant_number(c) > target) c.dt = std::nextafter(c.dt, 0.0);
  }
  if (c.kind == Case::Cavity) {
    const double C = courant_number(c);
    if (C > 1.0) {
      const bool unsplit = c.streaming == Streaming::Unsplit;
      throw bad_input(param_key(&BgkParams::dt),
                      std::string("the cavity's Courant number ") + (unsplit ? "max|v_x| dt/dx + max|v_y| dt/dy" : "max|v| dt / dx") +
                          " is " + std::to_string(C) + " at dt = " + std::to_string(c.dt) + " with " + (unsplit ? "unsplit" : "split") +
                          " streaming",
                      "dt <= " + std::to_string(c.dt / C) + " for this grid (first-order upwind and the diffuse walls need it <= 1)");
    }
  }
  // Every Maxwellian entering the domain must fit in the velocity box.
  std::vector<Macro> entering = {c.upstream, c.downstream};
  if (c.kind == Case::Cavity) {
    entering = {Macro{}, Macro{}};
    entering[1].V[0] = c.lid_speed;
  }
  for (const Macro& m : entering) {
    const double w = kThermalWidths * std::sqrt(m.T);
    const double need_lo = m.V[0] - w, need_hi = m.V[0] + w;
    if (need_lo < vx0 - 1e-9 || need_hi > vx1 + 1e-9 || w > vt + 1e-9)
      throw bad_input(
          "vx_min, vx_max, vt_max",
          "the velocity box does not hold the boundary Maxwellian with V = " + std::to_string(m.V[0]) + ", T = " + std::to_string(m.T),
          "vx in [" + std::to_string(need_lo) + ", " + std::to_string(need_hi) + "] or wider and vt_max >= " + std::to_string(w));
  }
  return c;
}

}  // namespace ks::bgk
