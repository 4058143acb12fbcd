// The GPU event loop with selection against a majorant kernel (coag_majorant.hpp) and the samplers'
// rebuild. An event: every lane of the run's warp makes one trial of the round (two Philox draws, a
// class search in shared memory, two reads of order and the particles); the first accepted lane's
// pair is coalesced; lane s moves both particles in sampler s and updates its tree of class bounds. O(1) work an event and no barrier
// beyond the warp. The CPU makes the same trials and picks (coag_majorant_cpu.cpp).
#include "coag_cuda_majorant.cuh"

#include "coag_cuda_launches.cuh"
#include "coag_majorant.hpp"
#include "core/cuda_check.hpp"
#include "core/errors.hpp"

namespace ks::coag::gpu {

namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kRebuildBlock = 1024;

__device__ ParticleAux shfl(const ParticleAux& a, int from) {
  return {__shfl_sync(kFullMask, a.v, from), __shfl_sync(kFullMask, a.d, from), __shfl_sync(kFullMask, a.a, from),
          __shfl_sync(kFullMask, a.c, from), __shfl_sync(kFullMask, a.g, from)};
}

// Rebuild of sampler blockIdx.y of run blockIdx.x (every run, or those flagged kRebuild): the window
// from the largest value, the class counts, then a stable scatter chunk by chunk (within a chunk,
// warp by warp and lane by lane: index order), the same arrays as rebuild_samplers() on the host.
__global__ void __launch_bounds__(kRebuildBlock) rebuild_kernel(MajorantArrays a, int n, Majorant m, bool every_run) {
  const int run = blockIdx.x, s = blockIdx.y;
  if (!every_run && a.flag[run] != kRebuild) return;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::size_t first = std::size_t(run) * n, sampler = std::size_t(run) * m.n_samplers + s;
  const SamplerSpec spec = m.spec[s];
  auto raw = [&](int k) { return raw_class(sampler_value(spec, a.aux[first + k], a.w[first + k])); };

  __shared__ int largest[32], count[kClasses], next[kClasses], warp_count[32][kClasses];
  int top = 0;
  for (int k = threadIdx.x; k < n; k += kRebuildBlock) top = max(top, raw(k));
  for (int o = 16; o > 0; o >>= 1) top = max(top, __shfl_xor_sync(kFullMask, top, o));
  if (lane == 0) largest[warp] = top;
  for (int c = threadIdx.x; c < kClasses; c += kRebuildBlock) count[c] = 0;
  __syncthreads();
  top = 0;
  for (int q = 0; q < kRebuildBlock / 32; ++q) top = max(top, largest[q]);
  const int base = window_base(top);
  auto cls = [&](int k) { return max(raw(k) - base, 0); };
  for (int k = threadIdx.x; k < n; k += kRebuildBlock) atomicAdd(&count[cls(k)], 1);
  __syncthreads();
  int* start = a.start + sampler * (kClasses + 1);
  if (threadIdx.x == 0) {
    int at = 0;
    for (int c = 0; c < kClasses; ++c) {
      start[c] = next[c] = at;
      at += count[c];
    }
    start[kClasses] = at;
    a.base[sampler] = base;
  }
  int* order = a.order + sampler * n;
  int* slot = a.slot + sampler * n;
  for (int chunk = 0; chunk < n; chunk += kRebuildBlock) {
    for (int c = lane; c < kClasses; c += 32) warp_count[warp][c] = 0;
    const int k = chunk + int(threadIdx.x);
    const int c = k < n ? cls(k) : -1;
    const unsigned peers = __match_any_sync(kFullMask, c);
    const int rank = __popc(peers & ((1u << lane) - 1));
    __syncthreads();
    if (c >= 0 && rank == 0) warp_count[warp][c] = __popc(peers);
    __syncthreads();
    if (threadIdx.x < kClasses) {  // each class's place for every warp, in warp order
      int at = next[threadIdx.x];
      for (int q = 0; q < kRebuildBlock / 32; ++q) {
        const int here = warp_count[q][threadIdx.x];
        warp_count[q][threadIdx.x] = at;
        at += here;
      }
      next[threadIdx.x] = at;
    }
    __syncthreads();
    if (c >= 0) {
      const int at = warp_count[warp][c] + rank;
      order[at] = k;
      slot[k] = at;
    }
    __syncthreads();
  }
}

// The event loop: one warp a run (blockIdx.x), until the run's next event would pass its target,
// max_events are done, or its samplers need a rebuild (a value above a window, or refresh_every
// events), which the host does between launches.
// The kernel's majorant is a compile-time constant (its terms and samplers unrolled, no local memory).
template <KernelKind kKind>
__global__ void __launch_bounds__(32) majorant_kernel(MajorantArrays a, int n, double box_volume, KernelParams kp, unsigned long long seed,
                                                      int first_run, unsigned long long refresh_every, unsigned long long max_events) {
  constexpr Majorant kTerms = majorant_terms(kKind);
  Majorant m = kTerms;
  m.scale = majorant_scale(kp);
  constexpr int S = kTerms.n_samplers;
  const int run = blockIdx.x, lane = threadIdx.x;
  __shared__ int start[kMaxSamplers * (kClasses + 1)];
  __shared__ double tree[kMaxSamplers * (kTreeSize + 1)];
  __shared__ int base[kMaxSamplers];
  const std::size_t first = std::size_t(run) * n;
  for (int k = lane; k < S * (kClasses + 1); k += 32) start[k] = a.start[std::size_t(run) * S * (kClasses + 1) + k];
  if (lane < S) base[lane] = a.base[std::size_t(run) * S + lane];
  __syncwarp();
  const SamplerSet set{a.order + first * S, a.slot + first * S, start, tree, base, n};
  if (lane < S) set.build_tree(lane);
  __syncwarp();
  const ParticleAux* aux = a.aux + first;
  const double* w = a.w + first;
  const PhiloxStream rng = run_stream(seed, first_run + run);
  const double t_target = a.t_target[run];
  double t = a.t[run];
  unsigned long long event = a.events[run], since = a.since_refresh[run], done = a.done[run];
  int flag = kKeepGoing;
  while (done < max_events) {
    const TermTotals totals = term_totals(m, set);
    Trial trial;
    ParticleAux ai, aj;
    double wi, wj;
    unsigned hit = 0;
    int round = 0;
    for (; round < kMaxRounds; ++round) {
      trial = draw_trial(rng, event, round, lane, m, set, totals);
      ai = aux[trial.i], aj = aux[trial.j];
      wi = w[trial.i], wj = w[trial.j];
      hit = __ballot_sync(kFullMask, trial_accepted(trial, m, set, ai, wi, aj, wj, kp));
      if (hit) break;
    }
    if (!hit) {
      flag = kFailed;
      break;
    }
    const int from = __ffs(hit) - 1;
    const double t_new = t + double(round * kCandidatesPerRound + from + 1) * trial_time(m, totals, box_volume);
    if (!(t_new <= t_target)) break;
    const int i = __shfl_sync(kFullMask, trial.i, from), j = __shfl_sync(kFullMask, trial.j, from);
    const int place_i = lane < S ? set.place(lane, i) : 0, place_j = lane < S ? set.place(lane, j) : 0;  // read ahead
    ai = shfl(ai, from), aj = shfl(aj, from);
    wi = __shfl_sync(kFullMask, wi, from), wj = __shfl_sync(kFullMask, wj, from);
    double vi = ai.v, vj = aj.v, new_wi = wi, new_wj = wj;
    coalesce(vi, new_wi, vj, new_wj);
    const ParticleAux ni = make_aux(vi, kp), nj = make_aux(vj, kp);
    if (lane < 2) {
      const int k = lane == 0 ? i : j;
      a.v[first + k] = lane == 0 ? vi : vj;
      a.w[first + k] = lane == 0 ? new_wi : new_wj;
      a.aux[first + k] = lane == 0 ? ni : nj;
    }
    // Lane s: both particles' classes in sampler s before and after; moves unless a value left a window.
    int from_i = 0, to_i = 0, from_j = 0, to_j = 0;
    if (lane < S) {
      SamplerSpec spec = kTerms.spec[0];
#pragma unroll
      for (int q = 1; q < S; ++q)
        if (lane == q) spec = kTerms.spec[q];  // from constants, not an indexed copy
      from_i = set.class_of(lane, spec, Powers(ai), wi);
      to_i = set.class_of(lane, spec, Powers(ni), new_wi);
      from_j = set.class_of(lane, spec, Powers(aj), wj);
      to_j = set.class_of(lane, spec, Powers(nj), new_wj);
    }
    bool rebuild = __any_sync(kFullMask, to_i >= kClasses || to_j >= kClasses);
    if (!rebuild && lane < S) set.move_pair(lane, i, from_i, to_i, place_i, j, from_j, to_j, place_j);
    __syncwarp();  // the moves and the new particles are seen by every lane's next trial
    t = t_new;
    ++event;
    ++done;
    if (++since >= refresh_every) {
      since = 0;
      rebuild = true;
    }
    if (rebuild) {
      flag = kRebuild;
      break;
    }
  }
  for (int k = lane; k < S * (kClasses + 1); k += 32) a.start[std::size_t(run) * S * (kClasses + 1) + k] = start[k];
  if (lane == 0) {
    a.t[run] = t;
    a.events[run] = event;
    a.since_refresh[run] = since;
    a.done[run] = done;
    a.flag[run] = flag;
  }
}

}  // namespace

void MajorantBuffers::resize(int n_runs, int n_s, int samplers) {
  const std::size_t per_run = std::size_t(samplers);
  order.resize(std::size_t(n_runs) * per_run * n_s);
  slot.resize(std::size_t(n_runs) * per_run * n_s);
  start.resize(std::size_t(n_runs) * per_run * (kClasses + 1));
  base.resize(std::size_t(n_runs) * per_run);
  flag.resize(std::size_t(n_runs));
  stale = true;
}

std::uint64_t launch_majorant(const MajorantArrays& a, MajorantBuffers& b, int n_runs, const EnsembleConfig& cfg, std::uint64_t max_events,
                              bool& all_reached) {
  const Majorant m = majorant_of(cfg.kernel);
  const dim3 rebuild_grid(unsigned(n_runs), unsigned(m.n_samplers));
  if (b.stale) {
    rebuild_kernel<<<rebuild_grid, kRebuildBlock>>>(a, cfg.n_s, m, true);
    KS_CUDA_CHECK_LAUNCH();
    b.stale = false;
  }
  const auto kernel = cfg.kernel.kind == KernelKind::FreeMolecular ? majorant_kernel<KernelKind::FreeMolecular>
                      : cfg.kernel.kind == KernelKind::Constant    ? majorant_kernel<KernelKind::Constant>
                      : cfg.kernel.kind == KernelKind::Additive    ? majorant_kernel<KernelKind::Additive>
                                                                   : majorant_kernel<KernelKind::Continuum>;
  return launch_until_settled(
      n_runs, b.flag, a.events, a.done, max_events, all_reached,
      [&] {
        kernel<<<n_runs, 32>>>(a, cfg.n_s, cfg.box_volume, cfg.kernel, static_cast<unsigned long long>(cfg.seed), cfg.first_run,
                               static_cast<unsigned long long>(cfg.refresh_every), static_cast<unsigned long long>(max_events));
      },
      [&] {
        rebuild_kernel<<<rebuild_grid, kRebuildBlock>>>(a, cfg.n_s, m, false);
        KS_CUDA_CHECK_LAUNCH();
      },
      no_trial_message);
}

}  // namespace ks::coag::gpu
