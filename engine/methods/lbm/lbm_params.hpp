// lbm.binary's parameters as the method reads them, and the table that binds each key.
#pragma once

#include <cstdint>

#include "core/param_table.hpp"
#include "lbm_config.hpp"

namespace ks::lbm {

struct LbmParams {
  Geometry geometry = Geometry::Tube;
  GridLevel grid_level = GridLevel::Fine;             // fine or coarse (half the resolution); live
  int nx = 0, ny = 0, nz = 0;                         // fine level
  BounceBack bounce_back = BounceBack::Interpolated;  // live
  Precision precision = Precision::Fp64;
  GpuStep gpu_step = GpuStep::Auto;
  double pressure_ratio = 0.0;          // P_out / P_in, live
  double x_o2 = 0.0;                    // live
  double viscosity = 0.0;               // dx^2/dt, live
  double d_ab = 0.0;                    // dx^2/dt, live
  int sphere_count = 0;                 // packed bed
  double d_min = 0.0, d_max = 0.0;      // packed bed, fine lattice units
  double porosity = 0.0;                // packed bed
  int open_length = 0;                  // packed bed
  std::int64_t seed = 0;                // packed bed
  double wave_amplitude = 0.0;          // periodic box
  double ux = 0.0, uy = 0.0, uz = 0.0;  // periodic box, lattice speed units
  int steps_per_iteration = 0;          // live
  std::int64_t max_steps = 0;           // live
  double tolerance = 0.0;               // live
};

const ParamTable<LbmParams>& lbm_param_table();
// The table param_key(&LbmParams::member) reads (core/param_table.hpp).
inline const ParamTable<LbmParams>& param_table_of(const LbmParams*) { return lbm_param_table(); }

}  // namespace ks::lbm
