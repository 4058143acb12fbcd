// kinetic.bgk: the explicit BGKW solver of Frezzotti, Ghiroldi & Gibelli as a Method: the 1D3V
// normal shock (section 4) and the 2D3V rarefied driven cavity (section 5).
#pragma once

#include <memory>
#include <vector>

#include "bgk_boundaries.hpp"
#include "bgk_config.hpp"
#include "bgk_solver.hpp"
#include "bgk_strip.hpp"
#include "bgk_params.hpp"
#include "methods/method_base.hpp"

namespace ks::bgk {

class BgkMethod final : public MethodBase<BgkMethod, BgkParams, bgk_param_table> {
 public:
  static MethodInfo describe();

  // Host (and on CUDA device) bytes of the two copies of f, the per-cell arrays of a step and of the
  // residual, from nx, ny and nv alone (bgk_method.cpp lists what is counted).
  static MemoryEstimate estimate(const BgkParams& p, const ExecutionContext& ctx);
  static double cost(const BgkParams& p);
  // An iteration: steps_per_iteration time steps of eq. (13) (fewer to land on t_end), then the
  // residual and, in the cavity, the drag.
  void advance() override;
  bool finished() const override;  // converged (tolerance) or at t_end
  Progress progress() const override;
  Snapshot snapshot() const override;

  // For tests and benchmarks.
  const BgkConfig& config() const { return cfg_; }
  const BoundaryData& boundaries() const { return bounds_; }
  const BgkSolver& solver() const { return *solver_; }
  // The raw sums of this rank's cells (the whole grid in one process) in the current state.
  const std::vector<double>& raw_moments() const { return own(); }
  double time() const { return time_; }
  double total_mass() const { return mass_of(own()); }  // one process: sum of n times the cell area (or length)

 private:
  void set_up() override;
  void save_body(std::ostream& out) const override;  // counters, histories and f
  void load_body(std::istream& in) override;
  // Every field and component (the phase-space slice through the middle row, as the snapshot's).
  std::size_t write_display(int field, int component, void* device_dst, std::size_t capacity) const override;
  void on_live_change(const BgkParams& before) override;
  void apply_config(const BgkConfig& c);
  bool converged() const;  // the last residual below `tolerance` (> 0)
  // The raw sums of every cell (under MPI, gathered from every rank: a collective).
  std::vector<double> whole_raw_moments() const;
  double mass_of(const std::vector<double>& raw) const;  // sum of n over raw's cells times the cell area
  // The residual of an iteration from `before` to own_ over `dt` and the lid's drag (cavity), from
  // this rank's cells: per row (cavity) or column (shock) sums, added over the ranks in grid order.
  double residual_since(const std::vector<double>& before, double dt) const;
  double lid_drag_now() const;
  // f^n in row k of the whole grid (under MPI, gathered on rank 0, empty elsewhere: a collective).
  std::vector<double> whole_row(int k) const;

  BgkConfig cfg_;
  Strip strip_;  // this rank's cells (the whole grid in one process)
  BoundaryData bounds_;
  std::unique_ptr<BgkSolver> solver_;
  std::int64_t iteration_ = 0, steps_ = 0;
  double time_ = 0.0;
  // Velocity sums of f at time_, this rank's cells: made at the end of every iteration (its residual
  // and density check need them), and after one stopped on request when first asked (own()).
  const std::vector<double>& own() const;
  mutable std::vector<double> own_;
  mutable bool own_stale_ = false;
  std::vector<double> residual_t_, residual_;
  std::vector<double> drag_t_, drag_;  // cavity: D(t)
};

}  // namespace ks::bgk
