// radiation.rmc: one interface over the CPU (OpenMP) and CUDA ray tracers, so the method, the tests and
// the benchmark drive either the same way. A solver holds the problem's tables and levels; the
// running sums of the progressive estimate stay with the method.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/interrupt.hpp"
#include "core/communicator.hpp"
#include "rmc_config.hpp"
#include "rmc_levels.hpp"
#include "rmc_model.hpp"
#include "rmc_spectral.hpp"

namespace ks::rmc {

struct RmcProblem {
  RmcConfig config;
  MarchSettings settings;
  SpectralTables tables;
  std::vector<GridLevel> levels;
};

// The problem with host pointers (the CUDA path swaps in device pointers).
MarchView march_view(const RmcProblem& p);

// Rays of a cell are split into this many chunks (the same on every backend), for about 2^21
// threads: about 16 waves of a full H100, so the last wave's tail is short and small grids still fill
// the GPU; one chunk per cell from 128^3 on.
int ray_chunks(long long cells, int rays);

// A cell's estimate from `rays` rays with running sums `sum` and `sum2` of the ray estimates:
// the mean (Q^R) and its standard error, W/m^3. The host fields and the zero-copy view use these.
KS_HD double estimate_mean(double sum, long long rays) { return rays > 0 ? sum / double(rays) : 0.0; }
KS_HD double estimate_std_error(double sum, double sum2, long long rays) {
  if (rays < 2) return 0.0;
  const double n = double(rays), m = sum / n, var = fmax(0.0, (sum2 / n - m * m) * n / (n - 1.0));
  return sqrt(var / n);
}

// The convergence series of one batch, from the running sums before and after it: the summed
// |change| and size of Q^R over the cells, the mean standard error, and the first cell whose Q^R is
// not finite (-1: none).
struct BatchSeries {
  double change = 0.0, size = 0.0, sd_mean = 0.0;
  long long not_finite = -1;
};

class RmcSolver {
 public:
  virtual ~RmcSolver() = default;
  // Takes (a copy of) the problem: tables, levels and settings. Called again after live changes.
  virtual void load(const RmcProblem& p) = 0;
  // Traces `rays` rays from each cell of `origins` (cell indices; all cells in one process, a rank's
  // block under MPI) for batch `batch`; adds each such cell's sum and sum of squares of the ray
  // estimates (W/m^3) to sum[cell] and sum2[cell], and the face crossings to steps. A cell's rays and
  // their chunks do not depend on `origins`. False, with nothing added, when `stop` was requested before
  // the batch ended (the CPU checks between cells; a CUDA batch runs to its end).
  virtual bool trace(std::uint32_t batch, int rays, Block origins, std::vector<double>& sum, std::vector<double>& sum2, double& steps,
                     const Interrupt& stop = {}) = 0;
  // Where the solver keeps the running sums itself (CUDA, one process; set_sums gave them): one batch
  // of `rays` rays from every cell added to them, with the batch's series reduced there; returns the
  // face crossings. The host's copy is then out of date until download_sums(). A CUDA batch runs to
  // its end. Their copy to the host and the host's passes over them took half of a batch of 200 rays
  // at 64^3 cells (issue 49). `next_rays` > 0: the next batch (batch + 1, that many rays) may start
  // tracing before this call returns; a later call for it takes its sums.
  virtual bool keeps_sums() const { return false; }
  virtual double trace_kept(std::uint32_t batch, int rays, long long rays_before, BatchSeries& series, int next_rays) {
    (void)batch, (void)rays, (void)rays_before, (void)series, (void)next_rays;
    return 0.0;
  }
  virtual void download_sums(std::vector<double>& sum, std::vector<double>& sum2) const { (void)sum, (void)sum2; }
  virtual std::size_t bytes() const = 0;  // memory held for the problem (device memory for CUDA)
  // Zero-copy views: the CUDA solver keeps a device copy of the running sums, to which trace adds
  // each batch as to the host's; set_sums replaces it (a new estimate, a checkpoint).
  virtual void set_sums(const std::vector<double>& sum, const std::vector<double>& sum2) { (void)sum, (void)sum2; }
  // And a device copy of the fields fixed by the set-up: temperature and kappa_P per cell.
  virtual void set_fixed_fields(const std::vector<double>& T, const std::vector<double>& kappa_planck) { (void)T, (void)kappa_planck; }
  // The field shown (RmcMethod's order: T, Q^R, its standard error from `rays` rays, kappa_P), one
  // float per cell into device memory; the bytes written, or needed when dst is null; 0 where not
  // supported.
  enum class Display { Temperature, Q, QStdError, KappaPlanck };
  virtual std::size_t write_display_field(Display what, long long rays, void* dst, std::size_t capacity) const {
    (void)what, (void)rays, (void)dst, (void)capacity;
    return 0;
  }
};

std::unique_ptr<RmcSolver> make_cpu_solver();
std::unique_ptr<RmcSolver> make_cuda_solver(int device);  // rmc_cuda.cu

}  // namespace ks::rmc
