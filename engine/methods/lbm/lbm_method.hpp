// lbm.binary: the entropic binary-mixture lattice Boltzmann solver of Safi & Ashrafizaadeh as a
// Method: O2/N2 through a tube (the paper's benchmark) and through a packed bed of spheres.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "methods/method_base.hpp"
#include "lbm_config.hpp"
#include "lbm_diagnostics.hpp"
#include "lbm_geometry.hpp"
#include "lbm_packing.hpp"
#include "lbm_params.hpp"
#include "lbm_solver.hpp"

namespace ks::lbm {

// The solid shapes of a parameter set and, for the packed bed, how its packing came out.
struct Scene {
  Shapes shapes;
  std::optional<Packing> packing;
  double bed_z[2] = {0.0, 0.0};  // bed section on the lattice (packed bed)
};

class LbmMethod final : public MethodBase<LbmMethod, LbmParams, lbm_param_table> {
 public:
  static MethodInfo describe();

  // Host (and on CUDA device) bytes of the lattice, its wall links and the spheres; refuses, as
  // make_config does, what cannot run.
  static MemoryEstimate estimate(const LbmParams& p, const ExecutionContext& ctx);
  static double cost(const LbmParams& p);
  // An iteration: steps_per_iteration lattice steps (collide and stream), the last one measured for
  // the residual of eq. (19).
  void advance() override;
  bool finished() const override;  // converged (tolerance) or max_steps done
  Progress progress() const override;
  Snapshot snapshot() const override;

  static Scene make_scene(const LbmParams& p, const LbmConfig& c, const Interrupt& stop = {});
  // The shapes of p's grid level around a given packing (made by make_scene; none for the tube).
  static Scene scene_at_level(const LbmParams& p, const LbmConfig& c, std::optional<Packing> packing);
  // Upper bound of the wall links that build_geometry makes for p's grid level (lbm_method.cpp).
  static std::int64_t wall_link_bound(const LbmParams& p);

  // For tests and benchmarks.
  const LbmConfig& config() const { return cfg_; }
  const LatticeGeometry& geometry() const { return *geometry_; }
  const Scene& scene() const { return scene_; }
  const LbmSolver& solver() const { return *solver_; }
  const std::vector<double>& moments() const;  // of the current state, owned planes
  std::int64_t steps() const { return steps_; }
  double bed_porosity() const;  // fluid fraction of the tube's nodes in the bed section (one process)

 private:
  void set_up() override;
  void save_body(std::ostream& out) const override;  // counters, residual histories and f
  void load_body(std::istream& in) override;
  // Every node field and component ("sphere_diameter" is drawn from the host).
  std::size_t write_display(int field, int component, void* device_dst, std::size_t capacity) const override;
  void on_live_change(const LbmParams& before) override;
  // grid_level set live (p_ holds the new level): the current state interpolated onto the other
  // level's lattice (lbm_regrid.hpp).
  void switch_grid_level();
  // Eq. (19)-(20) met on the current lattice (`tolerance` > 0).
  bool converged() const;
  // The snapshot's parts (lbm_snapshot.cpp): what the plots and diagnostics read off the whole lattice.
  struct BedCounts {
    long long fluid = 0, inside = 0;  // nodes of the bed section inside the tube, and the fluid ones
  };
  struct LatticeSummary {
    PlaneAverages averages;
    std::optional<PoiseuilleProfile> poiseuille;  // tube: the middle plane's profile
    BedCounts bed;
    long long fluid_nodes = 0;
  };
  // The node fields of `planes` planes whose node types and moments ([q * nodes + node]) are given.
  std::vector<FieldData> node_field_data(const std::uint8_t* type, const std::vector<double>& moments, int planes) const;
  LatticeSummary summary_of(const LatticeGeometry& whole, const std::vector<double>& moments) const;
  LatticeSummary gathered_summary() const;  // under MPI, from the ranks' slabs (a collective; rank 0's)
  BedCounts bed_counts(const std::uint8_t* type, int z0, int z1) const;
  Snapshot assemble(std::vector<FieldData> fields, const LatticeSummary& s) const;

  LbmConfig cfg_;
  Slab slab_;  // the planes this rank holds (the whole lattice in one process)
  Scene scene_;
  std::shared_ptr<const LatticeGeometry> geometry_;
  std::unique_ptr<LbmSolver> solver_;
  std::int64_t iteration_ = 0, steps_ = 0;
  std::int64_t wall_links_ = 0;  // of the whole lattice
  // c_t of the current state (eq. 20) and the moments of its owned planes, found when first asked after
  // the state changed (state_changed()); under MPI every rank asks at the same points (snapshots).
  void state_changed();
  double momentum_rms() const;
  mutable double momentum_rms_ = 0.0;
  mutable bool momentum_stale_ = true, moments_stale_ = true;
  std::int64_t level_start_ = 0;  // iteration at which the current grid level began
  mutable std::vector<double> moments_;
  std::vector<double> residual_step_, residual_;  // eq. (19) against the step
};

}  // namespace ks::lbm
