// kinetic.dvm: the steady Shakhov-model solver of Zhu, Wang, Chen, Guo & Zhang as a Method: the
// iterative upwind discrete velocity scheme with memory reduction (sections 2-3), the 3D lid-driven
// cavity and the supersonic flow past a cube (section 4), and planar Couette flow as a check.
#pragma once

#include <memory>
#include <vector>

#include "methods/method_base.hpp"
#include "dvm_config.hpp"
#include "dvm_geometry.hpp"
#include "dvm_model.hpp"
#include "dvm_params.hpp"
#include "dvm_solver.hpp"

namespace ks::dvm {

class DvmMethod final : public MethodBase<DvmMethod, DvmParams, dvm_param_table> {
 public:
  static MethodInfo describe();

  // Host (and on CUDA device) bytes of the per-cell arrays, the two slices of f of a batch and the
  // velocity tables, from the parameters alone (dvm_method.cpp lists what is counted).
  static MemoryEstimate estimate(const DvmParams& p, const ExecutionContext& ctx);
  static double cost(const DvmParams& p);
  // An iteration: one sweep of every velocity batch through the grid (eq. 5-9), the new moments and
  // the mass rescaling.
  void advance() override;
  bool finished() const override;  // converged (tolerance) or max_iterations done
  Progress progress() const override;
  Snapshot snapshot() const override;
  std::optional<Snapshot> file_snapshot() const override;

  // For tests and benchmarks.
  const DvmConfig& config() const { return cfg_; }
  const Geometry& geometry() const { return *geo_; }
  const DvmSolver& solver() const { return *solver_; }
  const std::vector<double>& raw_moments() const { return raw_; }  // of the current iterate
  double total_mass() const;                                       // sum of n times the cell volume
  double mass_defect() const { return mass_defect_; }              // last iteration's relative mass change before rescaling
  std::int64_t iterations() const { return iteration_; }

 private:
  Snapshot snapshot(bool native) const;  // native: a stretched grid at its own cells (grid_field)
  void set_up() override;
  void save_body(std::ostream& out) const override;  // counters, the iterate's raw sums and wall densities, histories
  void load_body(std::istream& in) override;
  // Every field and component, on the snapshot's grid.
  std::size_t write_display(int field, int component, void* device_dst, std::size_t capacity) const override;
  void on_live_change(const DvmParams& before) override;
  void apply_boundaries();  // walls, free stream and Kn from p_ onto cfg_
  void rebuild_state();     // f^S parameters of every cell from raw_
  bool converged() const;   // the last relative change below `tolerance` (> 0)

  DvmConfig cfg_;
  std::shared_ptr<const Geometry> geo_;
  std::unique_ptr<DvmSolver> solver_;
  WallTable walls_;
  std::vector<Velocity> velocities_;  // the discrete velocities (for the wall fluxes of eq. 9)
  std::vector<double> emission_;      // per wall face: re-emitted flux per unit wall density
  std::vector<double> raw_;           // raw sums of the current iterate
  std::vector<double> face_rho_;      // diffuse-wall densities (eq. 9) for the next sweep
  std::vector<CellState> state_;      // f^S and 1/tau for the next sweep
  double mass0_ = 0.0, mass_defect_ = 0.0;
  double display_scale_ = 1.0;  // the solver's display sums are raw_ / display_scale_ (the mass rescaling)
  std::int64_t iteration_ = 0;
  std::vector<double> residual_it_, residual_;
};

}  // namespace ks::dvm
