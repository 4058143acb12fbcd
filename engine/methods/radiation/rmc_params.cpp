#include "rmc_params.hpp"

#include "rmc_model.hpp"
#include "rmc_temperature_file.hpp"

namespace ks::rmc {

const ParamTable<RmcParams>& rmc_param_table() {
  using P = RmcParams;
  static const ParamTable<P> table =
      ParamTable<P>()
          .bind_choice(&P::profile,
                       choice_param("profile", "Temperature profile", "parab1",
                                    {"lin1", "parab1", "sin", "lin2", "parab2", "3dimens", "isothermal", "file"},
                                    "Table 1: lin1 500+1000x (walls 500/1500 K), parab1 500-2000x^2+2000x (walls 500 K), sin (eq. 20, cold "
                                    "walls), lin2 295+10x (walls 295/305 K), parab2 500-8000(x/L)^2+8000x/L (walls 500 K), 3dimens (eq. "
                                    "22, walls 500 K), isothermal (cold walls). sin and 3dimens are 3D; the others are slabs periodic in "
                                    "y, z. file: the field of temperature_file (e.g. a DNS snapshot), walls at wall_temperature"),
                       {Profile::Lin1, Profile::Parab1, Profile::Sin, Profile::Lin2, Profile::Parab2, Profile::ThreeDim,
                        Profile::Isothermal, Profile::File})
          .bind(
              &P::temperature_file,
              only_when("profile", {"file"},
                        path_param("temperature_file", "Temperature file", {".csv", ".vti", ".pvti", ".vtr", ".vtu"},
                                   "Profile file only: cell temperatures in K on a uniform grid. .csv with header x,y,z,T (cell centres in "
                                   "m) or i,j,k,T (cell indices; every axis is then 'length' long), any row order; or a VTK file: .vti "
                                   "(ASCII or appended binary as ParaView saves it), and where the program has VTK (the app, kinetic-run, "
                                   "Python) any .vti, .pvti (with its pieces), .vtr or .vtu of a uniform grid; cell or point array T, "
                                   "point values averaged to cells. The file's grid replaces nx, ny, nz and the box lengths")))
          .bind_choice(&P::channel,
                       only_when("profile", {"file"},
                                 choice_param("file_geometry", "Walls around a file's field", "box", {"box", "channel"},
                                              "Profile file only: box: six walls; channel: walls at x = 0 and x = L_x, periodic in y and z "
                                              "(a channel or slab; Q^R(x) is averaged over y and z)")),
                       {false, true})
          .bind_choice(&P::gas,
                       choice_param("gas", "Gas", "grey", {"grey", "H2O", "CO2", "mix"},
                                    "grey: constant kappa; H2O, CO2 and mix (11.6 % CO2 + 15.5 % H2O) at 1 atm: narrow-band correlated-k "
                                    "tables with 16 Gauss points per band (resources/radiation)"),
                       {Gas::Grey, Gas::H2O, Gas::CO2, Gas::Mix})
          .bind(&P::kappa,
                only_when("gas", {"grey"}, real_param("kappa", "Absorption coefficient", "1/m", 1.0, 1e-4, 1e4, "Grey gas only")))
          .bind(&P::length,
                real_param("length", "Domain length", "m", 1.0, kMinLength, kMaxLength,
                           "Slab thickness or cube side L (profile file: from the file's cell size, except for i,j,k .csv files)"))
          .bind(&P::temperature, only_when("profile", {"isothermal"},
                                           real_param("temperature", "Gas temperature", "K", 1000.0, 1.0, kMaxTemperature,
                                                      "Isothermal profile only", false)))
          .bind(&P::wall_temperature, only_when("profile", {"isothermal", "file"},
                                                real_param("wall_temperature", "Wall temperature", "K", 0.0, 0.0, kMaxTemperature,
                                                           "Isothermal and file profiles only: every wall (Kim et al.: cold, 0 K)", false)))
          .bind(&P::nx, int_param("nx", "Cells along x", 32, 2, kMaxCellsPerAxis,
                                  "Cells across the slab (the inhomogeneous direction); profile file: set by the file"))
          .bind(&P::ny,
                int_param("ny", "Cells along y", 32, 1, kMaxCellsPerAxis,
                          "Slabs: cells along a periodic direction (the result is averaged over them); profile file: set by the file"))
          .bind(&P::nz, int_param("nz", "Cells along z", 32, 1, kMaxCellsPerAxis,
                                  "Slabs: cells along a periodic direction; profile file: set by the file"))
          .bind(&P::emissivity_x0, real_param("emissivity_x0", "Emissivity of the wall x = 0", "", 1.0, 0.0, 1.0,
                                              "1: black; below 1 the wall reflects the rest", false))
          .bind(&P::emissivity_x1, real_param("emissivity_x1", "Emissivity of the wall x = L", "", 1.0, 0.0, 1.0,
                                              "1: black; below 1 the wall reflects the rest", false))
          .bind(&P::emissivity_sides, real_param("emissivity_sides", "Emissivity of the y and z walls", "", 1.0, 0.0, 1.0,
                                                 "3D cases (and file boxes) only", false))
          .bind_choice(&P::reflection,
                       choice_param("reflection", "Wall reflection", "diffuse", {"diffuse", "specular"},
                                    "How grey walls reflect: diffuse (Lambertian) or specular (mirror)"),
                       {Reflection::Diffuse, Reflection::Specular})
          .bind(&P::tolerance,
                real_param("tolerance", "Transmissivity cut-off", "", 1e-4, 1e-12, 0.5,
                           "A ray stops when its transmissivity falls below this; the rest is absorbed where it stops (Algorithm 1)"))
          .bind(&P::rays_per_cell,
                int_param("rays_per_cell", "Rays per cell (target)", 2000, 1, kMaxRaysPerCell,
                          "Total rays per cell; the run finishes when the estimate holds this many"),
                Change::Nothing)
          .bind(&P::rays_per_batch,
                quick(int_param("rays_per_batch", "Rays per cell per iteration", 200, 1, kMaxRaysPerBatch,
                                "Each iteration adds this many rays per cell to the running mean and variance")),
                Change::Nothing)
          .bind(&P::grid_levels,
                quick(int_param("grid_levels", "Grid levels", 1, 1, kMaxLevels,
                                "Multigrid overlays (section 4.3), coarsening ratio 2 down to 3 cells; 1: off. Restarts the estimate")),
                Change::NextIteration)
          .bind(&P::steps_per_level,
                int_param("steps_per_level", "Steps per level", 5, 0, 100000,
                          "Face crossings on each level before a ray drops to the coarser one; 0: from eq. (25). Restarts the estimate"),
                Change::NextIteration)
          .bind(&P::level_fraction,
                real_param("level_fraction", "Absorbed fraction per level", "", 0.5, 0.01, 0.99,
                           "eq. (25) with steps_per_level = 0: each level absorbs this fraction of what enters it", false),
                Change::NextIteration)
          .bind_choice(&P::kappa_ref,
                       choice_param("kappa_ref", "Reference absorption coefficient", "planck", {"planck", "max", "band"},
                                    "kappa_ref of eq. (25): Planck mean, the largest band mean, or the band mean of eq. (26)"),
                       {KappaRef::Planck, KappaRef::BandMax, KappaRef::Band}, Change::NextIteration)
          .bind(&P::sorting,
                bool_param("sorting", "Narrow-band sorting", false,
                           "Each cell's rays are drawn in descending k (section 4.2): less warp divergence, same statistics"),
                Change::NextIteration)
          .bind(&P::texture,
                bool_param("texture", "Texture memory (CUDA)", false,
                           "Tables and temperatures read through texture memory with hardware interpolation (section 4.1)"),
                Change::NextIteration)
          .bind(&P::single_precision,
                bool_param("single_precision", "Single precision (CUDA)", false,
                           "Rays march in float arithmetic on the GPU (the CPU path always uses double); same statistics"),
                Change::NextIteration)
          .bind(&P::ray_packets,
                bool_param("ray_packets", "Coherent ray packets", false,
                           "Rays of 32 neighbouring cells along x share directions and spectral points, so a GPU warp marches parallel "
                           "rays in step (beyond the paper). Each cell's estimate and standard error keep their statistics; neighbouring "
                           "cells' errors become correlated. Restarts the estimate"),
                Change::NextIteration)
          .bind(&P::seed, int_param("seed", "Random seed", 1, 0, 2147483647, "Restarts the estimate with another random stream"),
                Change::NextIteration);
  return table;
}

}  // namespace ks::rmc
