#include "dvm_cases.hpp"

#include <cmath>

#include "dvm_model.hpp"

namespace ks::dvm {

CouetteReference couette_reference(const DvmConfig& c, double kn) {
  CouetteReference r;
  const double U = c.walls[1].U[0] - c.walls[0].U[0], Tw = c.walls[0].T;
  r.fm_shear = -c.initial_n * U * std::sqrt(Tw) / (2.0 * std::sqrt(kPi));
  r.fm_velocity = 0.5 * (c.walls[0].U[0] + c.walls[1].U[0]);
  r.fm_temperature = Tw + U * U / 6.0;
  const double mu = reference_viscosity(kn, c.omega) * std::pow(Tw, c.omega);
  const double l = mu / (0.5 * c.initial_n * Tw);  // mu v_m / p
  r.slip_slope = U / (1.0 + 2.0 * kSlipCoefficient * l);
  r.slip_shear = -mu * r.slip_slope;
  return r;
}

}  // namespace ks::dvm
