// radiation.rmc: the paper's validation cases (Table 1) as discretised problems.
#pragma once

#include <vector>

#include "rmc_config.hpp"
#include "rmc_params.hpp"

namespace ks::rmc {

// The medium temperature of the profile at a point (m), and the temperature of each cell centre
// (for a file: the value of the cell holding the point, and the file's values).
double profile_temperature(const RmcConfig& c, double x, double y, double z);
std::vector<double> cell_temperatures(const RmcConfig& c);

// The largest medium temperature of the profile (T_max of eq. 13) and the range of every
// temperature the tables must cover (medium and walls).
double max_temperature(const std::vector<double>& T);
void temperature_range(const RmcConfig& c, const std::vector<double>& T, double& lo, double& hi);

}  // namespace ks::rmc
