// Fixed-pivot sectional solver (Kumar & Ramkrishna 1996), see sectional.hpp.
#include "methods/coagulation/coag_sectional.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace ks::coag {
namespace {

// RK4 step size. Loss rates grow with the pivot (under the free-molecular kernel the top
// pivots of the 200 x 1.12 grid collide ~1e6 times faster than the initial aerosol), so
// limiting the step by every section would take ~1e8 steps to 1000 tau_char. Instead:
// - accuracy: dt <= kStepFraction / rate over the sections that carry the aerosol, i.e. hold
//   more than kResolvedShare of the total number or volume;
// - stability: dt <= kStabilityLimit / rate over every section above rounding level
//   (kNegligibleShare); RK4 is stable for dt * rate <= 2.78 on the negative real axis.
// Lowering kResolvedShare to kNegligibleShare (2-8x slower) moves N, d_g and sigma_g by < 1e-11
// and no section holding > 1e-12 of the number by > 2e-7 (free-molecular and additive kernels).
constexpr double kStepFraction = 0.02;
constexpr double kStabilityLimit = 2.0;
constexpr double kResolvedShare = 1e-6;
constexpr double kNegligibleShare = std::numeric_limits<double>::epsilon();

double diameter_of_volume(double v) { return std::cbrt(6.0 * v / std::numbers::pi); }

// P(a < Z < b) for a standard normal Z, written so that neither tail cancels.
double normal_probability(double a, double b) {
  const double s = 1.0 / std::numbers::sqrt2;
  if (a >= 0.0) return 0.5 * (std::erfc(a * s) - std::erfc(b * s));
  if (b <= 0.0) return 0.5 * (std::erfc(-b * s) - std::erfc(-a * s));
  return 1.0 - 0.5 * (std::erfc(-a * s) + std::erfc(b * s));
}

// A section's gains, summed in a register while consecutive pairs target it (derivative).
struct SectionGain {
  int section = -1;  // none
  double sum = 0.0;
  void store(std::vector<double>& dn) {
    if (section >= 0) dn[std::size_t(section)] = sum;
    section = -1;
  }
  // Adds x to `target`'s sum, first storing this one's section and taking `target` from `other`.
  void add(std::vector<double>& dn, SectionGain& other, int target, double x) {
    if (section != target) {
      store(dn);
      if (other.section == target) other.store(dn);  // its sum so far comes first
      section = target;
      sum = dn[std::size_t(target)];
    }
    sum += x;
  }
};

}  // namespace

SectionalSolver::SectionalSolver(SectionalGrid grid, VolumeKernel kernel) {
  if (!(grid.v_min > 0.0) || !std::isfinite(grid.v_min)) {
    throw std::invalid_argument("SectionalGrid: v_min must be positive and finite");
  }
  if (!(grid.ratio > 1.0) || !std::isfinite(grid.ratio)) {
    throw std::invalid_argument("SectionalGrid: ratio must be > 1 and finite");
  }
  if (grid.sections < 2) throw std::invalid_argument("SectionalGrid: need at least 2 sections");
  if (!kernel) throw std::invalid_argument("SectionalSolver: empty kernel");

  const int s = grid.sections;
  const auto size = static_cast<std::size_t>(s);
  pivots_.resize(size);
  log_diameters_.resize(size);
  for (int i = 0; i < s; ++i) {
    pivots_[i] = grid.v_min * std::pow(grid.ratio, i);
    log_diameters_[i] = std::log(diameter_of_volume(pivots_[i]));
  }

  // Evaluate each unordered pair once so the matrix is exactly symmetric: volume conservation
  // of the gain/loss bookkeeping relies on beta_jk == beta_kj.
  kernel_.resize(size * size);
  for (int i = 0; i < s; ++i) {
    for (int k = 0; k <= i; ++k) {
      const double beta = kernel(pivots_[i], pivots_[k]);
      if (!(beta >= 0.0) || !std::isfinite(beta)) {
        throw std::invalid_argument("SectionalSolver: kernel must be finite and >= 0");
      }
      kernel_[i * size + k] = beta;
      kernel_[k * size + i] = beta;
    }
  }

  // Fixed-pivot targets: v = x_j + x_k with x_lo <= v < x_lo+1 goes to lo with
  // eta = (x_lo+1 - v) / (x_lo+1 - x_lo) and to lo+1 with 1 - eta (number and volume kept);
  // beyond the last pivot it goes to the last section as v / x_last particles (volume kept).
  const double x_last = pivots_.back();
  pairs_.reserve(size * (size + 1) / 2);
  for (int j = 0; j < s; ++j) {
    for (int k = 0; k <= j; ++k) {
      const double rate = (j == k ? 0.5 : 1.0) * kernel_[j * size + k];
      const double v = pivots_[j] + pivots_[k];
      if (v >= x_last) {
        pairs_.push_back({j, k, s - 1, s - 1, rate * v / x_last, 0.0});
        continue;
      }
      int lo = j;  // v > x_j, so the target is at or above j
      while (pivots_[lo + 1] <= v) ++lo;
      const double eta = (pivots_[lo + 1] - v) / (pivots_[lo + 1] - pivots_[lo]);
      pairs_.push_back({j, k, lo, lo + 1, rate * eta, rate * (1.0 - eta)});
    }
  }

  n_.assign(size, 0.0);
  for (auto* work : {&k1_, &k2_, &k3_, &k4_, &stage_, &loss_, &stage_loss_}) work->resize(size);
}

void SectionalSolver::set_number(std::vector<double> n) {
  if (n.size() != pivots_.size()) {
    throw std::invalid_argument("SectionalSolver::set_number: size must equal the sections");
  }
  for (double ni : n) {
    if (!(ni >= 0.0) || !std::isfinite(ni)) {
      throw std::invalid_argument("SectionalSolver::set_number: entries must be finite and >= 0");
    }
  }
  n_ = std::move(n);
  t_ = 0.0;
}

void SectionalSolver::set_monodisperse(double N0, double v0) {
  if (!(v0 > 0.0)) throw std::invalid_argument("SectionalSolver::set_monodisperse: v0 <= 0");
  const double position = std::log(v0 / pivots_.front()) / std::log(pivots_[1] / pivots_[0]);
  const long last = static_cast<long>(pivots_.size()) - 1;
  const long section = std::clamp(std::lround(position), 0L, last);
  std::vector<double> n(pivots_.size(), 0.0);
  n[static_cast<std::size_t>(section)] = N0;
  set_number(std::move(n));
}

void SectionalSolver::set_lognormal(double N0, double dg, double sigma_g) {
  if (!(dg > 0.0)) throw std::invalid_argument("SectionalSolver::set_lognormal: dg <= 0");
  if (!(sigma_g > 1.0)) throw std::invalid_argument("SectionalSolver::set_lognormal: sigma_g <= 1");
  const double log_sigma = std::log(sigma_g);
  const double log_dg = std::log(dg);
  // Geometric midpoint between pivots in volume = half a step in log diameter.
  const double half_width = 0.5 * (log_diameters_[1] - log_diameters_[0]);

  std::vector<double> n(pivots_.size());
  double total = 0.0;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const double a = (log_diameters_[i] - half_width - log_dg) / log_sigma;
    const double b = (log_diameters_[i] + half_width - log_dg) / log_sigma;
    n[i] = normal_probability(a, b);
    total += n[i];
  }
  if (!(total > 0.0)) {
    throw std::invalid_argument("SectionalSolver::set_lognormal: distribution lies off the grid");
  }
  for (double& ni : n) ni *= N0 / total;
  set_number(std::move(n));
}

void SectionalSolver::derivative(const std::vector<double>& n, std::vector<double>& dn, std::vector<double>& loss) const {
  // dN_i/dt = sum_{j>=k} (1 - delta_jk/2) eta_i(j,k) beta_jk N_j N_k - N_i sum_k beta_ik N_k
  const std::size_t s = n.size();
  // Only sections [first, last) hold particles (coagulation only grows them: the sections below the
  // start stay empty, and the distribution reaches the upper ones over time). The others' terms are
  // exact zeros, so skipping them leaves every sum the same bits, in the same order.
  std::size_t first = 0, last = s;
  while (first < s && n[first] == 0.0) ++first;
  while (last > first && n[last - 1] == 0.0) --last;
  // loss[i] = sum_k beta_ik n_k, k ascending, a column of the symmetric kernel at a time (the sums of
  // all i advance together, which vectorises).
  std::fill(loss.begin(), loss.end(), 0.0);
  for (std::size_t k = first; k < last; ++k) {
    const double* column = &kernel_[k * s];
    const double nk = n[k];
    for (std::size_t i = 0; i < s; ++i) loss[i] += column[i] * nk;
  }
  for (std::size_t i = 0; i < s; ++i) dn[i] = -n[i] * loss[i];
  // Consecutive pairs mostly gain into the same two sections: each is summed in a register while it
  // stays the target, with the same additions in the same order as through memory.
  SectionGain lo, hi;
  for (std::size_t j = first; j < last; ++j) {  // pairs_ holds j's pairs k = 0 .. j from j (j + 1) / 2
    const PairTarget* pj = &pairs_[j * (j + 1) / 2];
    for (std::size_t k = first; k <= j; ++k) {
      const PairTarget& p = pj[k];
      const double collisions = n[p.j] * n[p.k];
      lo.add(dn, hi, p.lo, p.gain_lo * collisions);
      hi.add(dn, lo, p.hi, p.gain_hi * collisions);
    }
  }
  lo.store(dn);
  hi.store(dn);
}

double SectionalSolver::step_size(const std::vector<double>& loss) const {
  double number = 0.0;
  double volume = 0.0;
  for (std::size_t i = 0; i < n_.size(); ++i) {
    number += n_[i];
    volume += pivots_[i] * n_[i];
  }
  if (!(number > 0.0)) return std::numeric_limits<double>::infinity();
  double resolved_rate = 0.0;
  double present_rate = 0.0;
  for (std::size_t i = 0; i < n_.size(); ++i) {
    const double share = std::max(n_[i] / number, pivots_[i] * n_[i] / volume);
    if (share > kResolvedShare) resolved_rate = std::max(resolved_rate, loss[i]);
    if (share > kNegligibleShare) present_rate = std::max(present_rate, loss[i]);
  }
  double dt = std::numeric_limits<double>::infinity();  // no collisions: nothing changes
  if (resolved_rate > 0.0) dt = kStepFraction / resolved_rate;
  if (present_rate > 0.0) dt = std::min(dt, kStabilityLimit / present_rate);
  return dt;
}

void SectionalSolver::advance_to(double t) {
  if (!(t >= t_)) throw std::invalid_argument("SectionalSolver::advance_to: t < time()");
  const std::size_t s = n_.size();
  while (t_ < t) {
    derivative(n_, k1_, loss_);
    const double remaining = t - t_;
    const double stable_dt = step_size(loss_);
    const bool last = stable_dt >= remaining;  // never step past t
    const double dt = last ? remaining : stable_dt;

    // Classical RK4; it preserves the linear invariant sum x_i N_i (total volume) exactly.
    for (std::size_t i = 0; i < s; ++i) stage_[i] = n_[i] + 0.5 * dt * k1_[i];
    derivative(stage_, k2_, stage_loss_);
    for (std::size_t i = 0; i < s; ++i) stage_[i] = n_[i] + 0.5 * dt * k2_[i];
    derivative(stage_, k3_, stage_loss_);
    for (std::size_t i = 0; i < s; ++i) stage_[i] = n_[i] + dt * k3_[i];
    derivative(stage_, k4_, stage_loss_);
    for (std::size_t i = 0; i < s; ++i) {
      n_[i] += dt / 6.0 * (k1_[i] + 2.0 * k2_[i] + 2.0 * k3_[i] + k4_[i]);
    }
    t_ = last ? t : t_ + dt;
  }
}

double SectionalSolver::time() const { return t_; }

SectionalMoments SectionalSolver::moments() const {
  double number = 0.0;
  double volume = 0.0;
  double log_sum = 0.0;
  for (std::size_t i = 0; i < n_.size(); ++i) {
    number += n_[i];
    volume += pivots_[i] * n_[i];
    log_sum += n_[i] * log_diameters_[i];
  }
  if (!(number > 0.0)) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {t_, number, volume, nan, nan};
  }
  const double log_dg = log_sum / number;
  double log_variance = 0.0;
  for (std::size_t i = 0; i < n_.size(); ++i) {
    const double deviation = log_diameters_[i] - log_dg;
    log_variance += n_[i] * deviation * deviation;
  }
  return {t_, number, volume, std::exp(log_dg), std::exp(std::sqrt(log_variance / number))};
}

const std::vector<double>& SectionalSolver::number() const { return n_; }

const std::vector<double>& SectionalSolver::pivots() const { return pivots_; }

}  // namespace ks::coag
