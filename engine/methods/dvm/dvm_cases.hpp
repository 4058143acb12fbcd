// kinetic.dvm: the paper's cases (section 4) and the Couette check as discretised problems.
#pragma once

#include "dvm_config.hpp"
#include "dvm_params.hpp"

namespace ks::dvm {

constexpr double kGamma = 5.0 / 3.0;  // monatomic gas (argon)
// Viscous slip coefficient of the S model (and BGK), in units of l = mu v_m / p (Sharipov &
// Seleznev, J. Phys. Chem. Ref. Data 27 (1998) 657, table 4: 1.016).
constexpr double kSlipCoefficient = 1.016;

// Planar Couette references at Knudsen number kn for plates U apart at wall temperature Tw (normalised):
// free-molecular shear stress -n U sqrt(Tw) / (2 sqrt(pi)), mean velocity U / 2, temperature Tw + U^2 / 6;
// Navier-Stokes with first-order slip: slope U / (1 + 2 sigma l), stress -mu U / (1 + 2 sigma l), l = 2 mu.
struct CouetteReference {
  double fm_shear, fm_velocity, fm_temperature;
  double slip_slope, slip_shear;
};
CouetteReference couette_reference(const DvmConfig& c, double kn);

}  // namespace ks::dvm
