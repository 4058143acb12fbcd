// radiation.rmc: the reciprocal Monte Carlo radiative heat transfer solver of Silvestri & Pecnik
// (2019) as a Method: ERMC with wavenumbers drawn at T_max (eq. 12-14), grey or narrow-band
// correlated-k gases (eq. 15-17), the paper's validation cases (Table 1) and its GPU techniques
// (texture memory, narrow-band sorting, multigrid overlays). Each iteration adds a batch of rays per
// cell to a running mean and variance, so Q^R sharpens live.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "methods/method_base.hpp"
#include "rmc_params.hpp"
#include "rmc_solver.hpp"

namespace ks::rmc {

class RmcMethod final : public MethodBase<RmcMethod, RmcParams, rmc_param_table> {
 public:
  static MethodInfo describe();

  static MemoryEstimate estimate(const RmcParams& p, const ExecutionContext& ctx);
  static double cost(const RmcParams& p);
  // An iteration: a batch of rays from every cell (eq. 12-14) added to the running mean and variance.
  void advance() override;
  bool finished() const override;  // rays_per_cell rays from every cell
  Progress progress() const override;
  Snapshot snapshot() const override;

  // For tests and benchmarks.
  const RmcProblem& problem() const { return problem_; }
  std::vector<double> mean() const;       // Q^R per cell, W/m^3
  std::vector<double> std_error() const;  // standard error of the mean per cell, W/m^3
  long long rays_per_cell() const { return rays_; }
  double face_crossings() const { return steps_; }
  // Q^R along x (averaged over the periodic directions, or on the cells nearest the centre line) and
  // the reference there (empty where the case has none).
  std::vector<double> stations() const;
  std::vector<double> profile(const std::vector<double>& per_cell) const;
  std::vector<double> profile_error(const std::vector<double>& std_error) const;  // of the station averages
  const std::vector<double>& reference() const;                                   // computed on first use

 private:
  void set_up() override;
  void save_body(std::ostream& out) const override;  // the sums, the ray and batch counters, histories
  void load_body(std::istream& in) override;
  // "T", "Q_R", "Q_R_std" and "kappa_P".
  std::size_t write_display(int field, int component, void* device_dst, std::size_t capacity) const override;
  void on_live_change(const RmcParams& before) override;
  void rebuild_levels();  // after a change of the march settings
  void restart_estimate();
  void share_sums(double steps, double seconds);  // after a batch: all ranks' sums, face crossings and trace times
  BatchSeries series_since(const std::vector<double>& before) const;
  void add_series_point(const BatchSeries& s);      // the convergence series' points of the batch just added
  const std::vector<double>& kappa_planck() const;  // the kappa_P field

  RmcProblem problem_;
  std::unique_ptr<RmcSolver> solver_;
  // Under MPI, the ranks' blocks of cells whose rays they trace: rank r's [bounds_[r], bounds_[r + 1]),
  // re-cut after every batch to the ranks' trace times (core/balanced_blocks.hpp).
  std::vector<std::int64_t> bounds_;
  Block origins() const;
  std::vector<double> T_;  // cell temperatures, K
  // Per cell: sum and sum of squares of the ray estimates. Where the solver keeps them (CUDA, one
  // process: RmcSolver::trace_kept) these are a copy made when asked (fetch_sums).
  mutable std::vector<double> sum_, sum2_;
  mutable bool sums_out_of_date_ = false;
  void fetch_sums() const;
  long long rays_ = 0;       // rays per cell in the sums
  std::uint32_t batch_ = 0;  // next batch (the random stream's counter)
  std::int64_t iteration_ = 0;
  double steps_ = 0.0;                     // face crossings of the rays in the sums
  mutable std::vector<double> reference_;  // at stations()
  mutable bool reference_ready_ = false;
  mutable std::vector<double> kappa_planck_;  // per cell, computed on first use
  std::vector<double> change_x_, change_y_;   // relative change of the mean per batch
  std::vector<double> sd_x_, sd_y_;           // mean standard error per batch
};

}  // namespace ks::rmc
