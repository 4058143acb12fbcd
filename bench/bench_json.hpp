// Shared by the benchmark drivers: the machine description, a least-squares power-law fit and the
// timing of a stepping solver (their command lines: app/cli/command_line.hpp).
#pragma once

#include <algorithm>
#include <chrono>
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

// Seconds per step of `step(n)` (n steps per call), doubling the steps per call until one call takes
// `budget` seconds (after one warm-up step).
template <class Step>
double seconds_per_step(Step&& step, double budget) {
  using Clock = std::chrono::steady_clock;
  step(1);
  int steps = 1;
  for (;;) {
    const auto t0 = Clock::now();
    step(steps);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s >= budget || steps >= (1 << 16)) return s / steps;
    steps *= s > 0 ? std::max(2, int(budget / s)) : 16;
  }
}

}  // namespace ks::bench
