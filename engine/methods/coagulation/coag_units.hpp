// Physical constants and the characteristic quantities of the paper (Wei & Kruis 2013).
#pragma once

#include <cmath>

#include "core/constants.hpp"

namespace ks::coag {

using constants::kBoltzmann;
using constants::kPi;

inline double volume_of_diameter(double d) { return kPi / 6.0 * d * d * d; }
inline double diameter_of_volume(double v) { return std::cbrt(6.0 * v / kPi); }
// ln d of a sphere of volume v, (ln v + ln(6/pi)) / 3: one logarithm, no cube root (the statistics
// take it of every particle at every output).
inline double log_diameter_of_volume(double v) { return (std::log(v) + 0.6470295833786548 /* ln(6/pi) */) / 3.0; }

// K_F = (3 k_B T / rho_p)^{1/2}, eq. (11). With it, eq. (11) is exactly the usual
// free-molecular kernel (3/4pi)^{1/6} (6kT/rho)^{1/2} (1/v_i+1/v_j)^{1/2} (v_i^{1/3}+v_j^{1/3})^2
// written in diameters: the prefactors combine to 2^{-1/2} (6kT/rho)^{1/2} = K_F.
inline double free_molecular_KF(double T, double rho_p) { return std::sqrt(3.0 * kBoltzmann * T / rho_p); }

// tau_char = 1 / ((3 V_t / 4 pi)^{1/6} K_F N_0^{5/6}), V_t = N_0 pi d_0^3 / 6, eq. (12).
inline double free_molecular_tau(double KF, double N0, double d0) {
  const double Vt = N0 * kPi * d0 * d0 * d0 / 6.0;
  return 1.0 / (std::pow(3.0 * Vt / (4.0 * kPi), 1.0 / 6.0) * KF * std::pow(N0, 5.0 / 6.0));
}

// For the other kernels tau_char = 2 / (beta(v0, v0) N0): the time in which a monodisperse
// population would halve at its initial rate (exactly the constant-kernel half-life; for the
// additive kernel it equals 1/(B V_t), the e-folding time of N).
inline double initial_halving_tau(double beta00, double N0) { return 2.0 / (beta00 * N0); }

}  // namespace ks::coag
