// radiation.rmc: the multigrid overlay of section 4.3. Level 0 is the case's grid; each coarser level
// halves the cells per axis (rounding up) down to 3 cells on the longest axis. A ray marches a fixed
// number of face crossings per level (or the s_n of eq. 25) and then drops to the next coarser
// level; the coarsest level marches to depletion.
#pragma once

#include <cstdint>
#include <vector>

#include "rmc_config.hpp"
#include "rmc_spectral.hpp"

namespace ks::rmc {

struct GridLevel {
  int n[3];
  double h[3];
  int steps;                  // face crossings before the ray drops a level; -1 on the coarsest
  std::vector<double> coord;  // per cell: the table coordinate of (mean T^4)^(1/4) over the fine cells whose
                              // centres it holds (keeps sigma T^4)
  long long cells() const { return (long long)n[0] * n[1] * n[2]; }
};

// The most levels the grid allows (coarsening ratio 2 while the longest axis keeps >= 3 cells).
int max_levels(const RmcConfig& c);
// The cells of all those levels of a grid of n cells per axis (estimate_memory: grid_levels is live).
std::int64_t cells_on_all_levels(const int n[3]);

// Steps per level: `s.steps_per_level`, or with 0 eq. (25) where each level absorbs the fraction
// q = level_fraction of what enters it: s_n = int(-ln(1 - q) / (kappa_ref dx_n)), at least 1.
std::vector<int> steps_per_level(const RmcConfig& c, const MarchSettings& s, double kappa_ref);

std::vector<GridLevel> build_levels(const RmcConfig& c, const std::vector<double>& T, const SpectralTables& tables, const MarchSettings& s);

}  // namespace ks::rmc
