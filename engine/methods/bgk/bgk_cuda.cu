// kinetic.bgk on the GPU. Layout as in the paper: f[(j * ny + k) * nx + i], physical cells adjacent
// in x are adjacent in memory, so a warp of threads along x reads coalesced for every velocity.
//  - Algorithm 1 (paper's streaming kernel): one block per (velocity, row), threads along x sharing
//    the shifted row in shared memory.
//  - Algorithm 2 (paper's collision kernel): one thread per physical cell computing the moments of f~
//    and relaxing (eq. 14).
//  - Fused variant: no f~ array; the moments kernel and the relaxation kernel stream on the fly
//    from f^n, 24 instead of 40 bytes per phase-space cell. The shock: one thread per (cell, v_x
//    slice), so that a 1D grid of a few thousand cells still fills the GPU (neighbour reads hit
//    L1/L2). The cavity: 2D tiles of cells per v_x slice, each velocity's tile and upwind halo copied
//    to shared memory a few velocities ahead (cp.async).
#include <cuda_runtime.h>

#include <algorithm>
#include <memory>

#include "bgk_boundaries.hpp"
#include "bgk_cavity_tiles.hpp"
#include "bgk_model.hpp"
#include "bgk_solver.hpp"
#include "core/ceil_div.hpp"
#include "core/cuda_check.hpp"
#include "core/device_ring.hpp"
#include "core/display_value.hpp"
#include "core/device_buffer.hpp"
#include "bgk_params.hpp"

namespace ks::bgk {

namespace {

constexpr int kWallThreads = 256;

// Sums a and b over the block (kWallThreads threads); the totals land in thread 0.
__device__ void block_sum2(double& a, double& b) {
  __shared__ double sa[kWallThreads], sb[kWallThreads];
  const int t = threadIdx.x;
  sa[t] = a;
  sb[t] = b;
  __syncthreads();
  for (int half = kWallThreads / 2; half > 0; half /= 2) {
    if (t < half) {
      sa[t] += sa[t + half];
      sb[t] += sb[t + half];
    }
    __syncthreads();
  }
  a = sa[0];
  b = sb[0];
}

// Eq. (24) for the x walls: one block per row, threads over the velocities.
__global__ void wall_x_kernel(BgkConfig c, StreamInputs s, double in_left, double in_right, double* nw_left, double* nw_right) {
  const int k = blockIdx.x;
  double out_left = 0.0, out_right = 0.0;
  for (int j = threadIdx.x; j < c.vg.count(); j += kWallThreads) {
    const double vx = c.vg.v(0, c.vg.jx(j));
    const double* row = s.f + ((long long)j * c.ny + k) * c.nx;
    if (vx < 0.0) out_left += -vx * row[0];
    else out_right += vx * row[c.nx - 1];
  }
  block_sum2(out_left, out_right);
  if (threadIdx.x == 0) {
    nw_left[k] = wall_density(out_left, in_left);
    nw_right[k] = wall_density(out_right, in_right);
  }
}

// Eq. (24) for the y walls, from the edge rows' outgoing values: one block per column.
__global__ void wall_y_kernel(BgkConfig c, StreamInputs s, double in_bottom, double in_top, double* nw_bottom, double* nw_top) {
  const int i = blockIdx.x;
  double out_bottom = 0.0, out_top = 0.0;
  for (int j = threadIdx.x; j < c.vg.count(); j += kWallThreads) {
    const double vy = c.vg.v(1, c.vg.jy(j));
    const double Cx = courant_x(c, c.vg.jx(j));
    if (vy < 0.0) out_bottom += -vy * y_wall_outgoing(c, s, j, i, 0, Cx);
    else out_top += vy * y_wall_outgoing(c, s, j, i, c.ny - 1, Cx);
  }
  block_sum2(out_bottom, out_top);
  if (threadIdx.x == 0) {
    nw_bottom[i] = wall_density(out_bottom, in_bottom);
    nw_top[i] = wall_density(out_top, in_top);
  }
}

// The shock's kernels read f velocity after velocity with few loads in flight per thread: each
// thread first asks L2 for the value it will read kPrefetchAhead velocities later
// (prefetch.global.L2 holds no register), so that most reads hit L2. Measured on the H100, and on
// an H200 with the 1D kernels below: without it N_r 18432 took 0.0101 against 0.0085 ns a cell.
constexpr int kPrefetchAhead = 4;

// A cell's two x-upwind cells and the fraction between them are the same for every velocity of one
// v_x slice (the shock's shifts are exact, eq. 15; the cavity's |C_x| <= 1), so a thread of the
// per-(cell, v_x slice) kernels finds them once, with its row's x-wall ghost factor. A thread whose
// upwind cells are both inside the grid (all but the cells within a shift of the ends) reads them
// without the ghost case. The values are swept_x's; on the shock, with the per-velocity index,
// bounds and ghost work gone, the moments kernel issues 35 % and the relaxation 40 % of the
// instructions they did through `streamed` (README, Performance).
struct XUpwind {
  int a = 0, b = 0;                 // the cell after the integer shift, and its upwind neighbour
  int ahead = 0;                    // a clamped into the grid: where the prefetches point
  double frac = 0.0;                // the fraction of a cell (eq. 12)
  bool a_in = false, b_in = false;  // a, b in [0, nx)
  bool inside = false;              // both
  const double* ghost = nullptr;    // per velocity: Phi^- (C >= 0) or Phi^+
  double wall = 1.0;                // the cavity's wall density of the row (eq. 24); 1 for the shock
};

// Cell i of row k (row k's x walls: the cavity's wall densities; none for the shock).
__device__ XUpwind x_upwind(const BgkConfig& c, const StreamInputs& s, int i, int k, double C) {
  XUpwind u;
  const double aC = fabs(C);
  const int shift = int(aC);
  u.frac = aC - shift;
  u.a = C >= 0.0 ? i - shift : i + shift;
  u.b = C >= 0.0 ? u.a - 1 : u.a + 1;
  u.ahead = min(max(u.a, 0), c.nx - 1);
  u.a_in = u.a >= 0 && u.a < c.nx;
  u.b_in = u.b >= 0 && u.b < c.nx;
  u.inside = u.a_in && u.b_in;
  u.ghost = C >= 0.0 ? s.ghost_left : s.ghost_right;
  u.wall = wall_factor(C >= 0.0 ? s.nw_left : s.nw_right, k);
  return u;
}

// f~ of velocity j at the thread's cell, from row = f^n of velocity j (swept_x).
template <bool kInside>
__device__ __forceinline__ double x_swept(const XUpwind& u, const double* row, int j) {
  const double va = kInside || u.a_in ? row[u.a] : u.ghost[j] * u.wall;
  const double vb = kInside || u.b_in ? row[u.b] : u.ghost[j] * u.wall;
  return upwind(va, vb, u.frac);
}

// The moments of eq. (8) over v_x slice jx at the thread's cell (in row k): summed over v_z first and
// each v_y row folded in (as the cavity's tiles do), v_x applied once at the end. vz: the v_z values;
// cy: courant_y per v_y index, null on the shock's one-row grid; f_tilde(j, row, C): f~ of velocity j,
// row pointing at f^n of velocity j in the cell's row (stepped, not recomputed: fewer instructions).
template <typename Streamed>
__device__ MomentSums slice_moments(const BgkConfig& c, const StreamInputs& s, const XUpwind& u, int jx, int k, const double* vz,
                                    const double* cy, Streamed f_tilde) {
  const int ny = c.vg.n[1], nz = c.vg.n[2], slice_end = (jx + 1) * ny * nz;
  const long long cells = c.cells();
  const double Cx = courant_x(c, jx);
  int j = jx * ny * nz;
  const double* row = s.f + j * cells + (long long)k * c.nx;
  double s0 = 0.0, sy = 0.0, sz = 0.0, s2 = 0.0;
  for (int jy = 0; jy < ny; ++jy) {
    const Courant C{Cx, cy ? cy[jy] : 0.0};
    double F0 = 0.0, Fz = 0.0, Fzz = 0.0;
#pragma unroll 4  // several independent loads in flight per thread
    for (int jz = 0; jz < nz; ++jz, ++j, row += cells) {
      if (j + kPrefetchAhead < slice_end) asm volatile("prefetch.global.L2 [%0];" ::"l"(row + kPrefetchAhead * cells + u.ahead));
      const double f = f_tilde(j, row, C), fz = vz[jz] * f;
      F0 += f;
      Fz += fz;
      Fzz += vz[jz] * fz;
    }
    const double vy = c.vg.v(1, jy);
    s0 += F0;
    sy += vy * F0;
    sz += Fz;
    s2 += vy * vy * F0 + Fzz;
  }
  const double vx = c.vg.v(0, jx);
  MomentSums m;
  m.s0 = s0;
  m.s1[0] = vx * s0;
  m.s1[1] = sy;
  m.s1[2] = sz;
  m.s2 = vx * vx * s0 + s2;
  return m;
}

// A cell's sums over one slice into `partial`, [slice][5 sums][cells] (relaxation_kernel's layout).
__device__ void store_partial(double* partial, int slice, long long cells, long long cell, const MomentSums& m) {
  double* out = partial + slice * 5 * cells + cell;
  out[0] = m.s0;
  out[cells] = m.s1[0];
  out[2 * cells] = m.s1[1];
  out[3 * cells] = m.s1[2];
  out[4 * cells] = m.s2;
}

// Fused, pass 1 (the shock): partial moments of f~ streamed on the fly (eq. 12, 15, 8), one thread per
// (cell, v_x slice): cells x N_vx threads fill the GPU even for a 1D grid of a few thousand cells.
// The per-(cell, v_x slice) kernels ask for three blocks of 256 an SM (up to 85 registers), measured
// on the shock: the moments kernel's four-deep unrolled loads in flight (80 registers on sm_90) gain
// more than the occupancy of 4 (64 registers) or 5 blocks (48, unrolled by 2) would (N_r 18432 on an
// H200: 194 us a launch against 238 and 250 us), and the relaxation kernel takes 56 registers
// instead of 48 with 1 % fewer instructions (389 against 399 us; README, Performance).
constexpr int kCellBlocksPerSm = 3;
__global__ void __launch_bounds__(256, kCellBlocksPerSm) fused_partial_moments_kernel(BgkConfig c, StreamInputs s, double* partial) {
  __shared__ double vz[kMaxAxisVelocities];
  for (int jz = threadIdx.x; jz < c.vg.n[2]; jz += blockDim.x) vz[jz] = c.vg.v(2, jz);
  __syncthreads();
  const long long cell = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const int jx = blockIdx.y;
  if (cell >= c.cells()) return;
  const XUpwind u = x_upwind(c, s, int(cell), 0, courant_x(c, jx));
  const MomentSums m =
      u.inside ? slice_moments(c, s, u, jx, 0, vz, nullptr, [&](int j, const double* row, Courant) { return x_swept<true>(u, row, j); })
               : slice_moments(c, s, u, jx, 0, vz, nullptr, [&](int j, const double* row, Courant) { return x_swept<false>(u, row, j); });
  store_partial(partial, jx, c.cells(), cell, m);
}

// Fused, pass 1b: the `slices` partial sums (in v_x order, the cavity tiles' parts of a slice in
// v_y order) and the cell's relaxation data, for the `count` cells from `first` on.
__global__ void relaxation_kernel(BgkConfig c, const double* partial, int slices, long long first, long long count,
                                  CellRelaxation* relaxation) {
  const long long n = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (n >= count) return;
  const long long cell = first + n, cells = c.cells();
  MomentSums m;
  for (int slice = 0; slice < slices; ++slice) {
    const double* p = partial + slice * 5 * cells + cell;
    m.s0 += p[0];
    m.s1[0] += p[cells];
    m.s1[1] += p[2 * cells];
    m.s1[2] += p[3 * cells];
    m.s2 += p[4 * cells];
  }
  relaxation[cell] = cell_relaxation(m, c);
}

// The Maxwellian factorises over the axes, Phi = (ex * ey) * ez with ex carrying the prefactor
// (the CPU uses the same association). body(j, jy, Phi_j) for the velocities of slice jx;
// ez(jz) gives the z factor.
template <typename Ez, typename Body>
__device__ __forceinline__ void for_each_velocity_in_slice(const VelocityGrid& g, const CellRelaxation& r, int jx, Ez ez, Body body) {
  const double ex = maxwellian_prefactor(r.phi) * gauss(g.v(0, jx), r.phi.V[0], r.phi.T);
  for (int jy = 0; jy < g.n[1]; ++jy) {
    const double exy = ex * gauss(g.v(1, jy), r.phi.V[1], r.phi.T);
#pragma unroll 4  // several independent loads in flight per thread
    for (int jz = 0; jz < g.n[2]; ++jz) body((jx * g.n[1] + jy) * g.n[2] + jz, jy, exy * ez(jz));
  }
}

// Shared memory of the fused relaxation kernel: one z-factor table per thread.
std::size_t ez_table_bytes(int threads, const VelocityGrid& g) { return std::size_t(threads) * g.n[2] * sizeof(double); }

// Fused, pass 2 for v_x slice jx at the thread's cell (in row k): stream again (f_tilde, cy as for
// slice_moments) and relax exactly (eq. 14) into `next`.
template <typename Ez, typename Streamed>
__device__ void slice_relax(const BgkConfig& c, const StreamInputs& s, const XUpwind& u, const CellRelaxation& r, int jx, int k, Ez ez,
                            const double* cy, long long cell, double* next, Streamed f_tilde) {
  const int slice_end = (jx + 1) * c.vg.n[1] * c.vg.n[2];
  // 32-bit: the GPU holds two copies of the phase space with at least 4^3 velocities a cell, so the
  // grids it takes have fewer than 2^31 cells; velocity j's row then starts at a 32 x 32 -> 64-bit
  // product, one multiply on the GPU instead of three.
  const int cells = int(c.cells());
  const long long first = (long long)k * c.nx;
  const double Cx = courant_x(c, jx);
  for_each_velocity_in_slice(c.vg, r, jx, ez, [&](int j, int jy, double phi) {
    const long long at = (long long)j * cells;
    const double* row = s.f + at + first;
    if (j + kPrefetchAhead < slice_end) asm volatile("prefetch.global.L2 [%0];" ::"l"(row + kPrefetchAhead * cells + u.ahead));
    next[at + cell] = relax(f_tilde(j, row, Courant{Cx, cy ? cy[jy] : 0.0}), phi, r.decay);
  });
}

// Fused, pass 2 (the shock): (cell, v_x slice) per thread. The thread's z factors of the Maxwellian sit
// in shared memory: n_z exps instead of n_y n_z.
__global__ void __launch_bounds__(256, kCellBlocksPerSm)
    fused_relax_kernel(BgkConfig c, StreamInputs s, const CellRelaxation* relaxation, double* next) {
  extern __shared__ double ez_table[];  // [jz * blockDim + thread]
  const long long cell = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (cell >= c.cells()) return;
  const CellRelaxation r = relaxation[cell];
  const int jx = blockIdx.y;
  const XUpwind u = x_upwind(c, s, int(cell), 0, courant_x(c, jx));
  double* ez = ez_table + threadIdx.x;
  for (int jz = 0; jz < c.vg.n[2]; ++jz) ez[jz * blockDim.x] = gauss(c.vg.v(2, jz), r.phi.V[2], r.phi.T);
  const auto table = [&](int jz) { return ez[jz * blockDim.x]; };
  if (u.inside)
    slice_relax(c, s, u, r, jx, 0, table, nullptr, cell, next, [&](int j, const double* row, Courant) { return x_swept<true>(u, row, j); });
  else
    slice_relax(c, s, u, r, jx, 0, table, nullptr, cell, next,
                [&](int j, const double* row, Courant) { return x_swept<false>(u, row, j); });
}

// The cavity per (cell, v_x slice), as the shock: f~ with unsplit streaming (`streamed`) from the
// thread's x-upwind cells (found once, the x walls' ghosts chosen per thread) and the row above or
// below. kLean: the whole warp's cells have both y neighbours in the grid; else `streamed` itself.
template <bool kLean>
__device__ __forceinline__ double cavity_streamed(const BgkConfig& c, const StreamInputs& s, const XUpwind& u, const double* row, int j,
                                                  int i, int k, Courant C) {
  if constexpr (!kLean) return streamed(c, s, j, i, k, C);
  const double fx = x_swept<false>(u, row, j);
  return add_y_upwind(fx, row[C.y >= 0.0 ? i - c.nx : i + c.nx], row[i], fabs(C.y));
}

// Whether the rest of the warp's cells, like this one, have both y neighbours in the grid.
__device__ bool warp_in_rows(const BgkConfig& c, int k) { return __all_sync(__activemask(), k >= 1 && k < c.ny - 1); }

__global__ void __launch_bounds__(256, kCellBlocksPerSm)
    cavity_cell_moments_kernel(BgkConfig c, StreamInputs s, RowRange rows, double* partial) {
  __shared__ double vz[kMaxAxisVelocities], cy[kMaxAxisVelocities];
  for (int q = threadIdx.x; q < kMaxAxisVelocities; q += blockDim.x) {
    if (q < c.vg.n[2]) vz[q] = c.vg.v(2, q);
    if (q < c.vg.n[1]) cy[q] = courant_y(c, q);
  }
  __syncthreads();
  const long long n = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (n >= (long long)(rows.end - rows.begin) * c.nx) return;
  const long long cell = (long long)rows.begin * c.nx + n;
  const int i = int(cell % c.nx), k = int(cell / c.nx), jx = blockIdx.y;
  const XUpwind u = x_upwind(c, s, i, k, courant_x(c, jx));
  const MomentSums m =
      warp_in_rows(c, k)
          ? slice_moments(c, s, u, jx, k, vz, cy,
                          [&](int j, const double* row, Courant C) { return cavity_streamed<true>(c, s, u, row, j, i, k, C); })
          : slice_moments(c, s, u, jx, k, vz, cy,
                          [&](int j, const double* row, Courant C) { return cavity_streamed<false>(c, s, u, row, j, i, k, C); });
  store_partial(partial, jx, c.cells(), cell, m);
}

__global__ void __launch_bounds__(256, kCellBlocksPerSm)
    cavity_cell_relax_kernel(BgkConfig c, StreamInputs s, RowRange rows, const CellRelaxation* relaxation, double* next) {
  extern __shared__ double ez_table[];  // [jz * blockDim + thread]
  __shared__ double cy[kMaxAxisVelocities];
  for (int q = threadIdx.x; q < c.vg.n[1]; q += blockDim.x) cy[q] = courant_y(c, q);
  __syncthreads();
  const long long n = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (n >= (long long)(rows.end - rows.begin) * c.nx) return;
  const long long cell = (long long)rows.begin * c.nx + n;
  const int i = int(cell % c.nx), k = int(cell / c.nx), jx = blockIdx.y;
  const CellRelaxation r = relaxation[cell];
  const XUpwind u = x_upwind(c, s, i, k, courant_x(c, jx));
  double* ez = ez_table + threadIdx.x;
  for (int jz = 0; jz < c.vg.n[2]; ++jz) ez[jz * blockDim.x] = gauss(c.vg.v(2, jz), r.phi.V[2], r.phi.T);
  const auto table = [&](int jz) { return ez[jz * blockDim.x]; };
  if (warp_in_rows(c, k))
    slice_relax(c, s, u, r, jx, k, table, cy, cell, next,
                [&](int j, const double* row, Courant C) { return cavity_streamed<true>(c, s, u, row, j, i, k, C); });
  else
    slice_relax(c, s, u, r, jx, k, table, cy, cell, next,
                [&](int j, const double* row, Courant C) { return cavity_streamed<false>(c, s, u, row, j, i, k, C); });
}

// Loads the x-shifted row k of velocity j for cells [i0, i0 + blockDim) into sh[0 .. blockDim]:
// sh[t + 1] and sh[t] (C >= 0) or sh[t] and sh[t + 1] (C < 0) are the two upwind values of thread t.
__device__ void load_shifted_row(const BgkConfig& c, const StreamInputs& s, int j, int k, int i0, double* sh) {
  const double C = courant_x(c, c.vg.jx(j));
  const int shift = int(fabs(C));
  const double* row = s.f + ((long long)j * c.ny + k) * c.nx;
  const double ghost = C >= 0.0 ? s.ghost_left[j] * wall_factor(s.nw_left, k) : s.ghost_right[j] * wall_factor(s.nw_right, k);
  const int t = threadIdx.x, nt = blockDim.x;
  // C >= 0: sh[u] holds x = i0 - shift - 1 + u; C < 0: sh[u] holds x = i0 + shift + u.
  const int base = C >= 0.0 ? i0 - shift - 1 : i0 + shift;
  for (int u = t; u <= nt; u += nt) {
    const int x = base + u;
    sh[u] = (x >= 0 && x < c.nx) ? row[x] : ghost;
  }
}

__device__ __forceinline__ double swept_from_shared(double C, const double* sh) {
  const double aC = fabs(C);
  const double frac = aC - int(aC);
  const int t = threadIdx.x;
  return C >= 0.0 ? upwind(sh[t + 1], sh[t], frac) : upwind(sh[t], sh[t + 1], frac);
}

// Algorithm 1: one block per (velocity j, row k); threads along x, row tiles through shared memory.
__global__ void paper_stream_kernel(BgkConfig c, StreamInputs s, double* tilde) {
  extern __shared__ double sh[];  // two rows of blockDim + 1
  const int j = blockIdx.x, k = blockIdx.y, nt = blockDim.x, t = threadIdx.x;
  const double Cx = courant_x(c, c.vg.jx(j));
  const double Cy = courant_y(c, c.vg.jy(j));
  const int k_up = Cy >= 0.0 ? k - 1 : k + 1;  // the upwind row in y
  const bool up_is_wall = c.ny > 1 && (k_up < 0 || k_up >= c.ny);
  const bool unsplit = c.streaming == Streaming::Unsplit;
  double* sh_up = sh + nt + 1;
  for (int i0 = 0; i0 < c.nx; i0 += nt) {
    load_shifted_row(c, s, j, k, i0, sh);
    if (c.ny > 1 && !up_is_wall && !unsplit) load_shifted_row(c, s, j, k_up, i0, sh_up);
    __syncthreads();
    const int i = i0 + t;
    if (i < c.nx) {
      double v = swept_from_shared(Cx, sh);
      if (c.ny > 1) {  // as in `streamed`
        double up;
        if (up_is_wall) up = Cy >= 0.0 ? s.ghost_bottom[j] * wall_factor(s.nw_bottom, i) : s.ghost_top[j] * wall_factor(s.nw_top, i);
        else up = unsplit ? f_at(c, s, j, i, k_up) : swept_from_shared(Cx, sh_up);
        const double here = unsplit ? f_at(c, s, j, i, k) : v;
        v = add_y_upwind(v, up, here, fabs(Cy));
      }
      tilde[((long long)j * c.ny + k) * c.nx + i] = v;
    }
    __syncthreads();
  }
}

// Algorithm 2: one thread per physical cell: moments of f~, then relaxation in place.
__global__ void paper_collide_kernel(BgkConfig c, double* tilde) {
  const long long cell = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (cell >= c.cells()) return;
  const long long cells = c.cells();
  MomentSums m;
  for (int j = 0; j < c.vg.count(); ++j)
    m.add(tilde[j * cells + cell], c.vg.v(0, c.vg.jx(j)), c.vg.v(1, c.vg.jy(j)), c.vg.v(2, c.vg.jz(j)));
  const CellRelaxation r = cell_relaxation(m, c);
  const auto exact = [&](int jz) { return gauss(c.vg.v(2, jz), r.phi.V[2], r.phi.T); };
  for (int jx = 0; jx < c.vg.n[0]; ++jx)
    for_each_velocity_in_slice(c.vg, r, jx, exact, [&](int j, int, double phi) {
      double& f = tilde[j * cells + cell];
      f = relax(f, phi, r.decay);
    });
}

__global__ void raw_moments_kernel(BgkConfig c, const double* f, double* out) {
  const long long cell = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (cell >= c.cells()) return;
  const long long cells = c.cells();
  double acc[kRawMoments] = {};
  for (int j = 0; j < c.vg.count(); ++j)
    add_raw_moments(acc, 1, f[j * cells + cell], c.vg.v(0, c.vg.jx(j)), c.vg.v(1, c.vg.jy(j)), c.vg.v(2, c.vg.jz(j)));
  const double dV = c.vg.cell_volume();
  for (int q = 0; q < kRawMoments; ++q) out[q * cells + cell] = acc[q] * dV;
}

// Zero-copy views: cell field `field` of each cell as a float, the scalar, a vector's magnitude or
// one component (display_value), from the raw sums.
__global__ void display_kernel(long long cells, const double* raw, int field, int component, float* out) {
  const long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (c >= cells) return;
  const CellState s = cell_state(raw, cells, c);
  out[c] = float(display_value(s.values(field), CellState::components(field), component));
}

// The phase-space slice f(x, v_x) of row k, [jx * nx + i].
__global__ void phase_space_kernel(BgkConfig c, const double* f, int k, float* out) {
  const long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (p >= (long long)c.vg.n[0] * c.nx) return;
  const int i = int(p % c.nx), jx = int(p / c.nx);
  out[p] = float(reduced_distribution(c.vg, f + (long long)k * c.nx + i, c.cells(), jx));
}

template <typename Kernel>
int block_size_for(Kernel kernel) {
  int min_grid = 0, block = 0;
  KS_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, 0, 0));
  return std::min(block, 256);
}

class CudaSolver final : public BgkSolver {
 public:
  ~CudaSolver() override {
    if (edge_stream_) cudaStreamDestroy(edge_stream_);
    if (walls_done_) cudaEventDestroy(walls_done_);
    if (edges_sent_) cudaEventDestroy(edges_sent_);
  }

  CudaSolver(const BgkConfig& c, int device) : device_(device) {
    KS_CUDA_CHECK(cudaSetDevice(device));
    const std::size_t phase = std::size_t(c.phase_cells());
    std::size_t free_bytes = 0, total = 0;
    KS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (2 * phase * sizeof(double) > free_bytes)
      throw bad_input(param_keys(&BgkParams::nx, &BgkParams::ny, &BgkParams::nv),
                      "the phase space needs " + std::to_string(2 * phase * sizeof(double) >> 20) + " MiB on the GPU and only " +
                          std::to_string(free_bytes >> 20) + " MiB are free",
                      "fewer physical or velocity cells");
    f_.upload(initial_distribution(c));
    next_.resize(phase);
    tile_table_bytes_ = allow_tile_shared_memory(device);
    configure(c);
    block_cells_ = block_size_for(fused_partial_moments_kernel);
    // The relaxation kernel's z tables fit the default 48 KiB of shared memory per block.
    block_relax_ = std::clamp(int(48 * 1024 / ez_table_bytes(1, c.vg)) / 32 * 32, 32, block_size_for(fused_relax_kernel));
  }

  void configure(const BgkConfig& c) override {
    c_ = c;
    const BoundaryData b = make_boundaries(c);
    b_ = b;
    left_.upload(b.left);
    right_.upload(b.right);
    bottom_.upload(b.bottom);
    top_.upload(b.top);
    relaxation_.resize(c.cells());
    if (c.kind == Case::Cavity) tile_parts_ = tile_parts(c, device_, tile_table_bytes_);
    partial_.resize(std::size_t(5) * c.vg.n[0] * tile_parts_.moments * c.cells());
    if (c.kind == Case::Cavity) {
      nw_left_.resize(c.ny);
      nw_right_.resize(c.ny);
      nw_bottom_.resize(c.nx);
      nw_top_.resize(c.nx);
    }
  }

  void set_variant(StepVariant v) override { variant_ = v; }

  int step(int steps, const Interrupt& stop) override {
    constexpr int kStepsInFlight = 8;  // with a Runner's stop, the host waits for the device this often
    const long long cells = c_.cells();
    int s = 0;
    for (; s < steps && !stop.requested(); ++s) {
      if (stop.armed() && s % kStepsInFlight == kStepsInFlight - 1) KS_CUDA_CHECK(cudaDeviceSynchronize());
      const StreamInputs in = inputs();
      if (c_.kind == Case::Cavity) launch_walls(in);
      if (variant_ == StepVariant::Fused && c_.kind == Case::Cavity) {
        step_cavity_rows(in, {0, c_.ny}, nullptr);
      } else if (variant_ == StepVariant::Fused) {
        const dim3 slices(ceil_div(cells, block_cells_), c_.vg.n[0]);
        fused_partial_moments_kernel<<<slices, block_cells_>>>(c_, in, partial_.ptr);
        KS_CUDA_CHECK_LAUNCH();
        relaxation_kernel<<<ceil_div(cells, 128), 128>>>(c_, partial_.ptr, c_.vg.n[0], 0, cells, relaxation_.ptr);
        KS_CUDA_CHECK_LAUNCH();
        fused_relax_kernel<<<dim3(ceil_div(cells, block_relax_), c_.vg.n[0]), block_relax_, ez_table_bytes(block_relax_, c_.vg)>>>(
            c_, in, relaxation_.ptr, next_.ptr);
        KS_CUDA_CHECK_LAUNCH();
      } else {
        const int nt = std::min(256, ceil_div(c_.nx, 32) * 32);
        paper_stream_kernel<<<dim3(c_.vg.count(), c_.ny), nt, 2 * (nt + 1) * sizeof(double)>>>(c_, in, next_.ptr);
        KS_CUDA_CHECK_LAUNCH();
        paper_collide_kernel<<<ceil_div(cells, block_cells_), block_cells_>>>(c_, next_.ptr);
        KS_CUDA_CHECK_LAUNCH();
      }
      f_.swap(next_);
    }
    KS_CUDA_CHECK(cudaDeviceSynchronize());
    return s;
  }

  std::vector<double> raw_moments(const Interrupt&) const override {
    raw_.resize(std::size_t(kRawMoments) * c_.cells());
    raw_moments_kernel<<<ceil_div(c_.cells(), 128), 128>>>(c_, f_.ptr, raw_.ptr);
    KS_CUDA_CHECK_LAUNCH();
    return raw_.to_host();
  }

  std::size_t write_display_field(int field, int component, int row, void* dst, std::size_t capacity) const override {
    if (field == kFieldPhaseSpace) {
      const long long points = (long long)c_.vg.n[0] * c_.nx;
      const std::size_t bytes = std::size_t(points) * sizeof(float);
      if (component > 0) return 0;
      if (!dst) return bytes;
      if (capacity < bytes) return 0;
      phase_space_kernel<<<ceil_div(points, 128), 128>>>(c_, f_.ptr, row, static_cast<float*>(dst));
      KS_CUDA_CHECK_LAUNCH();
      return bytes;
    }
    const std::size_t bytes = std::size_t(c_.cells()) * sizeof(float);
    if (field < 0 || field >= kCellFields || component >= CellState::components(field) || raw_.count == 0) return 0;
    if (!dst) return bytes;
    if (capacity < bytes) return 0;
    display_kernel<<<ceil_div(c_.cells(), 128), 128>>>(c_.cells(), raw_.ptr, field, component, static_cast<float*>(dst));
    KS_CUDA_CHECK_LAUNCH();
    return bytes;
  }

  std::vector<double> row(int k) const override {
    std::vector<double> out(std::size_t(c_.vg.count()) * c_.nx);
    const std::size_t row_bytes = std::size_t(c_.nx) * sizeof(double);
    KS_CUDA_CHECK(cudaMemcpy2D(out.data(), row_bytes, f_.ptr + std::size_t(k) * c_.nx, row_bytes * c_.ny, row_bytes, c_.vg.count(),
                               cudaMemcpyDeviceToHost));
    return out;
  }

  void read_f(std::vector<double>& f) const override { f = f_.to_host(); }
  void write_f(const std::vector<double>& f) override { f_.upload(f); }
  // Through page-locked staging: the DMA engine then copies the nv^3 strided rows in one transfer.
  std::vector<double> read_cells(long long first, long long count) const override {
    const std::size_t bytes = std::size_t(count) * sizeof(double), n = std::size_t(c_.vg.count()) * count;
    staging_.resize(std::max(staging_.count, n));
    KS_CUDA_CHECK(
        cudaMemcpy2D(staging_.ptr, bytes, f_.ptr + first, c_.cells() * sizeof(double), bytes, c_.vg.count(), cudaMemcpyDeviceToHost));
    return std::vector<double>(staging_.ptr, staging_.ptr + n);
  }
  void write_cells(long long first, long long count, const std::vector<double>& values) override {
    const std::size_t bytes = std::size_t(count) * sizeof(double);
    staging_.resize(std::max(staging_.count, values.size()));
    std::copy(values.begin(), values.end(), staging_.ptr);
    KS_CUDA_CHECK(
        cudaMemcpy2D(f_.ptr + first, c_.cells() * sizeof(double), staging_.ptr, bytes, bytes, c_.vg.count(), cudaMemcpyHostToDevice));
  }
  // Device to device where the ranks share a node (core/device_ring.hpp): no host copy of the halos.
  void exchange_halos(const HaloCells& h, const Communicator& comm) override { exchange(h, comm, f_.ptr, nullptr); }

  // The cavity's fused step on a strip of rows: each step's edge rows (those that read a halo row)
  // step first on a stream of their own and go to the neighbours' halos of the next f while the
  // interior steps; the halo rows themselves are not stepped (their values come from the
  // neighbours). Every owned cell gets the arithmetic of step(), so the ranks still agree with one
  // process bit for bit.
  void step_between_halos(int steps, const HaloCells& h, const Communicator& comm) override {
    if (c_.kind != Case::Cavity || variant_ != StepVariant::Fused || h.first % c_.nx || h.width % c_.nx) {
      BgkSolver::step_between_halos(steps, h, comm);
      return;
    }
    if (!edge_stream_) {
      int least = 0, greatest = 0;
      KS_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      KS_CUDA_CHECK(cudaStreamCreateWithPriority(&edge_stream_, cudaStreamNonBlocking, greatest));
      KS_CUDA_CHECK(cudaEventCreateWithFlags(&walls_done_, cudaEventDisableTiming));
      KS_CUDA_CHECK(cudaEventCreateWithFlags(&edges_sent_, cudaEventDisableTiming));
    }
    // Each edge launch takes whole tiles' rows (at least the halo's): a strip of a multiple of
    // kTileRows then launches as many tiles as one process does on its rows. A strip too thin for
    // an interior steps all its rows on the edge stream.
    const int first = int(h.first / c_.nx), owned = int(h.owned / c_.nx), width = int(h.width / c_.nx);
    const int edge = std::max(width, kTileRows);
    const int below = h.prev ? std::min(edge, owned) : 0, above = h.next ? std::min(edge, owned - below) : 0;
    const RowRange interior{first + below, first + owned - above};
    std::vector<RowRange> edges;
    if (below) edges.push_back({first, first + below});
    if (above) edges.push_back({interior.end, first + owned});
    exchange(h, comm, f_.ptr, nullptr);  // f as the last call or a write_f left it
    for (int n = 0; n < steps; ++n) {
      const StreamInputs in = inputs();
      launch_walls(in);
      KS_CUDA_CHECK(cudaEventRecord(walls_done_, nullptr));
      KS_CUDA_CHECK(cudaStreamWaitEvent(edge_stream_, walls_done_));
      for (const RowRange& e : edges) step_cavity_rows(in, e, edge_stream_);
      if (interior.count() > 0) step_cavity_rows(in, interior, nullptr);
      if (n + 1 < steps) exchange(h, comm, next_.ptr, edge_stream_);  // the next call starts with an exchange
      KS_CUDA_CHECK(cudaEventRecord(edges_sent_, edge_stream_));
      KS_CUDA_CHECK(cudaStreamWaitEvent(nullptr, edges_sent_));
      f_.swap(next_);
    }
    KS_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  // Eq. (24): the wall densities of the cavity's x walls (every row) and y walls, from f.
  void launch_walls(const StreamInputs& in) {
    wall_x_kernel<<<c_.ny, kWallThreads>>>(c_, in, b_.in_left, b_.in_right, nw_left_.ptr, nw_right_.ptr);
    KS_CUDA_CHECK_LAUNCH();
    wall_y_kernel<<<c_.nx, kWallThreads>>>(c_, in, b_.in_bottom, b_.in_top, nw_bottom_.ptr, nw_top_.ptr);
    KS_CUDA_CHECK_LAUNCH();
  }

  // The cavity's fused step (bgk_cavity_tiles.hpp) for the cells of `rows`, into next_.
  void step_cavity_rows(const StreamInputs& in, RowRange rows, cudaStream_t stream) {
    const long long first = (long long)rows.begin * c_.nx, count = (long long)rows.count() * c_.nx;
    if (c_.streaming == Streaming::Unsplit) {
      const dim3 grid(unsigned(ceil_div(count, 256)), c_.vg.n[0]);
      cavity_cell_moments_kernel<<<grid, 256, 0, stream>>>(c_, in, rows, partial_.ptr);
      KS_CUDA_CHECK_LAUNCH();
      relaxation_kernel<<<ceil_div(count, 128), 128, 0, stream>>>(c_, partial_.ptr, c_.vg.n[0], first, count, relaxation_.ptr);
      KS_CUDA_CHECK_LAUNCH();
      cavity_cell_relax_kernel<<<dim3(unsigned(ceil_div(count, block_relax_)), c_.vg.n[0]), block_relax_,
                                 ez_table_bytes(block_relax_, c_.vg), stream>>>(c_, in, rows, relaxation_.ptr, next_.ptr);
      KS_CUDA_CHECK_LAUNCH();
      return;
    }
    launch_tile_moments(c_, in, tile_parts_.moments, partial_.ptr, rows, stream);
    relaxation_kernel<<<ceil_div(count, 128), 128, 0, stream>>>(c_, partial_.ptr, c_.vg.n[0] * tile_parts_.moments, first, count,
                                                                relaxation_.ptr);
    KS_CUDA_CHECK_LAUNCH();
    launch_tile_relax(c_, in, tile_parts_.relax, relaxation_.ptr, next_.ptr, tile_table_bytes_, rows, stream);
  }

  // The halo exchange of `h` for the distribution at `f` (f_ or next_), after the work on `stream`.
  void exchange(const HaloCells& h, const Communicator& comm, double* f, cudaStream_t stream) {
    const std::size_t width = std::size_t(h.width) * sizeof(double), rows = std::size_t(c_.vg.count());
    if (!ring_) ring_ = std::make_unique<DeviceRing>(comm, device_, width * rows, h.prev, h.next);
    const auto cells = [&](long long first) { return DeviceRows{f + first, c_.cells() * sizeof(double), width, rows}; };
    ring_->exchange(cells(h.first), cells(h.first + h.owned - h.width), cells(h.first - h.width), cells(h.first + h.owned), stream);
  }

  StreamInputs inputs() {
    StreamInputs s;
    s.f = f_.ptr;
    s.ghost_left = left_.ptr;
    s.ghost_right = right_.ptr;
    if (c_.kind == Case::Cavity) {
      s.ghost_bottom = bottom_.ptr;
      s.ghost_top = top_.ptr;
      s.nw_left = nw_left_.ptr;
      s.nw_right = nw_right_.ptr;
      s.nw_bottom = nw_bottom_.ptr;
      s.nw_top = nw_top_.ptr;
    }
    return s;
  }

  BgkConfig c_;
  BoundaryData b_;
  StepVariant variant_ = StepVariant::Fused;
  int block_cells_ = 128, block_relax_ = 128;
  std::size_t tile_table_bytes_ = 0;  // the cavity tiles' z tables may take this much shared memory
  DeviceBuffer<double> f_, next_, left_, right_, bottom_, top_, nw_left_, nw_right_, nw_bottom_, nw_top_;
  DeviceBuffer<double> partial_;  // fused: moment sums per (v_x slice and tile part, cell)
  TileParts tile_parts_;          // the cavity: blocks a tile per v_x slice (bgk_cavity_tiles.hpp)
  DeviceBuffer<CellRelaxation> relaxation_;
  mutable DeviceBuffer<double> raw_;      // the sums of the last raw_moments(), which write_display_field shows
  mutable PinnedBuffer<double> staging_;  // read_cells / write_cells
  int device_;
  std::unique_ptr<DeviceRing> ring_;    // the halos across ranks, made at the first exchange
  cudaStream_t edge_stream_ = nullptr;  // step_between_halos: the edge rows and their exchange
  cudaEvent_t walls_done_ = nullptr, edges_sent_ = nullptr;
};

}  // namespace

std::unique_ptr<BgkSolver> make_cuda_solver(const BgkConfig& c, int device) { return std::make_unique<CudaSolver>(c, device); }

}  // namespace ks::bgk
