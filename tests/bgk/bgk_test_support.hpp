// Shared set-ups of the kinetic.bgk tests: small shocks and cavities through the Method, on a backend.
#pragma once

#include <map>
#include <string>

#include "method_test_support.hpp"
#include "methods/bgk/bgk_method.hpp"

namespace ks::bgk::testing {

using test_support::cpu_context;
using test_support::cuda_context;

inline ParamSet params(const std::map<std::string, std::string>& overrides) { return test_support::method_params<BgkMethod>(overrides); }

inline std::map<std::string, std::string> small_shock() {
  return {{"case", "shock"}, {"mach", "1.5"}, {"nx", "64"}, {"nv", "8"}, {"dt", "0.05"}};
}

inline std::map<std::string, std::string> small_cavity() {
  return {{"case", "cavity"}, {"delta", "1"},  {"nx", "12"},    {"ny", "10"},   {"nv", "8"},
          {"vx_min", "-3"},   {"vx_max", "3"}, {"vt_max", "3"}, {"dt", "0.01"}, {"lid_speed", "0.05"}};
}

}  // namespace ks::bgk::testing
