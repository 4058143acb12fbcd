// Shared by the radiation.rmc tests: run a parameter set to its ray target, compare profiles.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "method_test_support.hpp"
#include "methods/radiation/rmc_method.hpp"

namespace ks::rmc::test {

inline std::unique_ptr<RmcMethod> run(const std::map<std::string, std::string>& overrides,
                                      const ExecutionContext& ctx = test_support::cpu_context()) {
  auto m = std::make_unique<RmcMethod>();
  m->setup(test_support::method_params<RmcMethod>(overrides), ctx);
  while (!m->finished()) m->advance();
  return m;
}

// RMS of y - ref over the stations, relative to the largest |ref| (section 2.3's comparison).
inline double rms_over_peak(const std::vector<double>& y, const std::vector<double>& ref) {
  double se = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    se += (y[i] - ref[i]) * (y[i] - ref[i]) / double(y.size());
    peak = std::max(peak, std::fabs(ref[i]));
  }
  return std::sqrt(se) / peak;
}

// Largest |a - b| over the stations in units of their combined standard error.
inline double max_sigma_distance(const RmcMethod& a, const RmcMethod& b) {
  const auto ya = a.profile(a.mean()), yb = b.profile(b.mean());
  auto var = [](const RmcMethod& m) {
    auto sd = m.std_error();
    for (double& s : sd) s *= s;
    return m.profile(sd);
  };
  const auto va = var(a), vb = var(b);
  const double per_station = double(a.problem().config.cells()) / a.problem().config.n[0];
  double worst = 0.0;
  for (std::size_t i = 0; i < ya.size(); ++i) worst = std::max(worst, std::fabs(ya[i] - yb[i]) / std::sqrt((va[i] + vb[i]) / per_station));
  return worst;
}

}  // namespace ks::rmc::test
