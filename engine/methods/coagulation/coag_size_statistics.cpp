#include "coag_size_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "coag_units.hpp"

namespace ks::coag {

namespace {

// Particles are summed in chunks of this many, and the chunks' sums in order, whatever the threads:
// the statistics of a run are the same bits on any machine (and in a run stopped and taken on).
constexpr int kChunk = 1 << 12;

// The weight, weighted mean and weighted sum of squared deviations of ln d over some particles.
struct LogMoments {
  double w = 0.0, mean = 0.0, m2 = 0.0;
};

// Two sets' moments as one (Chan, Golub and LeVeque's pairwise update).
LogMoments merged(const LogMoments& a, const LogMoments& b) {
  const double w = a.w + b.w;
  if (w == 0.0) return a;
  const double delta = b.mean - a.mean;
  return {w, a.mean + delta * (b.w / w), a.m2 + b.m2 + delta * delta * (a.w * b.w / w)};
}

LogMoments chunk_moments(const double* v, const double* w, int n) {
  double ln_d[kChunk];
  LogMoments m;
  double s1 = 0.0;
  for (int k = 0; k < n; ++k) {
    ln_d[k] = log_diameter_of_volume(v[k]);
    m.w += w[k];
    s1 += w[k] * ln_d[k];
  }
  if (m.w == 0.0) return m;
  m.mean = s1 / m.w;
  for (int k = 0; k < n; ++k) m.m2 += w[k] * (ln_d[k] - m.mean) * (ln_d[k] - m.mean);
  return m;
}

}  // namespace

RunStatistics run_statistics(const double* v, const double* w, int n, double box_volume) {
  const int chunks = (n + kChunk - 1) / kChunk;
  std::vector<LogMoments> part(chunks);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (int c = 0; c < chunks; ++c) {
    const int begin = c * kChunk;
    part[c] = chunk_moments(v + begin, w + begin, std::min(kChunk, n - begin));
  }
  LogMoments all;
  for (const LogMoments& m : part) all = merged(all, m);
  RunStatistics r;
  r.number = all.w / box_volume;
  r.d_g = std::exp(all.mean);
  r.sigma_g = std::exp(std::sqrt(all.m2 / all.w));
  return r;
}

std::vector<double> volume_and_histogram(const double* v, const double* w, int n, double l0, double dl, int bins) {
  const int chunks = (n + kChunk - 1) / kChunk, per_chunk = 1 + bins;
  std::vector<double> part(std::size_t(chunks) * per_chunk, 0.0);  // each chunk's volume and bins
  const double ln10 = std::log(10.0);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (int c = 0; c < chunks; ++c) {
    double* s = &part[std::size_t(c) * per_chunk];
    for (int k = c * kChunk; k < std::min(n, (c + 1) * kChunk); ++k) {
      s[0] += w[k] * v[k];
      if (bins > 0) s[1 + std::clamp(int((log_diameter_of_volume(v[k]) / ln10 - l0) / dl), 0, bins - 1)] += w[k];
    }
  }
  std::vector<double> total(per_chunk, 0.0);
  for (int c = 0; c < chunks; ++c)
    for (int q = 0; q < per_chunk; ++q) total[q] += part[std::size_t(c) * per_chunk + q];
  return total;
}

std::vector<RunStatistics> runs_statistics(const double* v, const double* w, int n, int runs, const std::vector<char>& take,
                                           double box_volume) {
  std::vector<RunStatistics> out(runs);
#pragma omp parallel for schedule(dynamic, 8) if (runs > 1 && n <= kChunk)
  for (int r = 0; r < runs; ++r)
    if (take[r]) out[r] = run_statistics(v + std::size_t(r) * n, w + std::size_t(r) * n, n, box_volume);
  return out;
}

std::vector<double> runs_volume_and_histogram(const double* v, const double* w, int n, int runs, double l0, double dl, int bins) {
  const std::size_t per_run = 1 + std::size_t(bins);
  std::vector<double> out(std::size_t(runs) * per_run);
#pragma omp parallel for schedule(dynamic, 8) if (runs > 1 && n <= kChunk)
  for (int r = 0; r < runs; ++r) {
    const std::vector<double> run = volume_and_histogram(v + std::size_t(r) * n, w + std::size_t(r) * n, n, l0, dl, bins);
    std::copy(run.begin(), run.end(), &out[r * per_run]);
  }
  return out;
}

std::pair<double, double> min_and_max(const double* v, std::size_t n) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
#pragma omp parallel for schedule(static) reduction(min : lo) reduction(max : hi) if (n > std::size_t(kChunk))
  for (std::size_t k = 0; k < n; ++k) {
    lo = std::min(lo, v[k]);
    hi = std::max(hi, v[k]);
  }
  return {lo, hi};
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
