// Shared by the benchmark drivers: the machine description, a least-squares power-law fit and
// the value of a command-line option.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend.hpp"

namespace ks::bench {

// Device and host description for a result file.
nlohmann::json machine_description(const ExecutionContext& cpu, const CudaAvailability& cuda);
// Exponent b of y = a x^b by least squares in log-log space (NaN for fewer than 2 points).
double power_law_exponent(const std::vector<double>& x, const std::vector<double>& y);
void write_json(const nlohmann::json& j, const std::string& path);
// The value after option argv[i] (i moves onto it); bad_input when the option is last.
std::string option_value(int argc, char** argv, int& i);

}  // namespace ks::bench
