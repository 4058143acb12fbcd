// Moments of the size distribution of one run and of an ensemble of runs.
#pragma once

#include <cstddef>
#include <utility>
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

// The same for runs [0, runs) of n particles each (run r's at v + r n, w + r n): run_statistics of
// those with take[r] (the others' left default), and the volume and bins of every run, [r * (1 +
// bins) + q]. Over the runs in parallel where a run is one chunk of the sums, else over each run's
// chunks: the bits do not depend on the threads.
std::vector<RunStatistics> runs_statistics(const double* v, const double* w, int n, int runs, const std::vector<char>& take,
                                           double box_volume);
std::vector<double> runs_volume_and_histogram(const double* v, const double* w, int n, int runs, double l0, double dl, int bins);

// The smallest and largest of v[0, n).
std::pair<double, double> min_and_max(const double* v, std::size_t n);

struct MeanAndError {
  double mean = 0.0;
  double stderr_ = 0.0;  // standard error of the mean (0 for one sample)
};
MeanAndError mean_and_error(const std::vector<double>& samples);

}  // namespace ks::coag
