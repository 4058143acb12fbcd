// radiation.rmc: spectral models. A narrow-band correlated-k table (section 2.1) gives, per band n
// and Gauss point g, k_{n,g}(T); the grey gas is the one-band, one-point case. The marcher reads
// tables resampled on a uniform temperature grid spanning the case (Algorithm 1, interpBlackbody and
// interpAbsorpCoeff) and samples (n, g) at T_max (eq. 13, 15-17).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "core/host_device.hpp"
#include "rmc_config.hpp"

namespace ks::rmc {

// A row of a table on a uniform temperature grid at coordinate t: linear, continued linearly beyond
// the ends (the tables span every temperature of a case, so that never happens in a march).
KS_HD double interpolate_row(const double* row, int nt, double t) {
  int i = int(floor(t));
  i = i < 0 ? 0 : (i > nt - 2 ? nt - 2 : i);
  return row[i] + (t - i) * (row[i + 1] - row[i]);
}

// A generated NB-CK file (resources/radiation/nbck_*.json, format "ks-nbck-1"; see its PROVENANCE.md).
struct GasData {
  std::string gas, source;
  bool grey = false;
  std::vector<double> T;             // K, ascending, uniform
  std::vector<double> weights;       // quadrature weight per Gauss point, sum 1
  std::vector<double> nu_lo, nu_hi;  // band edges, 1/cm
  std::vector<double> k;             // [band][g][t], 1/m at the file's composition and 1 atm
  int bands() const { return int(nu_lo.size()); }
  int per_band() const { return int(weights.size()); }
};

GasData grey_gas(double kappa);
// Reads and checks a ks-nbck-1 file; every problem names the file, the key and what is allowed.
GasData load_gas_data(const std::string& path);
// resources/radiation/nbck_<gas>.json under ks::resource_dir() (core/data_dir.hpp).
std::string gas_data_file(Gas g);

struct SpectralTables {
  int bands = 0, per_band = 0, nt = 0;
  double T0 = 0.0, dT = 1.0;        // the uniform temperature grid T0 + i dT, i < nt
  std::vector<double> emission;     // [band][t]: band emissive power E_n(T) = pi int I_b dnu, W/m^2
  std::vector<double> absorption;   // [band * per_band + g][t]: k, 1/m
  std::vector<double> weights;      // per Gauss point
  std::vector<double> band_center;  // 1/cm

  // Sampling at T_max: f_{n,g} ~ w_g k_{n,g}(T_max) E_n(T_max) (eq. 13, 16).
  double T_max = 0.0;
  double emission_max = 0.0;       // 4 kappa_P(T_max) sigma T_max^4, W/m^3 (eq. 6 per unit volume)
  std::vector<double> cdf_band;    // [band]: inclusive cumulative of f_n (eq. 17)
  std::vector<double> cdf_point;   // [band][g]: inclusive cumulative of f_g(n)
  std::vector<double> cdf_sorted;  // [rank]: inclusive cumulative over points in ascending k(T_max)
  std::vector<int> sorted_point;   // [rank] -> point
  std::vector<double> inv_source;  // [point]: 1 / (E_n(T_max) k_{n,g}(T_max)), 0 where never drawn

  int points() const { return bands * per_band; }
  double coordinate(double T) const { return (T - T0) / dT; }
  double emission_at(int band, double t) const { return interpolate_row(&emission[std::size_t(band) * nt], nt, t); }
  double absorption_at(int point, double t) const { return interpolate_row(&absorption[std::size_t(point) * nt], nt, t); }
  double kappa_planck(double T) const;  // sum w k E / (sigma T^4) by the tables, 1/m
  double kappa_ref(KappaRef r) const;   // eq. (25)-(26) at T_max
};

// Resamples `gas` on [T_lo, T_hi] (nt points; k is held constant outside the file's range) and builds
// the sampling tables at T_max.
SpectralTables build_tables(const GasData& gas, double T_lo, double T_hi, double T_max, int nt = 512);

}  // namespace ks::rmc
