// radiation.rmc: a temperature field from a user's file (profile `file`, parameter temperature_file),
// e.g. a snapshot of a DNS to couple with: a .csv (x,y,z,T or i,j,k,T; T in K) or a .vti (ASCII or appended binary) with
// an array T, read by the general grid-file reader (io/grid_file.hpp, which describes both formats).
// An i,j,k file gives no size, so every axis is the parameter `length` long, as for the analytic
// profiles. The field replaces nx, ny, nz, length and the analytic profiles' temperature, so it is
// held to their ranges (rmc_params.cpp declares those parameters with the bounds below): 1 to 1024
// cells per axis, every axis it resolves 1 mm to 100 m long, its box within +-100 m, every value a
// finite temperature in (0, 5000] K.
#pragma once

#include <string>

#include "io/grid_file.hpp"

namespace ks::rmc {

constexpr int kMaxCellsPerAxis = 1024;                   // nx, ny, nz
constexpr double kMinLength = 1e-3, kMaxLength = 100.0;  // m, length
constexpr double kMaxTemperature = 5000.0;               // K, temperature and wall_temperature

using TemperatureField = GridField;  // values: T in K per cell
using TemperatureFileEstimate = GridFileEstimate;

// The reader's spec: the value T in K and the bounds above.
const GridFileSpec& temperature_file_spec();

// Reads a .csv or .vti file (chosen by its ending, any case); throws bad_input naming the file.
TemperatureField load_temperature_file(const std::string& path);
// The file's cells and the reader's peak memory, without reading its values (estimate_grid_file).
TemperatureFileEstimate estimate_temperature_file(const std::string& path);

// Refuses a cell temperature outside [lo, hi] K, the range of the spectral tables named `tables`.
void check_temperature_range(const TemperatureField& f, double lo, double hi, const std::string& tables);

}  // namespace ks::rmc
