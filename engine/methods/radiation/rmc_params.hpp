// radiation.rmc's parameters as the method reads them, and the table that binds each key.
#pragma once

#include <cstdint>
#include <string>

#include "core/param_table.hpp"
#include "rmc_config.hpp"

namespace ks::rmc {

constexpr std::int64_t kMaxRaysPerCell = 1000000000;  // rays_per_cell
constexpr int kMaxRaysPerBatch = 10000000;            // rays_per_batch

struct RmcParams {
  Profile profile = Profile::Parab1;
  std::string temperature_file;  // profile file: a .csv or .vti path ("" none)
  bool channel = false;          // key "file_geometry": box (six walls) or channel (walls at x = 0, L only)
  Gas gas = Gas::Grey;
  double kappa = 0.0;             // 1/m, grey gas
  double length = 0.0;            // m
  double temperature = 0.0;       // K, isothermal
  double wall_temperature = 0.0;  // K, isothermal and file
  int nx = 0, ny = 0, nz = 0;
  double emissivity_x0 = 0.0, emissivity_x1 = 0.0, emissivity_sides = 0.0;
  Reflection reflection = Reflection::Diffuse;
  double tolerance = 0.0;          // transmissivity cut-off of a ray
  std::int64_t rays_per_cell = 0;  // live
  int rays_per_batch = 0;          // live
  // The march (MarchSettings), all live.
  int grid_levels = 0;
  int steps_per_level = 0;
  double level_fraction = 0.0;
  KappaRef kappa_ref = KappaRef::Planck;
  bool sorting = false, texture = false, single_precision = false, ray_packets = false;
  std::int64_t seed = 0;
};

const ParamTable<RmcParams>& rmc_param_table();
// The table param_key(&RmcParams::member) reads (core/param_table.hpp).
inline const ParamTable<RmcParams>& param_table_of(const RmcParams*) { return rmc_param_table(); }

}  // namespace ks::rmc
