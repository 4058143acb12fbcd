#include "rmc_levels.hpp"

#include <algorithm>
#include <cmath>

#include "core/checked.hpp"
#include "rmc_model.hpp"

namespace ks::rmc {

namespace {

int coarse_cells(int n, int level) { return std::max(1, (n + (1 << level) - 1) >> level); }

int max_levels_of(const int n[3]) {
  const int longest = std::max({n[0], n[1], n[2]});
  int levels = 1;
  while (levels < 12 && coarse_cells(longest, levels) >= 3) ++levels;
  return levels;
}

}  // namespace

int max_levels(const RmcConfig& c) { return max_levels_of(c.n); }

std::int64_t cells_on_all_levels(const int n[3]) {
  std::int64_t total = 0;
  for (int l = 0; l < max_levels_of(n); ++l)
    total =
        checked_add(total, checked_product({coarse_cells(n[0], l), coarse_cells(n[1], l), coarse_cells(n[2], l)}, "cells of a grid level"),
                    "cells of the grid levels");
  return total;
}

std::vector<int> steps_per_level(const RmcConfig& c, const MarchSettings& s, double kappa_ref) {
  const int L = std::clamp(s.levels, 1, max_levels(c));
  std::vector<int> steps(L, -1);
  for (int l = 0; l + 1 < L; ++l) {
    if (s.steps_per_level > 0) {
      steps[l] = s.steps_per_level;
      continue;
    }
    double dx = 1e300;  // the finest spacing among the resolved axes of this level
    for (int a = 0; a < 3; ++a)
      if (c.n[a] > 1) dx = std::min(dx, c.L[a] / coarse_cells(c.n[a], l));
    const double q = std::clamp(s.level_fraction, 1e-6, 1.0 - 1e-12);
    // At most kMaxSteps, where a ray stops anyway: a thin gas on a fine grid asks for more than an int holds.
    steps[l] = int(std::clamp(-std::log(1.0 - q) / (kappa_ref * dx), 1.0, double(kMaxSteps)));
  }
  return steps;
}

std::vector<GridLevel> build_levels(const RmcConfig& c, const std::vector<double>& T, const SpectralTables& tables,
                                    const MarchSettings& s) {
  const std::vector<int> steps = steps_per_level(c, s, tables.kappa_ref(s.kappa_ref));
  std::vector<GridLevel> levels(steps.size());
  for (std::size_t l = 0; l < levels.size(); ++l) {
    GridLevel& g = levels[l];
    for (int a = 0; a < 3; ++a) {
      g.n[a] = coarse_cells(c.n[a], int(l));
      g.h[a] = c.L[a] / g.n[a];
    }
    g.steps = steps[l];
    std::vector<double> T4(g.cells(), 0.0);
    std::vector<int> count(g.cells(), 0);
    for (int k = 0; k < c.n[2]; ++k)
      for (int j = 0; j < c.n[1]; ++j)
        for (int i = 0; i < c.n[0]; ++i) {
          // The coarse cell holding the fine cell's centre.
          const int I = (2 * i + 1) * g.n[0] / (2 * c.n[0]), J = (2 * j + 1) * g.n[1] / (2 * c.n[1]),
                    K = (2 * k + 1) * g.n[2] / (2 * c.n[2]);
          const long long coarse = ((long long)K * g.n[1] + J) * g.n[0] + I;
          T4[coarse] += std::pow(T[((long long)k * c.n[1] + j) * c.n[0] + i], 4);
          ++count[coarse];
        }
    g.coord.resize(g.cells());
    for (long long m = 0; m < g.cells(); ++m) g.coord[m] = tables.coordinate(std::pow(T4[m] / std::max(count[m], 1), 0.25));
  }
  return levels;
}

}  // namespace ks::rmc
