// The GPU loop of majorant trials in parallel steps (coag_stepped.hpp) and the trees' rebuild. A step:
// thread s of the run's block makes trial s (two Philox draws, two descents of the trees, the pair's
// reads and acceptance); the block finds the stop (the first trial that touches a particle an earlier
// accepted trial coalesces) and the accepted trials before it coalesce their pairs at once, each
// adding its particles' changes to the trees with atomics (integer sums: any order gives the same
// trees). The CPU makes the same trials, stops and events (coag_stepped_cpu.cpp).
#include "coag_cuda_stepped.cuh"

#include <algorithm>

#include "coag_cuda_launches.cuh"
#include "coag_cuda_stepped_trial.cuh"
#include "coag_stepped.hpp"
#include "core/ceil_div.hpp"
#include "core/cuda_check.hpp"
#include "core/errors.hpp"

namespace ks::coag::gpu {

namespace {

constexpr int kRebuildBlock = 256;
// The rebuild's grid rows of particles (gridDim.y) at most: each block strides over the particles, so
// any n_s fits the grid's 65535 rows.
constexpr std::int64_t kRebuildRows = 4096;

__device__ bool rebuilds(const SteppedArrays& a, int run, bool every_run) { return every_run || a.flag[run] == kRebuild; }

// Rebuild, first pass: each (run, sampler) blockIdx.x's largest class; the total cleared.
__global__ void largest_kernel(SteppedArrays a, int n, Majorant m, bool every_run) {
  const int run = blockIdx.x / m.n_samplers, s = blockIdx.x % m.n_samplers;
  if (!rebuilds(a, run, every_run)) return;
  int top = 0;
  for (std::int64_t k = std::int64_t(blockIdx.y) * kRebuildBlock + threadIdx.x; k < n; k += std::int64_t(gridDim.y) * kRebuildBlock) {
    const std::size_t p = std::size_t(run) * n + k;
    top = max(top, raw_class(sampler_value(m.spec[s], a.aux[p], a.w[p])));
  }
  for (int o = 16; o > 0; o >>= 1) top = max(top, __shfl_xor_sync(0xffffffffu, top, o));
  if ((threadIdx.x & 31) == 0) atomicMax(&a.largest[blockIdx.x], top);
  if (blockIdx.y == 0 && threadIdx.x == 0) a.total[blockIdx.x] = 0;
}

// Second pass: the window's base, each particle's leaf (its class in units) and the total (integer
// sums, a warp's at a time: any order gives the same total).
__global__ void leaves_kernel(SteppedArrays a, int n, Majorant m, bool every_run) {
  const int run = blockIdx.x / m.n_samplers, s = blockIdx.x % m.n_samplers;
  if (!rebuilds(a, run, every_run)) return;
  const int base = window_base(a.largest[blockIdx.x]);
  if (blockIdx.y == 0 && threadIdx.x == 0) a.base[blockIdx.x] = base;
  unsigned long long units_sum = 0;
  for (std::int64_t k = std::int64_t(blockIdx.y) * kRebuildBlock + threadIdx.x; k < n; k += std::int64_t(gridDim.y) * kRebuildBlock) {
    const std::size_t p = std::size_t(run) * n + k;
    const std::uint64_t units = class_units(base, window_class(sampler_value(m.spec[s], a.aux[p], a.w[p]), base));
    a.tree[std::size_t(blockIdx.x) * (n + 1) + k + 1] = units;
    units_sum += units;
  }
  for (int o = 16; o > 0; o >>= 1) units_sum += __shfl_xor_sync(0xffffffffu, units_sum, o);
  if ((threadIdx.x & 31) == 0 && units_sum) atomicAdd(reinterpret_cast<unsigned long long*>(&a.total[blockIdx.x]), units_sum);
}

// Level L of the linear build: node i = 2^L (2q + 1) adds its children i - 2^l, l < L (built before).
__global__ void level_kernel(SteppedArrays a, int n, Majorant m, bool every_run, int level) {
  const int run = blockIdx.x / m.n_samplers;
  if (!rebuilds(a, run, every_run)) return;
  std::uint64_t* t = a.tree + std::size_t(blockIdx.x) * (n + 1);
  for (std::int64_t q = std::int64_t(blockIdx.y) * kRebuildBlock + threadIdx.x;; q += std::int64_t(gridDim.y) * kRebuildBlock) {
    const std::int64_t i = (2 * q + 1) << level;
    if (i > n) return;
    std::uint64_t sum = t[i];
    for (int l = 0; l < level; ++l) sum += t[i - (std::int64_t(1) << l)];
    t[i] = sum;
  }
}

// The steps of run blockIdx.x until its target, max_events, or a value above a window (the host
// rebuilds its trees between launches). Thread s makes trial s of each step; the kernel kind (so the
// majorant's terms) is a compile-time constant.
template <KernelKind kKind>
__global__ void __launch_bounds__(kBlockStepTrials) stepped_kernel(SteppedArrays a, int n, int K, double box_volume, KernelParams kp,
                                                                   unsigned long long seed, int first_run, unsigned long long max_events) {
  constexpr Majorant kTerms = majorant_terms(kKind);
  Majorant m = kTerms;
  m.scale = majorant_scale(kp);
  constexpr int S = kTerms.n_samplers;
  const int run = blockIdx.x, s = threadIdx.x, lane = s & 31, warp = s >> 5;
  __shared__ int base[kMaxSamplers];
  __shared__ int pair_i[kBlockStepTrials], pair_j[kBlockStepTrials], accepted_slots[kBlockStepTrials];
  __shared__ int warp_accepted[kBlockStepTrials / 32];
  __shared__ int stop_at, rebuild;
  if (s < S) base[s] = a.base[std::size_t(run) * S + s];
  if (s == 0) rebuild = 0;
  __syncthreads();
  const ParticleTrees trees{a.tree + std::size_t(run) * S * (n + 1), a.total + std::size_t(run) * S, base, n};
  const std::size_t first = std::size_t(run) * n;
  ParticleAux* aux = a.aux + first;
  double* v = a.v + first;
  double* w = a.w + first;
  const PhiloxStream rng = run_stream(seed, first_run + run);
  const double t_target = a.t_target[run];
  double t = a.t[run];
  unsigned long long event = a.events[run], done = a.done[run];
  int flag = kKeepGoing;
  while (done < max_events && flag == kKeepGoing) {
    const TermTotals totals = term_totals(m, trees);
    const double dt = trial_time(m, totals, box_volume);
    bool reached = false;
    for (std::uint64_t group = 0;; group += K) {
      if (group >= kMaxGroupTrials) {
        flag = kFailed;
        break;
      }
      const SlotTrial st = s < K ? slot_trial(rng, event, group, s, t, dt, t_target, m, trees, totals, aux, w, kp) : SlotTrial{};
      pair_i[s] = st.trial.i, pair_j[s] = st.trial.j;
      const unsigned mask = __ballot_sync(0xffffffffu, st.accepted);
      if (lane == 0) warp_accepted[warp] = __popc(mask);
      const int limit = __syncthreads_count(st.valid);  // the valid trials are a prefix
      int before = 0, count = 0;
      for (int q = 0; q < int(blockDim.x >> 5); ++q) {
        before += q < warp ? warp_accepted[q] : 0;
        count += warp_accepted[q];
      }
      if (st.accepted) accepted_slots[before + __popc(mask & ((1u << lane) - 1))] = s;
      if (s == 0) stop_at = limit;
      __syncthreads();
      if (st.valid)
        for (int q = 0; q < count; ++q) {
          const int r = accepted_slots[q];
          if (r >= s) break;
          if (shares_a_particle(pair_i[r], pair_j[r], st.trial.i, st.trial.j)) {
            atomicMin(&stop_at, s);
            break;
          }
        }
      __syncthreads();
      const int stop = stop_at;
      const bool kept = st.accepted && s < stop;
      const int n_kept = __syncthreads_count(kept);
      if (n_kept == 0) {
        if (limit < K) {  // the target comes before the next event
          reached = true;
          break;
        }
        continue;
      }
      std::uint64_t total_delta[kMaxSamplers] = {};
      if (kept && !apply_kept<S>(st, m, trees, kp, v, w, aux, total_delta)) rebuild = 1;
      add_warp_totals<S>(trees, total_delta);
      t += double(group + stop) * dt;
      event += unsigned(n_kept);
      done += unsigned(n_kept);
      __syncthreads();  // the new particles and trees are seen by the next step's trials
      if (rebuild) flag = kRebuild;
      break;
    }
    if (reached) break;
  }
  if (s == 0) {
    a.t[run] = t;
    a.events[run] = event;
    a.done[run] = done;
    a.flag[run] = flag;
  }
}

void rebuild(const SteppedArrays& a, int n_runs, int n, const Majorant& m, bool every_run) {
  const int rows = n_runs * m.n_samplers;
  const dim3 grid(unsigned(rows), unsigned(std::min<std::int64_t>(ceil_div(std::int64_t(n), std::int64_t(kRebuildBlock)), kRebuildRows)));
  KS_CUDA_CHECK(cudaMemset(a.largest, 0, sizeof(int) * std::size_t(rows)));  // only the rebuilt rows are read
  largest_kernel<<<grid, kRebuildBlock>>>(a, n, m, every_run);
  KS_CUDA_CHECK_LAUNCH();
  leaves_kernel<<<grid, kRebuildBlock>>>(a, n, m, every_run);
  KS_CUDA_CHECK_LAUNCH();
  for (int level = 1; (std::int64_t(1) << level) <= n; ++level) {
    const std::int64_t nodes = ((std::int64_t(n) >> level) + 1) / 2;
    const std::int64_t grid_rows = std::min(ceil_div(nodes, std::int64_t(kRebuildBlock)), kRebuildRows);
    level_kernel<<<dim3(unsigned(rows), unsigned(grid_rows)), kRebuildBlock>>>(a, n, m, every_run, level);
    KS_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace

void SteppedBuffers::resize(int n_runs, int n_s, int samplers) {
  const std::size_t rows = std::size_t(n_runs) * samplers;
  tree.resize(rows * (std::size_t(n_s) + 1));
  total.resize(rows);
  base.resize(rows);
  largest.resize(rows);
  flag.resize(std::size_t(n_runs));
  touched.release();  // allocated for n_s at the next grid-wide launch
  stale = true;
}

std::uint64_t launch_stepped(const SteppedArrays& a, SteppedBuffers& b, int n_runs, const EnsembleConfig& cfg, std::uint64_t max_events,
                             bool& all_reached) {
  const Majorant m = majorant_of(cfg.kernel);
  if (b.stale) {
    rebuild(a, n_runs, cfg.n_s, m, true);
    b.stale = false;
  }
  if (cfg.step_trials > kBlockStepTrials)
    return launch_until_settled(
        n_runs, b.flag, a.events, a.done, max_events, all_reached,
        [&] {
          for (int run = 0; run < n_runs; ++run) launch_grid_steps(a, b, run, cfg, max_events);
        },
        [&] { rebuild(a, n_runs, cfg.n_s, m, false); }, no_step_trial_message);
  const unsigned threads = unsigned(ceil_div(cfg.step_trials, 32) * 32);
  const auto kernel = cfg.kernel.kind == KernelKind::FreeMolecular ? stepped_kernel<KernelKind::FreeMolecular>
                      : cfg.kernel.kind == KernelKind::Constant    ? stepped_kernel<KernelKind::Constant>
                      : cfg.kernel.kind == KernelKind::Additive    ? stepped_kernel<KernelKind::Additive>
                                                                   : stepped_kernel<KernelKind::Continuum>;
  return launch_until_settled(
      n_runs, b.flag, a.events, a.done, max_events, all_reached,
      [&] {
        kernel<<<n_runs, threads>>>(a, cfg.n_s, cfg.step_trials, cfg.box_volume, cfg.kernel, static_cast<unsigned long long>(cfg.seed),
                                    cfg.first_run, static_cast<unsigned long long>(max_events));
      },
      [&] { rebuild(a, n_runs, cfg.n_s, m, false); }, no_step_trial_message);
}

}  // namespace ks::coag::gpu
