#include "lbm_params.hpp"

namespace ks::lbm {

const ParamTable<LbmParams>& lbm_param_table() {
  using P = LbmParams;
  static const ParamTable<P> table =
      ParamTable<P>()
          .bind_choice(
              &P::geometry,
              choice_param("geometry", "Geometry", "tube", {"tube", "packed_bed", "periodic"},
                           "tube: empty circular tube along z with pressure inlet/outlet (section 5.1 benchmark); packed_bed: the tube "
                           "filled with random spheres between open sections; periodic: closed periodic box (diffusion, checks)"),
              {Geometry::Tube, Geometry::PackedBed, Geometry::Periodic})
          .bind_choice(&P::grid_level,
                       choice_param("grid_level", "Grid level", "fine", {"fine", "coarse"},
                                    "coarse: the same geometry on a lattice of half the resolution (the paper's two grid levels, Fig. "
                                    "11-12); switched live, the current state is interpolated onto the new lattice"),
                       {GridLevel::Fine, GridLevel::Coarse}, Change::NextIteration)
          .bind(&P::nx, int_param("nx", "Lattice x", 64, 8, 2048, "Nodes along x at the fine level"))
          .bind(&P::ny, int_param("ny", "Lattice y", 64, 8, 2048, "Nodes along y at the fine level"))
          .bind(&P::nz, int_param("nz", "Lattice z", 128, 8, 8192, "Nodes along z (the flow direction) at the fine level"))
          .bind_choice(&P::bounce_back,
                       choice_param("bounce_back", "Wall scheme", "interpolated", {"interpolated", "simple"},
                                    "interpolated: Yu et al. 2002 with the exact wall position (eq. 14-15); simple: full-way bounce-back"),
                       {BounceBack::Interpolated, BounceBack::Simple}, Change::NextIteration)
          .bind_choice(&P::precision,
                       choice_param("precision", "Precision", "fp64", {"fp64", "fp32", "fp16"},
                                    "Floating point of the populations and the collision (Fig. 12); fp16 stores the populations' deviation "
                                    "from the rest state in half precision and computes in fp32 (CUDA only)"),
                       {Precision::Fp64, Precision::Fp32, Precision::Fp16})
          .bind_choice(
              &P::gpu_step,
              choice_param(
                  "gpu_step", "GPU step", "auto", {"auto", "fused", "in_place", "paper"},
                  "CUDA: fused: one kernel a step over the fluid nodes only (pull streaming, bounce-back and pressure planes fused with "
                  "the collision; 3.9x the paper's kernels on the packed bed; on MPI ranks too); in_place: the fused step with one copy "
                  "of the populations instead of two (AA pattern), for the largest lattices, in one process (MPI ranks run fused); "
                  "paper: the paper's three kernels (section 4: collide and push, bounce-back, pressure planes), which the CPU always "
                  "runs and which are faster on the all-fluid periodic box in FP64; auto: fused unless the geometry is periodic in FP64. "
                  "The same results to round-off"),
              {GpuStep::Auto, GpuStep::Fused, GpuStep::InPlace, GpuStep::Paper})
          .bind(&P::pressure_ratio,
                quick(only_when("geometry", {"tube", "packed_bed"},
                                real_param("pressure_ratio", "P_out / P_in", "", 0.99, 0.5, 1.0,
                                           "Outlet over inlet pressure (0.99 tube, 0.958 packed bed)", false))),
                Change::NextIteration)
          .bind(&P::x_o2,
                quick(real_param("x_o2", "O2 mole fraction", "", 0.47, 0.01, 0.99,
                                 "Mole fraction of O2 at the inlet and outlet and initially (X_N2 = 1 - X_O2)", false)),
                Change::NextIteration)
          .bind(
              &P::viscosity,
              real_param("viscosity", "Kinematic viscosity", "dx^2/dt", 0.05, 0.002, 1.0, "Mixture nu = mu / rho; tau_1 = mu / P (eq. 9)"),
              Change::NextIteration)
          .bind(
              &P::d_ab,
              real_param(
                  "d_ab", "Diffusion coefficient D_AB", "dx^2/dt", 0.08, 0.002, 2.0,
                  "Binary diffusion coefficient; tau_2 = D_AB m_AB / (X_A X_B P) (eq. 9); needs nu / D_AB <= Y_A Y_B / (X_A X_B) (eq. 11)"),
              Change::NextIteration)
          .bind(&P::sphere_count, only_when("geometry", {"packed_bed"},
                                            int_param("sphere_count", "Spheres", 12753, 1, 200000, "Packed bed: number of spheres")))
          .bind(&P::d_min, only_when("geometry", {"packed_bed"},
                                     real_param("d_min", "Smallest diameter", "dx", 4.0, 1.0, 64.0,
                                                "Packed bed: d_p range, fine lattice units", false)))
          .bind(&P::d_max, only_when("geometry", {"packed_bed"},
                                     real_param("d_max", "Largest diameter", "dx", 8.0, 1.0, 64.0,
                                                "Packed bed: d_p range, fine lattice units", false)))
          .bind(&P::porosity,
                only_when("geometry", {"packed_bed"},
                          real_param("porosity", "Target porosity", "", 0.48, 0.3, 0.99,
                                     "Packed bed: sets the size distribution p(d) ~ d^-k so that the spheres fill 1 - porosity of the bed",
                                     false)))
          .bind(&P::open_length, only_when("geometry", {"packed_bed"},
                                           int_param("open_length", "Open sections", 32, 0, 4096,
                                                     "Packed bed: empty tube length at each end, fine lattice units")))
          .bind(&P::seed,
                only_when("geometry", {"packed_bed"},
                          int_param("seed", "Packing seed", 1, 0, 2147483647, "Packed bed: the random packing is reproducible per seed")))
          .bind(&P::wave_amplitude,
                only_when("geometry", {"periodic"},
                          real_param("wave_amplitude", "Mole-fraction wave", "", 0.0, 0.0, 0.45,
                                     "Periodic box: initial X_O2 = x_o2 + amplitude sin(2 pi z / nz) at uniform pressure", false)))
          .bind(&P::ux, only_when("geometry", {"periodic"},
                                  real_param("ux", "Initial u_x", "c", 0.0, -0.3, 0.3,
                                             "Periodic box: initial mixture velocity, lattice speed units", false)))
          .bind(&P::uy, only_when("geometry", {"periodic"},
                                  real_param("uy", "Initial u_y", "c", 0.0, -0.3, 0.3, "Periodic box: initial mixture velocity", false)))
          .bind(&P::uz, only_when("geometry", {"periodic"},
                                  real_param("uz", "Initial u_z", "c", 0.0, -0.3, 0.3, "Periodic box: initial mixture velocity", false)))
          .bind(&P::steps_per_iteration,
                int_param("steps_per_iteration", "Steps per update", 100, 1, 100000, "Time steps between snapshots"), Change::Nothing)
          .bind(&P::max_steps, int_param("max_steps", "Maximum steps", 20000, 1, 2000000000, "Stop after this many steps if not converged"),
                Change::Nothing)
          .bind(&P::tolerance,
                real_param("tolerance", "Convergence tolerance", "", 1e-7, 0.0, 1.0,
                           "Stop when |c_t / c_(t-1) - 1| <= tolerance (eq. 19-20); 0: run to max_steps"),
                Change::Nothing);
  return table;
}

}  // namespace ks::lbm
