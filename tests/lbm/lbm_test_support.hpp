// Shared set-ups of the lbm.binary tests: parameter sets through the Method's declarations, on a backend.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "method_test_support.hpp"
#include "methods/lbm/lbm_diagnostics.hpp"
#include "methods/lbm/lbm_method.hpp"

namespace ks::lbm::testing {

using test_support::cpu_context;
using test_support::cuda_context;

inline ParamSet params(const std::map<std::string, std::string>& overrides) { return test_support::method_params<LbmMethod>(overrides); }

// A closed periodic box, thin across and long along z.
inline std::map<std::string, std::string> periodic_box(int nx, int ny, int nz) {
  return {{"geometry", "periodic"}, {"nx", std::to_string(nx)}, {"ny", std::to_string(ny)}, {"nz", std::to_string(nz)}};
}

// The tube benchmark at a size the CPU runs in seconds.
inline std::map<std::string, std::string> small_tube() {
  return {{"geometry", "tube"}, {"nx", "20"}, {"ny", "20"}, {"nz", "24"}, {"viscosity", "0.1"}, {"d_ab", "0.12"}};
}

// The small tube with `overrides`, 250 steps an iteration, run to eq. (19) or `max_steps`; `m`
// keeps the run (its step count says which ended it). The profile across its middle plane.
inline PoiseuilleProfile steady_tube_profile(LbmMethod& m, std::map<std::string, std::string> overrides, const ExecutionContext& ctx,
                                             std::int64_t max_steps) {
  auto p = small_tube();
  for (const auto& [key, value] : overrides) p[key] = value;
  p["steps_per_iteration"] = "250";
  m.setup(params(p), ctx);
  while (!m.finished() && m.steps() < max_steps) m.advance();
  return poiseuille_profile(m.config(), m.geometry(), m.moments(), m.config().nz / 2);
}

// A short packed bed: a few dozen spheres in a narrow tube.
inline std::map<std::string, std::string> small_bed() {
  return {{"geometry", "packed_bed"}, {"nx", "24"},         {"ny", "24"},    {"nz", "40"}, {"sphere_count", "40"}, {"open_length", "6"},
          {"pressure_ratio", "0.98"}, {"viscosity", "0.1"}, {"d_ab", "0.12"}};
}

}  // namespace ks::lbm::testing
