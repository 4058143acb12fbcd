// kinetic.dvm: one interface over the CPU (OpenMP) and CUDA sweeps, so the method, the tests and the
// benchmark drive either the same way. A solver holds no distribution between iterations: the
// iterative scheme (eq. 6) needs only the previous moments and wall densities.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "core/communicator.hpp"
#include "core/interrupt.hpp"
#include "dvm_config.hpp"
#include "dvm_geometry.hpp"
#include "dvm_model.hpp"

namespace ks::dvm {

struct SweepInput {
  const std::vector<CellState>* state;  // per cell
  const std::vector<double>* face_rho;  // per wall face
  WallTable walls;
  // Under MPI each rank sweeps its velocity batches and the output is the sum over these ranks, the
  // same on every rank (a collective); null or one rank: this solver's batches alone.
  const Communicator* ranks = nullptr;
};

struct SweepOutput {
  std::vector<double> raw;          // [cell * kRaw + moment] of the new iterate
  std::vector<double> face_influx;  // per wall face: sum over velocities entering the wall of |xi_n| w f
};

// Whether a sweep adds its output over ranks (SweepInput::ranks).
inline bool across_ranks(const SweepInput& in) { return in.ranks && in.ranks->size() > 1; }

// The sums over the ranks through the host (the MPI library's order of additions: equal to one
// process's within rounding).
inline void sum_on_host(SweepOutput& out, const Communicator& ranks) {
  ranks.all_sum(out.raw);
  ranks.all_sum(out.face_influx);
}

class DvmSolver {
 public:
  virtual ~DvmSolver() = default;
  // One iteration: every batch, every z-slice in the batch's sweep direction (Algorithm 1). False when
  // `stop` was requested before the sweep ended (checked between z-slices on the CPU, between batches
  // on CUDA): `out` is then incomplete, and the input state was only read.
  virtual bool sweep(const SweepInput& in, SweepOutput& out, const Interrupt& stop = {}) = 0;
  // Memory the solver holds for f and the per-cell data (device memory for CUDA).
  virtual std::size_t bytes() const = 0;
  // Zero-copy views (Method::write_display_field): field `field` (n, U, T, p, q, P_xy: DvmMethod's
  // field order) and `component` (display_value) per cell as a float, from the display sums (the
  // last sweep's raw sums, or set_display_sums) times `scale` as cell_fields sees them (the closed
  // cavity's mass rescaling); 0 in solid cells. Stretched grids: on grid_field's uniform grid,
  // interpolated as grid_field does. The bytes written, or needed when dst is null; 0 where not
  // supported.
  virtual std::size_t write_display_field(int field, int component, double scale, void* dst, std::size_t capacity) const {
    (void)field, (void)component, (void)scale, (void)dst, (void)capacity;
    return 0;
  }
  // Replaces the display sums with the host's (the initial iterate, a loaded checkpoint).
  virtual void set_display_sums(const std::vector<double>& raw) { (void)raw; }
};

// Its slices are made a block at a time: `stop` throws Interrupted between blocks.
std::unique_ptr<DvmSolver> make_cpu_solver(const DvmConfig& c, std::shared_ptr<const Geometry> g, const Interrupt& stop = {});
std::unique_ptr<DvmSolver> make_cuda_solver(const DvmConfig& c, std::shared_ptr<const Geometry> g, int device);  // dvm_cuda.cu

// Adds one batch's moments of slice cell c to the cell's raw sums and, where the batch's velocities
// head into a wall face of the cell, their flux |sum w xi_n f| to that face (batches lie in one octant).
KS_HD void accumulate_batch(const double* partial, const int* link, const int* sign, double* raw, double* face_influx) {
  for (int m = 0; m < kRaw; ++m) raw[m] += partial[m];
  for (int a = 0; a < 3; ++a) {
    const int l = link[2 * a + (sign[a] > 0 ? 1 : 0)];  // the downwind side
    if (l >= 0) face_influx[l] += fabs(partial[kSx + a]);
  }
}

}  // namespace ks::dvm
