// The size statistics taken at every output (d_g, sigma_g, the histogram of log10 d) against their
// definitions summed particle by particle, and the same bits whatever the threads.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "methods/coagulation/coag_size_statistics.hpp"
#include "methods/coagulation/coag_units.hpp"

namespace {

using namespace ks::coag;

struct Particles {
  std::vector<double> v, w;
};

// Log-normal volumes over several decades (sigma_g about 2.7 in d) with uneven weights, over many
// of the statistics' chunks.
Particles log_normal(int n) {
  Particles p;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> ln_d(std::log(20e-9), 1.0);
  for (int k = 0; k < n; ++k) {
    p.v.push_back(volume_of_diameter(std::exp(ln_d(rng))));
    p.w.push_back(1e12 * (1.0 + k % 5));
  }
  return p;
}

TEST(SizeStatistics, GeometricMeanAndWidthFollowTheirDefinitions) {
  const int n = 100'003;
  const Particles p = log_normal(n);
  double sw = 0.0, s1 = 0.0, s2 = 0.0;
  for (int k = 0; k < n; ++k) {
    sw += p.w[k];
    s1 += p.w[k] * std::log(diameter_of_volume(p.v[k]));
  }
  for (int k = 0; k < n; ++k) s2 += p.w[k] * std::pow(std::log(diameter_of_volume(p.v[k])) - s1 / sw, 2);
  const RunStatistics s = run_statistics(p.v.data(), p.w.data(), n, 2.0);
  EXPECT_NEAR(s.number, sw / 2.0, 1e-12 * sw);
  EXPECT_NEAR(s.d_g, std::exp(s1 / sw), 1e-12 * s.d_g);
  EXPECT_NEAR(s.sigma_g, std::exp(std::sqrt(s2 / sw)), 1e-12 * s.sigma_g);
  EXPECT_NEAR(s.sigma_g, std::exp(1.0), 0.02);  // the sample's own width
}

TEST(SizeStatistics, HistogramCountsEachParticlesWeightInItsBinOfLog10D) {
  const int n = 50'001, bins = 40;
  const Particles p = log_normal(n);
  const double l0 = std::log10(5e-9), dl = 1.0 / bins;  // 5 to 50 nm: the tails fall in the end bins
  std::vector<double> expected(1 + bins, 0.0);
  for (int k = 0; k < n; ++k) {
    expected[0] += p.w[k] * p.v[k];
    const double bin = (std::log10(diameter_of_volume(p.v[k])) - l0) / dl;
    expected[1 + std::clamp(int(bin), 0, bins - 1)] += p.w[k];
  }
  const std::vector<double> got = volume_and_histogram(p.v.data(), p.w.data(), n, l0, dl, bins);
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_NEAR(got[0], expected[0], 1e-12 * expected[0]);
  double total = 0.0;
  for (int b = 1; b <= bins; ++b) {
    // A particle on a bin's edge may fall on either side: one particle's weight (at most 5e12) apart.
    EXPECT_NEAR(got[b], expected[b], 5e12 + 1e-12 * expected[b]) << "bin " << b - 1;
    total += got[b];
  }
  double weight = 0.0;
  for (double w : p.w) weight += w;
  EXPECT_NEAR(total, weight, 1e-12 * weight);
}

TEST(SizeStatistics, SameBitsOnOneThreadAndOnMany) {
  const int n = 200'000;
  const Particles p = log_normal(n);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const RunStatistics one = run_statistics(p.v.data(), p.w.data(), n, 1.0);
  const std::vector<double> one_h = volume_and_histogram(p.v.data(), p.w.data(), n, -9.0, 0.1, 40);
  omp_set_num_threads(std::max(4, threads));
  const RunStatistics many = run_statistics(p.v.data(), p.w.data(), n, 1.0);
  const std::vector<double> many_h = volume_and_histogram(p.v.data(), p.w.data(), n, -9.0, 0.1, 40);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.number, many.number);
  EXPECT_EQ(one.d_g, many.d_g);
  EXPECT_EQ(one.sigma_g, many.sigma_g);
  EXPECT_EQ(one_h, many_h);
}

// The ensemble's runs taken together (over the runs in parallel where each is one chunk, as Table 1's
// n_s 2000) give each run's own statistics and sums, the same bits on one thread and on many; the
// runs not taken are left default; min_and_max is the smallest and largest volume.
TEST(SizeStatistics, RunsTogetherEqualEachRunAlone) {
  const int n = 2000, runs = 37, bins = 40;
  const Particles p = log_normal(n * runs);
  std::vector<char> take(runs);
  for (int r = 0; r < runs; ++r) take[r] = r % 3 != 1;
  const int threads = omp_get_max_threads();
  for (int t : {1, std::max(4, threads)}) {
    omp_set_num_threads(t);
    const std::vector<RunStatistics> s = runs_statistics(p.v.data(), p.w.data(), n, runs, take, 3.0);
    const std::vector<double> h = runs_volume_and_histogram(p.v.data(), p.w.data(), n, runs, -9.0, 0.1, bins);
    ASSERT_EQ(s.size(), std::size_t(runs));
    ASSERT_EQ(h.size(), std::size_t(runs) * (1 + bins));
    for (int r = 0; r < runs; ++r) {
      const RunStatistics alone = take[r] ? run_statistics(&p.v[std::size_t(r) * n], &p.w[std::size_t(r) * n], n, 3.0) : RunStatistics{};
      EXPECT_EQ(s[r].number, alone.number) << "run " << r << ", " << t << " threads";
      EXPECT_EQ(s[r].d_g, alone.d_g) << "run " << r << ", " << t << " threads";
      EXPECT_EQ(s[r].sigma_g, alone.sigma_g) << "run " << r << ", " << t << " threads";
      const std::vector<double> h_alone = volume_and_histogram(&p.v[std::size_t(r) * n], &p.w[std::size_t(r) * n], n, -9.0, 0.1, bins);
      EXPECT_TRUE(std::equal(h_alone.begin(), h_alone.end(), h.begin() + std::size_t(r) * (1 + bins)))
          << "run " << r << ", " << t << " threads";
    }
    const auto [lo, hi] = min_and_max(p.v.data(), p.v.size());
    const auto [lo_expected, hi_expected] = std::minmax_element(p.v.begin(), p.v.end());
    EXPECT_EQ(lo, *lo_expected);
    EXPECT_EQ(hi, *hi_expected);
  }
  omp_set_num_threads(threads);
}

}  // namespace
