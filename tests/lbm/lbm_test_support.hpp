// Shared set-ups of the lbm.binary tests: parameter sets through the Method's declarations, on a backend.
#pragma once

#include <map>
#include <string>

#include "method_test_support.hpp"
#include "methods/lbm/lbm_method.hpp"

namespace ks::lbm::testing {

using test_support::cpu_context;
using test_support::cuda_context;

inline ParamSet params(const std::map<std::string, std::string>& overrides) {
  return test_support::method_params<LbmMethod>(overrides);
}

// A closed periodic box, thin across and long along z.
inline std::map<std::string, std::string> periodic_box(int nx, int ny, int nz) {
  return {{"geometry", "periodic"}, {"nx", std::to_string(nx)}, {"ny", std::to_string(ny)}, {"nz", std::to_string(nz)}};
}

// The tube benchmark at a size the CPU runs in seconds.
inline std::map<std::string, std::string> small_tube() {
  return {{"geometry", "tube"}, {"nx", "20"}, {"ny", "20"}, {"nz", "24"}, {"viscosity", "0.1"}, {"d_ab", "0.12"}};
}

// A short packed bed: a few dozen spheres in a narrow tube.
inline std::map<std::string, std::string> small_bed() {
  return {{"geometry", "packed_bed"}, {"nx", "24"},        {"ny", "24"},        {"nz", "40"},  {"sphere_count", "40"},
          {"open_length", "6"},       {"pressure_ratio", "0.98"}, {"viscosity", "0.1"}, {"d_ab", "0.12"}};
}

}  // namespace ks::lbm::testing
