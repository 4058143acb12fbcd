#include "reference.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include "core/errors.hpp"

namespace ks {

namespace {

using Formula = std::function<double(double x)>;

// x is dimensionless time t/tau with tau as the method defines it for the kernel.
const std::map<std::string, Formula>& formulas() {
  static const std::map<std::string, Formula> table = {
      // Smoluchowski, constant kernel K, tau = 2/(K N0): N/N0 = 1/(1 + t/tau).
      {"constant_kernel_number", [](double x) { return 1.0 / (1.0 + x); }},
      // Additive kernel B(v1+v2), tau = 1/(B V_t): N/N0 = exp(-t/tau).
      {"additive_kernel_number", [](double x) { return std::exp(-x); }},
  };
  return table;
}

}  // namespace

std::vector<std::string> analytic_reference_ids() {
  std::vector<std::string> ids;
  for (const auto& [id, f] : formulas()) ids.push_back(id);
  return ids;
}

std::vector<double> evaluate_reference(const Reference& ref, const std::vector<double>& x) {
  std::vector<double> y(x.size(), std::numeric_limits<double>::quiet_NaN());
  if (!ref.analytic_id.empty()) {
    const auto it = formulas().find(ref.analytic_id);
    if (it == formulas().end()) throw bad_input("reference", "unknown analytic reference '" + ref.analytic_id + "'");
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = it->second(x[i]);
    return y;
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (std::size_t k = 0; k + 1 < ref.x.size(); ++k) {
      if (x[i] >= ref.x[k] && x[i] <= ref.x[k + 1]) {
        const double f = (x[i] - ref.x[k]) / (ref.x[k + 1] - ref.x[k]);
        y[i] = ref.y[k] + f * (ref.y[k + 1] - ref.y[k]);
        break;
      }
    }
    if (ref.x.size() == 1 && x[i] == ref.x[0]) y[i] = ref.y[0];
  }
  return y;
}

double mean_relative_error(const std::vector<double>& y, const std::vector<double>& ref) {
  double sum = 0.0;
  int n = 0;
  for (std::size_t i = 0; i < y.size() && i < ref.size(); ++i) {
    if (!std::isfinite(ref[i]) || ref[i] == 0.0) continue;
    sum += std::abs(y[i] - ref[i]) / std::abs(ref[i]);
    ++n;
  }
  return n ? sum / n : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace ks
