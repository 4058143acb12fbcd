// kinetic.dvm, CUDA path: the paper's two kernels per z-slice (Algorithm 1). The sweep kernel
// (Algorithm 2) runs one thread per discrete velocity of the batch through the cells of the slice
// in upwind order; the moment kernel (Algorithm 3) runs one block per slice cell and reduces the
// batch's velocities in shared memory. f lives only in the two slices A and B, [cell * batch + v],
// so a warp's 32 velocities touch 32 consecutive doubles.
#include <cuda_runtime.h>

#include <algorithm>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "dvm_solver.hpp"
#include "dvm_sweep.hpp"

namespace ks::dvm {

namespace {

constexpr int kSweepThreads = 128;
constexpr int kMomentThreads = 256;

struct Sign {
  int s[3];
};

__global__ void sweep_kernel(SweepView g, WallTable walls, const Velocity* vel, long long count, Sign sign, int k,
                             const double* A, double* B) {
  const long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (v >= count) return;
  const Velocity u = vel[v];
  const Ghosts gh = ghosts_for(walls, u);
  const long long slice = (long long)g.nx * g.ny;
  const unsigned char* solid = g.solid + k * slice;
  for (long long n = 0; n < slice; ++n) {
    int i, j;
    sweep_cell(int(n), g.nx, g.ny, sign.s, i, j);
    const long long c = (long long)j * g.nx + i;
    B[c * count + v] = solid[c] ? 0.0 : update_cell(g, gh, u, sign.s, i, j, k, A + v, B + v, count);
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
    const SweepView view{nx, ny, nz, {size_[0].ptr, size_[1].ptr, size_[2].ptr}, solid_.ptr, link_.ptr, face_type_.ptr,
                         face_rho_.ptr, state_.ptr};
    for (const Batch& b : batches_) {
      const Sign sign{{b.sign[0], b.sign[1], b.sign[2]}};
      const Velocity* vel = vel_.ptr + b.begin;
      const unsigned blocks = unsigned((b.count + kSweepThreads - 1) / kSweepThreads);
      for (int kk = 0; kk < nz; ++kk) {
        const int k = b.sign[2] > 0 ? kk : nz - 1 - kk;
        sweep_kernel<<<blocks, kSweepThreads>>>(view, in.walls, vel, b.count, sign, k, A_.ptr, B_.ptr);
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
