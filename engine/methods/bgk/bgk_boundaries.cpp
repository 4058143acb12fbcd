#include "bgk_boundaries.hpp"

#include <cmath>

#include "bgk_model.hpp"
#include "core/errors.hpp"
#include "core/interruptible_fill.hpp"

namespace ks::bgk {

std::vector<double> discrete_maxwellian(const VelocityGrid& g, const Macro& m) {
  std::vector<double> out(g.count());
  const double pre = maxwellian_prefactor(m);
  for (int j = 0; j < g.count(); ++j)
    out[j] = pre * gauss(g.v(0, g.jx(j)), m.V[0], m.T) * gauss(g.v(1, g.jy(j)), m.V[1], m.T) * gauss(g.v(2, g.jz(j)), m.V[2], m.T);
  return out;
}

namespace {

// Sum over the velocities with sign(v_axis) == sign of |v_axis| * phi_j.
double inflow(const VelocityGrid& g, const std::vector<double>& phi, int axis, int sign) {
  double s = 0.0;
  for (int j = 0; j < g.count(); ++j) {
    const double v = g.v(axis, axis == 0 ? g.jx(j) : g.jy(j));
    if (v * sign > 0.0) s += std::fabs(v) * phi[j];
  }
  return s;
}

}  // namespace

BoundaryData make_boundaries(const BgkConfig& c) {
  BoundaryData b;
  if (c.kind == Case::Shock) {
    b.left = discrete_maxwellian(c.vg, c.upstream);
    b.right = discrete_maxwellian(c.vg, c.downstream);
    return b;
  }
  const Macro rest;
  Macro lid;
  lid.V[0] = c.lid_speed;
  b.left = b.right = b.bottom = discrete_maxwellian(c.vg, rest);
  b.top = discrete_maxwellian(c.vg, lid);
  b.in_left = inflow(c.vg, b.left, 0, +1);
  b.in_right = inflow(c.vg, b.right, 0, -1);
  b.in_bottom = inflow(c.vg, b.bottom, 1, +1);
  b.in_top = inflow(c.vg, b.top, 1, -1);
  if (!(b.in_left > 0 && b.in_right > 0 && b.in_bottom > 0 && b.in_top > 0))
    throw bad_input("velocity grid", "no discrete velocity enters the cavity through some wall",
                    "a velocity box that contains velocities of both signs along x and y");
  return b;
}

HostArray<double> initial_distribution(const BgkConfig& c, const Interrupt& stop) {
  const std::vector<double> left = discrete_maxwellian(c.vg, c.kind == Case::Shock ? c.upstream : Macro{});
  const std::vector<double> right = c.kind == Case::Shock ? discrete_maxwellian(c.vg, c.downstream) : left;
  const std::size_t cells = std::size_t(c.cells());
  // f[(j * ny + k) * nx + i]: velocity j, row k, column i.
  return make_interruptibly<double>(
      std::size_t(c.vg.count()) * cells,
      [&](std::size_t at) {
        const std::size_t j = at / cells, i = at % std::size_t(c.nx);
        const double x = c.x0 + (c.first_column + double(i) + 0.5) * c.dx;
        return x < 0.0 ? left[j] : right[j];
      },
      stop, "initial distribution");
}

}  // namespace ks::bgk
