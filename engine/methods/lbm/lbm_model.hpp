// lbm.binary: the formulas shared by the CPU and CUDA paths (Safi & Ashrafizaadeh, section 2):
// D3Q27 velocities (eq. 4) and weights (eq. 7), the entropic equilibrium (eq. 6) and
// quasi-equilibrium (eq. 8), the two-stage relaxation (eq. 2) with the relaxation times of eq. (9),
// the interpolated bounce-back of Yu et al. (eq. 14) and the pressure boundary (Zou-He for D3Q27).
// Templated on the floating-point type: the `precision` parameter picks float or double.
//
// Layout: f[(s * 27 + i) * nodes + node], node = (z * ny + y) * nx + x: the paper's structure of
// arrays with both species in one array (its "hybrid grid", Fig. 5).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/fast_divisor.hpp"
#include "lbm_config.hpp"

namespace ks::lbm {

constexpr int kQ = 27;

// D3Q27 in product order: i = (cx + 1) * 9 + (cy + 1) * 3 + (cz + 1); the opposite is 26 - i.
KS_HD int cx(int i) { return i / 9 - 1; }
KS_HD int cy(int i) { return (i / 3) % 3 - 1; }
KS_HD int cz(int i) { return i % 3 - 1; }
KS_HD int opposite(int i) { return 26 - i; }

// The plane z of node k = (z * ny + y) * nx + x (32-bit: lattices have fewer than 2^31 nodes).
KS_HD int node_plane(const LbmConfig& c, std::uint32_t k) { return int(k / (std::uint32_t(c.nx) * std::uint32_t(c.ny))); }

// The position of node k.
KS_HD void node_position(const LbmConfig& c, std::uint32_t k, int& x, int& y, int& z) {
  const std::uint32_t nx = c.nx, ny = c.ny;
  x = int(k % nx), y = int(k / nx % ny), z = node_plane(c, k);
}

// node_position by multiply-high divisions (the GPU's fused step; its integer divisions by the
// lattice's run-time sides were about twenty instructions each).
struct NodeDivisors {
  FastDivisor x, xy;  // by nx, by nx * ny
  NodeDivisors() = default;
  explicit NodeDivisors(const LbmConfig& c) : x(std::uint32_t(c.nx)), xy(std::uint32_t(c.nx) * std::uint32_t(c.ny)) {}
  KS_HD int plane(std::uint32_t k) const { return int(xy.quotient(k)); }
  KS_HD void position(std::uint32_t k, int& px, int& py, int& pz) const {
    const std::uint32_t z = xy.quotient(k), in_plane = xy.remainder(k, z), y = x.quotient(in_plane);
    px = int(x.remainder(in_plane, y)), py = int(y), pz = int(z);
  }
};

// The plane of the neighbour of a node of plane z along direction i, periodic (open ends overwrite
// what wraps around, see lbm_boundary).
KS_HD int neighbour_plane(const LbmConfig& c, int z, int i) {
  const int zn = z + cz(i);
  return zn < 0 ? c.nz - 1 : (zn == c.nz ? 0 : zn);
}

// Index of the neighbour of (x, y, z) along direction i, periodic in all three axes.
KS_HD long long neighbour(const LbmConfig& c, int x, int y, int z, int i) {
  int xn = x + cx(i), yn = y + cy(i);
  xn = xn < 0 ? c.nx - 1 : (xn == c.nx ? 0 : xn);
  yn = yn < 0 ? c.ny - 1 : (yn == c.ny ? 0 : yn);
  return ((long long)neighbour_plane(c, z, i) * c.ny + yn) * c.nx + xn;
}

// One axis of a product-form D3Q27 distribution: the factors for c_alpha = -1, 0, +1.
template <class Real>
struct Axis {
  Real v[3];
};

// The 1D factor of eq. (6) with its weights (2/3, 1/6) of eq. (7), c_j = 1: the minimiser of
// sum_c f ln(f / W_c) at unit density and velocity u, with S = sqrt(1 + 3u^2):
// psi(0) = (2/3)(2 - S), psi(+-1) = (1/6)(2 - S) ((2u + S) / (1 - u))^(+-1).
// Its second moment is 1/3 + u^2 - (3/4) u^4: the lattice temperature 1/3 comes for free.
// With B = P / Q (P = 2u + S, Q = 1 - u), psi(-1) = A Q^2 r and psi(+1) = A P^2 r for r = 1 / (6 P Q):
// one division instead of three (the collision is bound by instruction issue on the GPU).
template <class Real>
KS_HD Axis<Real> entropic_axis(Real u) {
  const Real S = sqrt(Real(1) + Real(3) * u * u);
  const Real A = Real(2) - S, P = Real(2) * u + S, Q = Real(1) - u;
  const Real r = A / (Real(6) * P * Q);
  return Axis<Real>{{r * Q * Q, Real(2) / Real(3) * A, r * P * P}};
}

// A species lighter than the lattice speed (theta < 1/3, lbm_units.hpp): minimising H alone would
// give it the lattice's temperature, so its own temperature theta is a constraint as well. On three
// velocities the three moments fix the factor: psi(0) = 1 - theta - u^2, psi(+-1) = (theta + u^2 +- u)/2
// (positive for theta > 1/4), which agrees with eq. (6) to O(u^4) at theta = 1/3.
template <class Real>
KS_HD Axis<Real> isothermal_axis(Real u, Real theta) {
  const Real e = theta + u * u;
  return Axis<Real>{{(e - u) / Real(2), Real(1) - e, (e + u) / Real(2)}};
}

// The species' equilibrium factor: eq. (6) for the species that defines the lattice (theta = 1/3),
// the isothermal one otherwise.
template <class Real>
KS_HD Axis<Real> equilibrium_axis(Real u, Real theta, bool lattice_species) {
  return lattice_species ? entropic_axis(u) : isothermal_axis(u, theta);
}

// rho * psi_x(cx) psi_y(cy) psi_z(cz) for all 27 directions at velocity u: the product form whose
// weights at u = 0 are eq. (7) (theta = 1/3).
template <class Real>
struct Product {
  Axis<Real> x, y, z;
  KS_HD Product(const Real u[3], Real theta, bool lattice_species)
      : x(equilibrium_axis(u[0], theta, lattice_species)),
        y(equilibrium_axis(u[1], theta, lattice_species)),
        z(equilibrium_axis(u[2], theta, lattice_species)) {}
  KS_HD Real operator()(Real rho, int i) const { return rho * x.v[i / 9] * y.v[(i / 3) % 3] * z.v[i % 3]; }
};

template <class Real>
struct SpeciesMoments {
  Real rho = Real(0), j[3] = {Real(0), Real(0), Real(0)};
};

// Density and momentum of one species (eq. 3), in lattice units (c = 1).
template <class Real>
KS_HD SpeciesMoments<Real> species_moments(const Real f[kQ]) {
  SpeciesMoments<Real> m;
  KS_UNROLL
  for (int i = 0; i < kQ; ++i) {
    m.rho += f[i];
    m.j[0] += Real(cx(i)) * f[i];
    m.j[1] += Real(cy(i)) * f[i];
    m.j[2] += Real(cz(i)) * f[i];
  }
  return m;
}

// What a collision needs besides the populations, in the solver's precision.
template <class Real>
struct CollisionParams {
  Real mass[kSpecies], inverse_mass[kSpecies], theta[kSpecies];
  bool lattice_species[kSpecies];
  Real viscosity, diffusivity;
};

template <class Real>
CollisionParams<Real> collision_params(const LbmConfig& c) {
  CollisionParams<Real> p;
  for (int s = 0; s < kSpecies; ++s) {
    p.mass[s] = Real(c.mass[s]);
    p.inverse_mass[s] = Real(1.0 / c.mass[s]);
    p.theta[s] = Real(c.theta(s));
    p.lattice_species[s] = c.lattice_species(s);
  }
  p.viscosity = Real(c.viscosity);
  p.diffusivity = Real(c.diffusivity);
  return p;
}

// The two-stage collision of eq. (2) at one node. Discretised with the trapezoidal rule
// (Arcidiacono et al. 2006): with beta_k = 1 / (2 tau_k + 1),
//   f' = f + 2 beta_1 (f^eq - f) + 2 (beta_1 - beta_2) (f^* - f^eq),
// f^eq = f^eq(rho_j, u) at the mixture velocity u = J / rho (eq. 6), f^* = f^eq(rho_j, u_j) at the
// species velocity (eq. 8). Species mass and mixture momentum are conserved exactly.
// The species are coupled only through u and the two coefficients (from both densities, eq. 9), so
// the collision splits into the mixture's part and one relaxation per species; the GPU gives each
// species its own thread and exchanges the moments between the pair.
template <class Real>
struct MixtureRelaxation {
  Real u[3];
  Real a1, a2;  // 2 beta_1 and 2 (beta_1 - beta_2)
};

template <class Real>
KS_HD MixtureRelaxation<Real> mixture_relaxation(const SpeciesMoments<Real>& m0, const SpeciesMoments<Real>& m1,
                                                 const CollisionParams<Real>& p) {
  MixtureRelaxation<Real> r;
  const Real rho = m0.rho + m1.rho, inverse_rho = Real(1) / rho;
  KS_UNROLL
  for (int a = 0; a < 3; ++a) r.u[a] = (m0.j[a] + m1.j[a]) * inverse_rho;
  // The relaxation times of eq. (9) in lattice units, with n = sum rho_j / m_j and P = n k_B T_0 = n / 3:
  // tau_1 = mu / P = 3 nu rho / n; tau_2 = D_AB m_AB / (X_A X_B P) with m_AB = rho_A rho_B / rho, i.e.
  // tau_2 = 3 D_AB m_A m_B n / rho (finite also for a pure species). So beta_1 = n / (6 nu rho + n) and
  // beta_2 = rho / (6 D_AB m_A m_B n + rho): two divisions (the GPU's collision is issue-bound).
  const Real n = m0.rho * p.inverse_mass[0] + m1.rho * p.inverse_mass[1];
  const Real beta1 = n / (Real(6) * p.viscosity * rho + n), beta2 = rho / (Real(6) * p.diffusivity * p.mass[0] * p.mass[1] * n + rho);
  r.a1 = Real(2) * beta1;
  r.a2 = Real(2) * (beta1 - beta2);
  return r;
}

// One species' part of eq. (2), in place; m are its moments before the collision.
template <class Real>
KS_HD void relax_species(Real f[kQ], const SpeciesMoments<Real>& m, const MixtureRelaxation<Real>& r, Real theta, bool lattice_species) {
  Real us[3];
  const Real inverse_rho = Real(1) / m.rho;
  KS_UNROLL
  for (int a = 0; a < 3; ++a) us[a] = m.j[a] * inverse_rho;
  const Product<Real> eq(r.u, theta, lattice_species), qe(us, theta, lattice_species);
  KS_UNROLL
  for (int i = 0; i < kQ; ++i) {
    const Real feq = eq(m.rho, i), fqe = qe(m.rho, i);
    f[i] += r.a1 * (feq - f[i]) + r.a2 * (fqe - feq);
  }
}

template <class Real>
KS_HD void collide(Real f[kSpecies][kQ], const CollisionParams<Real>& p) {
  const SpeciesMoments<Real> m0 = species_moments(f[0]), m1 = species_moments(f[1]);
  const MixtureRelaxation<Real> r = mixture_relaxation(m0, m1, p);
  relax_species(f[0], m0, r, p.theta[0], p.lattice_species[0]);
  relax_species(f[1], m1, r, p.theta[1], p.lattice_species[1]);
}

// Interpolated bounce-back of Yu, Mei & Shyy (2002), eq. (14): the unknown f_ibar at the fluid
// node x_f from f_i at x_f (arrived from x_ff), f_i at the solid node x_s (what x_f sent towards
// the wall) and f_ibar at x_ff (what x_f sent away from it); delta = |x_f - x_w| / |x_f - x_s|
// (eq. 15). delta = 1/2 is not the half-way rule: the wall is interpolated at its exact place.
template <class Real>
KS_HD Real yu_bounce_back(Real delta, Real fi_f, Real fi_s, Real fibar_ff) {
  return ((Real(1) - delta) * fi_f + delta * fi_s + delta * fibar_ff) / (Real(1) + delta);
}

// Pressure (density) boundary on a plane normal to z for one species (Zou & He 1997 adapted to
// D3Q27): the populations with c_z = side (side = +1 at the inlet z = 0, -1 at the outlet) are
// unknown. The normal velocity follows from mass, rho (1 - side u_z) = sum_{c_z=0} f + 2 sum_{c_z=-side} f;
// the unknowns are the equilibrium plus the bounced-back non-equilibrium part (which gives rho and
// rho u_z exactly), less the tangential momentum that the in-plane non-equilibrium carries,
// spread over the six unknowns with c_x or c_y != 0 (so the tangential velocity is zero).
template <class Real>
KS_HD void pressure_boundary(Real f[kQ], Real rho, Real theta, bool lattice_species, int side) {
  Real in_plane = Real(0), outgoing = Real(0);
  KS_UNROLL
  for (int i = 0; i < kQ; ++i) {
    if (cz(i) == 0) in_plane += f[i];
    else if (cz(i) == -side) outgoing += f[i];
  }
  const Real u[3] = {Real(0), Real(0), Real(side) * (Real(1) - (in_plane + Real(2) * outgoing) / rho)};
  const Product<Real> eq(u, theta, lattice_species);
  Real nx = Real(0), ny = Real(0);
  KS_UNROLL
  for (int i = 0; i < kQ; ++i)
    if (cz(i) == 0) {
      const Real neq = f[i] - eq(rho, i);
      nx += Real(cx(i)) * neq;
      ny += Real(cy(i)) * neq;
    }
  KS_UNROLL
  for (int i = 0; i < kQ; ++i)
    if (cz(i) == side) f[i] = eq(rho, i) + f[opposite(i)] - eq(rho, opposite(i)) - (Real(cx(i)) * nx + Real(cy(i)) * ny) / Real(6);
}

}  // namespace ks::lbm
