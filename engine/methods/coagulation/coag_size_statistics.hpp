// Moments of the size distribution of one run and of an ensemble of runs.
#pragma once

#include <vector>

namespace ks::coag {

struct RunStatistics {
  double number = 0.0;   // N, 1/m^3
  double d_g = 0.0;      // number-weighted geometric mean diameter, m
  double sigma_g = 1.0;  // geometric standard deviation
};

// Over n particles with volumes v and weights w in a box of volume V.
RunStatistics run_statistics(const double* v, const double* w, int n, double box_volume);

// Over n particles: the sum of w v (their volume) and then the weight in each of `bins` bins of
// log10 d, the first from l0, each dl wide (the first and last take what lies beyond); bins 0: the
// volume only.
std::vector<double> volume_and_histogram(const double* v, const double* w, int n, double l0, double dl, int bins);

struct MeanAndError {
  double mean = 0.0;
  double stderr_ = 0.0;  // standard error of the mean (0 for one sample)
};
MeanAndError mean_and_error(const std::vector<double>& samples);

}  // namespace ks::coag
