// lbm.binary: the fields of one node as the snapshot shows them, from the node moments
// ([moment * N + k], lattice units): densities and velocities scaled to SI by `density_unit` and
// `velocity_unit`, the O2 mole fraction and the solid mask (velocities 0 in solid nodes). The host
// snapshot and the CUDA zero-copy view use this one copy of the arithmetic.
#pragma once

#include "core/host_device.hpp"
#include "lbm_config.hpp"
#include "lbm_solver.hpp"

namespace ks::lbm {

// x_O2 = n_O2 / (n_O2 + n_N2) with n_j = rho_j / m_j; 0 where there is no gas.
KS_HD double mole_fraction(double rho_o2, double rho_n2, double mass_o2, double mass_n2) {
  const double na = rho_o2 / mass_o2, nb = rho_n2 / mass_n2;
  return na + nb > 0.0 ? na / (na + nb) : 0.0;
}

// In the order of LbmMethod's field list: rho_O2, rho_N2, X_O2, u_O2, u_N2, u, solid.
enum NodeField { kFieldRhoO2, kFieldRhoN2, kFieldXO2, kFieldUO2, kFieldUN2, kFieldU, kFieldSolid, kNodeFields };
struct NodeFields {
  double rho[2], x_o2, u_o2[3], u_n2[3], u[3], solid;
  KS_HD const double* values(int field) const {
    const double* v[kNodeFields] = {&rho[0], &rho[1], &x_o2, u_o2, u_n2, u, &solid};
    return v[field];
  }
  KS_HD static int components(int field) { return field == kFieldUO2 || field == kFieldUN2 || field == kFieldU ? 3 : 1; }
};

KS_HD NodeFields node_fields(const double* m, long long N, long long k, bool fluid, const double mass[2], double density_unit,
                             double velocity_unit) {
  NodeFields f;
  const double ra = m[kRhoO2 * N + k], rb = m[kRhoN2 * N + k];
  f.rho[0] = ra * density_unit;
  f.rho[1] = rb * density_unit;
  f.x_o2 = mole_fraction(ra, rb, mass[0], mass[1]);
  for (int a = 0; a < 3; ++a) {
    const double ja = m[(kJO2x + a) * N + k], jb = m[(kJN2x + a) * N + k];
    f.u_o2[a] = fluid ? ja / ra * velocity_unit : 0.0;
    f.u_n2[a] = fluid ? jb / rb * velocity_unit : 0.0;
    f.u[a] = fluid ? (ja + jb) / (ra + rb) * velocity_unit : 0.0;
  }
  f.solid = fluid ? 0.0 : 1.0;
  return f;
}

}  // namespace ks::lbm
