// aerosol.coagulation: an ensemble of weighted inverse Monte Carlo runs (Wei & Kruis 2013)
// advanced output time by output time, with the discrete-sectional solution as reference.
#pragma once

#include <memory>
#include <vector>

#include "coag_params.hpp"
#include "methods/method_base.hpp"
#include "coag_solver.hpp"
#include "coag_ensemble.hpp"
#include "coag_sectional.hpp"
#include "coag_size_statistics.hpp"

namespace ks::coag {

class CoagulationMethod final : public MethodBase<CoagulationMethod, CoagParams, coag_param_table> {
 public:
  static MethodInfo describe();

  // Host (and on CUDA device) bytes of the n_s x n_runs ensemble, the per-run statistics and the
  // work arrays of an advance, from the parameters alone (coag_method.cpp lists what is counted).
  static MemoryEstimate estimate(const CoagParams& p, const ExecutionContext& ctx);
  static double cost(const CoagParams& p);
  // An iteration: every run brought to the next output time (the events of section 2), then the
  // ensemble statistics there.
  void advance() override;
  bool finished() const override;  // at the last output time (t_end)
  Progress progress() const override;
  Snapshot snapshot() const override;

  // For tests and benchmarks.
  const Ensemble& ensemble() const { return ens_; }
  const EnsembleConfig& config() const { return cfg_; }
  double tau_char() const { return tau_; }
  const std::vector<double>& output_times() const { return t_out_; }  // s; index 0 is t = 0
  // Ensemble mean and standard error at output k of N/N0, d_g (m) and sigma_g.
  MeanAndError mean_number_ratio(int k) const;
  MeanAndError mean_dg(int k) const;
  MeanAndError mean_sigma_g(int k) const;
  const std::vector<SectionalMoments>& sectional() const { return sectional_; }
  double total_volume() const { return current_sums().volume; }  // sum over all runs of sum(w v) / V

 private:
  void set_up() override;
  void save_body(std::ostream& out) const override;  // counters, the output schedule, the runs' particles, statistics
  void load_body(std::istream& in) override;
  // Run 0's particles at their display positions, coloured by diameter or weight.
  std::size_t write_display(int field, int component, void* device_dst, std::size_t capacity) const override;
  void on_live_change(const CoagParams& before) override;  // n_runs, t_end
  void build_schedule();
  void solve_sectional();  // sectional_, sectional_sizes_ and sectional_initial_ (not for the additive kernel)
  static Series size_distribution(const SectionalSolver& solver, const std::string& name);
  void resize_runs(int n_runs);
  std::uint64_t bring_runs_to(int k);  // the events it took (this rank's runs)
  void share_statistics(int k);
  struct EnsembleSums {
    double volume = 0.0;  // sum over all runs of sum(w v) / V
    Series histogram;     // the size distribution of all runs
  };
  EnsembleSums ensemble_sums() const;
  void share_ensemble_sums();
  EnsembleSums current_sums() const;
  MeanAndError ensemble_mean(int k, double RunStatistics::*field, double scale) const;
  double initial_diameter() const { return p_.d0 * 1e-9; }  // m (d0 is in nm)

  EnsembleConfig cfg_;
  Ensemble ens_;
  std::unique_ptr<CoagSolver> solver_;
  double tau_ = 1.0;
  std::vector<double> t_out_;                      // output times, s
  int iteration_ = 0;                              // outputs completed
  std::vector<int> next_out_;                      // per run: next output index to reach
  std::vector<std::vector<RunStatistics>> stats_;  // [output][run]
  std::vector<SectionalMoments> sectional_;        // [output]
  std::vector<Series> sectional_sizes_;            // [output]: the sectional size distribution
  Series sectional_initial_;                       // the sectional size distribution at t = 0
  std::uint64_t events_ = 0;
  double initial_volume_ = 0.0;
  EnsembleSums shared_sums_;  // under MPI: ensemble_sums() after the last collective step
};

}  // namespace ks::coag
