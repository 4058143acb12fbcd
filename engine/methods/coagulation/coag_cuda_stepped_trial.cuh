// What a thread of either stepped kernel does for its slot of a step (coag_stepped.hpp): the trial
// against the particles as the step found them, and a kept trial's event. The block kernel (one block
// a run, coag_cuda_stepped_loop.cu) and the grid kernel (one run over several blocks,
// coag_cuda_stepped_grid.cu) differ only in how they find the step's stop.
#pragma once

#include <cstdint>

#include "coag_stepped.hpp"

namespace ks::coag::gpu {

// A slot's trial: valid when its time comes before the target (the valid slots are a prefix: times
// grow with the slot), with the pair's values as the step found them.
struct SlotTrial {
  Trial trial{-1, -1, 0.0};
  bool valid = false, accepted = false;
  ParticleAux ai{}, aj{};
  double wi = 0.0, wj = 0.0;
};

__device__ inline bool slot_is_valid(double t, std::uint64_t group, int slot, double dt, double t_target) {
  return t + double(group + std::uint64_t(slot) + 1) * dt <= t_target;
}

__device__ inline SlotTrial slot_trial(const PhiloxStream& rng, std::uint64_t event, std::uint64_t group, int slot, double t, double dt,
                                       double t_target, const Majorant& m, const ParticleTrees& trees, const TermTotals& totals,
                                       const ParticleAux* aux, const double* w, const KernelParams& kp) {
  SlotTrial st;
  st.valid = slot_is_valid(t, group, slot, dt, t_target);
  if (!st.valid) return st;
  st.trial = draw_step_trial(rng, event, std::uint32_t(group + std::uint64_t(slot)), m, trees, totals);
  st.ai = aux[st.trial.i], st.aj = aux[st.trial.j];
  st.wi = w[st.trial.i], st.wj = w[st.trial.j];
  st.accepted = trial_accepted(st.trial, m, trees, st.ai, st.wi, st.aj, st.wj, kp);
  return st;
}

// A kept trial's event: coalesces its pair and adds the particles' changes to the trees (atomics), its
// share of every sampler's total in total_delta; false when a new value left its window (the trees are
// then rebuilt and the changes unused). S: the majorant's samplers, a compile-time constant.
template <int S>
__device__ bool apply_kept(const SlotTrial& st, const Majorant& m, const ParticleTrees& trees, const KernelParams& kp, double* v, double* w,
                           ParticleAux* aux, std::uint64_t (&total_delta)[kMaxSamplers]) {
  const auto add = [](std::uint64_t& to, std::uint64_t delta) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&to), static_cast<unsigned long long>(delta));
  };
  const int i = st.trial.i, j = st.trial.j;
  std::uint64_t change_i[kMaxSamplers], change_j[kMaxSamplers];
  if (!coalesce_kept(m, trees, kp, i, j, st.ai, st.wi, st.aj, st.wj, v, w, aux, change_i, change_j)) return false;
#pragma unroll
  for (int k = 0; k < S; ++k) {  // a class often stays: no atomics for it
    if (change_i[k] != 0) trees.add(k, i, change_i[k], add);
    if (change_j[k] != 0) trees.add(k, j, change_j[k], add);
    total_delta[k] = change_i[k] + change_j[k];
  }
  return true;
}

// Every sampler's total changed by the warp's kept trials: one atomic a warp and sampler (sums modulo
// 2^64, so any order gives the same totals). Every lane of the warp calls it.
template <int S>
__device__ void add_warp_totals(const ParticleTrees& trees, const std::uint64_t (&total_delta)[kMaxSamplers]) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int k = 0; k < S; ++k) {
    std::uint64_t sum = total_delta[k];
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    if (lane == 0 && sum != 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(&trees.total_units[k]), static_cast<unsigned long long>(sum));
  }
}

}  // namespace ks::coag::gpu
