// lbm.binary: the discretised problem in lattice units (see lbm_units.hpp): lattice size, the two
// species, transport coefficients, boundary states and the wall scheme. Trivially copyable: it is
// passed by value to the CUDA kernels.
#pragma once

#include "core/host_device.hpp"
#include "lbm_units.hpp"

namespace ks::lbm {

enum class Geometry { Tube, PackedBed, Periodic };
enum class GridLevel { Fine, Coarse };           // Coarse: the same geometry at half the resolution (Fig. 11-12)
enum class BounceBack { Simple, Interpolated };  // full-way; Yu et al. 2002 (eq. 14-15)
enum class Precision { Fp16, Fp32, Fp64 };       // Fp16: compressed storage, float arithmetic (CUDA only)
// CUDA: one fused pull kernel a step over the fluid nodes (lbm_cuda_pull.cuh; on MPI ranks too), the
// same with one copy of the populations (InPlace, lbm_cuda_in_place.cuh; one process only), or the
// paper's three kernels (section 4), which the CPU always runs. Auto (a parameter's value, resolved by
// LbmMethod::make_config): fused where the lattice has solids, the paper's kernels on the all-fluid
// periodic box, where they are faster (H100: 5734 against 4321 MLUPS at 256^3).
enum class GpuStep { Auto, Fused, InPlace, Paper };

struct LbmConfig {
  Geometry geometry = Geometry::Tube;
  int nx = 64, ny = 64, nz = 128;
  double mass[kSpecies] = {1.0, 1.0};  // m_j, lattice units (m_N2 = 1)
  double viscosity = 0.05;             // mixture kinematic viscosity nu, dx^2/dt
  double diffusivity = 0.08;           // D_AB, dx^2/dt
  double x_o2 = 0.47;                  // inlet (and initial) mole fraction of O2
  double pressure_ratio = 0.99;        // P_out / P_in
  BounceBack bounce_back = BounceBack::Interpolated;
  Precision precision = Precision::Fp64;
  GpuStep gpu_step = GpuStep::Fused;
  // Periodic box only: initial X_O2(z) = x_o2 + wave_amplitude sin(2 pi z / nz) at uniform
  // pressure, and a uniform initial mixture velocity.
  double wave_amplitude = 0.0;
  double initial_velocity[3] = {0.0, 0.0, 0.0};

  KS_HD long long nodes() const { return (long long)nx * ny * nz; }
  KS_HD bool periodic_z() const { return geometry == Geometry::Periodic; }
  // theta_j = k_B T_0 / (m_j c^2) = 1 / (3 m_j): the species' lattice temperature.
  KS_HD double theta(int s) const { return 1.0 / (3.0 * mass[s]); }
  // The species whose c_j is the lattice speed (m_j = 1): its equilibrium is eq. (6) as printed.
  KS_HD bool lattice_species(int s) const { return mass[s] == 1.0; }
};

// Species densities of a mixture at mole fraction x_o2 and pressure p (lattice units):
// n = 3 p, rho_j = n X_j m_j.
KS_HD void mixture_densities(const LbmConfig& c, double x_o2, double p, double rho[kSpecies]) {
  const double n = 3.0 * p;
  rho[kO2] = n * x_o2 * c.mass[kO2];
  rho[kN2] = n * (1.0 - x_o2) * c.mass[kN2];
}

// Pressure of the inlet, whose mixture density is 1.
KS_HD double inlet_pressure(const LbmConfig& c) {
  const double m = c.x_o2 * c.mass[kO2] + (1.0 - c.x_o2) * c.mass[kN2];  // mean molecular mass
  return 1.0 / (3.0 * m);
}

struct LbmParams;
// The discretised problem for `p`; throws bad_input (key, value, what is allowed) for what cannot run.
LbmConfig make_config(const LbmParams& p);
// The name of `p`'s grid_level as the parameter table gives it: "coarse" or "fine".
const char* level_name(const LbmParams& p);

}  // namespace ks::lbm
