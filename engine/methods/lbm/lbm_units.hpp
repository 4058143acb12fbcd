// lbm.binary: units and the lattice convention, in one place.
//
// Both species share one cubic lattice (spacing dx) and one time step dt. The lattice speed
// c = dx / dt is the lighter species' c_j = sqrt(3 k_B T_0 / m_j) of eq. (4) (N2), so N2 streams
// one link per step with the weights of eq. (7). The heavier O2 has c_O2 = c sqrt(m_N2 / m_O2)
// < c: instead of an off-lattice velocity set (which would need interpolated streaming), its
// populations live on the same links and its equilibrium carries the lower "lattice temperature"
// theta_j = k_B T_0 / (m_j c^2) = c_j^2 / (3 c^2) (see lbm_model.hpp). Lattice units: dx = dt = 1,
// c = 1, mass unit m_N2 = 1, so m_j = M_j / M_N2, k_B T_0 = 1/3, partial pressure
// p_j = n_j k_B T_0 = rho_j theta_j, and densities are in units of the inlet mixture density.
#pragma once

#include <cmath>

namespace ks::lbm {

enum SpeciesIndex { kO2 = 0, kN2 = 1, kSpecies = 2 };

constexpr double kMolarMassO2 = 31.998e-3;        // kg/mol
constexpr double kMolarMassN2 = 28.014e-3;        // kg/mol
constexpr double kGasConstant = 8.314462618;      // J/(mol K)
constexpr double kReferenceTemperature = 293.15;  // T_0, K
constexpr double kInletDensitySI = 1.2;           // kg/m^3, the paper's inlet mixture density (section 5.1)

// m_j in lattice units (m_N2 = 1).
inline double lattice_mass(int species) { return (species == kO2 ? kMolarMassO2 : kMolarMassN2) / kMolarMassN2; }

// c_j of eq. (4) in m/s; the lattice speed c is c_N2.
inline double species_speed_si(int species) {
  return std::sqrt(3.0 * kGasConstant * kReferenceTemperature / (species == kO2 ? kMolarMassO2 : kMolarMassN2));
}

// Lattice densities and velocities to SI for display: the inlet mixture density is 1.2 kg/m^3 and
// the lattice speed c = dx/dt is c_N2.
inline double density_si(double rho) { return rho * kInletDensitySI; }
inline double velocity_si(double u) { return u * species_speed_si(kN2); }

// Largest admissible Schmidt number nu / D_AB of the model with J - J_j as extra quasi-equilibrium
// variable (eq. 11, from tau_2 > tau_1): Y_A Y_B / (X_A X_B) = m_A m_B / m^2 with the mean molecular
// mass m = X_A m_A + X_B m_B. It falls as X_O2 grows (from m_O2/m_N2 to m_N2/m_O2).
inline double max_schmidt(double x_o2) {
  const double m = x_o2 * lattice_mass(kO2) + (1.0 - x_o2) * lattice_mass(kN2);
  return lattice_mass(kO2) * lattice_mass(kN2) / (m * m);
}

}  // namespace ks::lbm
