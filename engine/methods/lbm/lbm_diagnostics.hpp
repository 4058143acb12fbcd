// lbm.binary: what the fields, plots and tests read off the node moments: plane averages along z
// (the paper's Figs. 9-10), the tube's velocity profile against Poiseuille's parabola (Fig. 6), and
// the amplitude of a mole-fraction wave.
#pragma once

#include <cstdint>
#include <vector>

#include "lbm_config.hpp"
#include "lbm_geometry.hpp"

namespace ks::lbm {

// Averages over the fluid nodes of each plane z (lattice units).
struct PlaneAverages {
  std::vector<double> rho[kSpecies];  // species density
  std::vector<double> uz[kSpecies];   // species velocity along z, J_z / rho
  std::vector<double> uz_mix;         // mixture velocity along z
  std::vector<double> pressure;       // sum_j rho_j theta_j
};
PlaneAverages plane_averages(const LbmConfig& c, const LatticeGeometry& g, const std::vector<double>& moments);

// The mixture velocity u_z at the fluid nodes of plane z against u(r) = G (R^2 - r^2) / (4 mu), with
// G = -dp/dz from the plane-averaged pressure at z +- 2 and mu = nu rho (the plane's mean density).
struct PoiseuilleProfile {
  std::vector<double> r, uz, analytic;  // per fluid node of the plane
  double l2_error = 0.0;                // sqrt(sum (uz - analytic)^2 / sum analytic^2)
  double max_error = 0.0;               // max |uz - analytic| / max analytic
  double centre_velocity = 0.0;         // analytic u at r = 0
};
PoiseuilleProfile poiseuille_profile(const LbmConfig& c, const LatticeGeometry& g, const std::vector<double>& moments, int z);
// The same from the whole lattice's plane averages and plane z alone: moment q of its node xy at
// m[q * stride + xy], its node types from `type` (a plane gathered from the rank that holds it).
PoiseuilleProfile poiseuille_profile(const LbmConfig& c, const Shapes& shapes, const PlaneAverages& a, const double* m, long long stride,
                                     const std::uint8_t* type, int z);

// Mole fraction of O2 at every fluid node (0 at solid nodes).
std::vector<double> mole_fraction_o2(const LbmConfig& c, const std::vector<double>& moments);

// Amplitude of the first Fourier mode along z of the plane-averaged mole fraction X_O2 (periodic box).
double mole_wave_amplitude(const LbmConfig& c, const LatticeGeometry& g, const std::vector<double>& moments);

}  // namespace ks::lbm
