// kinetic.dvm, CUDA path: the paper's two kernels per z-slice (Algorithm 1). The sweep kernel
// (Algorithm 2) gives each lane discrete velocities of the batch and, beyond the paper, splits the
// slice's columns into strips swept by the warps of a block one row apart (a wavefront), so a batch
// of an octant fills the GPU; the moment kernel (Algorithm 3) runs one block per slice cell and
// reduces the batch's velocities in shared memory, beside the sweep of the next slice. f lives only
// in the two slices A and B, [cell * batch + v], stored as T (float by default, as in the paper), so
// a warp's 32 velocities touch 32 consecutive values.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <string>

#include "core/ceil_div.hpp"
#include "core/checked.hpp"
#include "core/cuda_check.hpp"
#include "core/cuda_shared_memory.hpp"
#include "core/display_value.hpp"
#include "core/errors.hpp"
#include "core/device_buffer.hpp"
#include "core/device_sum.hpp"
#include "dvm_fields.hpp"
#include "dvm_solver.hpp"
#include "dvm_sweep.hpp"
#include "dvm_params.hpp"

namespace ks::dvm {

namespace {

constexpr int kMomentThreads = 256;
constexpr int kMomentStages = 8;  // planes of f a thread of octant_moment_kernel has in flight
constexpr int kMaxStrips = 16;    // warps of a sweep block (their registers fit an SM at every strip width)

struct Sign {
  int s[3];
};

constexpr int kMaxStripWidth = 16;  // cells of a warp's strip: the widest automatic width and DvmMethod's `strip` limit

// One row of a warp's strip, staged in shared memory by the whole warp (coalesced loads) and then
// read by every lane as broadcasts: each cell's f^S state, upwind links (in the batch's direction),
// solid and interior flags and x size, in memory order (the strip's lowest i first). Interior: a gas
// cell whose three upwind neighbours are gas cells (most cells), swept without boundary cases.
struct StripRow {
  CellState state[kMaxStripWidth];
  int link[kMaxStripWidth][3];
  unsigned char solid[kMaxStripWidth];
  unsigned char interior[kMaxStripWidth];
  double inv_dx[kMaxStripWidth];
};

__device__ void stage_strip_row(const SweepView& g, long long cell0, int lo, int n, const int* up, StripRow& row, int lane) {
  const double* state = reinterpret_cast<const double*>(g.state + cell0);
  double* staged = reinterpret_cast<double*>(row.state);
  constexpr int kStateDoubles = sizeof(CellState) / sizeof(double);
  for (int e = lane; e < n * kStateDoubles; e += 32) staged[e] = state[e];
  for (int e = lane; e < n; e += 32) {
    bool interior = !g.solid[cell0 + e];
    for (int a = 0; a < 3; ++a) {
      row.link[e][a] = g.link[(cell0 + e) * 6 + up[a]];
      interior = interior && row.link[e][a] == kFluid;
    }
    row.solid[e] = g.solid[cell0 + e];
    row.interior[e] = interior;
    row.inv_dx[e] = g.inv_size[0][lo + e];
  }
}

// sweep_kernel's shared memory, all of it dynamic and sized by the launch's strips: the previous
// row's f ([column in sweep order][velocity]), the x-upwind hand-offs ([row % kHandoffRing][warp]
// [velocity]), each warp's staged row, with kXYHalf each warp's x-y factors of the row, and each
// warp's progress (the last row it finished). Byte offsets, 16-byte aligned. At 64^3 x 64^3 (fp32,
// 4 strips) a block takes 27 KB, against 52 KB when the hand-offs and rows were static arrays for
// kMaxStrips warps (0.585-0.594 s an iteration against 0.608 s).
struct SweepShared {
  std::size_t handoff, rows, xy, progress, bytes;
};

constexpr int kHandoffRing = 4;  // hand-off slots a warp pair cycles through: how far a warp may run ahead

template <class T, int V>
__host__ __device__ SweepShared sweep_shared(int nx, int strips, bool xy) {
  SweepShared s;
  s.handoff = std::size_t(nx) * 32 * V * sizeof(T);
  s.rows = s.handoff + std::size_t(kHandoffRing) * strips * 32 * V * sizeof(T);
  s.xy = s.rows + std::size_t(strips) * sizeof(StripRow);
  s.progress = s.xy + (xy ? std::size_t(strips) * kMaxStripWidth * V * sizeof(ShakhovXY) : 0);
  s.bytes = s.progress + std::size_t(strips) * sizeof(int);
  return s;
}

// The first velocity of a sweep block. General layout (kXYHalf 0): 32 V consecutive velocities.
// kXYHalf: in an octant of [ix][iy][iz] (kXYHalf points each), 32 consecutive iz of V consecutive iy
// rows of one ix; lane l's velocities are start + l + r kXYHalf.
template <int kXYHalf, int V>
__device__ long long block_start(long long block) {
  if constexpr (kXYHalf == 0) {
    return block * 32 * V;
  } else {
    constexpr int kZGroups = kXYHalf / 32, kPerIx = kXYHalf / V * kZGroups;
    const int rem = int(block % kPerIx);
    return block / kPerIx * kXYHalf * kXYHalf + (long long)(rem / kZGroups) * V * kXYHalf + 32 * (rem % kZGroups);
  }
}

// Asks L2 for the z-upwind values of a warp's strip in the next row (n cells from `at`, the first
// velocity of the warp's block): the 128-byte lines of each cell's V velocity groups of 32, one
// prefetch a lane, so the cell loop's loads of slice A find them in L2 rather than in DRAM.
template <class T, int V, int kStride>
__device__ void prefetch_next_row(const T* A, long long at, long long count, int n, int lane) {
  constexpr int kLines = 32 * sizeof(T) / 128;  // lines of one velocity group
  for (int e = lane; e < n * V * kLines; e += 32) {
    const int cell = e / (V * kLines), r = e / kLines % V, line = e % kLines;
    asm volatile("prefetch.global.L2 [%0];" ::"l"(A + at + cell * count + kStride * r + line * (128 / sizeof(T))));
  }
}

// Waits until the warp whose progress p points to has finished row `row` (p is in shared memory).
__device__ void wait_for_row(const volatile int* p, int row) {
  while (*p < row) {
  }
  __threadfence_block();
}

// Algorithm 2 with strips: warp w of a block owns columns [w W, w W + W) (in sweep order) of every
// row and starts a row when warp w - 1 has finished its part of it (a wavefront); the x-upwind value
// crosses the strip boundary through shared memory, in a ring of kHandoffRing slots, and each warp
// publishes the last row it finished (`progress`), so a warp waits only for its two neighbours and
// runs up to kHandoffRing rows ahead of the next one instead of meeting all warps at a block barrier
// every row (0.527 s against 0.537 s at 64^3 x 64^3, 0.242 s against 0.261 s at 64^3 x 32^3). The
// y-upwind values (the previous row) stay in shared memory, [column][lane], the z-upwind value comes
// from slice A. Each lane sweeps V velocities (v, v + 32, ...; with kXYHalf, v, v + kXYHalf, ...),
// so a cell's state, links and sizes, staged once a row (StripRow), serve V updates. Values are
// rounded to T before they are used upwind, as the CPU reads them back.
// kXYHalf (whole octants whose half-axis has kXYHalf = 32 or 64 points; block_start): a block's
// velocities share xi_x, a lane's V share xi_z and each velocity row r of the block shares xi_y, so
// f^S / tau is factored (shakhov_source): each lane evaluates one exp a cell for its xi_z, and the
// x-y factor of each (cell, r) of a row is evaluated once, by one lane, when the row is staged:
// 1 + 1/16 exp a lane and cell instead of V. 0: the general layout, f^S per velocity.
// At most 128 registers (a block of kMaxStrips warps fits an SM; two 8-warp blocks still do).
template <class T, int V, int kXYHalf>
__global__ void __launch_bounds__(32 * kMaxStrips, 1)
    sweep_kernel(SweepView g, WallTable walls, const Velocity* __restrict__ vel, long long count, Sign sign, int k, int W,
                 const T* __restrict__ A, T* __restrict__ B) {
  constexpr int kLanes = 32 * V;  // velocities of a block
  constexpr bool kXY = kXYHalf > 0;
  constexpr int kStride = kXY ? kXYHalf : 32;  // between a lane's velocities
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32, strips = blockDim.x / 32;
  const SweepShared at = sweep_shared<T, V>(g.nx, strips, kXY);
  T(*above)[kLanes] = reinterpret_cast<T(*)[kLanes]>(shared_bytes);
  T(*handoff)[kLanes] = reinterpret_cast<T(*)[kLanes]>(shared_bytes + at.handoff);       // [row % ring * strips + warp]
  volatile int* progress = reinterpret_cast<volatile int*>(shared_bytes + at.progress);  // each warp's last finished row
  StripRow* strip_rows = reinterpret_cast<StripRow*>(shared_bytes + at.rows);
  ShakhovXY(*row_xy)[kMaxStripWidth][V] = reinterpret_cast<ShakhovXY(*)[kMaxStripWidth][V]>(shared_bytes + at.xy);
  const long long v0 = block_start<kXYHalf, V>(blockIdx.x) + lane;
  const int nx = g.nx, ny = g.ny, sx = sign.s[0], sy = sign.s[1];
  const long long slice0 = (long long)k * nx * ny;
  Velocity u[V];
  bool active[V];
#pragma unroll
  for (int r = 0; r < V; ++r) {
    active[r] = v0 + kStride * r < count;
    u[r] = vel[active[r] ? v0 + kStride * r : 0];
  }
  const double inv_dz = g.inv_size[2][k];
  const int up[3] = {sx > 0 ? 0 : 1, sy > 0 ? 2 : 3, sign.s[2] > 0 ? 4 : 5};
  const int first = w * W, last = min(first + W, nx);
  const int lo = sx > 0 ? first : nx - last;  // the strip's lowest i
  StripRow& row = strip_rows[w];
  if (threadIdx.x < strips) progress[threadIdx.x] = -1;
  __syncthreads();
  for (int jj = 0; jj < ny; ++jj) {
    const int j = sy > 0 ? jj : ny - 1 - jj;
    const long long c0 = (long long)j * nx + lo;  // slice index of the strip's lowest cell
    stage_strip_row(g, slice0 + c0, lo, last - first, up, row, lane);
    if (jj + 1 < ny) prefetch_next_row<T, V, kStride>(A, (c0 + (sy > 0 ? nx : -nx)) * count + v0 - lane, count, last - first, lane);
    __syncwarp();
    if constexpr (kXY) {
      static_assert(V * kMaxStripWidth <= 32, "one lane per (cell, velocity row)");
      const int m = lane / V, r = lane % V;
      double y = u[0].y;  // xi_y of velocity row r (every lane's u[r].y)
#pragma unroll
      for (int q = 1; q < V; ++q)
        if (r == q) y = u[q].y;
      if (m < last - first) row_xy[w][m][r] = shakhov_xy(row.state[m], u[0].x, y);
      __syncwarp();
    }
    if (w > 0) wait_for_row(progress + w - 1, jj);                          // its hand-off of this row
    if (w + 1 < strips) wait_for_row(progress + w + 1, jj - kHandoffRing);  // done with this row's slot
    if (active[0]) {
      const double inv_dy = g.inv_size[1][j];
      T left[V], z[V];
#pragma unroll
      for (int r = 0; r < V; ++r) left[r] = w > 0 ? handoff[jj % kHandoffRing * strips + w - 1][lane + 32 * r] : T(0);
      // f of cell ii at [c * count + v]: a lane's pointers step by +-count along the row. The
      // z-upwind values of cell ii + 1 are loaded while cell ii is updated.
      const long long step = sx * count;
      const long long at0 = (c0 + (sx > 0 ? 0 : last - first - 1)) * count + v0;
      const T* a_at = A + at0;
      T* b_at = B + at0;
#pragma unroll
      for (int r = 0; r < V; ++r) z[r] = active[r] ? a_at[kStride * r] : T(0);
        // Unrolled, the next cells' f^S overlaps this cell's x-upwind chain: by 2, 0.608 s against
        // 0.635 s; by 4 (with the table exp's registers), 0.490-0.499 s against 0.497-0.504 s.
#pragma unroll 4
      for (int ii = first; ii < last; ++ii, a_at += step, b_at += step) {
        T z_cur[V];
#pragma unroll
        for (int r = 0; r < V; ++r) {
          z_cur[r] = z[r];
          if (ii + 1 < last && active[r]) z[r] = a_at[step + kStride * r];
        }
        const int m = sx > 0 ? ii - first : last - 1 - ii;
        const CellState st = row.state[m];
        const double inv_dx = row.inv_dx[m];
        double source[V], coef[V][3];
        if constexpr (kXY) {
          const double cz = u[0].z - st.U[2], ez = maxwellian_exp(-cz * cz * st.invT);
#pragma unroll
          for (int r = 0; r < V; ++r) source[r] = shakhov_source(st, row_xy[w][m][r], cz, ez);
        } else {
#pragma unroll
          for (int r = 0; r < V; ++r) source[r] = collision_source(st, u[r]);
        }
#pragma unroll
        for (int r = 0; r < V; ++r) {
          coef[r][0] = fabs(u[r].x) * inv_dx;
          coef[r][1] = fabs(u[r].y) * inv_dy;
          coef[r][2] = fabs(u[r].z) * inv_dz;
        }
        // One branch a cell, the same for the whole warp, and none inside it, so the V updates and
        // the unrolled cells interleave. An interior cell's y-upwind neighbour is in the row above.
        if (row.interior[m]) {
#pragma unroll
          for (int r = 0; r < V; ++r) {
            const Upwind pre = upwind_prepare_fluid(st, source[r], coef[r], double(above[ii][lane + 32 * r]), double(z_cur[r]));
            left[r] = T(upwind_finish(pre, double(left[r])));
          }
        } else {
          const int* link = row.link[m];
#pragma unroll
          for (int r = 0; r < V; ++r) {
            const double up_y = jj > 0 ? double(above[ii][lane + 32 * r]) : 0.0;
            const Upwind pre = upwind_prepare(st, source[r], u[r], link, coef[r], up_y, double(z_cur[r]), walls, g.face_type, g.face_rho);
            left[r] = row.solid[m] ? T(0) : T(upwind_finish(pre, double(left[r])));
          }
        }
#pragma unroll
        for (int r = 0; r < V; ++r) {
          above[ii][lane + 32 * r] = left[r];
          if (active[r]) b_at[kStride * r] = left[r];
        }
      }
      if (w + 1 < strips)
#pragma unroll
        for (int r = 0; r < V; ++r) handoff[jj % kHandoffRing * strips + w][lane + 32 * r] = left[r];
    }
    __syncwarp();
    if (lane == 0) {
      __threadfence_block();
      progress[w] = jj;
    }
  }
}

// Velocities per lane: 2 was faster than 1 and 4 at 64^3 x 64^3 on the H100 (1.16-1.25 s against
// 1.27-1.40 s and 1.21-1.81 s over strips of 8 and 16); the shared rows take 64 KB at nx = 256 in fp64.
constexpr int kVelocitiesPerLane = 2;

// The strip width W: the widest strips (the shortest pipeline fill: warp w starts a slice w rows after
// warp 0, so a slice lasts ny + strips - 1 row times) that still give the GPU 7/8 of the threads
// (lanes x strips) it holds at once; 0 when 16-cell strips need more than kMaxStrips warps. At 64^3 x
// 64^3 on the H100, 16-cell strips reach 97 % and take 0.73 s an iteration against 0.82 s with 8-cell
// strips (the full-occupancy rule).
// max_strips: the most warps whose shared memory fits a block on this device (kMaxStrips on Hopper).
int auto_strip_width(int nx, long long lanes, long long resident_threads, int max_strips = kMaxStrips) {
  int best = 0;
  for (int W : {kMaxStripWidth, 8, 4}) {
    const int strips = ceil_div(nx, W);
    if (strips > max_strips) break;
    best = W;
    if (8 * lanes * strips >= 7 * resident_threads) break;
  }
  return best;
}

// Zero-copy views (DvmSolver::write_display_field): the float the view shows of one field of a
// cell's values (cell_values, as the host's cell_fields).
__device__ float display_float(const CellValues& d, int field, int component) {
  return float(display_value(d.values(field), CellValues::components(field), component));
}

// Uniform grids: each cell as computed.
__global__ void display_kernel(long long cells, const double* raw, const unsigned char* solid, int field, int component, double scale,
                               float* out) {
  const long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (k < cells) out[k] = display_float(cell_values(raw + k * kRaw, solid[k], scale), field, component);
}

// Stretched grids: the fields interpolated trilinearly to the centres of the uniform display grid,
// with sample()'s brackets, corners and order of additions (grid_field on the host).
__global__ void resampled_display_kernel(int nx, int ny, int nz, const AxisBracket* brackets, const double* raw, const unsigned char* solid,
                                         int field, int component, double scale, float* out) {
  const long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (k >= (long long)nx * ny * nz) return;
  const int n[3] = {nx, ny, nz};
  const int ijk[3] = {int(k % nx), int((k / nx) % ny), int(k / ((long long)nx * ny))};
  const AxisBracket b[3] = {brackets[ijk[0]], brackets[nx + ijk[1]], brackets[nx + ny + ijk[2]]};
  CellValues sum;
  for_each_corner(b, n, [&](double w, long long cell) {
    const CellValues d = cell_values(raw + cell * kRaw, solid[cell], scale);
    for (int q = 0; q < CellValues::kCount; ++q) sum.v[q] += w * d.v[q];
  });
  out[k] = display_float(sum, field, component);
}

// The block's sums of its threads' acc (kMomentThreads threads), added by thread 0 to the cell's raw
// sums and wall-face fluxes (accumulate_batch).
__device__ void finish_cell_moments(const double* acc, const int* link, const Sign& sign, double* raw, double* face_influx) {
  // Warp shuffles, then one value per warp through shared memory.
  __shared__ double warp_sum[kMomentThreads / 32][kRaw];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int m = 0; m < kRaw; ++m) {
    double x = acc[m];
    for (int o = 16; o > 0; o /= 2) x += __shfl_down_sync(0xffffffffu, x, o);
    if (lane == 0) warp_sum[warp][m] = x;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    double p[kRaw] = {};
    for (int w = 0; w < kMomentThreads / 32; ++w)
      for (int m = 0; m < kRaw; ++m) p[m] += warp_sum[w][m];
    accumulate_batch(p, link, sign.s, raw, face_influx);
  }
}

// Algorithm 3 for any batch: one block per slice cell, threads over the batch's velocities.
template <class T>
__global__ void moment_kernel(const Velocity* vel, long long count, Sign sign, int k, long long slice, const unsigned char* solid,
                              const int* link, const T* B, double* raw, double* face_influx) {
  const long long c = blockIdx.x;
  const long long cell = k * slice + c;
  if (solid[cell]) return;
  double acc[kRaw] = {};
  for (long long v = threadIdx.x; v < count; v += blockDim.x) {
    const Velocity u = vel[v];
    add_raw(acc, u.w * double(B[c * count + v]), u.x, u.y, u.z);
  }
  finish_cell_moments(acc, link + cell * 6, sign, raw + cell * kRaw, face_influx);
}

// Device view of an OctantAxis: values and weights by octant-local index, for the negative [0] and
// positive [1] half.
struct OctantAxisView {
  const double* xi[2];
  const double* w[2];
};

// Algorithm 3 for a batch that is a whole octant (the default), with the velocity grid's tensor
// structure. f is [ix][iy iz] in the table's order; a thread owns groups of P consecutive (iy, iz)
// pairs and sums over ix only w_x f times 1, xi_x, xi_x^2, xi_x^3, with the per-ix factors read by
// the whole block from shared memory at one address (a broadcast); the 13 raw sums follow from those
// four and each pair's xi_y, xi_z, w_y w_z. Only f is read per velocity, P values (16 bytes when
// P > 1) a load: the general kernel's 32-byte Velocity per value held L1 at 97 % of its throughput
// and DRAM at 22 % (Nsight Compute, 64^3 x 64^3), and one float a load left DRAM at 32 %. The
// loads are asynchronous copies kMomentStages planes ahead: 8 planes (64 KB an SM in flight) took
// 0.513-0.522 s an iteration at 64^3 x 64^3 against 0.530-0.537 s with four loads in registers
// (DRAM at 75 %), and 16 planes 0.527-0.536 s.
template <class T, int P>
__global__ void __launch_bounds__(kMomentThreads, P > 1 ? 2 : 3)
    octant_moment_kernel(OctantAxisView ax, int h, Sign sign, int k, long long slice, const unsigned char* solid, const int* link,
                         const T* B, double* raw, double* face_influx) {
  struct alignas(sizeof(T) * P) Pack {
    T v[P];
  };
  extern __shared__ double x_factors[];                      // [ix][4]: w_x, w_x xi_x, w_x xi_x^2, w_x xi_x^3; then `stage`
  Pack* stage = reinterpret_cast<Pack*>(x_factors + 4 * h);  // [kMomentStages][thread]: a thread's f in flight
  const long long c = blockIdx.x;
  const long long cell = k * slice + c;
  if (solid[cell]) return;  // the whole block
  const int sx = sign.s[0] > 0, sy = sign.s[1] > 0, sz = sign.s[2] > 0;
  for (int i = threadIdx.x; i < h; i += blockDim.x) {
    const double x = ax.xi[sx][i], w = ax.w[sx][i];
    x_factors[4 * i] = w;
    x_factors[4 * i + 1] = w * x;
    x_factors[4 * i + 2] = w * x * x;
    x_factors[4 * i + 3] = w * x * x * x;
  }
  __syncthreads();
  const int pairs = h * h;
  const T* f = B + c * (long long)pairs * h;
  double acc[kRaw] = {};
  for (int p0 = P * threadIdx.x; p0 < pairs; p0 += P * blockDim.x) {
    double a[P][4] = {};
    // Each thread copies its own f asynchronously kMomentStages planes ahead into its shared slots
    // (one commit group a plane, empty ones past the end), so that many bytes are in flight
    // without registers; it reads back only what it copied itself. (cp.async from sm_80; code built
    // for Turing gets the same calls as plain copies with no-op waits.)
    Pack* own = stage + threadIdx.x;
    for (int q = 0; q < kMomentStages; ++q) {
      if (q < h) __pipeline_memcpy_async(own + q * blockDim.x, f + q * pairs + p0, sizeof(Pack));
      __pipeline_commit();
    }
    for (int ix = 0; ix < h; ++ix) {
      __pipeline_wait_prior(kMomentStages - 1);
      Pack* slot = own + ix % kMomentStages * blockDim.x;
      const Pack fv = *slot;
      if (ix + kMomentStages < h) __pipeline_memcpy_async(slot, f + (ix + kMomentStages) * pairs + p0, sizeof(Pack));
      __pipeline_commit();
#pragma unroll
      for (int j = 0; j < P; ++j)
        for (int e = 0; e < 4; ++e) a[j][e] += x_factors[4 * ix + e] * double(fv.v[j]);
    }
#pragma unroll
    for (int j = 0; j < P; ++j) {
      // sum w f x^e y^b z^c = W y^b z^c a[e]; Q_a = sum xi_a |xi|^2 w f with |xi|^2 = x^2 + r2.
      const int iy = (p0 + j) / h, iz = (p0 + j) % h;
      const double y = ax.xi[sy][iy], z = ax.xi[sz][iz], W = ax.w[sy][iy] * ax.w[sz][iz];
      const double r2 = y * y + z * z;
      const double* e = a[j];
      acc[kS0] += W * e[0];
      acc[kSx] += W * e[1];
      acc[kSy] += W * y * e[0];
      acc[kSz] += W * z * e[0];
      acc[kSxx] += W * e[2];
      acc[kSyy] += W * y * y * e[0];
      acc[kSzz] += W * z * z * e[0];
      acc[kSxy] += W * y * e[1];
      acc[kSxz] += W * z * e[1];
      acc[kSyz] += W * y * z * e[0];
      acc[kQx] += W * (e[3] + r2 * e[1]);
      acc[kQy] += W * y * (e[2] + r2 * e[0]);
      acc[kQz] += W * z * (e[2] + r2 * e[0]);
    }
  }
  finish_cell_moments(acc, link + cell * 6, sign, raw + cell * kRaw, face_influx);
}

// Pairs a thread of octant_moment_kernel loads at once: 16 bytes when the octant's pairs split
// into such groups for every thread of the block (h a multiple of the group), else one.
template <class T>
constexpr int kPackedPairs = 16 / sizeof(T);
inline bool packed_pairs_fit(int h, int group) { return h % group == 0 && h * h / group >= kMomentThreads; }

// octant_moment_kernel's dynamic shared memory: the x factors and the threads' staged f.
template <class T>
std::size_t octant_moment_shared(int h) {
  const std::size_t pack = packed_pairs_fit(h, kPackedPairs<T>) ? 16 : sizeof(T);
  return 4 * h * sizeof(double) + std::size_t(kMomentStages) * kMomentThreads * pack;
}

// Bad input when a row of nx cells cannot be swept within a block's shared memory here: `fit`
// strips fit, the row needs ceil(nx / strip) of them (the widest strips, or the `strip` asked for).
void check_sweep_fits(const DvmConfig& c, int fit, std::size_t limit, const char* device_name) {
  const int needed = ceil_div(c.n(0), c.strip ? c.strip : kMaxStripWidth);
  if (needed <= fit) return;
  const std::string where =
      std::string(" on this GPU (") + device_name + ", " + std::to_string(limit / 1024) + " KiB of shared memory a block)";
  if (c.strip && fit > 0 && ceil_div(c.n(0), kMaxStripWidth) <= fit)
    throw bad_input(param_key(&DvmParams::strip),
                    "strips of " + std::to_string(c.strip) + " cells need " + std::to_string(needed) + " warps a sweep block and only " +
                        std::to_string(fit) + " fit" + where,
                    "a strip of at least " + std::to_string(ceil_div(c.n(0), fit)) + " cells, or 0");
  throw bad_input(param_key(&DvmParams::nx),
                  "a row of " + std::to_string(c.n(0)) + " cells does not fit the sweep's shared memory" + where +
                      (c.single ? "" : "; single precision halves it"),
                  "a smaller nx on this GPU");
}

// T: the stored precision of f (DvmConfig::single).
template <class T>
class CudaSolver final : public DvmSolver {
  static constexpr int kV = kVelocitiesPerLane;

 public:
  CudaSolver(const DvmConfig& c, std::shared_ptr<const Geometry> g, int device) : cfg_(c), geo_(std::move(g)), device_(device) {
    // Before the kernels' shared memory is sized from nx: a wider row is bad input, not a CUDA error.
    if (auto_strip_width(c.n(0), 1, 0) == 0)
      throw bad_input(param_key(&DvmParams::nx),
                      "the CUDA sweep splits a row of " + std::to_string(c.n(0)) + " cells over at most " + std::to_string(kMaxStrips) +
                          " warps of " + std::to_string(kMaxStripWidth) + " cells",
                      "nx <= " + std::to_string(kMaxStripWidth * kMaxStrips) + " on the CUDA backend");
    if (c.strip && ceil_div(c.n(0), c.strip) > kMaxStrips)
      throw bad_input(param_key(&DvmParams::strip),
                      "strips of " + std::to_string(c.strip) + " cells split a row of " + std::to_string(c.n(0)) +
                          " cells over more than " + std::to_string(kMaxStrips) + " warps",
                      "a strip of at least " + std::to_string(ceil_div(c.n(0), kMaxStrips)) + " cells, or 0");
    // Launch grids: a block per slice cell (the moment kernels), per 256 cells (the display).
    moment_blocks_ = unsigned(checked_narrow<int>(c.slice_cells(), "nx * ny cells of a slice (CUDA blocks)"));
    display_blocks_ = unsigned(checked_narrow<int>(ceil_div(c.cells(), 256), "nx * ny * nz / 256 (CUDA blocks of the display)"));
    KS_CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp prop;
    KS_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    const std::array<double, 64> exp2 = exp2_table();
    KS_CUDA_CHECK(cudaMemcpyToSymbol(kExp2Table, exp2.data(), sizeof(kExp2Table)));
    const int half = c.vg.m / 2;
    for (int xy_half : {0, 32, 64}) {
      cudaFuncAttributes attr;
      KS_CUDA_CHECK(cudaFuncGetAttributes(&attr, sweep(xy_half)));
      resident_threads_[xy_half / 32] = (long long)prop.multiProcessorCount *
                                        std::min(prop.maxThreadsPerMultiProcessor, prop.regsPerMultiprocessor / std::max(attr.numRegs, 1));
      // The most strips whose shared rows fit a block here: fewer on GPUs before Hopper at large nx.
      const std::size_t limit = max_dynamic_shared_memory(sweep(xy_half), device);
      int& fit = max_strips_[xy_half / 32];
      for (fit = kMaxStrips; fit > 0 && sweep_shared<T, kV>(c.n(0), fit, xy_half > 0).bytes > limit;) --fit;
      if (xy_half == 0 || xy_half == half) check_sweep_fits(c, fit, limit, prop.name);
      if (fit > 0)
        KS_CUDA_CHECK(cudaFuncSetAttribute(sweep(xy_half), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           int(sweep_shared<T, kV>(c.n(0), fit, xy_half > 0).bytes)));
    }
    batches_ = rank_batches(c);
    for (auto kernel : {octant_moment_kernel<T, kPackedPairs<T>>, octant_moment_kernel<T, 1>})
      KS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(octant_moment_shared<T>(c.vg.m / 2))));
    vel_.upload(velocity_table(c.vg));
    const OctantAxis axis = octant_axis(c.vg);
    axis_xi_.upload(axis.xi);
    axis_w_.upload(axis.w);
    for (int a = 0; a < 3; ++a) inv_size_[a].upload(geo_->inv_size[a]);
    solid_.upload(geo_->solid);
    link_.upload(geo_->link);
    face_type_.upload(geo_->face_type);
    face_rho_.resize(geo_->faces.size());
    face_influx_.resize(geo_->faces.size());
    state_.resize(c.cells());
    raw_.resize(c.cells() * kRaw);
    A_.resize(c.slice_cells() * c.batch_size());
    B_.resize(c.slice_cells() * c.batch_size());
    if (!uniform_grid(c)) {  // the display resamples; x, y, z brackets back to back
      std::vector<AxisBracket> b;
      for (int a = 0; a < 3; ++a) {
        const std::vector<AxisBracket> axis = display_brackets(c, a);
        b.insert(b.end(), axis.begin(), axis.end());
      }
      brackets_.upload(b);
    }
    // Last, after the allocations that may fail (so a throw leaks none): blocking streams, so their work
    // follows the uploads the default stream makes in sweep() and the copies back wait for it.
    KS_CUDA_CHECK(cudaStreamCreate(&sweeps_));
    KS_CUDA_CHECK(cudaStreamCreate(&moments_));
    for (cudaEvent_t* e : {&swept_, &moments_done_[0], &moments_done_[1]})
      KS_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
  }

  ~CudaSolver() override {
    cudaSetDevice(device_);
    cudaStreamSynchronize(sweeps_);
    cudaStreamSynchronize(moments_);
    for (cudaEvent_t e : {swept_, moments_done_[0], moments_done_[1]}) cudaEventDestroy(e);
    cudaStreamDestroy(sweeps_);
    cudaStreamDestroy(moments_);
  }

  bool sweep(const SweepInput& in, SweepOutput& out, const Interrupt& stop) override {
    state_.upload(*in.state);
    face_rho_.upload(*in.face_rho);
    KS_CUDA_CHECK(cudaMemsetAsync(raw_.ptr, 0, raw_.count * sizeof(double), moments_));
    if (face_influx_.count) KS_CUDA_CHECK(cudaMemsetAsync(face_influx_.ptr, 0, face_influx_.count * sizeof(double), moments_));
    const int nx = cfg_.n(0), ny = cfg_.n(1), nz = cfg_.n(2);
    const long long slice = cfg_.slice_cells();
    const SweepView view{
        nx, ny, {inv_size_[0].ptr, inv_size_[1].ptr, inv_size_[2].ptr}, solid_.ptr, link_.ptr, face_type_.ptr, face_rho_.ptr, state_.ptr};
    const int half = cfg_.vg.m / 2;
    const OctantAxisView axis{{axis_xi_.ptr, axis_xi_.ptr + half}, {axis_w_.ptr, axis_w_.ptr + half}};
    const auto octant_moments =
        packed_pairs_fit(half, kPackedPairs<T>) ? octant_moment_kernel<T, kPackedPairs<T>> : octant_moment_kernel<T, 1>;
    long long n = 0;  // slices swept so far
    for (std::size_t batch = 0; batch < batches_.size(); ++batch) {
      // With a Runner's stop the host waits for each batch, so that a request is seen within one.
      if (stop.armed()) KS_CUDA_CHECK(cudaDeviceSynchronize());
      if (stop.requested()) return false;
      stop.report("velocity batch " + std::to_string(batch + 1) + " of " + std::to_string(batches_.size()),
                  double(batch) / double(batches_.size()));
      const Batch& b = batches_[batch];
      const Sign sign{{b.sign[0], b.sign[1], b.sign[2]}};
      const Velocity* vel = vel_.ptr + b.begin;
      const int xy_half = b.count == cfg_.octant() && (half == 32 || half == 64) ? half : 0;  // sweep_kernel's kXYHalf
      const int W =
          cfg_.strip ? cfg_.strip : auto_strip_width(nx, ceil_div(b.count, kV), resident_threads_[xy_half / 32], max_strips_[xy_half / 32]);
      const int strips = ceil_div(nx, W);
      const unsigned blocks = unsigned(ceil_div(b.count, 32 * kV));
      for (int kk = 0; kk < nz; ++kk) {
        const int k = b.sign[2] > 0 ? kk : nz - 1 - kk;
        // The moments of a slice run on moments_ beside the sweep of the next one on sweeps_ (the sweep
        // holds 128 of the H200's 132 SMs; the moments take the rest and the sweep's tail), and the
        // sweep after that, which overwrites the slice, waits for them. One H200, against one stream:
        // 0.439 s an iteration at 64^3 x 64^3 against 0.450-0.454, 64^3 x 32^3 0.218-0.229 against 0.240.
        if (n >= 2) KS_CUDA_CHECK(cudaStreamWaitEvent(sweeps_, moments_done_[n % 2], 0));
        sweep(xy_half)<<<blocks, 32 * strips, sweep_shared<T, kV>(nx, strips, xy_half > 0).bytes, sweeps_>>>(view, in.walls, vel, b.count,
                                                                                                             sign, k, W, A_.ptr, B_.ptr);
        KS_CUDA_CHECK(cudaEventRecord(swept_, sweeps_));
        KS_CUDA_CHECK(cudaStreamWaitEvent(moments_, swept_, 0));
        if (b.count == cfg_.octant())
          octant_moments<<<moment_blocks_, kMomentThreads, octant_moment_shared<T>(half), moments_>>>(
              axis, half, sign, k, slice, solid_.ptr, link_.ptr, B_.ptr, raw_.ptr, face_influx_.ptr);
        else
          moment_kernel<<<moment_blocks_, kMomentThreads, 0, moments_>>>(vel, b.count, sign, k, slice, solid_.ptr, link_.ptr, B_.ptr,
                                                                         raw_.ptr, face_influx_.ptr);
        KS_CUDA_CHECK(cudaGetLastError());
        KS_CUDA_CHECK(cudaEventRecord(moments_done_[n % 2], moments_));
        ++n;
        A_.swap(B_);
      }
    }
    KS_CUDA_CHECK(cudaStreamSynchronize(moments_));
    // Across ranks the sums go device to device where the GPUs reach each other; the display sums
    // (raw_) are then the whole iterate's too.
    if (across_ranks(in)) {
      if (!rank_sum_) rank_sum_ = std::make_unique<DeviceSum>(*in.ranks, device_, raw_.count + face_influx_.count);
      if (rank_sum_->direct()) rank_sum_->sum({{raw_.ptr, raw_.count}, {face_influx_.ptr, face_influx_.count}}, nullptr);
    }
    out.raw = raw_.to_host();
    out.face_influx = face_influx_.to_host();
    if (across_ranks(in) && !rank_sum_->direct()) {
      sum_on_host(out, *in.ranks);
      raw_.upload(out.raw);
    }
    return true;
  }

  void set_display_sums(const std::vector<double>& raw) override { raw_.upload(raw); }

  std::size_t write_display_field(int field, int component, double scale, void* dst, std::size_t capacity) const override {
    const long long cells = cfg_.cells();
    const std::size_t bytes = std::size_t(cells) * sizeof(float);
    if (field < 0 || field >= kCellFields || component >= CellValues::components(field)) return 0;
    if (!dst) return bytes;
    if (capacity < bytes) return 0;
    float* out = static_cast<float*>(dst);
    if (brackets_.count)
      resampled_display_kernel<<<display_blocks_, 256>>>(cfg_.n(0), cfg_.n(1), cfg_.n(2), brackets_.ptr, raw_.ptr, solid_.ptr, field,
                                                         component, scale, out);
    else display_kernel<<<display_blocks_, 256>>>(cells, raw_.ptr, solid_.ptr, field, component, scale, out);
    KS_CUDA_CHECK(cudaGetLastError());
    return bytes;
  }

  static auto sweep(int xy_half) {
    return xy_half == 64 ? sweep_kernel<T, kV, 64> : xy_half == 32 ? sweep_kernel<T, kV, 32> : sweep_kernel<T, kV, 0>;
  }

  std::size_t bytes() const override {
    std::size_t b = (A_.count + B_.count) * sizeof(T) + (raw_.count + face_rho_.count + face_influx_.count) * sizeof(double);
    b += state_.count * sizeof(CellState) + vel_.count * sizeof(Velocity) + solid_.count + link_.count * sizeof(int) +
         face_type_.count * sizeof(int) + (axis_xi_.count + axis_w_.count) * sizeof(double);
    for (const auto& s : inv_size_) b += s.count * sizeof(double);
    return b;
  }

 private:
  DvmConfig cfg_;
  std::shared_ptr<const Geometry> geo_;
  long long resident_threads_[3] = {};               // threads the device holds at once, by sweep(xy_half) (xy_half / 32)
  int max_strips_[3] = {};                           // warps a sweep block may have in this device's shared memory, likewise
  unsigned moment_blocks_ = 0, display_blocks_ = 0;  // launch grids (checked in the constructor)
  std::vector<Batch> batches_;
  DeviceBuffer<Velocity> vel_;
  DeviceBuffer<double> axis_xi_, axis_w_;  // octant_axis(): [negative half | positive half]
  DeviceBuffer<double> inv_size_[3];
  DeviceBuffer<unsigned char> solid_;
  DeviceBuffer<int> link_, face_type_;
  DeviceBuffer<double> face_rho_, face_influx_, raw_;
  DeviceBuffer<CellState> state_;
  DeviceBuffer<T> A_, B_;               // f of the batch on slices k - sz and k
  DeviceBuffer<AxisBracket> brackets_;  // stretched grids: display_brackets of x, y, z; empty when uniform
  int device_;
  cudaStream_t sweeps_ = nullptr, moments_ = nullptr;  // a slice's moments beside the next slice's sweep
  cudaEvent_t swept_ = nullptr, moments_done_[2] = {nullptr, nullptr};
  std::unique_ptr<DeviceSum> rank_sum_;  // across ranks: the sums of raw_ and face_influx_, made at the first sweep
};

}  // namespace

std::unique_ptr<DvmSolver> make_cuda_solver(const DvmConfig& c, std::shared_ptr<const Geometry> g, int device) {
  if (c.single) return std::make_unique<CudaSolver<float>>(c, std::move(g), device);
  return std::make_unique<CudaSolver<double>>(c, std::move(g), device);
}

}  // namespace ks::dvm
