// How far a run is toward the condition that ends it, for Progress::fraction_done and the time left
// the app shows: the larger of the fraction of its time (t_end, steps, iterations) and, where the
// method stops at a residual tolerance, the decades its residual has fallen toward that tolerance
// (a residual falling geometrically falls as many decades in each second: the time left follows).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace ks {

struct EndProgress {
  double fraction = 0.0;
  std::string condition;  // which end the fraction follows, for the user: "t_end", "steady state (residual 1e-07)"
};

// `time_condition` names the end that `time_fraction` measures; `tolerance` 0 means none.
inline EndProgress toward_end(double time_fraction, const std::string& time_condition, double residual, double tolerance) {
  EndProgress e{std::clamp(time_fraction, 0.0, 1.0), time_condition};
  if (tolerance > 0.0 && tolerance < 1.0 && residual > 0.0) {
    const double decades = std::clamp(std::log(residual) / std::log(tolerance), 0.0, 1.0);
    if (decades > e.fraction) {
      char tol[32];
      std::snprintf(tol, sizeof tol, "%g", tolerance);
      e = {decades, std::string("steady state (residual ") + tol + ")"};
    }
  }
  return e;
}

}  // namespace ks
