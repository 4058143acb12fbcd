// radiation.rmc: the discretised problem of Silvestri & Pecnik (2019): a box of cells with a
// temperature per cell, black or grey walls (or periodic directions for the 1D slab cases), a
// spectral model and the settings of the ray marching (sections 2, 4.2 and 4.3).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rmc_temperature_file.hpp"

namespace ks::rmc {

// Temperature profiles of Table 1 (eq. 18-22), a uniform gas between cold walls (cases 5, 6), and a
// field read from a user's file (rmc_temperature_file.hpp).
enum class Profile { Lin1, Parab1, Sin, Lin2, Parab2, ThreeDim, Isothermal, File };
enum class Gas { Grey, H2O, CO2, Mix };
enum class Reflection { Diffuse, Specular };
// The absorption coefficient that sets the steps per grid level in eq. (25).
enum class KappaRef { Planck, BandMax, Band };

// Wall sides in the order -x, +x, -y, +y, -z, +z.
struct Wall {
  double T = 0.0;           // K
  double emissivity = 1.0;  // 1: black; below 1 the rest is reflected (see Reflection)
};

struct RmcConfig {
  Profile profile = Profile::Parab1;
  Gas gas = Gas::Grey;
  double kappa = 1.0;                             // 1/m, grey gas only
  double temperature = 1000;                      // K, Isothermal only
  double wall_temperature = 0;                    // K, Isothermal and File: every wall
  std::shared_ptr<const TemperatureField> field;  // File only: the cell temperatures and their grid
  int n[3] = {32, 32, 32};                        // cells per axis
  double L[3] = {1, 1, 1};                        // m
  bool periodic[3] = {false, false, false};
  Wall walls[6];
  Reflection reflection = Reflection::Diffuse;
  double tolerance = 1e-4;  // a ray stops when its transmissivity falls below this (Algorithm 1)

  long long cells() const { return (long long)n[0] * n[1] * n[2]; }
  bool one_dimensional() const { return periodic[1] && periodic[2]; }
  double spacing(int a) const { return L[a] / n[a]; }
};

// How rays march (section 4): techniques that change speed, never the expected result, except the
// multigrid overlay, which coarsens the far field of each ray.
struct MarchSettings {
  int levels = 1;               // grid levels, coarsening ratio 2 (section 4.3); 1: off
  int steps_per_level = 5;      // face crossings per level before a ray drops to the coarser one; 0: eq. (25)
  double level_fraction = 0.5;  // eq. (25): each level absorbs this fraction of what enters it
  KappaRef kappa_ref = KappaRef::Planck;
  bool sorting = false;           // rays of a cell drawn in descending k order (section 4.2)
  bool texture = false;           // CUDA: tables and temperatures in texture memory (section 4.1)
  bool single_precision = false;  // CUDA: rays march in float
  bool packets = false;           // 32 neighbouring cells along x share their rays' random numbers
  std::uint64_t seed = 1;
};

const char* gas_name(Gas g);

struct RmcParams;
// The problem for `p`; throws bad_input (key, value, allowed range) for what cannot run.
// 1D profiles (lin1, parab1, lin2, parab2, isothermal) vary along x between walls at x = 0 and
// x = L and are periodic in y and z; sin and 3dimens fill the cube [0, L]^3 with six walls. Profile
// `file` reads temperature_file (rmc_temperature_file.hpp): its grid sets the cells and the box, and
// file_geometry chooses six walls (box) or walls at x = 0 and x = L_x only (channel).
RmcConfig make_config(const RmcParams& p);
// temperature_file of profile `file`; refused when none is set.
const std::string& temperature_file_path(const RmcParams& p);
MarchSettings make_settings(const RmcParams& p);

}  // namespace ks::rmc
