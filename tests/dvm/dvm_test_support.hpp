// Shared set-ups of the kinetic.dvm tests: small cavities, cubes and Couette gaps through the Method.
#pragma once

#include <map>
#include <string>

#include "method_test_support.hpp"
#include "methods/dvm/dvm_method.hpp"

namespace ks::dvm::testing {

using test_support::cpu_context;
using test_support::cuda_context;

inline ParamSet params(const std::map<std::string, std::string>& overrides) { return test_support::method_params<DvmMethod>(overrides); }

inline std::map<std::string, std::string> small_cavity() {
  return {{"case", "cavity"}, {"kn", "1"}, {"lid_speed", "0.1"}, {"nx", "10"}, {"ny", "9"}, {"nz", "8"}, {"nv", "10"}};
}

inline std::map<std::string, std::string> small_cube() {
  return {{"case", "cube"}, {"kn", "1"}, {"mach", "2"}, {"nx", "18"}, {"ny", "14"}, {"nz", "14"}, {"body_cells", "4"}, {"nv", "12"}};
}

// Runs `iterations` iterations (or to convergence) of a set-up on a backend.
inline void run(DvmMethod& m, const std::map<std::string, std::string>& overrides, const ExecutionContext& ctx, int iterations) {
  m.setup(params(overrides), ctx);
  for (int i = 0; i < iterations && !m.finished(); ++i) m.advance();
}

}  // namespace ks::dvm::testing
