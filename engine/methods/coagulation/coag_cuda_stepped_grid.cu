// One run's steps across several thread blocks (K above kBlockStepTrials, coag_stepped.hpp): slot q of
// a step is thread q of the grid. A step has three phases between grid-wide barriers:
//   1. every slot makes its trial; an accepted one marks its two particles with the step and its slot
//      (atomicMax keeps the earliest slot), the first slot past the target and the first accepted slot
//      are noted;
//   2. a valid trial whose particle an earlier accepted slot marked lowers the step's stop;
//   3. the accepted trials before the stop coalesce their pairs (disjoint: no other kept trial touches
//      them) and add their changes to the trees.
// The stop is the block kernel's (the first trial touching a particle an earlier accepted trial took),
// so both kernels and the CPU make the same events for the same K.
#include <cooperative_groups.h>

#include <string>

#include "coag_cuda_stepped.cuh"
#include "coag_cuda_stepped_trial.cuh"
#include "coag_cuda_launches.cuh"
#include "core/ceil_div.hpp"
#include "core/cuda_check.hpp"
#include "core/errors.hpp"

namespace ks::coag::gpu {

namespace {

namespace cg = cooperative_groups;

// A particle's mark: the step in the high bits, kSlotMask - slot in the low ones, so that atomicMax keeps
// the latest step's earliest accepted slot.
constexpr int kSlotBits = 20;
constexpr unsigned long long kSlotMask = (1ull << kSlotBits) - 1;
static_assert(kMaxStepTrials <= int(kSlotMask));

__device__ unsigned long long mark(unsigned long long step, int slot) { return step << kSlotBits | (kSlotMask - unsigned(slot)); }
// Whether an accepted slot before `slot` of this step took the particle marked `m`.
__device__ bool taken_before(unsigned long long m, unsigned long long step, int slot) {
  return (m >> kSlotBits) == step && int(kSlotMask - (m & kSlotMask)) < slot;
}

template <KernelKind kKind>
__global__ void __launch_bounds__(kBlockStepTrials)
    stepped_grid_kernel(SteppedArrays a, GridSteps g, int run, int n, int K, double box_volume, KernelParams kp, unsigned long long seed,
                        int first_run, unsigned long long max_events) {
  const cg::grid_group grid = cg::this_grid();
  constexpr Majorant kTerms = majorant_terms(kKind);
  Majorant m = kTerms;
  m.scale = majorant_scale(kp);
  constexpr int S = kTerms.n_samplers;
  const int slot = int(blockIdx.x * blockDim.x + threadIdx.x);
  __shared__ int base[kMaxSamplers];
  if (threadIdx.x < S) base[threadIdx.x] = a.base[std::size_t(run) * S + threadIdx.x];
  __syncthreads();
  const ParticleTrees trees{a.tree + std::size_t(run) * S * (n + 1), a.total + std::size_t(run) * S, base, n};
  const std::size_t first = std::size_t(run) * n;
  ParticleAux* aux = a.aux + first;
  double* v = a.v + first;
  double* w = a.w + first;
  const PhiloxStream rng = run_stream(seed, first_run + run);
  const double t_target = a.t_target[run];
  GridStepCounts& c = *g.counts;
  double t = a.t[run];
  unsigned long long event = a.events[run], done = a.done[run], step = *g.clock;
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
      const int p = int(++step & 1);
      const SlotTrial st = slot < K ? slot_trial(rng, event, group, slot, t, dt, t_target, m, trees, totals, aux, w, kp) : SlotTrial{};
      if (slot < K && !st.valid && (slot == 0 || slot_is_valid(t, group, slot - 1, dt, t_target))) atomicMin(&c.stop[p], slot);
      if (st.accepted) {
        atomicMin(&c.first_accepted[p], slot);
        atomicMax(&g.touched[st.trial.i], mark(step, slot));
        atomicMax(&g.touched[st.trial.j], mark(step, slot));
      }
      grid.sync();
      if (slot == 0) c.stop[p ^ 1] = K, c.first_accepted[p ^ 1] = K, c.kept[p ^ 1] = 0;  // the last step's: read before the barrier
      if (st.valid &&
          (taken_before(__ldcg(&g.touched[st.trial.i]), step, slot) || taken_before(__ldcg(&g.touched[st.trial.j]), step, slot)))
        atomicMin(&c.stop[p], slot);
      grid.sync();
      const int stop = __ldcg(&c.stop[p]);
      if (__ldcg(&c.first_accepted[p]) >= stop) {             // nothing kept
        if (!slot_is_valid(t, group, K - 1, dt, t_target)) {  // the target comes before the next event
          reached = true;
          break;
        }
        continue;
      }
      const bool kept = st.accepted && slot < stop;
      std::uint64_t total_delta[kMaxSamplers] = {};
      if (kept && !apply_kept<S>(st, m, trees, kp, v, w, aux, total_delta)) c.rebuild = 1;
      add_warp_totals<S>(trees, total_delta);
      const int block_kept = __syncthreads_count(kept);
      if (threadIdx.x == 0 && block_kept) atomicAdd(&c.kept[p], block_kept);
      grid.sync();  // the new particles and trees are seen by the next step's trials
      const unsigned long long n_kept = unsigned(__ldcg(&c.kept[p]));
      t += double(group + std::uint64_t(stop)) * dt;
      event += n_kept;
      done += n_kept;
      if (__ldcg(&c.rebuild)) flag = kRebuild;
      break;
    }
    if (reached) break;
  }
  if (slot == 0) {
    a.t[run] = t;
    a.events[run] = event;
    a.done[run] = done;
    a.flag[run] = flag;
    *g.clock = step;
  }
}

using GridKernel = void (*)(SteppedArrays, GridSteps, int, int, int, double, KernelParams, unsigned long long, int, unsigned long long);

GridKernel grid_kernel(KernelKind kind) {
  return kind == KernelKind::FreeMolecular ? stepped_grid_kernel<KernelKind::FreeMolecular>
         : kind == KernelKind::Constant    ? stepped_grid_kernel<KernelKind::Constant>
         : kind == KernelKind::Additive    ? stepped_grid_kernel<KernelKind::Additive>
                                           : stepped_grid_kernel<KernelKind::Continuum>;
}

}  // namespace

void launch_grid_steps(const SteppedArrays& a, SteppedBuffers& b, int run, const EnsembleConfig& cfg, std::uint64_t max_events) {
  const int K = cfg.step_trials;
  const int blocks = ceil_div(K, kBlockStepTrials);
  const int threads = ceil_div(ceil_div(K, blocks), 32) * 32;
  const GridKernel kernel = grid_kernel(cfg.kernel.kind);
  int device = 0, sms = 0, per_sm = 0;
  KS_CUDA_CHECK(cudaGetDevice(&device));
  KS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  KS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  if (blocks > sms * per_sm)
    throw bad_input("step_fraction",
                    std::to_string(K) + " trials a step (step_fraction n_s) need " + std::to_string(blocks) +
                        " thread blocks at once, and this GPU holds " + std::to_string(sms * per_sm),
                    "a step_fraction of at most " + std::to_string(double(sms * per_sm) * kBlockStepTrials / cfg.n_s) + " for n_s " +
                        std::to_string(cfg.n_s) + " on this GPU");
  if (b.touched.count != std::size_t(cfg.n_s)) {  // the marks and the clock start together
    b.touched.resize(std::size_t(cfg.n_s));
    KS_CUDA_CHECK(cudaMemset(b.touched.ptr, 0, sizeof(unsigned long long) * b.touched.count));
    b.clock.resize(1);
    KS_CUDA_CHECK(cudaMemset(b.clock.ptr, 0, sizeof(unsigned long long)));
    b.counts.resize(1);
  }
  const GridStepCounts start{{K, K}, {K, K}, {0, 0}, 0};
  b.counts.upload(&start, 1);
  const GridSteps g{b.touched.ptr, b.clock.ptr, b.counts.ptr};
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(blocks));
  config.blockDim = dim3(unsigned(threads));
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  config.attrs = &cooperative;
  config.numAttrs = 1;
  KS_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, a, g, run, cfg.n_s, K, cfg.box_volume, cfg.kernel,
                                   static_cast<unsigned long long>(cfg.seed), cfg.first_run, static_cast<unsigned long long>(max_events)));
}

}  // namespace ks::coag::gpu
