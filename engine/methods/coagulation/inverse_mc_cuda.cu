// GPU inverse Monte Carlo with smart bookkeeping (Wei & Kruis 2013, Algorithms 1-3).
// The paper launches several sub-kernels per event; here one thread block owns one
// run and keeps the whole event loop on the device, so an event costs a handful of
// block barriers instead of host round trips and launches:
//   select i: block prefix sum over C' (Algorithm 2, eq. 5a)
//   row of i, select j: block prefix sum over beta'_i. (eq. 5b)
//   coalesce, then one thread per particle updates C'_k (Algorithm 3, eq. 6).
// The runs of an ensemble are independent blocks running concurrently.
#include "inverse_mc_cuda.hpp"

#include <algorithm>

#include "core/cuda_check.hpp"

namespace ks::coag {

namespace {

constexpr int kBlock = 512;
constexpr int kWarps = kBlock / 32;
constexpr unsigned kFullMask = 0xffffffffu;

struct Arrays {
  double* v;
  double* w;
  double* C;
  ParticleAux* aux;
  double* row_i;
  double* row_j;
  double* t;
  unsigned long long* events;
  unsigned long long* since_refresh;
  const double* t_target;
  unsigned long long* done;
};

// Shared memory of the block-wide prefix sums.
struct ScanShared {
  double incl[kBlock];  // inclusive prefix of each thread's chunk sum
  double warp[kWarps];
  int selected;
};

// Inverse transform over values(0..n): each thread sums a contiguous chunk, the chunk sums
// are prefix-summed across the block, and the one thread whose interval [incl[t-1], incl[t])
// holds the target scans its chunk. The intervals tile [0, total) exactly, so exactly one
// thread answers. Returns the index (all threads) and the total.
template <class Value>
__device__ int block_select(int n, Value value, double u, ScanShared& sh, double& total) {
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int per_thread = (n + kBlock - 1) / kBlock;
  const int lo = min(tid * per_thread, n), hi = min(lo + per_thread, n);
  double s = 0.0;
  for (int k = lo; k < hi; ++k) s += value(k);
  double x = s;
  for (int o = 1; o < 32; o <<= 1) {
    const double y = __shfl_up_sync(kFullMask, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) sh.warp[warp] = x;
  if (tid == 0) sh.selected = -1;
  __syncthreads();
  if (warp == 0) {
    double y = lane < kWarps ? sh.warp[lane] : 0.0;
    for (int o = 1; o < 32; o <<= 1) {
      const double z = __shfl_up_sync(kFullMask, y, o);
      if (lane >= o) y += z;
    }
    if (lane < kWarps) sh.warp[lane] = y;
  }
  __syncthreads();
  if (warp > 0) x += sh.warp[warp - 1];
  sh.incl[tid] = x;
  __syncthreads();
  total = sh.incl[kBlock - 1];
  const double target = fmin(u * total, nextafter(total, 0.0));
  const double excl = tid > 0 ? sh.incl[tid - 1] : 0.0;
  if (excl <= target && target < x) {
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
    sh.selected = pick >= 0 ? pick : last_positive;
  }
  __syncthreads();
  return sh.selected;
}

// Sum of one value per thread over the block (all threads get it).
__device__ void block_sum2(double& a, double& b, double (*sh)[kWarps]) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int o = 16; o > 0; o >>= 1) {
    a += __shfl_down_sync(kFullMask, a, o);
    b += __shfl_down_sync(kFullMask, b, o);
  }
  if (lane == 0) {
    sh[0][warp] = a;
    sh[1][warp] = b;
  }
  __syncthreads();
  a = b = 0.0;
  for (int k = 0; k < kWarps; ++k) {
    a += sh[0][k];
    b += sh[1][k];
  }
  __syncthreads();
}

// Eq. (2) for every particle of the run: C'_k = sum_{l != k} beta'_kl.
__device__ void recompute_rates(int n, const ParticleAux* aux, const double* w, double* C, const KernelParams& kp) {
  for (int k = threadIdx.x; k < n; k += kBlock) {
    const ParticleAux ak = aux[k];
    const double wk = w[k];
    double sum = 0.0;
    for (int l = 0; l < n; ++l)
      if (l != k) sum += beta(ak, aux[l], kp) * weight_factor(wk, w[l]);
    C[k] = sum;
  }
  __syncthreads();
}

__global__ void __launch_bounds__(kBlock) make_aux_kernel(const double* v, ParticleAux* aux, std::size_t count,
                                                          KernelParams kp) {
  const std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (k < count) aux[k] = make_aux(v[k], kp);
}

__global__ void __launch_bounds__(kBlock) advance_kernel(Arrays a, int n, double box_volume, KernelParams kp,
                                                         unsigned long long seed, unsigned long long refresh_every,
                                                         unsigned long long max_events) {
  __shared__ ScanShared sh;
  __shared__ double red[2][kWarps];
  const int run = blockIdx.x;
  const std::size_t base = std::size_t(run) * n;
  double* v = a.v + base;
  double* w = a.w + base;
  double* C = a.C + base;
  ParticleAux* aux = a.aux + base;
  double* row_i = a.row_i + base;
  double* row_j = a.row_j + base;
  const double t_target = a.t_target[run];
  const PhiloxStream rng = run_stream(seed, run);
  double t = a.t[run];
  unsigned long long ev = a.events[run], since = a.since_refresh[run], done = 0;

  while (done < max_events) {
    double u_i, u_j, total;
    rng.uniform2(ev, kPurposeEvent, u_i, u_j);
    // Eq. (5a) and the waiting time, eq. (4).
    const int i = block_select(n, [&](int k) { return C[k]; }, u_i, sh, total);
    const double dt = waiting_time(total, box_volume);
    if (!(t + dt <= t_target)) break;  // uniform across the block: total is shared

    const ParticleAux ai = aux[i];
    const double wi_old = w[i];
    for (int k = threadIdx.x; k < n; k += kBlock) row_i[k] = k == i ? 0.0 : beta(ai, aux[k], kp);
    __syncthreads();
    // Eq. (5b) over the weighted row of i.
    const int j = block_select(n, [&](int k) { return row_i[k] * weight_factor(wi_old, w[k]); }, u_j, sh, total);
    const ParticleAux aj = aux[j];
    const double wj_old = w[j];
    for (int k = threadIdx.x; k < n; k += kBlock) row_j[k] = k == j ? 0.0 : beta(aj, aux[k], kp);
    __syncthreads();

    if (threadIdx.x == 0) {
      coalesce(v[i], w[i], v[j], w[j]);
      aux[i] = make_aux(v[i], kp);
      aux[j] = make_aux(v[j], kp);
    }
    __syncthreads();

    // Smart bookkeeping, eq. (6), one thread per particle; C'_i and C'_j summed anew.
    const ParticleAux ni = aux[i], nj = aux[j];
    const double wi = w[i], wj = w[j];
    double Ci = 0.0, Cj = 0.0;
    for (int k = threadIdx.x; k < n; k += kBlock) {
      if (k == i || k == j) continue;
      const ParticleAux ak = aux[k];
      const double wk = w[k];
      const double bi = beta(ak, ni, kp), bj = beta(ak, nj, kp);
      C[k] += bi * weight_factor(wk, wi) - row_i[k] * weight_factor(wk, wi_old) + bj * weight_factor(wk, wj) -
              row_j[k] * weight_factor(wk, wj_old);
      Ci += bi * weight_factor(wi, wk);
      Cj += bj * weight_factor(wj, wk);
    }
    block_sum2(Ci, Cj, red);
    if (threadIdx.x == 0) {
      const double bij = beta(ni, nj, kp);
      C[i] = Ci + bij * weight_factor(wi, wj);
      C[j] = Cj + bij * weight_factor(wj, wi);
    }
    __syncthreads();

    t += dt;
    ++ev;
    ++done;
    if (++since >= refresh_every) {
      recompute_rates(n, aux, w, C, kp);
      since = 0;
    }
  }
  if (threadIdx.x == 0) {
    a.t[run] = t;
    a.events[run] = ev;
    a.since_refresh[run] = since;
    a.done[run] = done;
  }
}

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  void resize(std::size_t n) {
    if (n == count) return;
    release();
    if (n) KS_CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(T)));
    count = n;
  }
  void release() {
    if (ptr) cudaFree(ptr);
    ptr = nullptr;
    count = 0;
  }
  void upload(const T* src, std::size_t n) {
    resize(n);
    if (n) KS_CUDA_CHECK(cudaMemcpy(ptr, src, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(T* dst, std::size_t n) const {
    if (n) KS_CUDA_CHECK(cudaMemcpy(dst, ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
  }
  ~DeviceBuffer() { release(); }
};

}  // namespace

struct CudaEnsemble::Device {
  int device = 0;
  int n_runs = 0;
  EnsembleConfig cfg;
  DeviceBuffer<double> v, w, C, row_i, row_j, t, t_target;
  DeviceBuffer<ParticleAux> aux;
  DeviceBuffer<unsigned long long> events, since_refresh, done;
};

CudaEnsemble::CudaEnsemble(int device) : d_(std::make_unique<Device>()) {
  d_->device = device;
  KS_CUDA_CHECK(cudaSetDevice(device));
}

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
  d_->row_j.resize(count);
  d_->aux.resize(count);
  d_->t.upload(e.t.data(), e.n_runs);
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  d_->events.upload(reinterpret_cast<const unsigned long long*>(e.events.data()), e.n_runs);
  d_->since_refresh.upload(reinterpret_cast<const unsigned long long*>(e.since_refresh.data()), e.n_runs);
  d_->done.resize(e.n_runs);
  d_->t_target.resize(e.n_runs);
  if (count) {
    const unsigned blocks = static_cast<unsigned>((count + kBlock - 1) / kBlock);
    make_aux_kernel<<<blocks, kBlock>>>(d_->v.ptr, d_->aux.ptr, count, cfg.kernel);
    KS_CUDA_CHECK_LAUNCH();
  }
}

void CudaEnsemble::download(Ensemble& e) const {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  const std::size_t count = std::size_t(d_->n_runs) * d_->cfg.n_s;
  e.n_runs = d_->n_runs;
  e.v.resize(count);
  e.w.resize(count);
  e.C.resize(count);
  e.t.resize(d_->n_runs);
  e.events.resize(d_->n_runs);
  e.since_refresh.resize(d_->n_runs);
  d_->v.download(e.v.data(), count);
  d_->w.download(e.w.data(), count);
  d_->C.download(e.C.data(), count);
  d_->t.download(e.t.data(), d_->n_runs);
  d_->events.download(reinterpret_cast<unsigned long long*>(e.events.data()), d_->n_runs);
  d_->since_refresh.download(reinterpret_cast<unsigned long long*>(e.since_refresh.data()), d_->n_runs);
}

std::uint64_t CudaEnsemble::launch(const std::vector<double>& t_target, std::uint64_t max_events, bool& all_reached) {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  all_reached = true;
  if (d_->n_runs == 0) return 0;
  d_->t_target.upload(t_target.data(), d_->n_runs);
  advance_kernel<<<d_->n_runs, kBlock>>>(
      Arrays{d_->v.ptr, d_->w.ptr, d_->C.ptr, d_->aux.ptr, d_->row_i.ptr, d_->row_j.ptr, d_->t.ptr, d_->events.ptr,
             d_->since_refresh.ptr, d_->t_target.ptr, d_->done.ptr},
      d_->cfg.n_s, d_->cfg.box_volume, d_->cfg.kernel, d_->cfg.seed, static_cast<unsigned long long>(d_->cfg.refresh_every),
      max_events);
  KS_CUDA_CHECK_LAUNCH();
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
