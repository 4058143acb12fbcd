// lbm.binary: one interface over the CPU (OpenMP) and CUDA solvers, so that the method, the tests
// and the benchmark drive either the same way. A step is the paper's three stages (section 4):
// fused collide-stream (full-way bounce-back at wall nodes), interpolated bounce-back over the wall
// links (when chosen), pressure inlet/outlet; or, on CUDA in one process, the same as one fused kernel
// (gpu_step, lbm_cuda_pull.cuh).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "core/backend.hpp"
#include "lbm_config.hpp"
#include "lbm_geometry.hpp"
#include "lbm_model.hpp"
#include "lbm_slab.hpp"

namespace ks::lbm {

// Moments of the state at every owned node, [q * nodes + node]; zero at solid nodes.
enum NodeMoment { kRhoO2, kRhoN2, kJO2x, kJO2y, kJO2z, kJN2x, kJN2y, kJN2z, kNodeMoments };

// Seconds spent per step in each stage (the benchmark's per-kernel bandwidth).
struct StageTimes {
  double collide_stream = 0.0, bounce_back = 0.0, boundary = 0.0;
  StageTimes per_step(int steps) const { return {collide_stream / steps, bounce_back / steps, boundary / steps}; }
};

class LbmSolver {
 public:
  virtual ~LbmSolver() = default;
  // A solver holds the planes of a Slab (lbm_slab.hpp) and reads and writes its owned planes; "nodes"
  // below are those of the owned planes. Under MPI (a slab of several) step() and momentum_rms() are
  // collectives of the ranks.
  // Applies what keeps the lattice and precision: viscosity, D_AB, mole fraction, pressure ratio,
  // bounce-back scheme. The populations carry on from where they are.
  virtual void configure(const LbmConfig& c) = 0;
  // Runs up to `steps` steps and returns how many it completed: fewer once `stop` is requested (a step
  // under way on the CPU is abandoned, the populations left as the last completed step made them; on
  // CUDA it stops after the kernels in flight).
  virtual int step(int steps, const Interrupt& stop = {}) = 0;
  // Steps like step() and times each stage (synchronising after each on the GPU).
  virtual StageTimes profile(int steps) = 0;
  virtual std::vector<double> moments() const = 0;
  // c_t of eq. (20): sqrt(sum over species, fluid nodes and axes of J^2 / fluid nodes), of the whole lattice.
  virtual double momentum_rms() const = 0;
  // The populations, [(s * 27 + i) * nodes + node], converted to double (exact for float).
  virtual void read_f(std::vector<double>& f) const = 0;
  virtual void write_f(const std::vector<double>& f) = 0;
  // Zero-copy views (Method::write_display_field): per node, one float of node field `field`
  // (lbm_node_fields.hpp, in SI units by the two factors) and `component` (display_value), from
  // the last moments() call (the snapshot's state); the bytes written, or needed when dst is null;
  // 0 where not supported or before moments().
  virtual std::size_t write_display_field(int field, int component, double density_unit, double velocity_unit, void* dst,
                                          std::size_t capacity) const {
    (void)field, (void)component, (void)density_unit, (void)velocity_unit, (void)dst, (void)capacity;
    return 0;
  }
};

// Equilibrium populations of the initial state per plane `slab` holds, [(plane * 2 + s) * 27 + i]
// (lbm_state.cpp): at rest with the pressure falling linearly from inlet to outlet (tube, bed), or
// the periodic box's wave and uniform velocity. The state is uniform over a plane.
std::vector<double> initial_plane_populations(const LbmConfig& c, const Slab& slab);

// The initial state as the populations [(s * 27 + i) * nodes + node] are read, without a lattice of
// doubles on the host (54 values a plane instead of 432 bytes a node).
struct InitialState {
  std::vector<double> plane;  // initial_plane_populations
  std::size_t plane_nodes;    // nx * ny
  double operator()(std::size_t row, std::size_t node) const { return plane[node / plane_nodes * std::size_t(kSpecies * kQ) + row]; }
};
InitialState initial_state(const LbmConfig& c, const Slab& slab);

// On the planes `slab` holds (the geometry's), exchanging halos with the neighbouring ranks of `comm`
// (lbm_slab.hpp); the whole lattice in one process by default.
std::unique_ptr<LbmSolver> make_cpu_solver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g, const Slab& slab,
                                           const Communicator& comm);
std::unique_ptr<LbmSolver> make_cuda_solver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g, int device, const Slab& slab,
                                            const Communicator& comm);  // lbm_cuda.cu
inline std::unique_ptr<LbmSolver> make_cpu_solver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g) {
  return make_cpu_solver(c, std::move(g), slab_of(c.nz, 0, 1), ranks_of(ExecutionContext{}));
}
inline std::unique_ptr<LbmSolver> make_cuda_solver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g, int device) {
  return make_cuda_solver(c, std::move(g), device, slab_of(c.nz, 0, 1), ranks_of(ExecutionContext{}));
}

}  // namespace ks::lbm
