// lbm.binary on the GPU: the paper's three kernels (section 4), launched in sequence each step:
//  - collide_stream_kernel: a pair of lanes per node, one per species, sharing their moments (the
//    collision couples the species through the mixture velocity); structure of arrays, both species
//    in one array and one launch (the "hybrid grid" of Fig. 5); collision (eq. 2, 6, 8, 9) fused with
//    push streaming; wall nodes send back what they received (full-way bounce-back).
//  - bounce_back_kernel: eq. (14) over the wall links (interpolated scheme only).
//  - boundary_kernel: pressure inlet and outlet (Zou-He for D3Q27), one thread per node of a plane.
// Bytes per node and step in collide_stream: 2 species x 27 x (read + write) x sizeof(Real) =
// 432 (FP32) or 864 (FP64); the node type byte is not counted.
#include <cuda_runtime.h>

#include <algorithm>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "lbm_model.hpp"
#include "lbm_solver.hpp"

namespace ks::lbm {

namespace {

// Over the list of nodes that take part (fluid nodes, then wall nodes; interior solid nodes are not
// launched, so a warp's lanes are not idled by the solid half of a packed bed). Two adjacent
// lanes per node, lane parity = species: each holds only its own 27 populations, which halves the
// registers per thread and doubles the warps that hide memory latency; the pair swaps density and
// momentum with two-lane shuffles for the mixture part of the collision.
template <class Real>
__global__ void __launch_bounds__(256) collide_stream_kernel(LbmConfig c, CollisionParams<Real> p, const Real* __restrict__ f,
                                                             Real* __restrict__ next, const std::uint8_t* __restrict__ type,
                                                             const std::uint32_t* __restrict__ active, std::uint32_t count) {
  const long long lane = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (lane >= 2LL * count) return;  // both lanes of a pair leave together (same node) here and below
  const long long N = c.nodes();
  const std::uint32_t k = active[lane >> 1];
  const int s = int(lane & 1);
  const std::uint32_t nx = c.nx, ny = c.ny;
  const int x = int(k % nx), y = int(k / nx % ny), z = int(k / (nx * ny));
  const Real* fs = f + s * kQ * N;
  Real* ns = next + s * kQ * N;
  if (type[k] == kWall) {
    for (int i = 0; i < kQ; ++i) {
      const long long src = neighbour(c, x, y, z, opposite(i));
      if (type[src] == kFluid) ns[opposite(i) * N + src] = fs[i * N + k];
    }
    return;
  }
  Real fl[kQ];
#pragma unroll
  for (int i = 0; i < kQ; ++i) fl[i] = fs[i * N + k];
  const SpeciesMoments<Real> mine = species_moments(fl);
  const unsigned pair = 3u << (threadIdx.x & 30u);
  SpeciesMoments<Real> other;
  other.rho = __shfl_xor_sync(pair, mine.rho, 1);
#pragma unroll
  for (int a = 0; a < 3; ++a) other.j[a] = __shfl_xor_sync(pair, mine.j[a], 1);
  const MixtureRelaxation<Real> r = s == 0 ? mixture_relaxation(mine, other, p) : mixture_relaxation(other, mine, p);
  relax_species(fl, mine, r, s == 0 ? p.theta[0] : p.theta[1], s == 0 ? p.lattice_species[0] : p.lattice_species[1]);
#pragma unroll
  for (int i = 0; i < kQ; ++i) ns[i * N + neighbour(c, x, y, z, i)] = fl[i];
}

template <class Real>
__global__ void bounce_back_kernel(const WallLink* __restrict__ links, long long count, long long N, Real* next) {
  const long long l = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (l >= count) return;
  const WallLink L = links[l];
  for (int s = 0; s < kSpecies; ++s) {
    const Real* fi = next + (s * kQ + L.dir) * N;
    Real* fb = next + (s * kQ + opposite(L.dir)) * N;
    fb[L.fluid] = L.ff >= 0 ? yu_bounce_back(Real(L.delta), fi[L.fluid], fi[L.solid], fb[L.ff]) : fi[L.solid];
  }
}

template <class Real>
struct PlaneDensities {
  Real rho[kSpecies], theta[kSpecies];
  bool lattice_species[kSpecies];
};

template <class Real>
__global__ void boundary_kernel(LbmConfig c, PlaneDensities<Real> d, int z, int side, Real* next, const std::uint8_t* __restrict__ type) {
  const long long plane = (long long)c.nx * c.ny, N = c.nodes();
  const long long xy = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (xy >= plane) return;
  const long long k = z * plane + xy;
  if (type[k] != kFluid) return;
  for (int s = 0; s < kSpecies; ++s) {
    Real f[kQ];
    for (int i = 0; i < kQ; ++i) f[i] = next[(s * kQ + i) * N + k];
    pressure_boundary(f, d.rho[s], d.theta[s], d.lattice_species[s], side);
    for (int i = 0; i < kQ; ++i)
      if (cz(i) == side) next[(s * kQ + i) * N + k] = f[i];
  }
}

template <class Real>
__global__ void moments_kernel(LbmConfig c, const Real* __restrict__ f, const std::uint8_t* __restrict__ type, double* out) {
  const long long N = c.nodes();
  const long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (k >= N) return;
  const bool fluid = type[k] == kFluid;
  for (int s = 0; s < kSpecies; ++s) {
    Real fl[kQ];
    for (int i = 0; i < kQ; ++i) fl[i] = f[(s * kQ + i) * N + k];
    const SpeciesMoments<Real> m = species_moments(fl);
    out[(kRhoO2 + s) * N + k] = fluid ? double(m.rho) : 0.0;
    for (int a = 0; a < 3; ++a) out[(kJO2x + 3 * s + a) * N + k] = fluid ? double(m.j[a]) : 0.0;
  }
}

constexpr int kReduceThreads = 256;

// Sum over fluid nodes of |J_O2|^2 + |J_N2|^2 (eq. 20), block sums added atomically.
template <class Real>
__global__ void momentum_square_kernel(LbmConfig c, const Real* __restrict__ f, const std::uint8_t* __restrict__ type, double* sum) {
  __shared__ double part[kReduceThreads];
  const long long N = c.nodes();
  double acc = 0.0;
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < N; k += (long long)gridDim.x * blockDim.x) {
    if (type[k] != kFluid) continue;
    for (int s = 0; s < kSpecies; ++s) {
      Real fl[kQ];
      for (int i = 0; i < kQ; ++i) fl[i] = f[(s * kQ + i) * N + k];
      const SpeciesMoments<Real> m = species_moments(fl);
      for (int a = 0; a < 3; ++a) acc += double(m.j[a]) * double(m.j[a]);
    }
  }
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int half = kReduceThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) part[threadIdx.x] += part[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, part[0]);
}

int blocks_for(long long n, int block) { return int((n + block - 1) / block); }

template <typename Kernel>
int block_size_for(Kernel kernel) {
  int min_grid = 0, block = 0;
  KS_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, 0, 0));
  return std::min(block, 256);
}

template <class Real>
class CudaSolver final : public LbmSolver {
 public:
  CudaSolver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g, int device) : g_(std::move(g)) {
    KS_CUDA_CHECK(cudaSetDevice(device));
    const std::size_t pops = std::size_t(kSpecies) * kQ * c.nodes();
    std::size_t free_bytes = 0, total = 0;
    KS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (c.nodes() > (1LL << 32) - 1)
      throw bad_input("nx, ny, nz", std::to_string(c.nodes()) + " nodes", "at most 2^32 - 1 nodes on the GPU (32-bit node indices)");
    const std::size_t need = 2 * pops * sizeof(Real) + g_->links.size() * sizeof(WallLink) + g_->type.size() * (1 + sizeof(std::uint32_t));
    if (need > free_bytes)
      throw bad_input("nx, ny, nz", "the lattice needs " + std::to_string(need >> 20) + " MiB on the GPU and only " +
                                        std::to_string(free_bytes >> 20) + " MiB are free",
                      "a smaller lattice or precision fp32");
    type_.upload(g_->type);
    upload_active_nodes();
    upload_links();
    sum_.resize(1);
    configure(c);
    // Both buffers start from the initial state: entries no stage writes (solid sources) stay equal.
    write_f(initial_distribution(c));
    next_.resize(pops);
    KS_CUDA_CHECK(cudaMemcpy(next_.ptr, f_.ptr, pops * sizeof(Real), cudaMemcpyDeviceToDevice));
    int grid = 0;
    KS_CUDA_CHECK(cudaDeviceGetAttribute(&grid, cudaDevAttrMultiProcessorCount, device));
    reduce_blocks_ = 4 * grid;
  }

  void configure(const LbmConfig& c) override {
    c_ = c;
    params_ = collision_params<Real>(c);
    const double p_in = inlet_pressure(c);
    double in[kSpecies], out[kSpecies];
    mixture_densities(c, c.x_o2, p_in, in);
    mixture_densities(c, c.x_o2, p_in * c.pressure_ratio, out);
    for (int s = 0; s < kSpecies; ++s) {
      inlet_.rho[s] = Real(in[s]);
      outlet_.rho[s] = Real(out[s]);
      inlet_.theta[s] = outlet_.theta[s] = params_.theta[s];
      inlet_.lattice_species[s] = outlet_.lattice_species[s] = params_.lattice_species[s];
    }
  }

  void step(int steps) override {
    run(steps, nullptr);
    KS_CUDA_CHECK(cudaDeviceSynchronize());
  }

  StageTimes profile(int steps) override {
    StageTimes t;
    run(steps, &t);
    return t.per_step(steps);
  }

  std::vector<double> moments() const override {
    DeviceBuffer<double> out;
    out.resize(std::size_t(kNodeMoments) * c_.nodes());
    moments_kernel<Real><<<blocks_for(c_.nodes(), 128), 128>>>(c_, f_.ptr, type_.ptr, out.ptr);
    KS_CUDA_CHECK_LAUNCH();
    return out.to_host();
  }

  double momentum_rms() const override {
    KS_CUDA_CHECK(cudaMemset(sum_.ptr, 0, sizeof(double)));
    momentum_square_kernel<Real><<<reduce_blocks_, kReduceThreads>>>(c_, f_.ptr, type_.ptr, sum_.ptr);
    KS_CUDA_CHECK_LAUNCH();
    double sum = 0.0;
    sum_.download(&sum, 1);
    return std::sqrt(sum / double(g_->fluid_nodes));
  }

  void read_f(std::vector<double>& f) const override {
    const std::vector<Real> v = f_.to_host();
    f.assign(v.begin(), v.end());
  }
  void write_f(const std::vector<double>& f) override { f_.upload(std::vector<Real>(f.begin(), f.end())); }

 private:
  // The three kernels of a step; with `t`, each is timed with events (which serialises them).
  void run(int steps, StageTimes* t) {
    const long long N = c_.nodes(), plane = (long long)c_.nx * c_.ny;
    cudaEvent_t start = nullptr, stop = nullptr;
    if (t) {
      KS_CUDA_CHECK(cudaEventCreate(&start));
      KS_CUDA_CHECK(cudaEventCreate(&stop));
    }
    auto timed = [&](double StageTimes::*stage, auto&& launch) {
      if (t) KS_CUDA_CHECK(cudaEventRecord(start));
      launch();
      KS_CUDA_CHECK_LAUNCH();
      if (!t) return;
      KS_CUDA_CHECK(cudaEventRecord(stop));
      KS_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0.0f;
      KS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      t->*stage += 1e-3 * ms;
    };
    for (int n = 0; n < steps; ++n) {
      timed(&StageTimes::collide_stream, [&] {
        collide_stream_kernel<Real><<<blocks_for(2 * active_.count, 256), 256>>>(c_, params_, f_.ptr, next_.ptr, type_.ptr, active_.ptr,
                                                                                 std::uint32_t(active_.count));
      });
      if (c_.bounce_back == BounceBack::Interpolated && links_.count)
        timed(&StageTimes::bounce_back, [&] {
          bounce_back_kernel<Real><<<blocks_for(links_.count, 256), 256>>>(links_.ptr, links_.count, N, next_.ptr);
        });
      if (!c_.periodic_z())
        timed(&StageTimes::boundary, [&] {
          boundary_kernel<Real><<<blocks_for(plane, 128), 128>>>(c_, inlet_, 0, +1, next_.ptr, type_.ptr);
          boundary_kernel<Real><<<blocks_for(plane, 128), 128>>>(c_, outlet_, c_.nz - 1, -1, next_.ptr, type_.ptr);
        });
      f_.swap(next_);
    }
    if (t) {
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
    }
  }

  // Fluid nodes, then wall nodes, each in index order: a warp then runs one branch of the kernel.
  void upload_active_nodes() {
    std::vector<std::uint32_t> active;
    for (NodeType kind : {kFluid, kWall})
      for (std::size_t k = 0; k < g_->type.size(); ++k)
        if (g_->type[k] == kind) active.push_back(std::uint32_t(k));
    active_.upload(active);
  }

  // Links by direction, then fluid node: neighbouring threads then read and write neighbouring
  // entries of one population array. Each link writes its own entry, so the order is free.
  void upload_links() {
    std::vector<WallLink> links = g_->links;
    std::stable_sort(links.begin(), links.end(), [](const WallLink& a, const WallLink& b) { return a.dir < b.dir; });
    links_.upload(links);
  }

  LbmConfig c_;
  CollisionParams<Real> params_;
  PlaneDensities<Real> inlet_, outlet_;
  std::shared_ptr<const LatticeGeometry> g_;
  DeviceBuffer<Real> f_, next_;
  DeviceBuffer<std::uint8_t> type_;
  DeviceBuffer<std::uint32_t> active_;  // fluid and wall nodes
  DeviceBuffer<WallLink> links_;
  mutable DeviceBuffer<double> sum_;
  int reduce_blocks_ = 528;
};

}  // namespace

std::unique_ptr<LbmSolver> make_cuda_solver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g, int device) {
  if (c.precision == Precision::Fp32) return std::make_unique<CudaSolver<float>>(c, std::move(g), device);
  return std::make_unique<CudaSolver<double>>(c, std::move(g), device);
}

}  // namespace ks::lbm
