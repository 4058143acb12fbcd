// radiation.rmc's keys become the discretised problem and the march's settings here, and only here.
#include "rmc_config.hpp"

#include <memory>
#include <string>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "rmc_params.hpp"

namespace ks::rmc {

namespace {

bool three_dimensional(Profile p) { return p == Profile::Sin || p == Profile::ThreeDim; }

// Wall temperatures of the profiles (eq. 18-22): the medium's value at the wall, except sin
// (cold walls, Sakurai et al.), the isothermal slab (its own wall temperature; Kim et al.: 0 K) and
// a file's field (wall_temperature on every wall: the file holds the medium only).
double profile_wall_temperature(const RmcConfig& c, int side) {
  switch (c.profile) {
    case Profile::Lin1: return side == 1 ? 1500.0 : 500.0;
    case Profile::Lin2: return side == 1 ? 305.0 : 295.0;
    case Profile::Parab1:
    case Profile::Parab2:
    case Profile::ThreeDim: return 500.0;
    case Profile::Sin: return 0.0;
    case Profile::Isothermal:
    case Profile::File: return c.wall_temperature;
  }
  return 0.0;
}

}  // namespace

const std::string& temperature_file_path(const RmcParams& p) {
  const std::string& path = p.temperature_file;
  if (path.empty())
    throw bad_input(param_key(&RmcParams::temperature_file), "profile 'file' needs a temperature file, and none is set",
                    "a .csv (x,y,z,T or i,j,k,T) or .vti file; see engine/methods/radiation/README.md");
  return path;
}

RmcConfig make_config(const RmcParams& p) {
  RmcConfig c;
  c.profile = p.profile;
  c.gas = p.gas;
  c.kappa = p.kappa;
  c.temperature = p.temperature;
  c.wall_temperature = p.wall_temperature;
  const double L = p.length;
  const int n[3] = {p.nx, p.ny, p.nz};
  for (int a = 0; a < 3; ++a) {
    c.n[a] = n[a];
    c.L[a] = L;
  }
  if (c.profile == Profile::File) {
    // The file's grid replaces nx, ny, nz and, where the file gives a cell size, the length.
    const std::string& path = temperature_file_path(p);
    auto field = std::make_shared<TemperatureField>(load_temperature_file(path));
    if (field->n[0] < 2)
      throw bad_input(path, "the field has " + std::to_string(field->n[0]) + " cell along x (between the walls)",
                      "at least 2 cells along x");
    for (int a = 0; a < 3; ++a) {
      c.n[a] = field->n[a];
      c.L[a] = field->has_size() ? field->n[a] * field->h[a] : L;
    }
    c.field = std::move(field);
  }
  const bool slab = c.profile == Profile::File ? p.channel : !three_dimensional(c.profile);
  c.periodic[1] = c.periodic[2] = slab;
  c.reflection = p.reflection;
  c.tolerance = p.tolerance;
  for (int side = 0; side < 6; ++side) {
    c.walls[side].T = profile_wall_temperature(c, side);
    c.walls[side].emissivity = side == 0 ? p.emissivity_x0 : side == 1 ? p.emissivity_x1 : p.emissivity_sides;
  }
  if (c.n[0] < 2)
    throw bad_input(param_key(&RmcParams::nx), "the x axis needs at least 2 cells, got " + std::to_string(c.n[0]), "[2, 1024]");
  // The march numbers a level's cells with an int (rmc_model.hpp); nx, ny, nz and a file's grid are at most 1024.
  checked_narrow<int>(checked_product({c.n[0], c.n[1], c.n[2]}, "nx x ny x nz cells"), "nx x ny x nz cells");
  if (c.gas == Gas::Grey && !(c.kappa > 0.0))
    throw bad_input(param_key(&RmcParams::kappa), "a grey gas needs a positive absorption coefficient", "(0, 1e4] 1/m");
  return c;
}

MarchSettings make_settings(const RmcParams& p) {
  MarchSettings s;
  s.levels = p.grid_levels;
  s.steps_per_level = p.steps_per_level;
  s.level_fraction = p.level_fraction;
  s.kappa_ref = p.kappa_ref;
  s.sorting = p.sorting;
  s.texture = p.texture;
  s.single_precision = p.single_precision;
  s.packets = p.ray_packets;
  s.seed = std::uint64_t(p.seed);
  return s;
}

}  // namespace ks::rmc
