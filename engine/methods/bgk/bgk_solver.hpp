// kinetic.bgk: one interface over the CPU (OpenMP) and CUDA solvers, so the method, the tests and
// the benchmark drive either the same way.
#pragma once

#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bgk_config.hpp"
#include "core/host_device.hpp"

namespace ks::bgk {

// Velocity sums of f^n per cell (times the velocity-cell volume): everything the fields and
// diagnostics need. Stored [moment * cells + cell].
enum RawMoment { kS0, kSx, kSy, kSz, kSxx, kSyy, kSzz, kSxy, kSxz, kSyz, kQx, kQy, kQz, kRawMoments };

KS_HD void add_raw_moments(double* acc, long long stride, double f, double vx, double vy, double vz) {
  const double v2 = vx * vx + vy * vy + vz * vz;
  acc[kS0 * stride] += f;
  acc[kSx * stride] += vx * f;
  acc[kSy * stride] += vy * f;
  acc[kSz * stride] += vz * f;
  acc[kSxx * stride] += vx * vx * f;
  acc[kSyy * stride] += vy * vy * f;
  acc[kSzz * stride] += vz * vz * f;
  acc[kSxy * stride] += vx * vy * f;
  acc[kSxz * stride] += vx * vz * f;
  acc[kSyz * stride] += vy * vz * f;
  acc[kQx * stride] += vx * v2 * f;
  acc[kQy * stride] += vy * v2 * f;
  acc[kQz * stride] += vz * v2 * f;
}

// What the field view shows of cell c, from the raw sums ([moment * cells + c]): n, |V| and T of
// eq. (8) (2 R T -> T). The host's fields and the CUDA zero-copy view use the same arithmetic.
struct CellDisplay {
  double n, speed, T;
};
KS_HD CellDisplay cell_display(const double* raw, long long cells, long long c) {
  const double n = raw[kS0 * cells + c];
  const double V[3] = {raw[kSx * cells + c] / n, raw[kSy * cells + c] / n, raw[kSz * cells + c] / n};
  const double V2 = V[0] * V[0] + V[1] * V[1] + V[2] * V[2];
  const double S2 = raw[kSxx * cells + c] + raw[kSyy * cells + c] + raw[kSzz * cells + c];
  return {n, sqrt(V2), (2.0 / 3.0) * (S2 / n - V2)};
}

// How the CUDA path organises a step (measured against each other in bench/bgk_bench.cpp).
//  Fused: the paper's streaming is folded into the collision: a moments kernel streams on the fly
//         and a relaxation kernel streams again and relaxes, so f~ never goes to memory (24 B/cell).
//  Paper: Algorithm 1 writes f~ (streaming kernel, shared memory, one block per velocity and row),
//         then Algorithm 2 reads it twice and relaxes in place (40 B/cell).
// The CPU always runs the fused order.
enum class StepVariant { Fused, Paper };

class BgkSolver {
 public:
  virtual ~BgkSolver() = default;
  // Applies changes that keep the grids: dt, omega, conservative, boundary states (Mach, lid speed),
  // cell size (delta). The distribution carries on from where it is.
  virtual void configure(const BgkConfig& c) = 0;
  virtual void step(int steps) = 0;  // returns when the steps are done
  virtual void set_variant(StepVariant) {}
  virtual std::vector<double> raw_moments() const = 0;
  // f^n in one row of cells, [j * nx + i] (the lid's drag, the phase-space view).
  virtual std::vector<double> row(int k) const = 0;
  virtual void read_f(std::vector<double>& f) const = 0;
  virtual void write_f(const std::vector<double>& f) = 0;
  // Zero-copy views (Method::write_display_field): "n", "V" (as |V|) or "T" of the last
  // raw_moments() call (the snapshot's state), one float per cell, into device memory; the bytes
  // written, or needed when dst is null; 0 where not supported or before raw_moments().
  virtual std::size_t write_display_field(const std::string& name, void* dst, std::size_t capacity) const {
    (void)name, (void)dst, (void)capacity;
    return 0;
  }
};

std::unique_ptr<BgkSolver> make_cpu_solver(const BgkConfig& c);
#ifdef KS_HAVE_CUDA
std::unique_ptr<BgkSolver> make_cuda_solver(const BgkConfig& c, int device);
#endif

}  // namespace ks::bgk
