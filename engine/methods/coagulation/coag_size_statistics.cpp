#include "coag_size_statistics.hpp"

#include <cmath>

#include "coag_units.hpp"

namespace ks::coag {

RunStatistics run_statistics(const double* v, const double* w, int n, double box_volume) {
  double sw = 0.0, s1 = 0.0;
  for (int k = 0; k < n; ++k) {
    sw += w[k];
    s1 += w[k] * std::log(diameter_of_volume(v[k]));
  }
  const double ln_dg = s1 / sw;
  double s2 = 0.0;
  for (int k = 0; k < n; ++k) {
    const double x = std::log(diameter_of_volume(v[k])) - ln_dg;
    s2 += w[k] * x * x;
  }
  RunStatistics r;
  r.number = sw / box_volume;
  r.d_g = std::exp(ln_dg);
  r.sigma_g = std::exp(std::sqrt(s2 / sw));
  return r;
}

MeanAndError mean_and_error(const std::vector<double>& x) {
  MeanAndError m;
  if (x.empty()) return m;
  for (double s : x) m.mean += s;
  m.mean /= double(x.size());
  if (x.size() > 1) {
    double var = 0.0;
    for (double s : x) var += (s - m.mean) * (s - m.mean);
    var /= double(x.size() - 1);
    m.stderr_ = std::sqrt(var / double(x.size()));
  }
  return m;
}

}  // namespace ks::coag
