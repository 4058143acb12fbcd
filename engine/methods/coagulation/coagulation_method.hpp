// aerosol.coagulation: an ensemble of weighted inverse Monte Carlo runs (Wei & Kruis 2013)
// advanced output time by output time, with the discrete-sectional solution as reference.
#pragma once

#include <memory>
#include <vector>

#include "core/method.hpp"
#include "ensemble.hpp"
#include "sectional.hpp"
#include "size_statistics.hpp"

namespace ks::coag {

class CudaEnsemble;

class CoagulationMethod final : public Method {
 public:
  CoagulationMethod();
  ~CoagulationMethod() override;

  static const MethodInfo& static_info();

  const MethodInfo& info() const override { return static_info(); }
  // Host (and on CUDA device) bytes of the n_s x n_runs ensemble, the per-run statistics and the
  // work arrays of an advance, from the parameters alone (coagulation_method.cpp lists what is counted).
  MemoryEstimate estimate_memory(const ParamSet& params, const ExecutionContext& ctx) const override;
  void setup(const ParamSet& params, const ExecutionContext& ctx) override;
  void advance() override;
  bool finished() const override;
  void set_live(const std::string& key, const ParamValue& value) override;
  Progress progress() const override;
  Snapshot snapshot() const override;
  const ParamSet& params() const override { return params_; }
  std::size_t write_display_field(const std::string& name, int component, void* device_dst,
                                  std::size_t capacity) const override;
  void save_state(std::ostream& out) const override;
  void load_state(std::istream& in) override;

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
  double total_volume() const;  // sum over all runs of sum(w v) / V

 private:
  void build_schedule();
  void solve_sectional();
  void resize_runs(int n_runs);
  void bring_runs_to(int k);
  MeanAndError ensemble_mean(int k, double RunStatistics::*field, double scale) const;

  ParamSet params_;
  ExecutionContext ctx_;
  EnsembleConfig cfg_;
  Ensemble ens_;
  std::shared_ptr<CudaEnsemble> gpu_;  // shared_ptr: destructible where CudaEnsemble is incomplete (CPU-only builds)
  double N0_ = 0.0, d0_ = 0.0, sigma_g0_ = 1.0, tau_ = 1.0;
  std::vector<double> t_out_;                     // output times, s
  int iteration_ = 0;                             // outputs completed
  std::vector<int> next_out_;                     // per run: next output index to reach
  std::vector<std::vector<RunStatistics>> stats_; // [output][run]
  std::vector<SectionalMoments> sectional_;       // [output]
  std::uint64_t events_ = 0;
  double initial_volume_ = 0.0;
};

}  // namespace ks::coag
