// lbm.binary: the initial populations: equilibrium (eq. 6) of the initial densities and velocity,
// uniform over each z plane.
#include <cmath>

#include "core/constants.hpp"
#include "lbm_model.hpp"
#include "lbm_solver.hpp"

namespace ks::lbm {

std::vector<double> initial_plane_populations(const LbmConfig& c, const Slab& slab) {
  std::vector<double> f(std::size_t(slab.planes()) * kSpecies * kQ);
  const double p_in = inlet_pressure(c);
  for (int zl = 0; zl < slab.planes(); ++zl) {
    const int z = slab.global(zl);
    double x_o2 = c.x_o2, p = p_in, u[3] = {0.0, 0.0, 0.0};
    if (c.periodic_z()) {
      x_o2 += c.wave_amplitude * std::sin(2.0 * constants::kPi * z / c.nz);
      for (int a = 0; a < 3; ++a) u[a] = c.initial_velocity[a];
    } else {
      p *= 1.0 + (c.pressure_ratio - 1.0) * z / (c.nz - 1.0);
    }
    double rho[kSpecies];
    mixture_densities(c, x_o2, p, rho);
    for (int s = 0; s < kSpecies; ++s) {
      const Product<double> eq(u, c.theta(s), c.lattice_species(s));
      for (int i = 0; i < kQ; ++i) f[(std::size_t(zl) * kSpecies + s) * kQ + i] = eq(rho[s], i);
    }
  }
  return f;
}

InitialState initial_state(const LbmConfig& c, const Slab& slab) {
  return {initial_plane_populations(c, slab), std::size_t(c.nx) * std::size_t(c.ny)};
}

}  // namespace ks::lbm
