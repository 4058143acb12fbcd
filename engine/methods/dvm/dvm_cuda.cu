// kinetic.dvm, CUDA path: the paper's two kernels per z-slice (Algorithm 1). The sweep kernel
// (Algorithm 2) runs one thread per discrete velocity of the batch through the cells of the slice
// in upwind order; the moment kernel (Algorithm 3) runs one block per slice cell and reduces the
// batch's velocities in shared memory. f lives only in the two slices A and B, [cell * batch + v],
// so a warp's 32 velocities touch 32 consecutive doubles.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "core/cuda_check.hpp"
#include "core/errors.hpp"
#include "core/device_buffer.hpp"
#include "dvm_solver.hpp"
#include "dvm_sweep.hpp"

namespace ks::dvm {

namespace {

constexpr int kSweepThreads = 128;
constexpr int kMomentThreads = 256;
constexpr std::size_t kMaxRowBytes = 48 * 1024;  // default dynamic shared memory per block

struct Sign {
  int s[3];
};

// Per-row data every thread of a block needs, staged in shared memory once per row (the paper's
// densL[], vxL[] ...): the cells' f^S parameters, their upwind links and solid flags.
struct RowCell {
  CellState state;
  int link[3];  // upwind side along x, y, z for this batch's direction
  int solid;
};

// Algorithm 2: each thread sweeps the slice row by row for its velocity. f of the x-upwind cell stays
// in a register; the y- and z-upwind values of the next kChunk cells are loaded before this chunk's
// stores, so their latency overlaps the arithmetic.
constexpr int kChunk = 4;

__global__ void sweep_kernel(SweepView g, WallTable walls, const Velocity* __restrict__ vel, long long count, Sign sign, int k,
                             const double* __restrict__ A, double* __restrict__ B) {
  extern __shared__ RowCell row[];
  const long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const bool active = v < count;
  const Velocity u = vel[active ? v : 0];
  const Ghosts gh = ghosts_for(walls, u);
  const int nx = g.nx, ny = g.ny, sx = sign.s[0], sy = sign.s[1];
  const long long slice = (long long)nx * ny;
  const double cx = fabs(u.x), cy = fabs(u.y), cz = fabs(u.z) / g.size[2][k];
  const int up[3] = {sx > 0 ? 0 : 1, sy > 0 ? 2 : 3, sign.s[2] > 0 ? 4 : 5};
  for (int jj = 0; jj < ny; ++jj) {
    const int j = sy > 0 ? jj : ny - 1 - jj;
    __syncthreads();
    for (int i = threadIdx.x; i < nx; i += blockDim.x) {
      const long long cell = k * slice + (long long)j * nx + i;
      row[i].state = g.state[cell];
      for (int a = 0; a < 3; ++a) row[i].link[a] = g.link[cell * 6 + up[a]];
      row[i].solid = g.solid[cell];
    }
    __syncthreads();
    if (!active) continue;
    const double ay = cy / g.size[1][j];
    const bool has_y = j - sy >= 0 && j - sy < ny;  // else the y-upwind value is a boundary's
    const long long row0 = (long long)j * nx;
    // Slice index of the ii-th cell of the row in sweep order.
    auto at = [&](int ii) { return row0 + (sx > 0 ? ii : nx - 1 - ii); };
    double a_buf[kChunk], b_buf[kChunk];
    auto load = [&](int ii0, double* a, double* b) {
#pragma unroll
      for (int q = 0; q < kChunk; ++q) {
        const long long c = at(min(ii0 + q, nx - 1));
        a[q] = A[c * count + v];
        b[q] = has_y ? B[(c - (long long)sy * nx) * count + v] : 0.0;
      }
    };
    load(0, a_buf, b_buf);
    double f_prev = 0.0;
    for (int ii0 = 0; ii0 < nx; ii0 += kChunk) {
      double a_next[kChunk], b_next[kChunk];
      if (ii0 + kChunk < nx) load(ii0 + kChunk, a_next, b_next);
#pragma unroll
      for (int q = 0; q < kChunk; ++q) {
        if (ii0 + q >= nx) break;
        const long long c = at(ii0 + q);
        const int i = int(c - row0);
        const RowCell& rc = row[i];
        const double coef[3] = {cx / g.size[0][i], ay, cz}, fluid[3] = {f_prev, b_buf[q], a_buf[q]};
        const double f = rc.solid ? 0.0 : upwind_solve(rc.state, u, rc.link, coef, fluid, gh, g.face_type, g.face_rho);
        B[c * count + v] = f;
        f_prev = f;
      }
#pragma unroll
      for (int q = 0; q < kChunk; ++q) a_buf[q] = a_next[q], b_buf[q] = b_next[q];
    }
  }
}

__global__ void moment_kernel(const Velocity* vel, long long count, Sign sign, int k, long long slice, const unsigned char* solid,
                              const int* link, const double* B, double* raw, double* face_influx) {
  const long long c = blockIdx.x;
  const long long cell = k * slice + c;
  if (solid[cell]) return;
  double acc[kRaw] = {};
  for (long long v = threadIdx.x; v < count; v += blockDim.x) {
    const Velocity u = vel[v];
    add_raw(acc, u.w * B[c * count + v], u.x, u.y, u.z);
  }
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
    accumulate_batch(p, link + cell * 6, sign.s, raw + cell * kRaw, face_influx);
  }
}

class CudaSolver final : public DvmSolver {
 public:
  CudaSolver(const DvmConfig& c, std::shared_ptr<const Geometry> g, int device) : cfg_(c), geo_(std::move(g)) {
    KS_CUDA_CHECK(cudaSetDevice(device));
    if (c.n(0) * sizeof(RowCell) > kMaxRowBytes)
      throw bad_input("nx", "the CUDA sweep stages a row of " + std::to_string(c.n(0)) + " cells in shared memory",
                      "nx <= " + std::to_string(kMaxRowBytes / sizeof(RowCell)) + " on the CUDA backend");
    batches_ = make_batches(c);
    vel_.upload(velocity_table(c.vg));
    for (int a = 0; a < 3; ++a) size_[a].upload(geo_->size[a]);
    solid_.upload(geo_->solid);
    link_.upload(geo_->link);
    face_type_.upload(geo_->face_type);
    face_rho_.resize(geo_->faces.size());
    face_influx_.resize(geo_->faces.size());
    state_.resize(c.cells());
    raw_.resize(c.cells() * kRaw);
    A_.resize(c.slice_cells() * c.batch_size());
    B_.resize(c.slice_cells() * c.batch_size());
  }

  void sweep(const SweepInput& in, SweepOutput& out) override {
    state_.upload(*in.state);
    face_rho_.upload(*in.face_rho);
    KS_CUDA_CHECK(cudaMemset(raw_.ptr, 0, raw_.count * sizeof(double)));
    if (face_influx_.count) KS_CUDA_CHECK(cudaMemset(face_influx_.ptr, 0, face_influx_.count * sizeof(double)));
    const int nx = cfg_.n(0), ny = cfg_.n(1), nz = cfg_.n(2);
    const long long slice = cfg_.slice_cells();
    const SweepView view{nx, ny, {size_[0].ptr, size_[1].ptr, size_[2].ptr}, solid_.ptr, link_.ptr, face_type_.ptr,
                         face_rho_.ptr, state_.ptr};
    for (const Batch& b : batches_) {
      const Sign sign{{b.sign[0], b.sign[1], b.sign[2]}};
      const Velocity* vel = vel_.ptr + b.begin;
      const unsigned blocks = unsigned((b.count + kSweepThreads - 1) / kSweepThreads);
      for (int kk = 0; kk < nz; ++kk) {
        const int k = b.sign[2] > 0 ? kk : nz - 1 - kk;
        sweep_kernel<<<blocks, kSweepThreads, nx * sizeof(RowCell)>>>(view, in.walls, vel, b.count, sign, k, A_.ptr, B_.ptr);
        KS_CUDA_CHECK(cudaGetLastError());
        moment_kernel<<<unsigned(slice), kMomentThreads>>>(vel, b.count, sign, k, slice, solid_.ptr, link_.ptr, B_.ptr, raw_.ptr,
                                                          face_influx_.ptr);
        KS_CUDA_CHECK(cudaGetLastError());
        A_.swap(B_);
      }
    }
    out.raw = raw_.to_host();
    out.face_influx = face_influx_.to_host();
  }

  std::size_t bytes() const override {
    std::size_t b = (A_.count + B_.count + raw_.count + face_rho_.count + face_influx_.count) * sizeof(double);
    b += state_.count * sizeof(CellState) + vel_.count * sizeof(Velocity) + solid_.count + link_.count * sizeof(int) +
         face_type_.count * sizeof(int);
    for (const auto& s : size_) b += s.count * sizeof(double);
    return b;
  }

 private:
  DvmConfig cfg_;
  std::shared_ptr<const Geometry> geo_;
  std::vector<Batch> batches_;
  DeviceBuffer<Velocity> vel_;
  DeviceBuffer<double> size_[3];
  DeviceBuffer<unsigned char> solid_;
  DeviceBuffer<int> link_, face_type_;
  DeviceBuffer<double> face_rho_, face_influx_, raw_;
  DeviceBuffer<CellState> state_;
  DeviceBuffer<double> A_, B_;  // f of the batch on slices k - sz and k
};

}  // namespace

std::unique_ptr<DvmSolver> make_cuda_solver(const DvmConfig& c, std::shared_ptr<const Geometry> g, int device) {
  return std::make_unique<CudaSolver>(c, std::move(g), device);
}

}  // namespace ks::dvm
