// Reference curves a preset compares a series with: closed-form solutions by id,
// or tabulated values with their source.
#pragma once

#include <string>
#include <vector>

#include "preset.hpp"

namespace ks {

std::vector<std::string> analytic_reference_ids();

// The reference's y at each x (tables are interpolated linearly in x; outside
// the table's range the result is NaN, meaning "no reference there").
std::vector<double> evaluate_reference(const Reference& ref, const std::vector<double>& x);

// Mean relative error |y - ref| / |ref| over the points where the reference exists (eq. 13 style).
double mean_relative_error(const std::vector<double>& y, const std::vector<double>& ref);

}  // namespace ks
