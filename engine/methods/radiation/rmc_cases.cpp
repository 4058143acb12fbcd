#include "rmc_cases.hpp"

#include <algorithm>
#include <cmath>

#include "rmc_planck.hpp"

namespace ks::rmc {

const char* gas_name(Gas g) {
  switch (g) {
    case Gas::Grey: return "grey";
    case Gas::H2O: return "H2O";
    case Gas::CO2: return "CO2";
    case Gas::Mix: return "mix";
  }
  return "?";
}

double profile_temperature(const RmcConfig& c, double x, double y, double z) {
  const double X = x / c.L[0], Y = y / c.L[1], Z = z / c.L[2];
  switch (c.profile) {
    case Profile::Lin1: return 500.0 + 1000.0 * X;                     // eq. (18)
    case Profile::Parab1: return 500.0 - 2000.0 * X * X + 2000.0 * X;  // eq. (19)
    case Profile::Sin: {                                               // eq. (20): sigma T^4 = pi sin sin sin
      const double s = std::sin(kPi * X) * std::sin(kPi * Y) * std::sin(kPi * Z);
      return std::pow(std::max(s, 0.0) * kPi / kStefanBoltzmann, 0.25);
    }
    case Profile::Lin2: return 295.0 + 10.0 * X;                       // Fig. 4
    case Profile::Parab2: return 500.0 - 8000.0 * X * X + 8000.0 * X;  // eq. (21)
    case Profile::ThreeDim: {                                          // eq. (22)
      const double s = X * Y * Z;
      return 500.0 - 2000.0 * s * s + 2000.0 * s;
    }
    case Profile::Isothermal: return c.temperature;
    case Profile::File: {  // the value of the cell holding the point: the field is constant per cell
      const double r[3] = {x, y, z};
      std::size_t cell = 0;
      for (int a = 2; a >= 0; --a) cell = cell * c.n[a] + std::size_t(std::clamp(int(std::floor(r[a] / c.spacing(a))), 0, c.n[a] - 1));
      return c.field->values[cell];
    }
  }
  return 0.0;
}

std::vector<double> cell_temperatures(const RmcConfig& c) {
  if (c.profile == Profile::File) return c.field->values;
  std::vector<double> T(c.cells());
  const double h[3] = {c.spacing(0), c.spacing(1), c.spacing(2)};
  for (int k = 0; k < c.n[2]; ++k)
    for (int j = 0; j < c.n[1]; ++j)
      for (int i = 0; i < c.n[0]; ++i)
        T[(std::size_t(k) * c.n[1] + j) * c.n[0] + i] = profile_temperature(c, (i + 0.5) * h[0], (j + 0.5) * h[1], (k + 0.5) * h[2]);
  return T;
}

double max_temperature(const std::vector<double>& T) { return *std::max_element(T.begin(), T.end()); }

void temperature_range(const RmcConfig& c, const std::vector<double>& T, double& lo, double& hi) {
  lo = *std::min_element(T.begin(), T.end());
  hi = max_temperature(T);
  for (int side = 0; side < 6; ++side) {
    if ((side >= 2 && c.periodic[side / 2])) continue;
    lo = std::min(lo, c.walls[side].T);
    hi = std::max(hi, c.walls[side].T);
  }
  if (hi - lo < 1.0) lo -= 0.5, hi += 0.5;  // an isothermal box still needs a table interval
  lo = std::max(lo, 0.0);
}

}  // namespace ks::rmc
