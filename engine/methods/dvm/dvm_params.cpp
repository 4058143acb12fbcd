#include "dvm_params.hpp"

namespace ks::dvm {

const ParamTable<DvmParams>& dvm_param_table() {
  using P = DvmParams;
  static const ParamTable<P> table =
      ParamTable<P>()
          .bind_choice(&P::problem,
                       choice_param("case", "Problem", "cavity", {"cavity", "cube", "couette"},
                                    "cavity: lid-driven cube cavity (section 4.1); cube: supersonic flow past a cube (section 4.2); "
                                    "couette: planar Couette flow between diffuse plates (a check with closed-form limits)"),
                       {Case::Cavity, Case::Cube, Case::Couette})
          .bind(&P::kn,
                quick(real_param("kn", "Knudsen number", "", 1.0, 1e-3, 1e5,
                                 "lambda_ref / L; mu_ref follows from eq. (10). The iterations continue from the current moments")),
                Change::NextIteration)
          .bind(&P::lid_speed,
                quick(only_when("case", {"cavity", "couette"},
                                real_param("lid_speed", "Lid / plate speed", "v_m", 0.1, 0.0, 2.0,
                                           "Cavity lid or upper Couette plate velocity along +x, in sqrt(2 R T_ref)", false))),
                Change::NextIteration)
          .bind(&P::mach,
                only_when("case", {"cube"},
                          real_param("mach", "Free-stream Mach number", "", 2.0, 0.1, 10.0,
                                     "Cube: U_inf / sqrt(gamma R T_inf), gamma = 5/3", false)),
                Change::NextIteration)
          .bind(
              &P::wall_temperature,
              real_param("wall_temperature", "Wall temperature", "K", 273.15, 1.0, 5000.0, "Diffuse walls (and the cube's surface)", false),
              Change::NextIteration)
          .bind(&P::gas_temperature, real_param("gas_temperature", "Reference gas temperature", "K", 273.15, 1.0, 5000.0,
                                                "Initial gas (cavity, Couette) or free stream (cube); T_ref of the normalisation", false))
          .bind(&P::nx, int_param("nx", "Cells along x", 32, 1, 4096, "Physical cells along x (Couette: 1, periodic)"))
          .bind(&P::ny, int_param("ny", "Cells along y", 32, 1, 4096, "Physical cells along y"))
          .bind(&P::nz,
                int_param("nz", "Cells along z", 32, 1, 4096, "Physical cells along z (Couette: 1, periodic); slices march along z"))
          .bind(&P::body_cells,
                only_when("case", {"cube"},
                          int_param("body_cells", "Cells across the cube", 31, 2, 1024,
                                    "Cube: uniform cells across the body; the rest grow geometrically to the domain boundary")))
          .bind(&P::nv, int_param("nv", "Velocities per axis", 16, 4, 256, "M uniform points per axis (even), trapezoidal weights (eq. 5)"))
          .bind(&P::v_max,
                real_param("v_max", "Velocity box half-width", "v_m", 4.0, 1.0, 20.0, "Velocities span [-v_max, v_max]^3", false))
          .bind(&P::omega, real_param("omega", "Viscosity exponent", "", 0.81, 0.5, 1.0, "mu ~ T^omega (argon: 0.81)", false))
          .bind(&P::batch, int_param("batch", "Velocities per batch", 0, 0, 1 << 30,
                                     "Discrete velocities swept together; 0: one octant. Memory ~ 2 slices x batch"))
          .bind_choice(&P::single,
                       choice_param("precision", "Stored f precision", "fp32", {"fp32", "fp64"},
                                    "fp32: the two slices of f in 4-byte floats (the paper's choice; half the memory and traffic); "
                                    "fp64: 8-byte. Moments, f^S and the update are computed in double either way"),
                       {true, false})
          .bind(&P::strip, int_param("strip", "GPU sweep strip", 0, 0, 16,
                                     "CUDA: cells of a row each warp sweeps, one row behind its left neighbour (4, 8 or 16); 0: the "
                                     "widest strips that still fill the GPU"))
          .bind(&P::tolerance,
                real_param("tolerance", "Convergence tolerance", "", 1e-6, 0.0, 1.0,
                           "Stop when the relative L2 change of density, momentum and energy falls below this (paper: 1e-9)"),
                Change::Nothing)
          .bind(&P::max_iterations, int_param("max_iterations", "Iteration limit", 500, 1, 1000000, "Stop after this many iterations"),
                Change::Nothing);
  return table;
}

}  // namespace ks::dvm
