// Contiguous blocks of work items (one per rank) re-cut so that each takes the same time: a rank's
// measured time is taken as spread evenly over its items, and the new bounds put an equal share of
// the total at each rank. Every rank computes the same bounds from the same gathered times.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace ks {

// bounds: block r is [bounds[r], bounds[r + 1]), bounds.front() 0 and bounds.back() the items;
// seconds[r]: block r's time. Returns the new bounds, each block at least one item; the old bounds
// where a time is not positive and finite.
inline std::vector<std::int64_t> balanced_bounds(const std::vector<std::int64_t>& bounds, const std::vector<double>& seconds) {
  const int blocks = int(seconds.size());
  double total = 0.0;
  for (double s : seconds) {
    if (!(s > 0.0) || !std::isfinite(s)) return bounds;
    total += s;
  }
  std::vector<std::int64_t> out(bounds.size());
  out.front() = bounds.front();
  out.back() = bounds.back();
  int r = 0;            // the old block the next bound falls in
  double before = 0.0;  // the time of the old blocks before r
  for (int k = 1; k < blocks; ++k) {
    const double target = total * k / blocks;
    while (r < blocks - 1 && before + seconds[r] < target) before += seconds[r++];
    const double per_item = seconds[r] / double(bounds[r + 1] - bounds[r]);
    const auto at = std::int64_t(std::llround(double(bounds[r]) + (target - before) / per_item));
    out[k] = std::clamp(at, out[k - 1] + 1, bounds.back() - (blocks - k));
  }
  return out;
}

}  // namespace ks
