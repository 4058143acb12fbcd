// kinetic.bgk on the GPU: the cavity's fused step (section 5) over 2D tiles of cells.
#include "bgk_cavity_tiles.hpp"

#include <algorithm>

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include "core/ceil_div.hpp"
#include "core/checked.hpp"
#include "core/cuda_check.hpp"
#include "core/cuda_shared_memory.hpp"

namespace ks::bgk {

namespace {

// A block owns kTileX x (kTileY kRows) cells of one v_x slice and walks the slice's velocities; a
// thread takes kRows cells of a column, kTileY rows apart. Each velocity's tile with its upwind column
// and row (walls: the ghost values) is copied to shared memory with cp.async kStages - 1 velocities
// ahead, so the loads in flight do not hold registers (the per-thread kernels of bgk_cuda.cu are
// latency-bound on the cavity). Stage row r, column u hold cell (i0 - left + u, k0 - below + r), where
// left = C_x >= 0 (fixed by the block's v_x) and below = C_y >= 0 (by the velocity's v_y).
constexpr int kTileX = 32, kTileY = 8, kTileThreads = kTileX * kTileY, kStages = 4;
constexpr int kStageWidth = kTileX + 1;

template <int kRows>
struct TileShape {
  static constexpr int rows = kTileY * kRows;
  static constexpr int values = kStageWidth * (rows + 1);       // a stage's values
  static constexpr int slots = ceil_div(values, kTileThreads);  // stage values a thread fills
  static constexpr int row_stride = kTileY * kStageWidth;       // between a thread's cells
};

// Where a stage value comes from: f at cell offset `at`, the x wall of row `at`, the y wall of column
// `at`, or nowhere (beyond the grid's corner, or no value for this thread).
enum class Source : int { Copy, XWall, YWall, None };
struct StageSlot {
  Source source = Source::None;
  int at = 0;
};

// A thread's cells and its fixed share of the stage copies, for both signs of C_y ([below]).
template <int kRows>
struct TileThread {
  int k;           // the first cell's row
  int valid_rows;  // the thread's cells inside the grid: the first valid_rows
  long long cell;  // the first cell, k * nx + i; the others kTileY nx further each
  StageSlot slot[2][TileShape<kRows>::slots];
  int here[2], x_up[2], y_up[2], y_up_x_up[2];  // the first cell's, x-upwind, y-upwind and their x-upwind stage indices
};

// Tiles start at row rows.begin; a thread's cells past rows.end are not its (the stage still reads
// the grid's rows there: a strip's halo, bgk_strip.hpp).
template <int kRows>
__device__ TileThread<kRows> tile_thread(const BgkConfig& c, RowRange rows, bool left) {
  using Shape = TileShape<kRows>;
  const int tiles_x = ceil_div(c.nx, kTileX);
  const int i0 = int(blockIdx.x % tiles_x) * kTileX, k0 = rows.begin + int(blockIdx.x / tiles_x) * Shape::rows;
  const int tx = threadIdx.x % kTileX, ty = threadIdx.x / kTileX;
  TileThread<kRows> t;
  t.k = k0 + ty;
  t.valid_rows = i0 + tx < c.nx ? max(0, min(kRows, ceil_div(rows.end - t.k, kTileY))) : 0;
  t.cell = t.valid_rows ? (long long)t.k * c.nx + i0 + tx : 0;
  for (int below = 0; below < 2; ++below) {
    for (int q = 0; q < Shape::slots; ++q) {
      const int u = threadIdx.x + q * kTileThreads;
      StageSlot& sl = t.slot[below][q];
      if (u >= Shape::values) continue;
      const int i = i0 - left + u % kStageWidth, k = k0 - below + u / kStageWidth;
      const bool in_x = i >= 0 && i < c.nx, in_y = k >= 0 && k < c.ny;
      if (in_x && in_y) sl = {Source::Copy, k * c.nx + i};
      else if (in_y) sl = {Source::XWall, k};
      else if (in_x) sl = {Source::YWall, i};
    }
    const int row = ty + below, row_up = below ? ty : ty + 1;
    const int col = tx + left, col_up = left ? tx : tx + 1;
    t.here[below] = row * kStageWidth + col;
    t.x_up[below] = row * kStageWidth + col_up;
    t.y_up[below] = row_up * kStageWidth + col;
    t.y_up_x_up[below] = row_up * kStageWidth + col_up;
  }
  return t;
}

// Starts the copies of velocity j's stage (C_y's sign `below`).
template <int kRows>
__device__ __forceinline__ void issue_stage(const BgkConfig& c, const StreamInputs& s, const TileThread<kRows>& t, int j, bool left,
                                            bool below, double* stage) {
  const double* fj = s.f + (long long)j * c.cells();
#pragma unroll
  for (int q = 0; q < TileShape<kRows>::slots; ++q) {
    const StageSlot sl = below ? t.slot[1][q] : t.slot[0][q];
    double* dst = stage + threadIdx.x + q * kTileThreads;
    if (sl.source == Source::Copy) __pipeline_memcpy_async(dst, fj + sl.at, sizeof(double));
    else if (sl.source == Source::XWall)
      *dst = left ? s.ghost_left[j] * wall_factor(s.nw_left, sl.at) : s.ghost_right[j] * wall_factor(s.nw_right, sl.at);
    else if (sl.source == Source::YWall)
      *dst = below ? s.ghost_bottom[j] * wall_factor(s.nw_bottom, sl.at) : s.ghost_top[j] * wall_factor(s.nw_top, sl.at);
  }
}

// swept_x within a stage row: at |C_x| = 1 swept_x shifts by one cell with a zero fraction, which
// gives the upwind value exactly.
__device__ __forceinline__ double swept_in_stage(double here, double x_up, double aCx) {
  return aCx < 1.0 ? upwind(here, x_up, aCx) : x_up;
}

// `streamed` for the thread's cell `r` (0 .. kRows - 1) from a stage, with the same arithmetic.
template <int kRows>
__device__ __forceinline__ double streamed_from_stage(const BgkConfig& c, const TileThread<kRows>& t, int r, double aCx, double Cy,
                                                      const double* stage) {
  const bool b = Cy >= 0.0;  // selects, not indexing, keep t in registers
  const double* st = stage + r * TileShape<kRows>::row_stride;
  const double here = st[b ? t.here[1] : t.here[0]];
  const double fx = swept_in_stage(here, st[b ? t.x_up[1] : t.x_up[0]], aCx);
  const double up_here = st[b ? t.y_up[1] : t.y_up[0]];
  if (c.streaming == Streaming::Unsplit) return add_y_upwind(fx, up_here, here, fabs(Cy));
  const int k = t.k + r * kTileY, k_up = b ? k - 1 : k + 1;
  const double up = (k_up < 0 || k_up >= c.ny) ? up_here : swept_in_stage(up_here, st[b ? t.y_up_x_up[1] : t.y_up_x_up[0]], aCx);
  return add_y_upwind(fx, up, fx, fabs(Cy));
}

// Walks velocities [v_begin, v_end) of slice jx (whole v_y rows) through the stage pipeline: body(j, jy,
// jz, C_y, stage) once per velocity, in every thread of the block (the body skips cells outside the
// grid). cy: courant_y per jy. From sm_80 the copies are cp.async, kStages - 1 velocities in flight; code
// built for Turing (sm_75) gets the same calls as plain loads and stores with no-op waits: the same
// stages and values, without the overlap.
template <int kRows, typename Body>
__device__ __forceinline__ void for_each_staged_velocity(const BgkConfig& c, const StreamInputs& s, const TileThread<kRows>& t, int jx,
                                                         int v_begin, int v_end, const double* cy,
                                                         double (*stages)[TileShape<kRows>::values], Body body) {
  const int nz = c.vg.n[2], j0 = jx * c.vg.n[1] * nz;
  const bool left = courant_x(c, jx) >= 0.0;
  int ahead_y = v_begin / nz, ahead_z = 0;  // (jy, jz) of the next velocity to copy (v_begin starts a v_y row)
  const auto issue = [&](int v) {
    issue_stage(c, s, t, j0 + v, left, cy[ahead_y] >= 0.0, stages[(v - v_begin) % kStages]);
    if (++ahead_z == nz) ahead_z = 0, ++ahead_y;
  };
  for (int v = v_begin; v < v_begin + kStages - 1; ++v) {
    if (v < v_end) issue(v);
    __pipeline_commit();
  }
  int jy = v_begin / nz, jz = 0;
  for (int v = v_begin; v < v_end; ++v) {
    __pipeline_wait_prior(kStages - 2);  // velocity v's copies have landed
    __syncthreads();                     // ... for every thread; the stage before v's is free again
    if (v + kStages - 1 < v_end) issue(v + kStages - 1);
    __pipeline_commit();
    body(j0 + v, jy, jz, cy[jy], stages[(v - v_begin) % kStages]);
    if (++jz == nz) jz = 0, ++jy;
  }
}

// The block's slice jx and its velocities: with kParts, v_y rows [part ny / parts, (part + 1) ny /
// parts) of it (blockIdx.y = jx * parts + part); else all of slice blockIdx.y.
struct SlicePart {
  int jx, v_begin, v_end;
};
template <bool kParts>
__device__ __forceinline__ SlicePart slice_part(const BgkConfig& c, int parts) {
  const int ny = c.vg.n[1], nz = c.vg.n[2];
  if constexpr (!kParts) return {int(blockIdx.y), 0, ny * nz};
  const int jx = int(blockIdx.y) / parts, part = int(blockIdx.y) % parts;
  return {jx, part * ny / parts * nz, (part + 1) * ny / parts * nz};
}

// The block's table of courant_y per v_y index.
__device__ void fill_courant_y(const BgkConfig& c, double* cy) {
  for (int jy = threadIdx.x; jy < c.vg.n[1]; jy += blockDim.x) cy[jy] = courant_y(c, jy);
  __syncthreads();
}

// The moments of eq. (8) summed over v_z first (three operations a value), each v_y row then folded
// into the cell's sums: s0 += F0, s1 += (v_x F0, v_y F0, Fz), s2 += (v_x^2 + v_y^2) F0 + Fzz. Two cells
// a thread share the pipeline's per-velocity work.
constexpr int kMomentRows = 2;
static_assert(TileShape<kMomentRows>::rows == kTileRows && kTileRows % TileShape<1>::rows == 0);

template <bool kParts>
__global__ void __launch_bounds__(kTileThreads)
    tile_partial_moments_kernel(BgkConfig c, StreamInputs s, int parts, RowRange rows, double* partial) {
  __shared__ double stages[kStages][TileShape<kMomentRows>::values];
  __shared__ double cy[kMaxAxisVelocities], vz[kMaxAxisVelocities];
  for (int jz = threadIdx.x; jz < c.vg.n[2]; jz += blockDim.x) vz[jz] = c.vg.v(2, jz);
  fill_courant_y(c, cy);
  const SlicePart sp = slice_part<kParts>(c, parts);
  const int jx = sp.jx, nz = c.vg.n[2];
  const double Cx = courant_x(c, jx), aCx = fabs(Cx), vx = c.vg.v(0, jx);
  const auto t = tile_thread<kMomentRows>(c, rows, Cx >= 0.0);
  MomentSums m[kMomentRows];
  double F0[kMomentRows] = {}, Fz[kMomentRows] = {}, Fzz[kMomentRows] = {};  // the current v_y row's sums over v_z
  for_each_staged_velocity(c, s, t, jx, sp.v_begin, sp.v_end, cy, stages, [&](int, int jy, int jz, double Cy, const double* stage) {
#pragma unroll
    for (int r = 0; r < kMomentRows; ++r) {
      if (r >= t.valid_rows) break;
      const double f = streamed_from_stage(c, t, r, aCx, Cy, stage), fz = vz[jz] * f;
      F0[r] += f;
      Fz[r] += fz;
      Fzz[r] += vz[jz] * fz;
    }
    if (jz < nz - 1) return;
    const double vy = c.vg.v(1, jy);
#pragma unroll
    for (int r = 0; r < kMomentRows; ++r) {
      m[r].s0 += F0[r];
      m[r].s1[0] += vx * F0[r];
      m[r].s1[1] += vy * F0[r];
      m[r].s1[2] += Fz[r];
      m[r].s2 += (vx * vx + vy * vy) * F0[r] + Fzz[r];
      F0[r] = Fz[r] = Fzz[r] = 0.0;
    }
  });
  const long long cells = c.cells();
#pragma unroll
  for (int r = 0; r < kMomentRows; ++r) {
    if (r >= t.valid_rows) break;
    double* out = partial + blockIdx.y * 5 * cells + t.cell + (long long)r * kTileY * c.nx;
    out[0] = m[r].s0;
    out[cells] = m[r].s1[0];
    out[2 * cells] = m[r].s1[1];
    out[3 * cells] = m[r].s1[2];
    out[4 * cells] = m[r].s2;
  }
}

// kEzTable: each thread's z factors in a shared-memory table (ez_table_bytes), computed once per
// cell; without it (a GPU whose blocks cannot hold the table, e.g. Turing at nv > 28) they are
// computed again for every velocity, with the same values.
template <bool kEzTable, bool kParts>
__global__ void __launch_bounds__(kTileThreads)
    tile_relax_kernel(BgkConfig c, StreamInputs s, int parts, RowRange rows, const CellRelaxation* relaxation, double* next) {
  __shared__ double stages[kStages][TileShape<1>::values];
  __shared__ double cy[kMaxAxisVelocities];
  extern __shared__ double ez_table[];  // [jz * kTileThreads + thread]
  fill_courant_y(c, cy);
  const SlicePart sp = slice_part<kParts>(c, parts);
  const int jx = sp.jx;
  const double Cx = courant_x(c, jx), aCx = fabs(Cx);
  const auto t = tile_thread<1>(c, rows, Cx >= 0.0);
  const CellRelaxation r = relaxation[t.cell];
  double* ez = ez_table + threadIdx.x;
  if constexpr (kEzTable)
    for (int jz = 0; jz < c.vg.n[2]; ++jz) ez[jz * kTileThreads] = gauss(c.vg.v(2, jz), r.phi.V[2], r.phi.T);
  // Phi = (ex * ey) * ez as in bgk_cuda.cu (and the CPU).
  const double ex = maxwellian_prefactor(r.phi) * gauss(c.vg.v(0, jx), r.phi.V[0], r.phi.T);
  const long long cells = c.cells();
  double exy = 0.0;
  for_each_staged_velocity(c, s, t, jx, sp.v_begin, sp.v_end, cy, stages, [&](int j, int jy, int jz, double Cy, const double* stage) {
    if (jz == 0) exy = ex * gauss(c.vg.v(1, jy), r.phi.V[1], r.phi.T);
    const double ez_j = kEzTable ? ez[jz * kTileThreads] : gauss(c.vg.v(2, jz), r.phi.V[2], r.phi.T);
    if (t.valid_rows) next[j * cells + t.cell] = relax(streamed_from_stage(c, t, 0, aCx, Cy, stage), exy * ez_j, r.decay);
  });
}

// Blocks of a tile launch: the tiles of kTileX x tile_rows cells over `rows` of the grid (a grid's x
// dimension is an int).
int tile_count(const BgkConfig& c, int tile_rows, RowRange rows) {
  return checked_narrow<int>(checked_mul(ceil_div(c.nx, kTileX), ceil_div(rows.count(), tile_rows), "nx * ny cells in tiles"),
                             "nx * ny cells in tiles");
}

// The relaxation kernel's shared memory beyond the stages: the z-factor tables.
std::size_t ez_table_bytes(int nz) { return std::size_t(kTileThreads) * nz * sizeof(double); }

}  // namespace

std::size_t allow_tile_shared_memory(int device) {
  const std::size_t table = std::min(ez_table_bytes(kMaxAxisVelocities), max_dynamic_shared_memory(tile_relax_kernel<true, false>, device));
  for (const auto kernel : {tile_relax_kernel<true, false>, tile_relax_kernel<true, true>})
    KS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(table)));
  return table;
}

namespace {

// The parts (up to kMaxTileParts, at least two v_y rows each) whose launch leaves the least of its last
// wave idle, where that is at least 10 points less than without parts: `blocks` a part, `resident`
// blocks on the GPU at once. Measured on an H100 (docs/optimisation/bgk.md): N_r = 320's moment
// kernel, 2.5 waves, in 3 parts and N_r = 160's relaxation in 4 are faster; splits that save less
// of a wave (N_r = 640: 2 parts each) cost more than they save.
int parts_for(long long blocks, long long resident, int ny) {
  const auto idle = [&](int parts) {
    const long long n = blocks * parts, slots = ceil_div(n, resident) * resident;
    return double(slots - n) / double(slots);
  };
  int best = 1;
  for (int parts = 2; parts <= std::min(kMaxTileParts, ny / 2); ++parts)
    if (idle(parts) < idle(best) && idle(parts) <= idle(1) - 0.10) best = parts;
  return best;
}

long long resident_blocks(const void* kernel, std::size_t dynamic_bytes, int device) {
  int per_sm = 0, sms = 0;
  KS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kTileThreads, dynamic_bytes));
  KS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return std::max(1LL, (long long)per_sm * sms);
}

}  // namespace

TileParts tile_parts(const BgkConfig& c, int device, std::size_t table_bytes) {
  const long long slices = c.vg.n[0];
  TileParts p;
  const RowRange all{0, c.whole_ny ? c.whole_ny : c.ny};  // the same parts on every rank as in one process
  p.moments = parts_for(slices * tile_count(c, TileShape<kMomentRows>::rows, all),
                        resident_blocks(reinterpret_cast<const void*>(tile_partial_moments_kernel<true>), 0, device), c.vg.n[1]);
  const std::size_t bytes = ez_table_bytes(c.vg.n[2]);
  const bool table = bytes <= table_bytes;
  const void* relax =
      table ? reinterpret_cast<const void*>(tile_relax_kernel<true, true>) : reinterpret_cast<const void*>(tile_relax_kernel<false, true>);
  p.relax = parts_for(slices * tile_count(c, TileShape<1>::rows, all), resident_blocks(relax, table ? bytes : 0, device), c.vg.n[1]);
  return p;
}

void launch_tile_moments(const BgkConfig& c, const StreamInputs& s, int parts, double* partial, RowRange rows, CUstream_st* stream) {
  const dim3 grid(tile_count(c, TileShape<kMomentRows>::rows, rows), c.vg.n[0] * parts);
  if (parts > 1) tile_partial_moments_kernel<true><<<grid, kTileThreads, 0, stream>>>(c, s, parts, rows, partial);
  else tile_partial_moments_kernel<false><<<grid, kTileThreads, 0, stream>>>(c, s, parts, rows, partial);
  KS_CUDA_CHECK_LAUNCH();
}

void launch_tile_relax(const BgkConfig& c, const StreamInputs& s, int parts, const CellRelaxation* relaxation, double* next,
                       std::size_t table_bytes, RowRange rows, CUstream_st* stream) {
  const dim3 grid(tile_count(c, TileShape<1>::rows, rows), c.vg.n[0] * parts);
  const std::size_t bytes = ez_table_bytes(c.vg.n[2]);
  const bool table = bytes <= table_bytes, split = parts > 1;
  if (table && split) tile_relax_kernel<true, true><<<grid, kTileThreads, bytes, stream>>>(c, s, parts, rows, relaxation, next);
  else if (table) tile_relax_kernel<true, false><<<grid, kTileThreads, bytes, stream>>>(c, s, parts, rows, relaxation, next);
  else if (split) tile_relax_kernel<false, true><<<grid, kTileThreads, 0, stream>>>(c, s, parts, rows, relaxation, next);
  else tile_relax_kernel<false, false><<<grid, kTileThreads, 0, stream>>>(c, s, parts, rows, relaxation, next);
  KS_CUDA_CHECK_LAUNCH();
}

}  // namespace ks::bgk
