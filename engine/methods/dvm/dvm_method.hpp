// kinetic.dvm: the steady Shakhov-model solver of Zhu, Wang, Chen, Guo & Zhang as a Method: the
// iterative upwind discrete velocity scheme with memory reduction (sections 2-3), the 3D lid-driven
// cavity and the supersonic flow past a cube (section 4), and planar Couette flow as a check.
#pragma once

#include <memory>
#include <vector>

#include "core/method_base.hpp"
#include "dvm_config.hpp"
#include "dvm_geometry.hpp"
#include "dvm_model.hpp"
#include "dvm_params.hpp"
#include "dvm_solver.hpp"

namespace ks::dvm {

class DvmMethod final : public MethodBase<DvmMethod, DvmParams> {
 public:
  // Id, title, paper, fields and series; static_info() adds the parameters of param_table().
  static MethodInfo describe();
  static const ParamTable<DvmParams>& param_table() { return dvm_param_table(); }

  // Host (and on CUDA device) bytes of the per-cell arrays, the two slices of f of a batch and the
  // velocity tables, from the parameters alone (dvm_method.cpp lists what is counted).
  MemoryEstimate estimate_memory(const ParamSet& params, const ExecutionContext& ctx) const override;
  void setup(const ParamSet& params, const ExecutionContext& ctx) override;
  void advance() override;
  bool finished() const override;
  Progress progress() const override;
  Snapshot snapshot() const override;
  // CUDA backend: every field and component for zero-copy views, on the snapshot's grid.
  std::size_t write_display_field(const std::string& name, int component, void* device_dst,
                                  std::size_t capacity) const override;
  void save_state(std::ostream& out) const override;
  void load_state(std::istream& in) override;

  // For tests and benchmarks.
  const DvmConfig& config() const { return cfg_; }
  const Geometry& geometry() const { return *geo_; }
  const DvmSolver& solver() const { return *solver_; }
  const std::vector<double>& raw_moments() const { return raw_; }  // of the current iterate
  double total_mass() const;       // sum of n times the cell volume
  double mass_defect() const { return mass_defect_; }  // last iteration's relative mass change before rescaling
  std::int64_t iterations() const { return iteration_; }

 private:
  void on_live_change(const DvmParams& before) override;
  void apply_boundaries();  // walls, free stream and Kn from p_ onto cfg_
  void rebuild_state();     // f^S parameters of every cell from raw_
  bool converged() const;   // the last relative change below `tolerance` (> 0)

  DvmConfig cfg_;
  std::shared_ptr<const Geometry> geo_;
  std::unique_ptr<DvmSolver> solver_;
  WallTable walls_;
  std::vector<Velocity> velocities_;  // the discrete velocities (for the wall fluxes of eq. 9)
  std::vector<double> emission_;   // per wall face: re-emitted flux per unit wall density
  std::vector<double> raw_;        // raw sums of the current iterate
  std::vector<double> face_rho_;   // diffuse-wall densities (eq. 9) for the next sweep
  std::vector<CellState> state_;   // f^S and 1/tau for the next sweep
  double mass0_ = 0.0, mass_defect_ = 0.0;
  double display_scale_ = 1.0;  // the solver's display sums are raw_ / display_scale_ (the mass rescaling)
  std::int64_t iteration_ = 0;
  std::vector<double> residual_it_, residual_;
};

}  // namespace ks::dvm
