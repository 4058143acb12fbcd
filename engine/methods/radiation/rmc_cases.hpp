// radiation.rmc: the paper's validation cases (Table 1) as discretised problems.
#pragma once

#include <vector>

#include "rmc_config.hpp"
#include "rmc_params.hpp"

namespace ks::rmc {

// The problem for `p`; throws bad_input (key, value, allowed range) for what cannot run.
// 1D profiles (lin1, parab1, lin2, parab2, isothermal) vary along x between walls at x = 0 and
// x = L and are periodic in y and z; sin and 3dimens fill the cube [0, L]^3 with six walls. Profile
// `file` reads temperature_file (rmc_temperature_file.hpp): its grid sets the cells and the box, and
// file_geometry chooses six walls (box) or walls at x = 0 and x = L_x only (channel).
RmcConfig make_config(const RmcParams& p);
// temperature_file of profile `file`; refused when none is set.
const std::string& temperature_file_path(const RmcParams& p);
MarchSettings make_settings(const RmcParams& p);

// The medium temperature of the profile at a point (m), and the temperature of each cell centre
// (for a file: the value of the cell holding the point, and the file's values).
double profile_temperature(const RmcConfig& c, double x, double y, double z);
std::vector<double> cell_temperatures(const RmcConfig& c);

// The largest medium temperature of the profile (T_max of eq. 13) and the range of every
// temperature the tables must cover (medium and walls).
double max_temperature(const std::vector<double>& T);
void temperature_range(const RmcConfig& c, const std::vector<double>& T, double& lo, double& hi);

}  // namespace ks::rmc
