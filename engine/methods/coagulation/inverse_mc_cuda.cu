// GPU inverse Monte Carlo with smart bookkeeping (Wei & Kruis 2013, Algorithms 1-3).
// The paper launches several sub-kernels per event; here the whole event loop stays in
// one kernel. A run is one thread-block cluster of G blocks (G = 1 for ensembles that
// fill the GPU with runs, up to 16 for one large run); block r owns a contiguous slice of
// the particles, and the cluster shares partial sums through distributed shared memory:
//   select i: prefix sums over C' within each block, block totals across the cluster (eq. 5a)
//   row of i, select j over beta'_i. the same way (eq. 5b)
//   one thread per particle updates C'_k (Algorithm 3, eq. 6); C'_i and C'_j are cluster sums.
// Every block computes the coalesced pair in registers, so an event needs five cluster
// barriers and no host round trip; the owners of i and j write them back after the update.
#include "inverse_mc_cuda.hpp"

#include <cooperative_groups.h>

#include <algorithm>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"

namespace ks::coag {

namespace {

namespace cg = cooperative_groups;

constexpr int kBlock = 512;
constexpr int kWarps = kBlock / 32;
constexpr int kMaxCluster = 16;              // non-portable cluster size on Hopper
constexpr int kTargetParticlesPerBlock = 1536;  // tuned on the H100 (bench --cluster-sweep)
constexpr unsigned kFullMask = 0xffffffffu;

struct Arrays {
  double* v;
  double* w;
  double* C;
  ParticleAux* aux;
  double* row_i;
  double* t;
  unsigned long long* events;
  unsigned long long* since_refresh;
  const double* t_target;
  unsigned long long* done;
};

struct Shared {
  double incl[kBlock];      // inclusive prefix of each thread's chunk sum (block-local)
  double warp[kWarps];
  double block_total[2];    // per selection (i, j): this block's sum, read by the cluster
  int selected[2];          // per selection: the index this block picked, or -1
  double partial[2];        // this block's share of the new C'_i and C'_j
  double red[2][kWarps];
};

// The slice of particles a block owns.
struct Slice {
  int lo, hi;
  __device__ bool owns(int k) const { return k >= lo && k < hi; }
};

// A run is a cluster of blocks (kClustered) or one block: barriers and shared-memory
// access across the run go through here, so one block pays no cluster-scope fences.
template <bool kClustered>
struct Run {
  cg::cluster_group cluster;
  int blocks, rank;
  __device__ Run() : cluster(cg::this_cluster()) {
    blocks = kClustered ? int(cluster.num_blocks()) : 1;
    rank = kClustered ? int(cluster.block_rank()) : 0;
  }
  __device__ void sync() const {
    if constexpr (kClustered) cluster.sync();
    else __syncthreads();
  }
  template <class T>
  __device__ T* peer(T* local, int q) const {
    if constexpr (kClustered) return cluster.map_shared_rank(local, q);
    else return local;
  }
};

// Inclusive prefix sum over the lanes of a warp.
__device__ double warp_inclusive_scan(double x) {
  const int lane = threadIdx.x & 31;
  for (int o = 1; o < 32; o <<= 1) {
    const double y = __shfl_up_sync(kFullMask, x, o);
    if (lane >= o) x += y;
  }
  return x;
}

// Inverse transform over values(k), k in [0, n), with the values spread over the run's
// slices. Threads sum contiguous chunks and blocks prefix-sum the chunk sums; every warp
// reads the blocks' totals in parallel (lane q from block q) and prefix-sums them the same
// way, so all blocks agree on where each block's interval starts and ends. The intervals
// tile [0, total) without gaps (a block ends exactly where the next begins); the thread whose
// interval holds the target scans its chunk, and the warps read the picks back in parallel.
template <bool kClustered, class Value>
__device__ int run_select(const Run<kClustered>& run, Slice slice, Value value, double u, Shared& sh, int slot,
                          double& total) {
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int per_thread = (slice.hi - slice.lo + kBlock - 1) / kBlock;
  const int lo = min(slice.lo + tid * per_thread, slice.hi), hi = min(lo + per_thread, slice.hi);
  double s = 0.0;
  for (int k = lo; k < hi; ++k) s += value(k);
  double x = warp_inclusive_scan(s);
  if (lane == 31) sh.warp[warp] = x;
  if (tid == 0) sh.selected[slot] = -1;
  __syncthreads();
  if (warp == 0) {
    const double y = warp_inclusive_scan(lane < kWarps ? sh.warp[lane] : 0.0);
    if (lane < kWarps) sh.warp[lane] = y;
  }
  __syncthreads();
  if (warp > 0) x += sh.warp[warp - 1];
  sh.incl[tid] = x;
  __syncthreads();
  if (tid == 0) sh.block_total[slot] = sh.incl[kBlock - 1];
  run.sync();
  const double ends = warp_inclusive_scan(lane < run.blocks ? *run.peer(&sh.block_total[slot], lane) : 0.0);
  total = __shfl_sync(kFullMask, ends, run.blocks - 1);
  const double start = run.rank > 0 ? __shfl_sync(kFullMask, ends, max(run.rank - 1, 0)) : 0.0;
  const double end = __shfl_sync(kFullMask, ends, run.rank);
  const double target = fmin(u * total, nextafter(total, 0.0));
  const double excl = start + (tid > 0 ? sh.incl[tid - 1] : 0.0);
  const double incl = tid == kBlock - 1 ? end : start + x;
  if (excl <= target && target < incl) {
    double acc = excl;
    int pick = -1, last_positive = lo;
    for (int k = lo; k < hi; ++k) {
      const double val = value(k);
      if (val <= 0.0) continue;
      acc += val;
      last_positive = k;
      if (target < acc) {
        pick = k;
        break;
      }
    }
    sh.selected[slot] = pick >= 0 ? pick : last_positive;
  }
  run.sync();
  int picked = lane < run.blocks ? *run.peer(&sh.selected[slot], lane) : -1;
  for (int o = 16; o > 0; o >>= 1) picked = max(picked, __shfl_xor_sync(kFullMask, picked, o));
  return picked;
}

// Block sums of two values per thread; thread 0 gets them.
__device__ void block_sum2(double& a, double& b, Shared& sh) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int o = 16; o > 0; o >>= 1) {
    a += __shfl_down_sync(kFullMask, a, o);
    b += __shfl_down_sync(kFullMask, b, o);
  }
  if (lane == 0) {
    sh.red[0][warp] = a;
    sh.red[1][warp] = b;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    a = b = 0.0;
    for (int k = 0; k < kWarps; ++k) {
      a += sh.red[0][k];
      b += sh.red[1][k];
    }
  }
}

__global__ void __launch_bounds__(kBlock) make_aux_kernel(const double* v, ParticleAux* aux, std::size_t count,
                                                          KernelParams kp) {
  const std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (k < count) aux[k] = make_aux(v[k], kp);
}

// Where a run's particle data lives during a launch. Resident: each block copies its slice
// into shared memory at the start and back at the end, and reads the selected pair from the
// owner block's shared memory (after a cluster barrier global memory would be re-read from
// L2 every phase). Otherwise everything stays in global memory (runs too large for shared memory).
template <bool kResident>
struct Particles {
  ParticleAux* aux;
  double* w;
  double* C;
  double* row_i;
  int offset;  // index of the slice's first particle in these arrays' numbering
  __device__ int at(int k) const { return k - offset; }
};

constexpr int kResidentBytesPerParticle = sizeof(ParticleAux) + 3 * sizeof(double);  // aux, w, C, row_i
constexpr int kResidentMaxParticles = 3200;  // 3200 * 64 B = 200 KB of the 227 KB a block may have

template <bool kClustered, bool kResident>
__global__ void __launch_bounds__(kBlock) advance_kernel(Arrays a, int n, double box_volume, KernelParams kp,
                                                         unsigned long long seed, unsigned long long refresh_every,
                                                         unsigned long long max_events) {
  __shared__ Shared sh;
  extern __shared__ __align__(16) unsigned char resident[];
  const Run<kClustered> run;
  const int run_index = blockIdx.x / run.blocks;
  const int per_block = (n + run.blocks - 1) / run.blocks;
  const Slice slice{min(run.rank * per_block, n), min((run.rank + 1) * per_block, n)};
  const std::size_t base = std::size_t(run_index) * n;
  Particles<kResident> p;
  if constexpr (kResident) {
    p.aux = reinterpret_cast<ParticleAux*>(resident);
    p.w = reinterpret_cast<double*>(p.aux + per_block);
    p.C = p.w + per_block;
    p.row_i = p.C + per_block;
    p.offset = slice.lo;
    for (int k = slice.lo + threadIdx.x; k < slice.hi; k += kBlock) {
      p.aux[p.at(k)] = a.aux[base + k];
      p.w[p.at(k)] = a.w[base + k];
      p.C[p.at(k)] = a.C[base + k];
    }
    __syncthreads();
  } else {
    p = {a.aux + base, a.w + base, a.C + base, a.row_i + base, 0};
  }
  // The state of any particle of the run (the selected pair may live in another block).
  auto aux_of = [&](int k) -> ParticleAux {
    if constexpr (kResident) {
      const int owner = k / per_block;
      return run.peer(p.aux, owner)[k - owner * per_block];
    } else {
      return p.aux[k];
    }
  };
  auto w_of = [&](int k) -> double {
    if constexpr (kResident) {
      const int owner = k / per_block;
      return run.peer(p.w, owner)[k - owner * per_block];
    } else {
      return p.w[k];
    }
  };
  const double t_target = a.t_target[run_index];
  const PhiloxStream rng = run_stream(seed, run_index);
  double t = a.t[run_index];
  unsigned long long ev = a.events[run_index], since = a.since_refresh[run_index], done = 0;

  while (done < max_events) {
    double u_i, u_j, total, total_j;
    rng.uniform2(ev, kPurposeEvent, u_i, u_j);
    // Eq. (5a) and the waiting time, eq. (4).
    const int i = run_select(run, slice, [&](int k) { return p.C[p.at(k)]; }, u_i, sh, 0, total);
    const double dt = waiting_time(total, box_volume);
    if (!(t + dt <= t_target)) break;  // uniform across the run: every block has the same total

    const ParticleAux ai = aux_of(i);
    const double wi_old = w_of(i);
    for (int k = slice.lo + threadIdx.x; k < slice.hi; k += kBlock)
      p.row_i[p.at(k)] = k == i ? 0.0 : beta(ai, p.aux[p.at(k)], kp) * pair_weight(wi_old, p.w[p.at(k)]);
    __syncthreads();
    // Eq. (5b) over beta'_ik = 2 w_i row_i[k]; the common factor does not change the choice.
    const int j = run_select(run, slice, [&](int k) { return p.row_i[p.at(k)]; }, u_j, sh, 1, total_j);
    const ParticleAux aj = aux_of(j);
    const double wj_old = w_of(j);

    // Every thread coalesces the pair in registers; memory is written after the update.
    double vi = ai.v, wi = wi_old, vj = aj.v, wj = wj_old;
    coalesce(vi, wi, vj, wj);
    const ParticleAux ni = make_aux(vi, kp), nj = make_aux(vj, kp);

    // Smart bookkeeping, eq. (6): beta'_ki = 2 w_k beta_ki pair_weight(w_k, w_i); the old
    // terms of j are computed here rather than stored.
    double Ci = 0.0, Cj = 0.0;
    for (int k = slice.lo + threadIdx.x; k < slice.hi; k += kBlock) {
      if (k == i || k == j) continue;
      const ParticleAux ak = p.aux[p.at(k)];
      const double wk = p.w[p.at(k)];
      const double rj_old = beta(aj, ak, kp) * pair_weight(wj_old, wk);
      const double ri = beta(ak, ni, kp) * pair_weight(wk, wi), rj = beta(ak, nj, kp) * pair_weight(wk, wj);
      p.C[p.at(k)] += 2.0 * wk * (ri + rj - p.row_i[p.at(k)] - rj_old);
      Ci += ri;
      Cj += rj;
    }
    block_sum2(Ci, Cj, sh);
    if (threadIdx.x == 0) {
      sh.partial[0] = Ci;
      sh.partial[1] = Cj;
    }
    run.sync();
    if (threadIdx.x < 32 && (slice.owns(i) || slice.owns(j))) {
      const int lane = threadIdx.x;
      double si = lane < run.blocks ? run.peer(sh.partial, lane)[0] : 0.0;
      double sj = lane < run.blocks ? run.peer(sh.partial, lane)[1] : 0.0;
      for (int o = 16; o > 0; o >>= 1) {
        si += __shfl_xor_sync(kFullMask, si, o);
        sj += __shfl_xor_sync(kFullMask, sj, o);
      }
      if (lane == 0) {
        const double rij = beta(ni, nj, kp) * pair_weight(wi, wj);
        if (slice.owns(i)) {
          p.aux[p.at(i)] = ni;
          p.w[p.at(i)] = wi;
          p.C[p.at(i)] = 2.0 * wi * (rij + si);
        }
        if (slice.owns(j)) {
          p.aux[p.at(j)] = nj;
          p.w[p.at(j)] = wj;
          p.C[p.at(j)] = 2.0 * wj * (rij + sj);
        }
      }
    }
    __syncthreads();

    t += dt;
    ++ev;
    ++done;
    if (++since >= refresh_every) {
      // Eq. (2) for the block's slice, with every particle's new state visible.
      run.sync();
      for (int k = slice.lo + threadIdx.x; k < slice.hi; k += kBlock) {
        const ParticleAux ak = p.aux[p.at(k)];
        const double wk = p.w[p.at(k)];
        double sum = 0.0;
        for (int l = 0; l < n; ++l)
          if (l != k) sum += beta(ak, aux_of(l), kp) * weight_factor(wk, w_of(l));
        p.C[p.at(k)] = sum;
      }
      __syncthreads();
      since = 0;
    }
  }
  if constexpr (kResident) {
    __syncthreads();
    for (int k = slice.lo + threadIdx.x; k < slice.hi; k += kBlock) {
      const ParticleAux ak = p.aux[p.at(k)];
      a.aux[base + k] = ak;
      a.v[base + k] = ak.v;
      a.w[base + k] = p.w[p.at(k)];
      a.C[base + k] = p.C[p.at(k)];
    }
  } else {
    // The global arrays are the state; v follows aux.
    for (int k = slice.lo + threadIdx.x; k < slice.hi; k += kBlock) a.v[base + k] = a.aux[base + k].v;
  }
  if (run.rank == 0 && threadIdx.x == 0) {
    a.t[run_index] = t;
    a.events[run_index] = ev;
    a.since_refresh[run_index] = since;
    a.done[run_index] = done;
  }
  run.sync();  // no block leaves while others may still read its shared memory
}

// Algorithm 1 (initialisation): one thread per particle sums its row of eq. (2); the block
// stages the other particles in shared memory tile by tile. Rows are summed in index order,
// as on the CPU.
constexpr int kRateTile = 256;
__global__ void __launch_bounds__(kRateTile) rates_kernel(const ParticleAux* aux_all, const double* w_all, double* C_all,
                                                          int n, KernelParams kp) {
  __shared__ ParticleAux tile_aux[kRateTile];
  __shared__ double tile_w[kRateTile];
  const std::size_t base = std::size_t(blockIdx.y) * n;
  const int k = blockIdx.x * kRateTile + threadIdx.x;
  const ParticleAux ak = k < n ? aux_all[base + k] : ParticleAux{};
  const double wk = k < n ? w_all[base + k] : 1.0;
  double sum = 0.0;
  for (int start = 0; start < n; start += kRateTile) {
    const int l = start + threadIdx.x;
    if (l < n) {
      tile_aux[threadIdx.x] = aux_all[base + l];
      tile_w[threadIdx.x] = w_all[base + l];
    }
    __syncthreads();
    const int count = min(kRateTile, n - start);
    for (int m = 0; m < count; ++m)
      if (start + m != k) sum += beta(ak, tile_aux[m], kp) * weight_factor(wk, tile_w[m]);
    __syncthreads();
  }
  if (k < n) C_all[base + k] = sum;
}

// Display copy of run 0's particles: the host snapshot's positions and values, as floats.
__global__ void particles_kernel(const ParticleAux* aux, const double* w, int n, unsigned long long seed, double side,
                                 unsigned purpose, bool diameter, float4* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const PhiloxCounter c = run_stream(seed, 0).draw(std::uint64_t(k), purpose);
  out[k] = make_float4(float(side * uniform_open01(c.v[0], 0)), float(side * uniform_open01(c.v[1], 0)),
                       float(side * uniform_open01(c.v[2], 0)), float(diameter ? aux[k].d : w[k]));
}

template <bool kClustered, bool kResident>
void configure_kernel() {
  auto* kernel = advance_kernel<kClustered, kResident>;
  if (kClustered) KS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  if (kResident)
    KS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       kResidentMaxParticles * kResidentBytesPerParticle));
}


}  // namespace

struct CudaEnsemble::Device {
  int device = 0;
  int sm_count = 1;
  int n_runs = 0;
  int cluster = 1;           // blocks per run
  int requested_cluster = 0; // 0: choose
  EnsembleConfig cfg;
  DeviceBuffer<double> v, w, C, row_i, t, t_target;
  DeviceBuffer<ParticleAux> aux;
  DeviceBuffer<unsigned long long> events, since_refresh, done;
};

CudaEnsemble::CudaEnsemble(int device) : d_(std::make_unique<Device>()) {
  d_->device = device;
  KS_CUDA_CHECK(cudaSetDevice(device));
  KS_CUDA_CHECK(cudaDeviceGetAttribute(&d_->sm_count, cudaDevAttrMultiProcessorCount, device));
  configure_kernel<false, false>();
  configure_kernel<false, true>();
  configure_kernel<true, false>();
  configure_kernel<true, true>();
}

void CudaEnsemble::set_cluster_size(int blocks_per_run) { d_->requested_cluster = blocks_per_run; }
int CudaEnsemble::cluster_size() const { return d_->cluster; }

namespace {

// Blocks per run: the smallest power of two that brings a block's share under
// kTargetParticlesPerBlock (shared-memory residency and enough threads per particle),
// no more than the SMs each run can have or the hardware's cluster limit.
int choose_cluster(int requested, int n_runs, int n_s, int sm_count) {
  if (requested > 0) return std::min(requested, kMaxCluster);
  const int by_sms = std::max(1, sm_count / std::max(1, n_runs));
  int g = 1;
  while (g * 2 <= std::min(by_sms, kMaxCluster) && (n_s + g - 1) / g > kTargetParticlesPerBlock) g *= 2;
  return g;
}

}  // namespace

CudaEnsemble::~CudaEnsemble() = default;

void CudaEnsemble::upload(const Ensemble& e, const EnsembleConfig& cfg) {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  d_->cfg = cfg;
  d_->n_runs = e.n_runs;
  const std::size_t count = std::size_t(e.n_runs) * cfg.n_s;
  d_->v.upload(e.v.data(), count);
  d_->w.upload(e.w.data(), count);
  d_->C.upload(e.C.data(), count);
  d_->row_i.resize(count);
  d_->aux.resize(count);
  d_->t.upload(e.t.data(), e.n_runs);
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  d_->events.upload(reinterpret_cast<const unsigned long long*>(e.events.data()), e.n_runs);
  d_->since_refresh.upload(reinterpret_cast<const unsigned long long*>(e.since_refresh.data()), e.n_runs);
  d_->done.resize(e.n_runs);
  d_->t_target.resize(e.n_runs);
  d_->cluster = choose_cluster(d_->requested_cluster, e.n_runs, cfg.n_s, d_->sm_count);
  if (count) {
    const unsigned blocks = static_cast<unsigned>((count + kBlock - 1) / kBlock);
    make_aux_kernel<<<blocks, kBlock>>>(d_->v.ptr, d_->aux.ptr, count, cfg.kernel);
    KS_CUDA_CHECK_LAUNCH();
  }
}

void CudaEnsemble::download(Ensemble& e) const {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  const std::size_t count = std::size_t(d_->n_runs) * d_->cfg.n_s;
  e.resize(d_->n_runs, d_->cfg.n_s);
  d_->v.download(e.v.data(), count);
  d_->w.download(e.w.data(), count);
  d_->C.download(e.C.data(), count);
  d_->t.download(e.t.data(), d_->n_runs);
  d_->events.download(reinterpret_cast<unsigned long long*>(e.events.data()), d_->n_runs);
  d_->since_refresh.download(reinterpret_cast<unsigned long long*>(e.since_refresh.data()), d_->n_runs);
}

void CudaEnsemble::write_particles(bool diameter, double box_side, std::uint32_t position_purpose, void* dst) const {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  const int n = d_->cfg.n_s;
  particles_kernel<<<(n + 255) / 256, 256>>>(d_->aux.ptr, d_->w.ptr, n, d_->cfg.seed, box_side, position_purpose, diameter,
                                             static_cast<float4*>(dst));
  KS_CUDA_CHECK_LAUNCH();
  KS_CUDA_CHECK(cudaDeviceSynchronize());
}

void CudaEnsemble::recompute_rates(int first_run) {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  if (first_run >= d_->n_runs) return;
  const std::size_t offset = std::size_t(first_run) * d_->cfg.n_s;
  const dim3 grid(unsigned((d_->cfg.n_s + kRateTile - 1) / kRateTile), unsigned(d_->n_runs - first_run));
  rates_kernel<<<grid, kRateTile>>>(d_->aux.ptr + offset, d_->w.ptr + offset, d_->C.ptr + offset, d_->cfg.n_s,
                                    d_->cfg.kernel);
  KS_CUDA_CHECK_LAUNCH();
  KS_CUDA_CHECK(cudaDeviceSynchronize());
}

std::uint64_t CudaEnsemble::launch(const std::vector<double>& t_target, std::uint64_t max_events, bool& all_reached) {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  all_reached = true;
  if (d_->n_runs == 0) return 0;
  d_->t_target.upload(t_target.data(), d_->n_runs);
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(d_->n_runs * d_->cluster));
  config.blockDim = dim3(kBlock);
  cudaLaunchAttribute cluster_dim{};
  cluster_dim.id = cudaLaunchAttributeClusterDimension;
  cluster_dim.val.clusterDim.x = unsigned(d_->cluster);
  cluster_dim.val.clusterDim.y = 1;
  cluster_dim.val.clusterDim.z = 1;
  config.attrs = &cluster_dim;
  config.numAttrs = 1;
  const Arrays arrays{d_->v.ptr, d_->w.ptr, d_->C.ptr, d_->aux.ptr, d_->row_i.ptr, d_->t.ptr,
                      d_->events.ptr, d_->since_refresh.ptr, d_->t_target.ptr, d_->done.ptr};
  const int per_block = (d_->cfg.n_s + d_->cluster - 1) / d_->cluster;
  const bool resident = per_block <= kResidentMaxParticles;
  config.dynamicSmemBytes = resident ? std::size_t(per_block) * kResidentBytesPerParticle : 0;
  auto* kernel = d_->cluster > 1 ? (resident ? advance_kernel<true, true> : advance_kernel<true, false>)
                                 : (resident ? advance_kernel<false, true> : advance_kernel<false, false>);
  KS_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, arrays, d_->cfg.n_s, d_->cfg.box_volume, d_->cfg.kernel,
                                   static_cast<unsigned long long>(d_->cfg.seed),
                                   static_cast<unsigned long long>(d_->cfg.refresh_every),
                                   static_cast<unsigned long long>(max_events)));
  std::vector<unsigned long long> done(d_->n_runs);
  d_->done.download(done.data(), d_->n_runs);  // synchronises; execution errors surface here
  std::uint64_t total = 0;
  for (const auto d : done) {
    total += d;
    all_reached = all_reached && d < max_events;
  }
  return total;
}

std::uint64_t CudaEnsemble::advance(const std::vector<double>& t_target, std::uint64_t max_events_per_launch) {
  std::uint64_t total = 0;
  bool all_reached = false;
  while (!all_reached) total += launch(t_target, max_events_per_launch, all_reached);
  return total;
}

}  // namespace ks::coag
