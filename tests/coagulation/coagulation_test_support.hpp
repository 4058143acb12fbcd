// Helpers shared by the coagulation validation tests (CPU and CUDA).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/backend.hpp"
#include "methods/coagulation/coagulation_method.hpp"

namespace ks::coag::testing {

// A method set up with the defaults overridden by `overrides`, run to its end time.
inline std::unique_ptr<CoagulationMethod> run_to_end(const std::map<std::string, ParamValue>& overrides,
                                                     BackendRequest backend = BackendRequest::Cpu) {
  auto m = std::make_unique<CoagulationMethod>();
  ParamSet p(CoagulationMethod::static_info().params);
  for (const auto& [k, v] : overrides) p.set(k, v);
  m->setup(p, resolve_backend(backend));
  while (!m->finished()) m->advance();
  return m;
}

// The output index whose time is closest to x tau_char.
inline int output_near(const CoagulationMethod& m, double x) {
  int best = 0;
  for (int k = 0; k < int(m.output_times().size()); ++k)
    if (std::abs(m.output_times()[k] / m.tau_char() - x) < std::abs(m.output_times()[best] / m.tau_char() - x)) best = k;
  return best;
}

// Eq. (13): mean over the outputs in [tau_char, t_end] of |<d_g> - d_g_sec| / d_g_sec.
inline double eq13_error_dg(const CoagulationMethod& m) {
  double sum = 0.0;
  int n = 0;
  for (int k = 0; k < int(m.output_times().size()); ++k) {
    if (m.output_times()[k] < m.tau_char() * (1 - 1e-9)) continue;
    const double ref = m.sectional()[k].d_g;
    sum += std::abs(m.mean_dg(k).mean - ref) / ref;
    ++n;
  }
  return sum / n;
}

}  // namespace ks::coag::testing
