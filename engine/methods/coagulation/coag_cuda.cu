// The host side of the GPU inverse Monte Carlo: the device arrays of an ensemble (CudaEnsemble),
// Algorithm 1's rates, each selection's launch (the GPU half of coag_selection.hpp's table), the
// run-time choice of the event loops' form from the device (clusters on sm_90, shared-memory
// residency), and the CoagSolver over them.
#include "coag_cuda_ensemble.hpp"

#include <algorithm>
#include <iterator>

#include "coag_cuda_event_loop.cuh"
#include "coag_cuda_majorant.cuh"
#include "coag_cuda_stepped.cuh"
#include "coag_majorant.hpp"
#include "coag_solver.hpp"
#include "core/ceil_div.hpp"
#include "core/checked.hpp"
#include "core/cuda_check.hpp"
#include "core/cuda_shared_memory.hpp"
#include "core/device_buffer.hpp"
#include "core/errors.hpp"

namespace ks::coag {

namespace {

using namespace gpu;

__global__ void __launch_bounds__(kBlock) make_aux_kernel(const double* v, ParticleAux* aux, std::size_t count, KernelParams kp) {
  const std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (k < count) aux[k] = make_aux(v[k], kp);
}

// Algorithm 1 (initialisation): one thread per particle sums its row of eq. (2); the block
// stages the other particles in shared memory tile by tile. Rows are summed in index order,
// as on the CPU.
constexpr int kRateTile = 256;
__global__ void __launch_bounds__(kRateTile)
    rates_kernel(const ParticleAux* aux_all, const double* w_all, double* C_all, int n, KernelParams kp) {
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
__global__ void particles_kernel(const ParticleAux* aux, const double* w, int n, unsigned long long seed, double side, unsigned purpose,
                                 bool diameter, float4* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const PhiloxCounter c = run_stream(seed, 0).draw(std::uint64_t(k), purpose);
  out[k] = make_float4(float(side * uniform_open01(c.v[0], 0)), float(side * uniform_open01(c.v[1], 0)),
                       float(side * uniform_open01(c.v[2], 0)), float(diameter ? aux[k].d * 1e9 : w[k]));  // nm
}

// The event loop for a selection, a cluster or a single block, shared-memory residency and the kernel kind.
EventLoop event_loop(bool by_rejection, bool clustered, bool resident, KernelKind kind) {
  return by_rejection ? rejection_event_loop(clustered, resident, kind) : prefix_event_loop(clustered, resident, kind);
}

// What the device and this build's kernels allow: blocks per run (a cluster needs sm_90 code on an
// sm_90 device) and particles a block keeps in shared memory (its opt-in limit less the static part).
struct EventLoopLimits {
  int max_cluster = 1;
  int max_resident = 0;
};

EventLoopLimits configure_event_loops(int device) {
  int major = 0;
  KS_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  cudaFuncAttributes clustered{};
  KS_CUDA_CHECK(cudaFuncGetAttributes(&clustered, event_loop(false, true, true, KernelKind::Constant)));
  EventLoopLimits limits;
  limits.max_cluster = major >= 9 && clustered.ptxVersion >= 90 ? kMaxCluster : 1;
  std::size_t dynamic = SIZE_MAX;
  for (const bool by_rejection : {false, true})
    for (const bool clustered_loop : {false, true})
      for (const KernelKind kind : {KernelKind::FreeMolecular, KernelKind::Constant})  // fixed and any kind
        dynamic = std::min(dynamic, max_dynamic_shared_memory(event_loop(by_rejection, clustered_loop, true, kind), device));
  limits.max_resident = int(std::min<std::size_t>(kResidentMaxParticles, dynamic / kResidentBytesPerParticle));
  for (const bool by_rejection : {false, true})
    for (const bool clustered : {false, true})
      for (const bool resident : {false, true})
        for (const KernelKind kind : {KernelKind::FreeMolecular, KernelKind::Constant}) {
          if (clustered && limits.max_cluster == 1) continue;
          const EventLoop kernel = event_loop(by_rejection, clustered, resident, kind);
          if (clustered) KS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
          if (resident && limits.max_resident > 0)
            KS_CUDA_CHECK(
                cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, limits.max_resident * kResidentBytesPerParticle));
        }
  return limits;
}

}  // namespace

struct CudaEnsemble::Device {
  int device = 0;
  int sm_count = 1;
  int n_runs = 0;
  int cluster = 1;            // blocks per run
  int requested_cluster = 0;  // 0: choose
  EventLoopLimits limits;
  EnsembleConfig cfg;
  DeviceBuffer<double> v, w, C, row_or_next, t, t_target;
  DeviceBuffer<ParticleAux> aux;
  DeviceBuffer<unsigned long long> events, since_refresh, done;
  MajorantBuffers majorant;  // selection = majorant only
  SteppedBuffers stepped;    // selection = stepped only
};

CudaEnsemble::CudaEnsemble(int device) : d_(std::make_unique<Device>()) {
  d_->device = device;
  KS_CUDA_CHECK(cudaSetDevice(device));
  KS_CUDA_CHECK(cudaDeviceGetAttribute(&d_->sm_count, cudaDevAttrMultiProcessorCount, device));
  d_->limits = configure_event_loops(device);
}

void CudaEnsemble::set_cluster_size(int blocks_per_run) { d_->requested_cluster = blocks_per_run; }
int CudaEnsemble::cluster_size() const { return d_->cluster; }
int CudaEnsemble::max_cluster_size() const { return d_->limits.max_cluster; }
int CudaEnsemble::max_resident_particles() const { return d_->limits.max_resident; }

namespace {

// Blocks per run: the smallest power of two that brings a block's share under the selection's
// target (shared-memory residency and enough threads per particle), no more than the SMs each
// run can have or the cluster limit (1 where clusters are not usable).
int choose_cluster(int requested, int n_runs, int n_s, int sm_count, bool by_rejection, int max_cluster) {
  if (requested > 0) return std::min(requested, max_cluster);
  const int by_sms = std::max(1, sm_count / std::max(1, n_runs));
  const int target = by_rejection ? kTargetParticlesPerBlockRejection : kTargetParticlesPerBlock;
  int g = 1;
  while (g * 2 <= std::min(by_sms, max_cluster) && ceil_div(n_s, g) > target) g *= 2;
  return g;
}

// The GPU half of coag_selection.hpp's table, in the order of Selection: what a selection allocates
// and how many blocks a run takes (at upload), and one launch of its event loop.
struct GpuStrategy {
  void (*prepare)(CudaEnsemble::Device& d);
  std::uint64_t (*launch)(CudaEnsemble::Device& d, std::uint64_t max_events, bool& all_reached);
};

template <bool kByRejection>
void prepare_keeping_rates(CudaEnsemble::Device& d) {
  d.cluster = choose_cluster(d.requested_cluster, d.n_runs, d.cfg.n_s, d.sm_count, kByRejection, d.limits.max_cluster);
}

void prepare_majorant(CudaEnsemble::Device& d) {
  d.majorant.resize(d.n_runs, d.cfg.n_s, majorant_of(d.cfg.kernel).n_samplers);
  d.cluster = 1;  // one warp a run
}

void prepare_stepped(CudaEnsemble::Device& d) {
  d.stepped.resize(d.n_runs, d.cfg.n_s, majorant_of(d.cfg.kernel).n_samplers);
  d.cluster = 1;  // one block a run
}

// The event loop that keeps C' (prefix or rejection): a cluster of blocks a run, or one block.
template <bool kByRejection>
std::uint64_t launch_keeping_rates(CudaEnsemble::Device& d, std::uint64_t max_events, bool& all_reached) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(checked_narrow<int>(checked_mul(d.n_runs, d.cluster, "n_runs * blocks per run"),
                                                     "n_runs * blocks per run (CUDA blocks of the event loop)")));
  config.blockDim = dim3(kBlock);
  cudaLaunchAttribute cluster_dim{};
  cluster_dim.id = cudaLaunchAttributeClusterDimension;
  cluster_dim.val.clusterDim.x = unsigned(d.cluster);
  cluster_dim.val.clusterDim.y = 1;
  cluster_dim.val.clusterDim.z = 1;
  config.attrs = &cluster_dim;
  config.numAttrs = d.cluster > 1 ? 1 : 0;  // no cluster attribute where clusters do not exist
  const Arrays arrays{d.v.ptr,        d.w.ptr,   d.C.ptr, d.aux.ptr, d.row_or_next.ptr, d.t.ptr, d.events.ptr, d.since_refresh.ptr,
                      d.t_target.ptr, d.done.ptr};
  const int per_block = ceil_div(d.cfg.n_s, d.cluster);
  const bool resident = per_block <= d.limits.max_resident;
  config.dynamicSmemBytes = resident ? std::size_t(per_block) * kResidentBytesPerParticle : 0;
  const EventLoop kernel = event_loop(kByRejection, d.cluster > 1, resident, d.cfg.kernel.kind);
  KS_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, arrays, d.cfg.n_s, d.cfg.box_volume, d.cfg.kernel,
                                   static_cast<unsigned long long>(d.cfg.seed), d.cfg.first_run,
                                   static_cast<unsigned long long>(d.cfg.refresh_every), static_cast<unsigned long long>(max_events)));
  std::vector<unsigned long long> done(d.n_runs);
  d.done.download(done.data(), d.n_runs);  // synchronises; execution errors surface here
  std::uint64_t total = 0;
  for (int r = 0; r < d.n_runs; ++r) {
    if (done[r] == kRunFailed) {
      std::vector<unsigned long long> events(d.n_runs);
      d.events.download(events.data(), d.n_runs);
      throw run_failed(no_pair_message(r, events[r]));
    }
    total += done[r];
    all_reached = all_reached && done[r] < max_events;
  }
  return total;
}

std::uint64_t launch_majorant_loop(CudaEnsemble::Device& d, std::uint64_t max_events, bool& all_reached) {
  MajorantBuffers& b = d.majorant;
  const MajorantArrays arrays{d.v.ptr,    d.w.ptr,     d.aux.ptr,  d.t.ptr,     d.events.ptr, d.since_refresh.ptr, d.t_target.ptr,
                              d.done.ptr, b.order.ptr, b.slot.ptr, b.start.ptr, b.base.ptr,   b.flag.ptr};
  return launch_majorant(arrays, b, d.n_runs, d.cfg, max_events, all_reached);
}

std::uint64_t launch_stepped_loop(CudaEnsemble::Device& d, std::uint64_t max_events, bool& all_reached) {
  SteppedBuffers& b = d.stepped;
  const SteppedArrays arrays{d.v.ptr,    d.w.ptr,    d.aux.ptr,   d.t.ptr,    d.events.ptr,  d.t_target.ptr,
                             d.done.ptr, b.tree.ptr, b.total.ptr, b.base.ptr, b.largest.ptr, b.flag.ptr};
  return launch_stepped(arrays, b, d.n_runs, d.cfg, max_events, all_reached);
}

constexpr GpuStrategy kGpuStrategies[] = {
    {prepare_keeping_rates<false>, launch_keeping_rates<false>},  // prefix
    {prepare_keeping_rates<true>, launch_keeping_rates<true>},    // rejection
    {prepare_majorant, launch_majorant_loop},
    {prepare_stepped, launch_stepped_loop},
};
static_assert(std::size(kGpuStrategies) == std::size_t(Selection::Stepped) + 1);

const GpuStrategy& gpu_strategy(Selection s) { return kGpuStrategies[int(s)]; }

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
  d_->row_or_next.resize(count);
  d_->aux.resize(count);
  d_->t.upload(e.t.data(), e.n_runs);
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  d_->events.upload(reinterpret_cast<const unsigned long long*>(e.events.data()), e.n_runs);
  d_->since_refresh.upload(reinterpret_cast<const unsigned long long*>(e.since_refresh.data()), e.n_runs);
  d_->done.resize(e.n_runs);
  d_->t_target.resize(e.n_runs);
  gpu_strategy(cfg.selection).prepare(*d_);
  if (count) {
    const auto blocks =
        unsigned(checked_narrow<int>(std::int64_t(ceil_div(count, kBlock)), "n_s * n_runs / 512 (CUDA blocks of make_aux)"));
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
  particles_kernel<<<ceil_div(n, 256), 256>>>(d_->aux.ptr, d_->w.ptr, n, d_->cfg.seed, box_side, position_purpose, diameter,
                                              static_cast<float4*>(dst));
  KS_CUDA_CHECK_LAUNCH();
}

void CudaEnsemble::recompute_rates(int first_run) {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  if (first_run >= d_->n_runs) return;
  const std::size_t offset = std::size_t(first_run) * d_->cfg.n_s;
  const dim3 grid(unsigned(ceil_div(d_->cfg.n_s, kRateTile)), unsigned(d_->n_runs - first_run));
  rates_kernel<<<grid, kRateTile>>>(d_->aux.ptr + offset, d_->w.ptr + offset, d_->C.ptr + offset, d_->cfg.n_s, d_->cfg.kernel);
  KS_CUDA_CHECK_LAUNCH();
  KS_CUDA_CHECK(cudaDeviceSynchronize());
}

std::uint64_t CudaEnsemble::launch(const std::vector<double>& t_target, std::uint64_t max_events, bool& all_reached) {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  all_reached = true;
  if (d_->n_runs == 0) return 0;
  d_->t_target.upload(t_target.data(), d_->n_runs);
  return gpu_strategy(d_->cfg.selection).launch(*d_, max_events, all_reached);
}

std::uint64_t CudaEnsemble::advance(const std::vector<double>& t_target, std::uint64_t max_events_per_launch, const Interrupt& stop) {
  d_->majorant.stale = true;  // the majorant's samplers and the stepped trials' trees are rebuilt at the start of
  d_->stepped.stale = true;   // every advance, as on the CPU
  std::uint64_t total = 0;
  bool all_reached = false;
  while (!all_reached && !stop.requested()) total += launch(t_target, max_events_per_launch, all_reached);
  return total;
}

// The CUDA solver behind CoagSolver: the device ensemble kept between calls, the host copy brought
// up to date after each.
namespace {

class CudaSolver final : public CoagSolver {
 public:
  CudaSolver(const EnsembleConfig& cfg, int device, std::uint64_t max_events_per_launch)
      : cfg_(cfg), gpu_(device), max_events_per_launch_(max_events_per_launch) {}

  void load(Ensemble& e, int first_new_run) override {
    gpu_.upload(e, cfg_);
    if (first_new_run >= e.n_runs || !keeps_rates(cfg_.selection)) return;
    gpu_.recompute_rates(first_new_run);  // Algorithm 1 for the new runs
    gpu_.download(e);                     // the host copy holds C' too (checkpoints, snapshots)
  }

  std::uint64_t advance(Ensemble& e, const std::vector<double>& t_target, const Interrupt& stop) override {
    const std::uint64_t events = gpu_.advance(t_target, max_events_per_launch_, stop);
    gpu_.download(e);
    return events;
  }

  std::size_t write_particles(bool diameter, double box_side, std::uint32_t position_purpose, void* dst,
                              std::size_t capacity) const override {
    const std::size_t bytes = std::size_t(cfg_.n_s) * 4 * sizeof(float);
    if (!dst) return bytes;
    if (capacity < bytes) return 0;
    gpu_.write_particles(diameter, box_side, position_purpose, dst);
    return bytes;
  }

 private:
  EnsembleConfig cfg_;
  CudaEnsemble gpu_;
  std::uint64_t max_events_per_launch_;
};

}  // namespace

std::unique_ptr<CoagSolver> make_cuda_solver(const EnsembleConfig& cfg, int device, std::uint64_t max_events_per_launch) {
  return std::make_unique<CudaSolver>(cfg, device, max_events_per_launch);
}

}  // namespace ks::coag
