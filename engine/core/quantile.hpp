// A quantile of measured times (frame and paint times: p50, p99), by the sample at rank q n.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ks {

// The q-quantile of `values` (0.5: the median, 0.99: the 99th percentile): the value at rank
// floor(q n) of the sorted samples, the largest for q = 1; 0 without samples.
inline double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  const std::size_t rank = std::min(values.size() - 1, std::size_t(q * double(values.size())));
  std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(rank), values.end());
  return values[rank];
}

}  // namespace ks
