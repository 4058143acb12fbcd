// radiation.rmc: Planck's law per narrow band and the exponential integrals of
// the slab solutions (host only).
#pragma once

#include <cmath>

#include "core/constants.hpp"

namespace ks::rmc {

using constants::kBoltzmann;
using constants::kLightSpeed;
using constants::kPi;
using constants::kPlanck;
using constants::kStefanBoltzmann;

// Blackbody emissive power pi * int I_b,nu d nu over the band [nu0, nu1] (wavenumbers in 1/cm), W/m^2,
// by Simpson's rule on 16 intervals (Planck's law varies little across a narrow band).
inline double band_emissive_power(double nu0_cm, double nu1_cm, double T) {
  if (T <= 0.0) return 0.0;
  const double c2 = kPlanck * kLightSpeed / kBoltzmann;  // m K
  auto planck = [&](double nu_cm) {                      // pi I_b,nu per unit wavenumber (1/m)
    const double nu = 100.0 * nu_cm;
    if (nu <= 0.0) return 0.0;
    return 2.0 * kPi * kPlanck * kLightSpeed * kLightSpeed * nu * nu * nu / std::expm1(c2 * nu / T);
  };
  const int m = 16;
  const double h = (nu1_cm - nu0_cm) / m;
  double s = planck(nu0_cm) + planck(nu1_cm);
  for (int i = 1; i < m; ++i) s += (i % 2 ? 4.0 : 2.0) * planck(nu0_cm + i * h);
  return s * h / 3.0 * 100.0;  // d nu in 1/m
}

// E1(x) = int_1^inf e^{-x t} / t dt: the power series below 1, a continued fraction (modified Lentz) above.
inline double expint_e1(double x) {
  if (x <= 0.0) return HUGE_VAL;
  if (x < 1.0) {
    double sum = 0.0, term = 1.0;
    for (int k = 1; k < 60; ++k) {
      term *= -x / k;
      sum += term / k;
      if (std::fabs(term / k) < 1e-17 * std::fabs(sum)) break;
    }
    return -0.57721566490153286061 - std::log(x) - sum;
  }
  double b = x + 1.0, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
  for (int i = 1; i < 200; ++i) {
    const double a = -double(i) * i;
    b += 2.0;
    d = 1.0 / (a * d + b);
    c = b + a / c;
    const double del = c * d;
    h *= del;
    if (std::fabs(del - 1.0) < 1e-16) break;
  }
  return h * std::exp(-x);
}

// E2(x) = e^{-x} - x E1(x); E2(0) = 1.
inline double expint_e2(double x) { return x <= 0.0 ? 1.0 : std::exp(-x) - x * expint_e1(x); }

}  // namespace ks::rmc
