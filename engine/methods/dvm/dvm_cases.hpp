// kinetic.dvm: the paper's cases (section 4) and the Couette check as discretised problems.
#pragma once

#include "dvm_config.hpp"
#include "dvm_params.hpp"

namespace ks::dvm {

constexpr double kGamma = 5.0 / 3.0;  // monatomic gas (argon)
// Viscous slip coefficient of the S model (and BGK), in units of l = mu v_m / p (Sharipov &
// Seleznev, J. Phys. Chem. Ref. Data 27 (1998) 657, table 4: 1.016).
constexpr double kSlipCoefficient = 1.016;

// The discretised problem for `p`; throws bad_input (key, value, allowed range) for what cannot run.
//  cavity: [0,1]^3, lid y = 1 moving along +x (section 4.1); cube: [-5, 9] x [-6, 6]^2 around the
//  unit cube at the origin, free stream along +x, stretched axes (section 4.2); couette: plates
//  y = 0 (at rest) and y = 1 (moving along +x), one periodic cell along x and z.
DvmConfig make_config(const DvmParams& p);

// The walls and the free stream of `p` (live parameters) on an existing discretisation;
// refuses (leaving `c` as it was) a free stream the velocity box cannot hold.
void apply_boundary_state(const DvmParams& p, DvmConfig& c);

// Planar Couette references at Knudsen number kn for plates U apart at wall temperature Tw (normalised):
// free-molecular shear stress -n U sqrt(Tw) / (2 sqrt(pi)), mean velocity U / 2, temperature Tw + U^2 / 6;
// Navier-Stokes with first-order slip: slope U / (1 + 2 sigma l), stress -mu U / (1 + 2 sigma l), l = 2 mu.
struct CouetteReference {
  double fm_shear, fm_velocity, fm_temperature;
  double slip_slope, slip_shear;
};
CouetteReference couette_reference(const DvmConfig& c, double kn);

}  // namespace ks::dvm
