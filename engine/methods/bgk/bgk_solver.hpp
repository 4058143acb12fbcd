// kinetic.bgk: one interface over the CPU (OpenMP) and CUDA solvers, so the method, the tests and
// the benchmark drive either the same way.
#pragma once

#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include "core/interrupt.hpp"
#include "bgk_config.hpp"
#include "core/communicator.hpp"
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

// The cell fields in the order of BgkMethod's field list; the phase-space slice f(x, vx) follows them.
enum CellField { kFieldN, kFieldV, kFieldT, kFieldPxy, kFieldQ, kCellFields, kFieldPhaseSpace = kCellFields };

// The macroscopic state of cell c from the raw sums ([moment * cells + c]): n, V, T of eq. (8)
// (2 R T -> T), the shear stress P_xy = 2 sum (v_x - V_x)(v_y - V_y) f dv and the heat flux
// q_a = sum c_a c^2 f dv (c = v - V, expanded in the raw sums), a = x, y. The host's fields and
// the CUDA zero-copy view use this one copy of the arithmetic.
struct CellState {
  double n, V[3], T, Pxy, q[2];
  KS_HD const double* values(int field) const {
    const double* v[kCellFields] = {&n, V, &T, &Pxy, q};
    return v[field];
  }
  KS_HD static int components(int field) { return field == kFieldV ? 3 : field == kFieldQ ? 2 : 1; }
};
KS_HD CellState cell_state(const double* raw, long long cells, long long c) {
  const auto s = [&](int q) { return raw[q * cells + c]; };
  CellState out;
  const double n = s(kS0), V[3] = {s(kSx) / n, s(kSy) / n, s(kSz) / n};
  const double S[3][3] = {{s(kSxx), s(kSxy), s(kSxz)}, {s(kSxy), s(kSyy), s(kSyz)}, {s(kSxz), s(kSyz), s(kSzz)}};
  const double V2 = V[0] * V[0] + V[1] * V[1] + V[2] * V[2], S2 = S[0][0] + S[1][1] + S[2][2];
  out.n = n;
  for (int a = 0; a < 3; ++a) out.V[a] = V[a];
  out.T = (2.0 / 3.0) * (S2 / n - V2);
  out.Pxy = 2.0 * (S[0][1] - n * V[0] * V[1]);
  const double Q[2] = {s(kQx), s(kQy)};
  for (int a = 0; a < 2; ++a) out.q[a] = Q[a] - 2.0 * (V[0] * S[a][0] + V[1] * S[a][1] + V[2] * S[a][2]) - V[a] * S2 + 2.0 * n * V[a] * V2;
  return out;
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
  // Runs up to `steps` steps and returns when they are done, or earlier once `stop` is requested (after
  // a whole step: on CUDA within kStepsInFlight steps); returns the steps completed.
  virtual int step(int steps, const Interrupt& stop = {}) = 0;
  virtual void set_variant(StepVariant) {}
  // With a Runner's `stop` (the set-up's sums of f^0), throws Interrupted once it is requested.
  virtual std::vector<double> raw_moments(const Interrupt& stop = {}) const = 0;
  // f^n in one row of cells, [j * nx + i] (the lid's drag, the phase-space view); on a strip of the
  // grid (bgk_strip.hpp), this rank's part of row k of the whole grid.
  virtual std::vector<double> row(int k) const = 0;
  virtual void read_f(std::vector<double>& f) const = 0;
  virtual void write_f(const std::vector<double>& f) = 0;
  // For every velocity j, the `count` cells from cell `first` on (consecutive cells of f's
  // [j][cell] layout: whole rows, or columns in 1D), as [j * count + n]: the halos of bgk_strip.hpp.
  virtual std::vector<double> read_cells(long long first, long long count) const = 0;
  virtual void write_cells(long long first, long long count, const std::vector<double>& values) = 0;
  // The halo exchange of a strip (bgk_strip.hpp), cells of this solver's grid: the first and last
  // `width` of the `owned` cells from `first` go to the ranks below (prev) and above (next), and
  // theirs fill the `width` cells before and after. The default goes through read_cells and
  // write_cells; the CUDA solver moves the cells device to device where it can.
  struct HaloCells {
    long long first = 0, owned = 0, width = 0;
    bool prev = false, next = false;
  };
  virtual void exchange_halos(const HaloCells& h, const Communicator& comm);
  // `steps` steps of a strip, each after its halos have come from the neighbours. The default
  // exchanges, then steps, one step at a time; the CUDA cavity steps its edge cells first and sends
  // them while it steps the rest.
  virtual void step_between_halos(int steps, const HaloCells& h, const Communicator& comm);
  // Zero-copy views (Method::write_display_field): `component` of field `field` (CellField, or
  // kFieldPhaseSpace) of the snapshot's state, one float per cell (per (x, v_x) point of the
  // phase-space slice through row `row`), into device memory. The cell fields come from the last
  // raw_moments() call's sums. The bytes written, or needed when dst is null; 0 where not supported
  // or before raw_moments().
  virtual std::size_t write_display_field(int field, int component, int row, void* dst, std::size_t capacity) const {
    (void)field, (void)component, (void)row, (void)dst, (void)capacity;
    return 0;
  }
};

// Its arrays are made a block at a time: `stop` throws Interrupted between blocks.
std::unique_ptr<BgkSolver> make_cpu_solver(const BgkConfig& c, const Interrupt& stop = {});
std::unique_ptr<BgkSolver> make_cuda_solver(const BgkConfig& c, int device);  // bgk_cuda.cu

}  // namespace ks::bgk
